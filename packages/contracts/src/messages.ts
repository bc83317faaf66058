import { NODE_PROPERTIES, routeForNode } from './shell-constants';
import { z } from './zod';

/**
 * Message centre (issue 14, screen 17): the header bell, to-dos per system, messages to a user (review results,
 * rejections, administrators' messages) and administrators' message publishing with receipts.
 */

/** §9: system to-do badges cap at 99, the bell (and message badges) at 999; the to-do list shows 6 per page. */
export const TODO_BADGE_MAX = 99;
export const MESSAGE_BADGE_MAX = 999;
export const MESSAGE_PAGE_SIZE = 6;
/** at most this many pager buttons (antd shows 5 page buttons with showLessItems) */
export const MESSAGE_PAGER_BUTTONS = 5;

/** What a message is: a review result, a rejection of the reader's record (驳回), an administrator's message. */
export const MESSAGE_KINDS = ['result', 'rejected', 'admin'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  result: '审核结果',
  rejected: '驳回',
  admin: '系统消息',
};
/** The notice-jump message type (/system/jumpNoticeCfg, NOTICE_MSG_TYPES) each kind follows. */
export const MESSAGE_KIND_JUMP: Record<MessageKind, 'rejected' | 'message'> = {
  result: 'message',
  rejected: 'rejected',
  admin: 'message',
};

export const MESSAGE_TEXT = {
  titleRequired: '请输入消息标题',
  bodyRequired: '请输入消息内容',
  noRecipients: '请选择接收人或角色',
  noSuchRecipients: '接收人不存在',
  notFound: '消息不存在',
  sent: '发送成功',
} as const;

/**
 * Where a record of a node opens (a to-do, a message about it): list-type nodes open the engine's detail page of the
 * record (its review buttons are there), application lists the application's, other pages their node's page with
 * `record=<id>` (the page opens that record's dialog).
 */
export function recordRoute(
  node: { nodeProperties: string; gnCoding: string },
  systemCoding: string,
  recordId: string | null,
  isAdmin: boolean,
): string {
  if (!recordId) return routeForNode(node, systemCoding, isAdmin);
  const q = new URLSearchParams({ gnCoding: node.gnCoding, systemCoding, id: recordId });
  const prop = NODE_PROPERTIES.find((p) => p.value === node.nodeProperties);
  if (prop?.value === 'list' || prop?.value === 'card') return `/dynamicPage/dynamicDetail?${q.toString()}`;
  if (prop?.value === 'applyList') return `/applyDetail?${q.toString()}`;
  return `${routeForNode(node, systemCoding, isAdmin)}&record=${encodeURIComponent(recordId)}`;
}

const pageRequest = {
  curPage: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(MESSAGE_PAGE_SIZE),
};

export const messageCountsSchema = z.object({
  /** the caller's open to-dos (one per record and node) */
  todos: z.number().int(),
  /** the caller's unread messages */
  unread: z.number().int(),
});

export const messageListRequestSchema = z.object({
  ...pageRequest,
  kind: z.enum(MESSAGE_KINDS).optional(),
  unreadOnly: z.boolean().optional(),
});
export const messageItemSchema = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  title: z.string(),
  /** sanitised HTML (administrators' messages) or plain text */
  body: z.string(),
  /** rejections: the reviewer's reason */
  reason: z.string().nullable(),
  senderName: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** where opening it leads (the notice-jump setting of its type, else its record's page), null: nowhere */
  path: z.string().nullable(),
});
export type MessageItem = z.infer<typeof messageItemSchema>;
export const messagePageSchema = z.object({
  records: z.array(messageItemSchema),
  total: z.number().int(),
  unread: z.number().int(),
});

export const rejectedMsgRequestSchema = z.object(pageRequest);
export const rejectedMsgSchema = z.object({
  id: z.string(),
  title: z.string(),
  reason: z.string(),
  gnCoding: z.string().nullable(),
  recordId: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  path: z.string().nullable(),
});

export const messageReadRequestSchema = z
  .object({
    ids: z.array(z.string().uuid(MESSAGE_TEXT.notFound)).max(200).optional(),
    all: z.boolean().optional(),
  })
  .refine((v) => v.all === true || (v.ids?.length ?? 0) > 0, { message: '请选择消息', path: ['ids'] });
export const messageReadResultSchema = z.object({ updated: z.number().int(), unread: z.number().int() });

export const messagePublishSchema = z
  .object({
    title: z.string().trim().min(1, MESSAGE_TEXT.titleRequired).max(200, '最多 200 个字符'),
    body: z.string().trim().min(1, MESSAGE_TEXT.bodyRequired).max(20_000, '内容过长'),
    users: z.array(z.string().uuid(MESSAGE_TEXT.noSuchRecipients)).max(500).default([]),
    roles: z.array(z.string().min(1).max(64)).max(50).default([]),
  })
  .refine((v) => v.users.length + v.roles.length > 0, { message: MESSAGE_TEXT.noRecipients, path: ['users'] });
export const messagePublishResultSchema = z.object({ id: z.string(), recipients: z.number().int() });

export const sentMessagesRequestSchema = z.object({
  curPage: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(10),
  keyword: z.string().trim().max(100).optional(),
});
export const sentMessageSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  senderName: z.string(),
  userNames: z.array(z.string()),
  roleNames: z.array(z.string()),
  recipients: z.number().int(),
  readCount: z.number().int(),
  createdAt: z.string(),
});
export type SentMessage = z.infer<typeof sentMessageSchema>;
export const receiptSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  logValue: z.string(),
  readAt: z.string().nullable(),
});
export const recipientOptionsSchema = z.object({
  users: z.array(z.object({ id: z.string(), userName: z.string(), logValue: z.string(), loginRoleType: z.string() })),
  roles: z.array(z.object({ code: z.string(), name: z.string() })),
});
export const messageIdQuerySchema = z.object({ id: z.string().uuid(MESSAGE_TEXT.notFound) });
export const recipientQuerySchema = z.object({ keyword: z.string().trim().max(50).optional() });
