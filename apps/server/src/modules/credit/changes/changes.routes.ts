import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../db/client';
import { contentDisposition } from '../../../platform/content-disposition';
import { parse } from '../../../platform/errors';
import { route } from '../../../platform/route';
import { XLSX_TYPE } from '../../engine/export.service';
import { callerOf } from '../access';
import * as changes from './changes.service';
import { changeTemplate } from './template';

/**
 * Credit change rounds (/ks/rfc/*, spec §7 Credit change). Login role types are checked before the input is read;
 * ownership (404 for another enterprise's record), the enterprise's side and the reviewer's to-do in the service.
 * Registered in the business scope; the template download is public and registered apart.
 */
const ANY = ['M', 'D', 'U'];
const SIDE = ['U'];
const DECIDE = ['M', 'U'];

export function changeRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  route(app, api.rfcChangeRecords, async ({ auth, body }) => changes.changeRecords(db, callerOf(auth), body), {
    roles: ANY,
  });
  route(app, api.rfcChangeTypes, async ({ auth, body }) => changes.changeTypes(db, callerOf(auth), body), {
    roles: ANY,
  });
  route(app, api.rfcChangeFields, async ({ auth, body }) => changes.changeFields(db, callerOf(auth), body), {
    roles: ANY,
  });
  route(app, api.rfcSaveChangeData, async ({ auth, body }) => changes.saveChange(db, callerOf(auth), body, now()), {
    roles: SIDE,
    message: '保存成功',
  });
  route(app, api.rfcChangeSubmit, async ({ auth, body }) => changes.submitChange(db, callerOf(auth), body, now()), {
    roles: SIDE,
    message: '提交成功',
  });
  route(app, api.rfcChangeAudit, async ({ auth, body }) => changes.auditChange(db, callerOf(auth), body), {
    roles: DECIDE,
    message: '审核成功',
  });
  route(app, api.rfcContacts, async ({ auth, body }) => changes.contacts(db, callerOf(auth), body), { roles: ANY });
}

/** The change application form template: no sign-in (its contract says auth: false). */
export function changePublicRoutes(app: FastifyInstance) {
  app.route({
    method: api.rfcTemplate.method,
    url: api.rfcTemplate.path,
    config: { public: true },
    handler: async (req, reply) => {
      const q = parse(api.rfcTemplate.query, req.query);
      const file = await changeTemplate(q.gnCoding, q.changeTypeCode);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'public, max-age=3600')
        .send(file.buf);
    },
  });
}
