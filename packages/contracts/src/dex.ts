import { SORT_ORDERS } from './accounts-constants';
import { isValidDate } from './dates';
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
  syncNotConfigured: '未配置上游平台（DEX_UPSTREAM_URL、DEX_APP_ID、DEX_APP_SECRET），无法同步企业登记信息',
  syncRunning: '同步正在进行中，请等待本次同步完成',
  syncStarted: '已开始同步',
  regMissing: '登记记录不存在',
  regDecided: '该登记已审核或已重新同步，请刷新后查看',
  approved: '审核通过，已写入企业库',
  dismissed: '已驳回',
  reasonRequired: '请填写驳回原因',
  closedNotCreated: '登记状态为注销或吊销的企业不能新建到企业库，请驳回',
  creditCodeTaken: '统一社会信用代码已被企业库中的其他企业使用',
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

// ── 监管审核: enterprise registrations pulled from the upstream platform, reviewed before they reach `enterprises` ──

/** The fields of a pulled registration, in the order pages show them. */
export const DEX_REG_FIELDS = [
  'name',
  'creditCode',
  'legalPerson',
  'registeredCapital',
  'region',
  'address',
  'establishedAt',
  'entType',
  'regType',
  'regStatus',
] as const;
export type DexRegField = (typeof DEX_REG_FIELDS)[number];
export const DEX_REG_FIELD_LABELS: Record<DexRegField | 'enterpriseType', string> = {
  name: '企业名称',
  creditCode: '统一社会信用代码',
  legalPerson: '法定代表人',
  registeredCapital: '注册资本（元）',
  region: '所在地区',
  address: '注册地址',
  establishedAt: '成立日期',
  entType: '主体类型',
  regType: '登记类型',
  regStatus: '登记状态',
  enterpriseType: '企业类型',
};

/** 登记状态 as the upstream names it; a registration in 注销 or 吊销 never creates a local enterprise. */
export const DEX_REG_STATUSES = ['存续', '迁出', '注销', '吊销'] as const;
export type DexRegStatus = (typeof DEX_REG_STATUSES)[number];
export const DEX_CLOSED_STATUSES: readonly DexRegStatus[] = ['注销', '吊销'];
export const DEX_REG_TYPES = ['设立登记', '变更登记', '注销登记'] as const;
/** 主体类型: the market's enterprise kinds (the local `enterprises.enterprise_type`). */
export const DEX_ENT_TYPES = ['施工企业', '监理企业', '设计企业', '供应商', '招标代理机构'] as const;

/** 审核状态 of a pulled registration. */
export const DEX_REG_STATES = ['pending', 'approved', 'dismissed', 'invalid'] as const;
export type DexRegState = (typeof DEX_REG_STATES)[number];
export const DEX_REG_STATE_LABELS: Record<DexRegState, string> = {
  pending: '待审核',
  approved: '已通过',
  dismissed: '已驳回',
  invalid: '校验未通过',
};

/** What the last sync found for a registration. */
export const DEX_REG_CHANGES = ['new', 'changed', 'unchanged', 'rejected'] as const;
export type DexRegChange = (typeof DEX_REG_CHANGES)[number];
export const DEX_REG_CHANGE_LABELS: Record<DexRegChange, string> = {
  new: '新增',
  changed: '变更',
  unchanged: '无变化',
  rejected: '拒收',
};

/** A row of the registration-audit log: what a sync found, or an administrator's decision. */
export const DEX_AUDIT_ACTIONS = [...DEX_REG_CHANGES, 'approved', 'dismissed'] as const;
export type DexAuditAction = (typeof DEX_AUDIT_ACTIONS)[number];
export const DEX_AUDIT_ACTION_LABELS: Record<DexAuditAction, string> = {
  new: '同步新增',
  changed: '同步变更',
  unchanged: '同步无变化',
  rejected: '校验拒收',
  approved: '审核通过',
  dismissed: '审核驳回',
};

export const DEX_SYNC_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type DexSyncStatus = (typeof DEX_SYNC_STATUSES)[number];
export const DEX_SYNC_STATUS_LABELS: Record<DexSyncStatus, string> = {
  queued: '排队中',
  running: '同步中',
  done: '已完成',
  failed: '同步失败',
};
export const DEX_SYNC_PHASE_LABELS = { fetching: '正在拉取上游数据', applying: '正在写入' } as const;

export const DEX_REG_SORTS = ['upstreamUpdatedAt', 'name', 'pulledAt'] as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式有误，请重新输入')
  .refine((v) => isValidDate(v), '日期格式有误，请重新输入');

