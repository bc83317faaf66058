import { api, DEX_MSG } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../platform/route';
import * as svc from './dex.service';

const ADMIN = ['M'];
const STAFF = ['M', 'D'];

/** 数据交换 (issue 19): 交易推送 for administrators and developers to read; only administrators re-send. */
export function dexRoutes(app: FastifyInstance, deps: svc.DexDeps) {
  route(app, api.dexPushList, async ({ body }) => svc.listPushes(deps, body), { roles: STAFF });
  route(app, api.dexPushDetail, async ({ body }) => svc.pushDetail(deps, body.id), { roles: STAFF });
  route(app, api.dexPushResend, async ({ auth, body }) => svc.resendPush(deps, auth.actor, body.id), {
    roles: ADMIN,
    message: DEX_MSG.resent,
  });
}
