import { z } from './zod';

/**
 * Bid deposits (投标保证金) and electronic guarantee letters (电子保函) of tender sections (issue 16).
 *
 * A registered bidder of a section owes the section's deposit (at most 2% of the estimate, held by the sections). It is
 * secured either in cash — the bidder records the payment into the centre's virtual sub-account, the centre confirms
 * receipt, and refunds it after the bid deadline — or by an electronic guarantee letter issued by the configured
 * issuer. A deposit only moves forward: unpaid → paid → received → refunded, each step with its time and who did it.
 */

export const DEPOSIT_STATUSES = ['unpaid', 'paid', 'received', 'refunded'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = {
  unpaid: '未缴纳',
  paid: '已缴纳',
  received: '已到账',
  refunded: '已退还',
};

/**
 * A guarantee letter's life: applying (the 保函申请 record is a draft or under review), rejected (its review rejected
 * it), requested (passed review, waiting to be sent to the issuer), processing (the issuer accepted it), issued (the
 * letter's PDF is stored), failed (the issuer refused it or could not be reached: retry).
 */
export const GUARANTEE_STATUSES = ['applying', 'rejected', 'requested', 'processing', 'issued', 'failed'] as const;
export type GuaranteeStatus = (typeof GUARANTEE_STATUSES)[number];
export const GUARANTEE_STATUS_LABELS: Record<GuaranteeStatus, string> = {
  applying: '申请中',
  rejected: '审核未通过',
  requested: '待出函',
  processing: '出函中',
  issued: '已出函',
  failed: '出函失败',
};

/** The engine node of guarantee applications (电子保函 → 保函申请). */
export const GUARANTEE_NODE = 'DZBH_BHSQ';

export const DEPOSIT_MESSAGES = {
  notRegistered: '只有已报名该标段的投标人才有保证金，请先报名',
  noEnterprise: '当前账号未关联企业，不能办理保证金',
  sectionMissing: '标段不存在',
  depositMissing: '保证金记录不存在',
  amountMismatch: (deposit: string) => `缴纳金额须等于该标段的投标保证金 ${deposit} 元`,
  alreadyPaid: '该标段的保证金已缴纳，不能重复缴纳',
  securedByGuarantee: '该标段的保证金已由电子保函替代，无需缴纳现金',
  guaranteeUnderWay: '该标段已有办理中的电子保函申请，请待其出函或失败后再缴纳现金',
  duepassed: (due: string) => `保证金缴纳截止时间（${due}）已过，不能再缴纳`,
  notPaid: '该保证金尚未缴纳，不能确认到账',
  notReceived: '只有已到账的保证金可以退还',
  alreadyReceived: '该保证金已确认到账',
  alreadyRefunded: '该保证金已退还',
  refundBeforeDeadline: '投标截止（开标）前不能退还保证金',
  stale: '该保证金已被他人处理，请刷新后再试',
  delayNotLater: '新的缴纳截止时间须晚于当前截止时间',
  delayPastDeadline: '缴纳截止时间不能晚于投标截止时间',
  delayAfterDeadline: '投标截止后不能再延期缴纳',
  centreOnly: '只有交易中心可以办理',
} as const;

export const GUARANTEE_MESSAGES = {
  notConfigured: '未配置出函机构，暂不能申请电子保函；请缴纳现金保证金或联系交易中心',
  notRegistered: '只有已报名该标段的投标人可以申请投标保函',
  alreadyPaid: '该标段的保证金已以现金缴纳，无需再申请保函',
  alreadyApplied: '该标段已有电子保函申请（办理中或已出函），不能重复申请',
  afterDeadline: '投标截止后不能再申请投标保函',
  missing: '保函不存在',
  notRetryable: '只有出函失败的保函可以重新出函',
  notIssued: '保函尚未出函，暂无文件可下载',
  amountMismatch: (deposit: string) => `保函金额须等于该标段的投标保证金 ${deposit} 元`,
  sectionUnlinked: '该保函申请未关联标段，请从「保证金与保函」页面发起申请',
} as const;

const money = z.number();

/** One bidder's deposit for one section, as the caller may see it. */
export const depositSchema = z.object({
  /** null while unpaid (no payment recorded yet) */
  id: z.string().nullable(),
  sectionId: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  projectId: z.string(),
  projectName: z.string().nullable(),
  projectCode: z.string().nullable(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  amount: money,
  /** the centre's virtual sub-account (虚拟子账号) this bidder pays this section's deposit into */
  virtualAccount: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  /** cash received, or an issued guarantee letter in its place */
  secured: z.boolean(),
  securedBy: z.enum(['cash', 'guarantee']).nullable(),
  payerAccount: z.string().nullable(),
  payerBank: z.string().nullable(),
  paidAt: z.string().nullable(),
  paidBy: z.string().nullable(),
  receivedAt: z.string().nullable(),
  receivedBy: z.string().nullable(),
  refundedAt: z.string().nullable(),
  refundedBy: z.string().nullable(),
  refundNote: z.string().nullable(),
  dueAt: z.string(),
  bidDeadline: z.string(),
  version: z.number(),
  operations: z.object({ pay: z.boolean(), receive: z.boolean(), refund: z.boolean(), applyGuarantee: z.boolean() }),
});
export type Deposit = z.infer<typeof depositSchema>;

export const guaranteeSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  projectName: z.string().nullable(),
  enterpriseName: z.string(),
  amount: money,
  status: z.enum(GUARANTEE_STATUSES),
  issuerName: z.string().nullable(),
  guaranteeNo: z.string().nullable(),
  lastError: z.string().nullable(),
  attempts: z.number(),
  appliedAt: z.string(),
  appliedBy: z.string(),
  requestedAt: z.string().nullable(),
  issuedAt: z.string().nullable(),
  fileName: z.string().nullable(),
  operations: z.object({ download: z.boolean(), retry: z.boolean(), edit: z.boolean() }),
});
export type Guarantee = z.infer<typeof guaranteeSchema>;

