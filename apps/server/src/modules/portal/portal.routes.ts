import { api } from '@ks/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import { enterpriseTypes, practiceAreas } from './market.repo';
import * as market from './market.service';
import * as notices from './notices.service';
import { platformInfo } from './portal.service';

/** Public data: the browser revalidates every time and gets 304 while the ETag matches. */
const revalidate = (reply: FastifyReply) => reply.header('cache-control', 'no-cache');

const ADMIN = ['M'];

export function portalRoutes(app: FastifyInstance, db: Db, config: Config, version: string) {
  route(app, api.platform, async ({ reply }) => {
    revalidate(reply);
    return platformInfo(db, config, version);
  });
  route(app, api.portalConfig, async ({ reply }) => {
    revalidate(reply);
    return { loginMode: config.loginMode, bidHallUrl: config.bidHallUrl };
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
    return market.marketDetail(db, query.kind, query.id);
  });

  // Administration of notices: administrators only.
  route(app, api.adminNoticeList, async ({ query }) => notices.adminList(db, query), { roles: ADMIN });
  route(app, api.adminNoticeDetail, async ({ query }) => notices.adminDetail(db, query.id), { roles: ADMIN });
  route(app, api.adminNoticeSave, async ({ auth, body }) => notices.saveNotice(db, auth.actor, body), {
    message: '保存成功',
    roles: ADMIN,
  });
  route(app, api.adminNoticePublish, async ({ auth, body }) => notices.publishNotice(db, auth.actor, body.id), {
    roles: ADMIN,
  });
  route(app, api.adminNoticeWithdraw, async ({ auth, body }) => notices.withdrawNotice(db, auth.actor, body.id), {
    roles: ADMIN,
  });
  route(app, api.adminNoticeDelete, async ({ auth, body }) => notices.deleteNotice(db, auth.actor, body.id), {
    roles: ADMIN,
  });
}
