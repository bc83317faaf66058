import { z } from './zod';

/**
 * 数据交换 (issue 19): 交易推送 — the outbox of published transaction data for the upstream public-resource platform,
 * every attempt logged — and 监管审核 — enterprise registrations pulled from the upstream, audited before they change
 * local data.
 */
export const DEX_MSG = {
  notConfigured: '未配置上级平台（DEX_UPSTREAM_URL、DEX_APP_ID、DEX_APP_SECRET），推送将保持排队，同步不可用',
  pushMissing: '推送记录不存在',
  notFailed: '只有推送失败的记录可以重新推送',
  resent: '已重新排队推送',
} as const;

export const DEX_PUSH_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type DexPushStatus = (typeof DEX_PUSH_STATUSES)[number];
export const DEX_PUSH_STATUS_LABELS: Record<DexPushStatus, string> = {
  queued: '排队中',
  sending: '推送中',
  sent: '已推送',
  failed: '推送失败',
};
export const DEX_KINDS = ['notice', 'result'] as const;
export type DexKindCode = (typeof DEX_KINDS)[number];
export const DEX_KIND_LABELS: Record<DexKindCode, string> = { notice: '交易公告', result: '交易结果' };

export const dexPushQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(DEX_PUSH_STATUSES).optional(),
  kind: z.enum(DEX_KINDS).optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type DexPushQuery = z.infer<typeof dexPushQuerySchema>;

export const dexPushRowSchema = z.object({
  id: z.string(),
  businessKey: z.string(),
  kind: z.enum(DEX_KINDS),
  title: z.string(),
  status: z.enum(DEX_PUSH_STATUSES),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DexPushRow = z.infer<typeof dexPushRowSchema>;

export const dexPushPageSchema = z.object({
  records: z.array(dexPushRowSchema),
  total: z.number().int(),
  /** false: no upstream configured — pushes stay queued */
  configured: z.boolean(),
  maxAttempts: z.number().int(),
});
export type DexPushPage = z.infer<typeof dexPushPageSchema>;

export const dexIdSchema = z.object({ id: z.string().uuid('记录编号有误') });

export const dexAttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  httpStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type DexAttempt = z.infer<typeof dexAttemptSchema>;
export const dexPushDetailSchema = z.object({ push: dexPushRowSchema, attempts: z.array(dexAttemptSchema) });
export type DexPushDetail = z.infer<typeof dexPushDetailSchema>;