export const issuerInfoSchema = z.object({ configured: z.boolean(), name: z.string().nullable() });
export type IssuerInfo = z.infer<typeof issuerInfoSchema>;

const uuid = (message: string) => z.string({ error: message }).uuid(message);
const sectionId = uuid(DEPOSIT_MESSAGES.sectionMissing);
const depositId = uuid(DEPOSIT_MESSAGES.depositMissing);
const guaranteeId = uuid(GUARANTEE_MESSAGES.missing);
const noNul = (v: string) => !v.includes('\u0000');
const text = (message: string, max: number) =>
  z
    .string({ error: message })
    .refine(noNul, '不能包含空字符（\\0）')
    .transform((v) => v.trim())
    .pipe(z.string().min(1, message).max(max, `最多 ${max} 个字符`));

export const depositListSchema = z.object({ sectionId: sectionId.optional() }).strict();
export const depositPageSchema = z.object({
  issuer: issuerInfoSchema,
  deposits: z.array(depositSchema),
  guarantees: z.array(guaranteeSchema),
});

export const depositSectionSchema = z.object({ sectionId }).strict();
/** The deposits of a section: counts for everyone who may look, the caller's own, and (the centre) every bidder's. */
export const depositSectionStatusSchema = z.object({
  sectionId: z.string(),
  amount: money,
  dueAt: z.string(),
  bidDeadline: z.string(),
  delayReason: z.string().nullable(),
  counts: z.object({
    registered: z.number(),
    unpaid: z.number(),
    paid: z.number(),
    received: z.number(),
    refunded: z.number(),
    guaranteed: z.number(),
    secured: z.number(),
  }),
  mine: depositSchema.nullable(),
  /** every bidder's deposit: the trading centre only; empty for anyone else */
  records: z.array(depositSchema),
  canDelay: z.boolean(),
});
export type DepositSectionStatus = z.infer<typeof depositSectionStatusSchema>;

export const depositPaySchema = z
  .object({
    sectionId,
    amount: z.number({ error: '请填写缴纳金额' }).positive('请填写缴纳金额'),
    payerAccount: z
      .string({ error: '请填写付款账号' })
      .trim()
      .regex(/^\d{8,30}$/, '付款账号为 8–30 位数字'),
    payerBank: text('请填写付款银行', 60),
  })
  .strict();
export const depositStepSchema = z.object({ id: depositId, version: z.number().int().optional() }).strict();
export const depositRefundSchema = z
  .object({ id: depositId, version: z.number().int().optional(), note: text('请填写退还说明', 200) })
  .strict();
export const depositDelaySchema = z
  .object({
    sectionId,
    dueAt: z.iso.datetime({ offset: true, error: '请选择新的缴纳截止时间' }),
    reason: text('请填写延期原因', 200),
  })
  .strict();

export const guaranteeApplySchema = z.object({ sectionId }).strict();
export const guaranteeAppliedSchema = z.object({ id: z.string(), gnCoding: z.string() });
export const guaranteeIdSchema = z.object({ id: guaranteeId }).strict();
