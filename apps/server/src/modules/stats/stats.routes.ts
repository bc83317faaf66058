import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { XLSX_TYPE } from '../engine/export.service';
import * as svc from './stats.service';

const ANY = ['M', 'D', 'U'];

const callerOf = (auth: AuthContext): svc.StatsCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

/**
 * 统计分析 (issue 19): every call is open to every signed-in role and scoped by the service — administrators and
 * developers see all, an enterprise user its own enterprise's numbers; the overdue limit is saved by administrators.
 */
export function statsRoutes(app: FastifyInstance, deps: svc.StatsDeps) {
  svc.registerStatsHooks();
  route(app, api.statsTransactions, ({ auth, query }) => svc.transactions(deps, callerOf(auth), query), { roles: ANY });
  route(app, api.statsTransactionList, ({ auth, query }) => svc.transactionList(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.statsCompleteCount, ({ auth, query }) => svc.completeCount(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.statsCompleteList, ({ auth, query }) => svc.completeList(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.statsProgress, ({ auth, query }) => svc.progress(deps, callerOf(auth), query), { roles: ANY });
  route(app, api.statsProgressList, ({ auth, query }) => svc.progressList(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.statsSettings, () => svc.settingsOf(deps), { roles: ANY });
  route(app, api.statsSettingsSave, ({ auth, body }) => svc.saveSettings(deps, callerOf(auth), body), {
    roles: ['M'],
    message: '保存成功',
  });
  route(app, api.todoStatsList, ({ auth, query }) => svc.todoList(deps, callerOf(auth), query), { roles: ANY });
  route(app, api.todoStatsRegion, ({ auth, query }) => svc.todoRegion(deps, callerOf(auth), query), { roles: ANY });
  route(app, api.todoStatsEnterprise, ({ auth, query }) => svc.todoEnterprise(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.todoStatsRecords, ({ auth, query }) => svc.todoRecords(deps, callerOf(auth), query), {
    roles: ANY,
  });
  route(app, api.participateEntList, ({ auth, query }) => svc.participateList(deps, callerOf(auth), query), {
    roles: ANY,
  });
  // the export answers the file, not the envelope (errors before the first byte still do)
  app.route({
    method: api.exportParticipateList.method,
    url: api.exportParticipateList.path,
    config: { public: false },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      const body = parse(api.exportParticipateList.body, req.body ?? {});
      const file = await svc.exportParticipate(deps, callerOf(req.auth), body);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  });
}
