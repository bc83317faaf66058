import { CODE_PATTERN } from './shell-constants';
import { z } from './zod';

/**
 * Help and FAQ (spec screen 10, §3 help group, §7 `/ks/guide/node/descritons`, faq-list) and customer service
 * (screen 23: the robot answers from the FAQ, human mode is a conversation with the administrators).
 */

export const HELP_TEXT = {
  /** the viewer's tabs */
  tabHelp: '帮助说明',
  tabFaq: '常见问题',
  /** nothing at all for the system or node */
  empty: '暂无数据',
  /** a group with no files, or a file that cannot be shown */
  noHelp: '暂无帮助！',
  /** no file chosen yet (no template to show) */
  noTemplate: '暂无模板！',
} as const;

/** The files module's node code of help files (gn_coding of their file rows; record id: the help file row). */
export const HELP_FILE_NODE = 'KS_HELP';
export const HELP_FILE_KINDS = ['pdf', 'video'] as const;
export const HELP_FILE_EXTENSIONS = ['pdf', 'mp4', 'webm'] as const;
export const CHAT_TEXT_MAX = 500;
export const ROBOT_TOP = 3;

const code = (message: string) => z.string({ error: message }).trim().regex(CODE_PATTERN, message);
const optionalCode = z
  .string()
  .trim()
  .regex(CODE_PATTERN, '功能编码格式不正确')
  .optional()
  .or(z.literal('').transform(() => undefined));
const uuid = (message = '记录不存在') => z.string({ error: message }).uuid(message);

/** Where help belongs: a system, and optionally one of its nodes. */
export const helpPlaceSchema = z.object({
  systemCoding: code('请选择业务系统'),
  gnCoding: optionalCode,
});
export type HelpPlace = z.infer<typeof helpPlaceSchema>;

/** A question and its answer (§3 help group list item). */
export const faqItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
});
export type FaqItem = z.infer<typeof faqItemSchema>;

/**
 * A node of the help tree (§3 help group): a group (children: its files) or a file (fileName, filePath: the download
 * address; the viewer asks a signed preview address for it). `list`: the Q&A shown with the group (the node's FAQ on
 * the first group).
 */
export interface HelpGroup {
  id: string;
  groupName: string;
  fileName: string;
  filePath: string;
  fileId: string | null;
  kind: (typeof HELP_FILE_KINDS)[number] | null;
  gnCoding: string | null;
  children: HelpGroup[];
  list: FaqItem[];
}
export const helpGroupSchema: z.ZodType<HelpGroup> = z.lazy(() =>
  z.object({
    id: z.string(),
    groupName: z.string(),
    fileName: z.string(),
    filePath: z.string(),
    fileId: z.string().nullable(),
    kind: z.enum(HELP_FILE_KINDS).nullable(),
    gnCoding: z.string().nullable(),
    children: z.array(helpGroupSchema),
    list: z.array(faqItemSchema),
  }),
);

// ── administration ──────────────────────────────────────────────────────────

export const helpAdminQuerySchema = z.object({ systemCoding: code('请选择业务系统') });

export const helpGroupSaveSchema = helpPlaceSchema.extend({
  id: uuid().optional(),
  groupName: z.string({ error: '请填写分组名称' }).trim().min(1, '请填写分组名称').max(60, '分组名称最多 60 个字符'),
  sort: z.number().int().min(0).max(9999).default(0),
});

export const helpFileAddSchema = z.object({
  groupId: uuid('分组不存在'),
  fileId: uuid('文件不存在'),
});

export const faqSaveSchema = helpPlaceSchema.extend({
  id: uuid().optional(),
  question: z.string({ error: '请填写问题' }).trim().min(1, '请填写问题').max(200, '问题最多 200 个字符'),
  answer: z.string({ error: '请填写答案' }).trim().min(1, '请填写答案').max(4000, '答案最多 4000 个字符'),
  sort: z.number().int().min(0).max(9999).default(0),
});

export const helpIdSchema = z.object({ id: uuid() });

export const faqAdminItemSchema = faqItemSchema.extend({
  systemCoding: z.string(),
  gnCoding: z.string().nullable(),
  sort: z.number(),
  updatedAt: z.string(),
});
export const helpAdminSchema = z.object({
  groups: z.array(helpGroupSchema.and(z.object({ sort: z.number() }))),
  faqs: z.array(faqAdminItemSchema),
});

// ── customer service ────────────────────────────────────────────────────────

export const robotAskSchema = z.object({
  question: z.string({ error: '请输入问题' }).trim().min(1, '请输入问题').max(200, '问题最多 200 个字符'),
  systemCoding: code('业务系统编码格式不正确').optional(),
});
export const robotAnswerSchema = z.object({
  matches: z.array(
    faqItemSchema.extend({ systemCoding: z.string(), gnCoding: z.string().nullable(), score: z.number() }),
  ),
});
export type RobotAnswer = z.infer<typeof robotAnswerSchema>;

export const chatTextSchema = z
  .string({ error: '请输入消息内容' })
  .trim()
  .min(1, '请输入消息内容')
  .max(CHAT_TEXT_MAX, `消息最多 ${CHAT_TEXT_MAX} 个字符`);
export const chatSendSchema = z.object({ text: chatTextSchema });
export const chatReplySchema = z.object({ conversationId: uuid('会话不存在'), text: chatTextSchema });
export const chatIdSchema = z.object({ conversationId: uuid('会话不存在') });
export const chatQueueQuerySchema = z.object({ status: z.enum(['open', 'closed']).default('open') });

export const chatMessageSchema = z.object({
  id: z.string(),
  sender: z.enum(['user', 'agent']),
  senderName: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export const chatConversationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  enterpriseName: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  agentUnread: z.number(),
  userUnread: z.number(),
  lastMessage: z.string(),
  lastMessageAt: z.string(),
  createdAt: z.string(),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;
export const chatThreadSchema = z.object({
  conversation: chatConversationSchema.nullable(),
  messages: z.array(chatMessageSchema),
});
export type ChatThread = z.infer<typeof chatThreadSchema>;
