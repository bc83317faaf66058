import {
  messageCountsSchema,
  messageIdQuerySchema,
  messageListRequestSchema,
  messagePageSchema,
  messagePublishResultSchema,
  messagePublishSchema,
  messageReadRequestSchema,
  messageReadResultSchema,
  receiptSchema,
  recipientOptionsSchema,
  recipientQuerySchema,
  rejectedMsgRequestSchema,
  rejectedMsgSchema,
  sentMessageSchema,
  sentMessagesRequestSchema,
} from './messages';
import { paths } from './paths';
import { pageOf } from './portal';
import { z } from './zod';

const T = '消息中心';

/** Registry entries of the message centre (issue 14, screen 17). Every call answers the caller's own messages only. */
export const messagesApi = {
  messageCounts: {
    ...paths.messageCounts,
    summary: '铃铛角标：本人待办数（每条记录每个节点计一次）与未读消息数',
    tag: T,
    auth: true,
    data: messageCountsSchema,
  },
  messageList: {
    ...paths.messageList,
    summary: '本人的消息（审核结果、驳回、管理员消息），新的在前；附未读数与打开时的跳转地址',
    tag: T,
    auth: true,
    body: messageListRequestSchema,
    data: messagePageSchema,
  },
  messageRead: {
    ...paths.messageRead,
    summary: '标记本人消息已读：ids 指定的，或 all 为 true 时全部；他人的消息不受影响',
    tag: T,
    auth: true,
    body: messageReadRequestSchema,
    data: messageReadResultSchema,
  },
  rejectedMsg: {
    ...paths.rejectedMsg,
    summary: '本人被驳回的记录：驳回原因、所在节点与记录、跳转地址（按通知跳转配置“驳回”类型，否则记录所在节点）',
    tag: T,
    auth: true,
    body: rejectedMsgRequestSchema,
    data: pageOf(rejectedMsgSchema),
  },
  messagePublish: {
    ...paths.messagePublish,
    summary: '管理员发布消息：标题、正文（HTML 经净化）发给选定用户和/或角色的全部成员，实时送达',
    tag: T,
    auth: true,
    body: messagePublishSchema,
    data: messagePublishResultSchema,
  },
  messageSent: {
    ...paths.messageSent,
    summary: '管理员已发布的消息：接收人数与已读人数',
    tag: T,
    auth: true,
    body: sentMessagesRequestSchema,
    data: pageOf(sentMessageSchema),
  },
  messageReceipt: {
    ...paths.messageReceipt,
    summary: '一条已发布消息的回执：每个接收人及其阅读时间（未读为 null）',
    tag: T,
    auth: true,
    query: messageIdQuerySchema,
    data: z.array(receiptSchema),
  },
  messageRecipients: {
    ...paths.messageRecipients,
    summary: '发布消息可选的接收人（按姓名或账号搜索，最多 50 个）与角色',
    tag: T,
    auth: true,
    query: recipientQuerySchema,
    data: recipientOptionsSchema,
  },
} as const;
