import { api, TENDER_FILE_MESSAGES as M } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import type { EngineCaller } from '../engine/record-access';
import { projectFiles, sectionAttachments } from './attachments.service';
import * as clarify from './clarify.service';
import * as docs from './files.service';

const callerOf = (auth: AuthContext): EngineCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

const ANY = ['M', 'D', 'U'];
const WRITERS = ['M', 'U'];

/**
 * The 招标文件 tab (issue 16): documents (`/ks/trade/file/*`) and clarifications (`/ks/clarify/file/*`), in the business
 * scope (418 gate). Login role types are checked here before the input is read; the side, registration, the sale and
 * the deadline are the services'.
 */
export function tenderFilesRoutes(app: FastifyInstance, deps: docs.TenderFilesDeps) {
  const me = callerOf;
  route(app, api.tenderProjectFiles, async ({ auth, query }) => projectFiles(deps.db, me(auth), query.projectId), {
    roles: ANY,
  });
  route(
    app,
    api.tenderSectionAttachments,
    async ({ auth, query }) => sectionAttachments(deps.db, me(auth), query.sectionId),
    { roles: ANY },
  );
  route(app, api.tenderFiles, async ({ auth, body }) => docs.sectionDocuments(deps, me(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.tenderFileSave, async ({ auth, body }) => docs.saveDocument(deps, me(auth), body), {
    roles: WRITERS,
    message: M.saved,
  });
  route(
    app,
    api.tenderFileDelete,
    async ({ auth, body }) => {
      await docs.deleteDocument(deps, me(auth), body.id);
      return null;
    },
    { roles: WRITERS, message: M.deleted },
  );
  route(
    app,
    api.tenderFileDownloadStatus,
    async ({ auth, body }) => docs.downloadStatus(deps, me(auth), body.sectionId),
    { roles: ANY },
  );
  route(app, api.tenderFileRecords, async ({ auth, body }) => docs.downloadRecords(deps, me(auth), body), {
    roles: ['M'],
  });
  // the download itself: streamed, recorded in this request
  app.route({
    method: api.tenderFileDownload.method,
    url: api.tenderFileDownload.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      const { id } = parse(api.tenderFileDownload.query, req.query);
      const f = await docs.openDownload(deps, me(req.auth), id, req.ip ?? null);
      reply.header('Content-Disposition', contentDisposition(f.fileName, false));
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'private, no-store');
      reply.header('Content-Length', f.fileSize);
      reply.type('application/octet-stream');
      return reply.send(f.body);
    },
  });

  route(app, api.clarifyList, async ({ auth, body }) => clarify.sectionClarifications(deps, me(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.clarifySave, async ({ auth, body }) => clarify.saveClarification(deps, me(auth), body), {
    roles: WRITERS,
    message: M.saved,
  });
  route(app, api.clarifySubmit, async ({ auth, body }) => clarify.submitClarification(deps, me(auth), body), {
    roles: WRITERS,
    message: M.submitted,
  });
  route(app, api.clarifyRevoke, async ({ auth, body }) => clarify.revokeClarification(deps, me(auth), body), {
    roles: WRITERS,
    message: M.revoked,
  });
  route(app, api.clarifyAudit, async ({ auth, body }) => clarify.auditClarification(deps, me(auth), body), {
    roles: ['M'],
    message: M.audited,
  });
  route(app, api.clarifySend, async ({ auth, body }) => clarify.sendClarification(deps, me(auth), body), {
    roles: WRITERS,
    message: M.sent,
  });
  route(
    app,
    api.clarifyDelete,
    async ({ auth, body }) => {
      await clarify.deleteClarification(deps, me(auth), body);
      return null;
    },
    { roles: WRITERS, message: M.deleted },
  );
}
