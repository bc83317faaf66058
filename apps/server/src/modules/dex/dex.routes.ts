import { api, DEX_MSG } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../platform/route';
import * as pull from './dex.pull.service';
import * as svc from './dex.service';

const ADMIN = ['M'];
const STAFF = ['M', 'D'];

/**
 * 数据交换 (issue 19): 交易推送 and 监管审核 for administrators and developers to read; only administrators re-send a
 * push, start a sync or decide a pulled registration.
 */
export function dexRoutes(app: FastifyInstance, deps: svc.DexDeps, pullDeps: pull.DexPullDeps) {
  route(app, api.dexPushList, async ({ body }) => svc.listPushes(deps, body), { roles: STAFF });
  route(app, api.dexPushDetail, async ({ body }) => svc.pushDetail(deps, body.id), { roles: STAFF });
  route(app, api.dexPushResend, async ({ auth, body }) => svc.resendPush(deps, auth.actor, body.id), {
    roles: ADMIN,
    message: DEX_MSG.resent,
  });
  route(app, api.dexSyncList, async ({ auth, body }) => pull.listRegistrations(pullDeps, auth.user, body), {
    roles: STAFF,
  });
  route(app, api.dexSyncJob, async () => pull.syncState(pullDeps), { roles: STAFF });
  route(app, api.dexSync, async ({ auth, body }) => pull.startSync(pullDeps, auth.actor, body), {
    roles: ADMIN,
    message: DEX_MSG.syncStarted,
  });
  route(app, api.dexRegDetail, async ({ auth, body }) => pull.registrationDetail(pullDeps, auth.user, body.id), {
    roles: STAFF,
  });
  route(app, api.dexRegApprove, async ({ auth, body }) => pull.approveRegistration(pullDeps, auth.actor, body), {
    roles: ADMIN,
    message: DEX_MSG.approved,
  });
  route(app, api.dexRegReject, async ({ auth, body }) => pull.rejectRegistration(pullDeps, auth.actor, body), {
    roles: ADMIN,
    message: DEX_MSG.dismissed,
  });
}
