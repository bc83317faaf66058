import { api, SmsMsg } from '@ks/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext, AuthService } from '../auth/auth.service';
import type { SmsService } from './sms.service';

/** The caller of a public route when it sends a token (a wrong token is a 401, not an anonymous call). */
export async function optionalCaller(auth: AuthService, req: FastifyRequest): Promise<AuthContext | null> {
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
  if (!token) return null;
  return auth.authenticate(token, req.ip);
}

/** Send a code, verify it for a proof, and the developers' outbox (issue 15). */
export function smsRoutes(app: FastifyInstance, deps: { sms: SmsService; auth: AuthService }) {
  const { sms, auth } = deps;
  route(
    app,
    api.sendSms,
    async ({ req, body }) => {
      const caller = await optionalCaller(auth, req);
      return sms.sendForCaller(
        caller ? { userId: caller.user.id, phone: caller.user.phone } : null,
        body.phone,
        body.purpose,
        req.ip,
      );
    },
    { message: SmsMsg.SENT, rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  route(app, api.smsPhoneVerify, async ({ body }) => sms.verifyCode(body.phone, body.purpose, body.code), {
    message: '验证成功',
    rateLimit: { max: 30, timeWindow: '1 minute' },
  });

  route(app, api.smsOutbox, async ({ query, reply }) => {
    const list = await sms.outbox(query.phone);
    if (!list) throw notFound(SmsMsg.OUTBOX_UNAVAILABLE);
    reply.header('cache-control', 'no-store');
    return list;
  });
}
