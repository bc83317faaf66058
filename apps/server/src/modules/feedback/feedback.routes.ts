import { api, FEEDBACK_MESSAGES } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import { XLSX_TYPE } from '../engine/export.service';
import { exportFeedback } from './export.service';
import { addFeedback, feedbackSummary, feedbackTexts } from './feedback.service';

/** Feedback (screen 24): anyone signed in submits; administrators read the results and export them. */
const ANY = ['M', 'D', 'U'];
const ADMIN = ['M'];

export function feedbackRoutes(app: FastifyInstance, db: Db, now: () => Date, tz: string) {
  route(app, api.feedbackAdd, async ({ auth, body }) => addFeedback(db, auth.user.id, body, now()), {
    roles: ANY,
    message: FEEDBACK_MESSAGES.thanks,
  });
  route(app, api.feedbackSummary, async ({ query }) => feedbackSummary(db, query, tz), { roles: ADMIN });
  route(app, api.feedbackTexts, async ({ query }) => feedbackTexts(db, query, tz), { roles: ADMIN });
  // the export answers a file, not the envelope (errors before the first byte still do)
  app.route({
    method: api.feedbackExport.method,
    url: api.feedbackExport.path,
    config: { public: false },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ADMIN.includes(req.auth.user.loginRoleType)) throw forbidden();
      const body = parse(api.feedbackExport.body, req.body);
      const file = await exportFeedback(db, req.auth.actor, body, tz, now());
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  });
}
