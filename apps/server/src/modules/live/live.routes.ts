import { LIVE_STREAM_PATH } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { unauthorized } from '../../platform/errors';
import { roleCodesOf } from '../../platform/permissions';
import type { LiveHub } from './hub';

/** `GET /ks/live/v1/stream`: the signed-in tab's event stream (the /ks auth hook has checked the session). */
export function liveRoutes(app: FastifyInstance, db: Db, hub: LiveHub) {
  app.get(LIVE_STREAM_PATH, { config: { rateLimit: false } }, async (req, reply) => {
    // the /ks hook answered 401 already when there is no live session
    if (!req.auth) throw unauthorized();
    const { user, sessionId } = req.auth;
    const roles = await roleCodesOf(db, { id: user.id, loginRoleType: user.loginRoleType });
    const raw = req.headers['last-event-id'];
    const text = Array.isArray(raw) ? raw[0] : raw;
    const n = text !== undefined && /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : null;
    reply.hijack();
    await hub.open(
      {
        sessionId,
        userId: user.id,
        roles: new Set(roles),
        enterpriseId: user.enterpriseId ?? null,
        res: reply.raw,
      },
      n,
    );
  });
}
