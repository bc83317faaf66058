import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { changedBy, route, withActor, withAuth } from '../../platform/route';
import * as chat from './chat.service';
import * as help from './help.service';

const ADMIN = ['M'];

/** Help and FAQ (screen 10) and customer service (screen 23). */
export function helpRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  route(app, api.helpTree, ({ body }) => help.helpTree(db, body));
  route(app, api.faqList, ({ body }) => help.faqList(db, body));
  route(app, api.helpAdmin, ({ query }) => help.helpAdmin(db, query.systemCoding), { roles: ADMIN });
  route(app, api.helpGroupSave, withActor(db, help.saveGroup), changedBy(ADMIN));
  route(
    app,
    api.helpGroupDelete,
    withActor(db, async (d, a, b: { id: string }) => {
      await help.deleteGroup(d, a, b.id);
      return null;
    }),
    changedBy(ADMIN, '删除成功'),
  );
  route(app, api.helpFileAdd, withActor(db, help.addFile), changedBy(ADMIN));
  route(
    app,
    api.helpFileDelete,
    withActor(db, async (d, a, b: { id: string }) => {
      await help.removeFile(d, a, b.id);
      return null;
    }),
    changedBy(ADMIN, '删除成功'),
  );
  route(app, api.faqSave, withActor(db, help.saveFaq), changedBy(ADMIN));
  route(
    app,
    api.faqDelete,
    withActor(db, async (d, a, b: { id: string }) => {
      await help.deleteFaq(d, a, b.id);
      return null;
    }),
    changedBy(ADMIN, '删除成功'),
  );

  route(app, api.robotAsk, ({ body }) => help.robotAsk(db, body));
  route(app, api.chatMine, ({ auth }) => chat.mine(db, auth));
  route(
    app,
    api.chatSend,
    withAuth(db, (d, a, b: { text: string }) => chat.send(d, a, b.text, now())),
    {
      message: '发送成功',
    },
  );
  route(app, api.chatThread, ({ auth, query }) => chat.thread(db, auth, query.conversationId));
  route(app, api.chatQueue, ({ query }) => chat.queue(db, query.status), { roles: ADMIN });
  route(
    app,
    api.chatReply,
    withAuth(db, (d, a, b: { conversationId: string; text: string }) => chat.reply(d, a, b, now())),
    {
      roles: ADMIN,
      message: '发送成功',
    },
  );
  route(
    app,
    api.chatClose,
    withAuth(db, async (d, a, b: { conversationId: string }) => {
      await chat.close(d, a, b.conversationId, now());
      return null;
    }),
    { roles: ADMIN, message: '会话已结束' },
  );
}
