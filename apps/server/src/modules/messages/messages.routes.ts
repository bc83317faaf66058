import { api, MESSAGE_TEXT } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { requestMemo } from '../../platform/permissions';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import {
  messageCounts,
  messageList,
  messageReceipts,
  publishMessage,
  readMessages,
  recipientOptions,
  rejectedMessages,
  sentMessages,
} from './messages.service';

/** The message centre (issue 14, screen 17): every read and write is the caller's own; publishing is for admins. */
export function messagesRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  const caller = (auth: AuthContext) => ({
    id: auth.user.id,
    loginRoleType: auth.user.loginRoleType,
    memo: requestMemo(auth),
  });
  const admin = { roles: ['M'] };
  route(app, api.messageCounts, ({ auth }) => messageCounts(db, caller(auth)));
  route(app, api.messageList, ({ auth, body }) => messageList(db, caller(auth), body));
  route(app, api.messageRead, ({ auth, body }) => readMessages(db, caller(auth), body, now()));
  route(app, api.rejectedMsg, ({ auth, body }) => rejectedMessages(db, caller(auth), body));
  route(app, api.messagePublish, ({ auth, body }) => publishMessage(db, auth.actor, body, now()), {
    ...admin,
    message: MESSAGE_TEXT.sent,
  });
  route(app, api.messageSent, ({ body }) => sentMessages(db, body), admin);
  route(app, api.messageReceipt, ({ query }) => messageReceipts(db, query.id), admin);
  route(app, api.messageRecipients, ({ query }) => recipientOptions(db, query.keyword), admin);
}
