import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { requestMemo } from '../../platform/permissions';
import { changedBy, route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import * as notices from './system-notices.service';

const ADMIN = ['M'];

const viewer = (auth: AuthContext): notices.NoticeViewer => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId,
  memo: requestMemo(auth),
});

/** System notices (screen 16): every signed-in user reads and acknowledges theirs; administrators manage them. */
export function systemNoticesRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  route(app, api.currentNotices, async ({ auth }) => notices.currentNotices(db, viewer(auth), now()));
  route(app, api.noticeRead, async ({ auth, body }) => notices.readNotice(db, viewer(auth), body.msgId, now()));
  route(app, api.noticeDismiss, async ({ auth, body }) => notices.dismissNotice(db, viewer(auth), body.msgId, now()));

  route(app, api.systemNoticeList, async ({ query }) => notices.adminList(db, query), { roles: ADMIN });
  route(app, api.systemNoticeDetail, async ({ query }) => notices.adminDetail(db, query.id), { roles: ADMIN });
  route(app, api.systemNoticeReads, async ({ query }) => notices.noticeReaders(db, query), { roles: ADMIN });
  route(
    app,
    api.systemNoticeSave,
    async ({ auth, body }) => notices.saveNotice(db, auth.actor, body, now()),
    changedBy(ADMIN),
  );
  route(
    app,
    api.systemNoticePublish,
    async ({ auth, body }) => notices.publishNotice(db, auth.actor, body.id, now()),
    changedBy(ADMIN, '发布成功'),
  );
  route(
    app,
    api.systemNoticeWithdraw,
    async ({ auth, body }) => notices.withdrawNotice(db, auth.actor, body.id, now()),
    changedBy(ADMIN, '撤回成功'),
  );
  route(
    app,
    api.systemNoticeDelete,
    async ({ auth, body }) => notices.deleteNotice(db, auth.actor, body.id),
    changedBy(ADMIN, '删除成功'),
  );
}