/** data-list: the filters are whitelists — unknown keys, states or sort fields are a 400. */
export const dexRegQuerySchema = z
  .object({
    pageNum: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(10),
    keyword: z.string().trim().max(50, '关键字不超过 50 个字').optional(),
    regStatus: z.enum(DEX_REG_STATUSES, { error: '登记状态有误' }).optional(),
    state: z.enum(DEX_REG_STATES, { error: '审核状态有误' }).optional(),
    change: z.enum(DEX_REG_CHANGES, { error: '同步结果有误' }).optional(),
    /** the upstream's update date, in the platform's calendar, both ends included */
    startDate: day.optional(),
    endDate: day.optional(),
    sortField: z.enum(DEX_REG_SORTS, { error: '排序字段有误' }).optional(),
    order: z.enum(SORT_ORDERS, { error: '排序方式有误' }).optional(),
  })
  .strict()
  .refine((v) => !v.startDate || !v.endDate || v.startDate <= v.endDate, {
    path: ['endDate'],
    message: '结束日期不能早于开始日期',
  });
export type DexRegQuery = z.infer<typeof dexRegQuerySchema>;

export const dexRegRowSchema = z.object({
  id: z.string(),
  upstreamId: z.string(),
  name: z.string(),
  creditCode: z.string(),
  legalPerson: z.string().nullable(),
  /** yuan, two decimals */
  registeredCapital: z.string().nullable(),
  region: z.string().nullable(),
  address: z.string().nullable(),
  establishedAt: z.string().nullable(),
  entType: z.string().nullable(),
  regType: z.string().nullable(),
  regStatus: z.string().nullable(),
  upstreamUpdatedAt: z.string().nullable(),
  state: z.enum(DEX_REG_STATES),
  change: z.enum(DEX_REG_CHANGES),
  /** why it was refused at intake (invalid) or dismissed by an administrator */
  reason: z.string().nullable(),
  /** the local enterprise it was applied to */
  enterpriseId: z.string().nullable(),
  version: z.number().int(),
  /** when a sync last found it */
  pulledAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** the caller may press 通过 / 驳回 */
  canDecide: z.boolean(),
});
export type DexRegRow = z.infer<typeof dexRegRowSchema>;

export const dexRegPageSchema = z.object({
  records: z.array(dexRegRowSchema),
  total: z.number().int(),
  configured: z.boolean(),
});
export type DexRegPage = z.infer<typeof dexRegPageSchema>;

/** One field that differs: its value before and after (texts; null: empty). */
export const dexDiffItemSchema = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type DexDiffItem = z.infer<typeof dexDiffItemSchema>;

export const dexAuditRowSchema = z.object({
  id: z.string(),
  action: z.enum(DEX_AUDIT_ACTIONS),
  diff: z.array(dexDiffItemSchema),
  reason: z.string().nullable(),
  actorName: z.string(),
  jobId: z.string().nullable(),
  at: z.string(),
});
export type DexAuditRow = z.infer<typeof dexAuditRowSchema>;

export const dexRegDetailSchema = z.object({
  registration: dexRegRowSchema,
  /** what the upstream's latest change was (the pull before it → the pull that found it) */
  diff: z.array(dexDiffItemSchema),
  /** the local enterprise it concerns (by its applied enterprise, else by credit code), null: none yet */
  local: z.object({ id: z.string(), name: z.string(), creditCode: z.string() }).nullable(),
  /** what 通过 writes into the enterprise library: its current values → the registration's (all of them for a new one) */
  localDiff: z.array(dexDiffItemSchema),
  history: z.array(dexAuditRowSchema),
  /** the record as the upstream sent it */
  raw: z.record(z.string(), z.unknown()),
});
export type DexRegDetail = z.infer<typeof dexRegDetailSchema>;

export const dexSyncStartSchema = z
  .object({
    /** true: everything the upstream has; false: what changed since the last finished sync */
    full: z.boolean().default(false),
  })
  .strict();

export const dexSyncJobSchema = z.object({
  id: z.string(),
  status: z.enum(DEX_SYNC_STATUSES),
  full: z.boolean(),
  phase: z.enum(['fetching', 'applying']).nullable(),
  pages: z.number().int(),
  fetched: z.number().int(),
  /** what the upstream said it has (null until its first page) */
  total: z.number().int().nullable(),
  counts: z.object({
    new: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    rejected: z.number().int(),
  }),
  error: z.string().nullable(),
  since: z.string().nullable(),
  startedByName: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type DexSyncJob = z.infer<typeof dexSyncJobSchema>;
export const dexSyncStateSchema = z.object({ configured: z.boolean(), job: dexSyncJobSchema.nullable() });
export type DexSyncState = z.infer<typeof dexSyncStateSchema>;

export const dexRegDecideSchema = z
  .object({ id: z.string().uuid('记录编号有误'), version: z.number().int().min(0) })
  .strict();
export const dexRegRejectSchema = z
  .object({
    id: z.string().uuid('记录编号有误'),
    version: z.number().int().min(0),
    reason: z
      .string({ error: DEX_MSG.reasonRequired })
      .trim()
      .min(1, DEX_MSG.reasonRequired)
      .max(500, '驳回原因不超过 500 字'),
  })
  .strict();
