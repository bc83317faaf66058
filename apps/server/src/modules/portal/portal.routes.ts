import { api, PORTAL_NOTICE_NODE } from '@ks/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireFunction, requireGranted } from '../../platform/permissions';
import { route } from '../../platform/route';
import { enterpriseTypes, practiceAreas } from './market.repo';
import * as market from './market.service';
import * as notices from './notices.service';
import { platformInfo } from './portal.service';

/** Public data: the browser revalidates every time and gets 304 while the ETag matches. */
const revalidate = (reply: FastifyReply) => reply.header('cache-control', 'no-cache');

/**
 * Administration of notices is governed by the functions of the PORTAL_NOTICE node: administrators hold them all,
 * anyone else only what was granted to them (checked before the body is read).
 */
const callerOf = (auth: { user: { id: string; loginRoleType: string } }) => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
});

export function portalRoutes(
  app: FastifyInstance,
  db: Db,
  config: Config,
  version: string,
  now: () => Date = () => new Date(),
) {
  route(app, api.platform, async ({ reply }) => {
    revalidate(reply);
    return platformInfo(db, config, version);
  });
  route(app, api.portalConfig, async ({ reply }) => {
    revalidate(reply);
    return { loginMode: config.loginMode, bidHallUrl: config.bidHallUrl, timeZone: config.timeZone };
  });
  route(app, api.homeOverview, async ({ reply }) => {
    revalidate(reply);
    return notices.homeOverview(db);
  });
  route(app, api.noticeList, async ({ reply, query }) => {
    revalidate(reply);
    return notices.listNotices(db, query);
  });
  route(app, api.noticeDetail, async ({ reply, query }) => {
    revalidate(reply);
    return notices.publishedNotice(db, query.id);
  });
  route(app, api.enterpriseTypes, async ({ reply }) => {
    revalidate(reply);
    return market.optionsOf(enterpriseTypes(db));
  });
  route(app, api.practiceAreas, async ({ reply }) => {
    revalidate(reply);
    return market.optionsOf(practiceAreas(db));
  });
  route(app, api.marketList, async ({ reply, query }) => {
    revalidate(reply);
    return market.listMarket(db, query);
  });
  route(app, api.marketDetail, async ({ reply, query }) => {
    revalidate(reply);
    return market.marketDetail(db, query.kind, query.id, now());
  });

  // Administration of notices (drafts and withdrawn notices are not public): administrators, and whoever an
  // administrator granted the node to — not developers by their view of every menu.
  const see = {
    guard: (auth: Parameters<typeof callerOf>[0]) => requireGranted(db, callerOf(auth), PORTAL_NOTICE_NODE),
  };
  const fn = (code: string) => ({
    guard: (auth: Parameters<typeof callerOf>[0]) => requireFunction(db, callerOf(auth), PORTAL_NOTICE_NODE, code),
  });
  route(app, api.adminNoticeList, async ({ query }) => notices.adminList(db, query), see);
  route(app, api.adminNoticeDetail, async ({ query }) => notices.adminDetail(db, query.id), see);
  route(app, api.adminNoticeSave, async ({ auth, body }) => notices.saveNotice(db, auth.actor, body), {
    message: '保存成功',
    // an update (with an id) needs 编辑, a new notice 新增
    guard: (auth, req) => {
      const body = req.body as { id?: unknown } | null;
      const code = body && typeof body === 'object' && body.id !== undefined ? 'edit' : 'add';
      return requireFunction(db, callerOf(auth), PORTAL_NOTICE_NODE, code);
    },
  });
  route(
    app,
    api.adminNoticePublish,
    async ({ auth, body }) => notices.publishNotice(db, auth.actor, body.id),
    fn('publish'),
  );
  route(
    app,
    api.adminNoticeWithdraw,
    async ({ auth, body }) => notices.withdrawNotice(db, auth.actor, body.id),
    fn('withdraw'),
  );
  route(
    app,
    api.adminNoticeDelete,
    async ({ auth, body }) => notices.deleteNotice(db, auth.actor, body.id),
    fn('delete'),
  );
}
