import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { requestMemo } from '../../platform/permissions';
import { route } from '../../platform/route';
import type { AuthContext, AuthService } from '../auth/auth.service';
import { optionalCaller } from '../sms/sms.routes';
import * as svc from './extraction.service';

/**
 * Expert extraction (issue 16, spec §2 /expertExtraction/extractList). Login role types are checked before the input
 * is read: changes are the extraction administrator's (M); reads are for M, D and U (a U caller needs the 抽取项目
 * node, checked in the service). The verification answers without a token (and knows its caller when one is sent).
 */
const ANY = ['M', 'D', 'U'];
const ADMIN = ['M'];

const callerOf = (auth: AuthContext): svc.ExpertsCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  memo: requestMemo(auth),
  actor: auth.actor,
});

export function expertsRoutes(app: FastifyInstance, deps: { db: Db; auth: AuthService; now: () => Date }) {
  const { db, now } = deps;
  route(app, api.extractionOptions, async ({ auth }) => svc.options(db, callerOf(auth)), { roles: ANY });
  route(app, api.extractionList, async ({ auth, body }) => svc.list(db, callerOf(auth), body), { roles: ANY });
  route(app, api.extractionDetail, async ({ auth, query }) => svc.detail(db, callerOf(auth), query.id, now()), {
    roles: ANY,
  });
  route(app, api.extractionCreate, async ({ auth, body }) => svc.create(db, callerOf(auth), body, now()), {
    roles: ADMIN,
    message: '抽取已创建',
  });
  route(
    app,
    api.extractionDelete,
    async ({ auth, body }) => {
      await svc.remove(db, callerOf(auth), body.id);
      return null;
    },
    { roles: ADMIN, message: '删除成功' },
  );
  route(app, api.extractionCommit, async ({ auth, body }) => svc.commit(db, callerOf(auth), body.id, now()), {
    roles: ADMIN,
    message: '种子承诺已提交',
  });
  route(app, api.extractionDraw, async ({ auth, body }) => svc.draw(db, callerOf(auth), body.id, now()), {
    roles: ADMIN,
    message: '抽取完成',
  });
  route(app, api.extractionAnswer, async ({ auth, body }) => svc.answer(db, callerOf(auth), body, now()), {
    roles: ADMIN,
    message: '答复已登记',
  });
  route(app, api.extractionFinalize, async ({ auth, body }) => svc.finalize(db, callerOf(auth), body.id, now()), {
    roles: ADMIN,
    message: '名单已确认',
  });
  route(app, api.extractionPublish, async ({ auth, body }) => svc.publish(db, callerOf(auth), body.id, now()), {
    roles: ADMIN,
    message: '名单已公开',
  });
  // a public call: a signed-in caller (the extraction administrator) sees the seed earlier; a stale token is anonymous
  route(app, api.extractionVerify, async ({ req, query }) => {
    const auth = await optionalCaller(deps.auth, req).catch(() => null);
    return svc.verify(db, auth ? callerOf(auth) : null, query.id, now());
  });
}
