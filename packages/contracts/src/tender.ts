import { dateIn, isValidDate } from './dates';
import { K_CANDIDATES_DEFAULT } from './evaluation-rules';
import { z } from './zod';

/**
 * Tendering (issue 16): a project comes in through the engine node 项目进场登记 (ZBTB_XMDJ, five-in-one entry) and is
 * divided into sections (标段), each with its own estimate, deposit and timeline. The timeline rules are settings whose
 * defaults are the legal minimums (DOMAIN.md "Tender timeline"); a trading centre may make them stricter, never looser,
 * and the server enforces them with messages naming the rule.
 */
export const TENDER_PROJECT_NODE = 'ZBTB_XMDJ';

/** The legal minimums (and the 2% ceiling) behind the timeline settings. */
export const TENDER_LEGAL = {
  /** 招标投标法实施条例第十六条: tender documents are on sale for at least 5 days. */
  docSaleDays: 5,
  /** 招标投标法第二十四条: at least 20 days from the first issue of the documents to the bid deadline. */
  issueToDeadlineDays: 20,
  /** 招标投标法实施条例第二十六条: the bid deposit is at most 2% of the estimated price. */
  depositMaxPercent: 2,
  /**
   * 招标投标法实施条例第二十一条: a clarification or change that may affect the making of bids is issued at least 15
   * days before the bid deadline; otherwise the deadline moves.
   */
  clarifyDays: 15,
  /** 招标投标法实施条例第五十四条: the candidates are published within 3 days of receiving the evaluation report… */
  publicityWithinDays: 3,
  /** …for at least 3 days. */
  publicityDays: 3,
} as const;

export const tenderSettingsSchema = z
  .object({
    docSaleDays: z
      .number({ error: '请输入招标文件最短发售天数' })
      .int('天数应为整数')
      .min(TENDER_LEGAL.docSaleDays, `招标文件发售期不得少于法定的 ${TENDER_LEGAL.docSaleDays} 日`)
      .max(60, '招标文件发售期设置不得超过 60 日'),
    issueToDeadlineDays: z
      .number({ error: '请输入发出招标文件至投标截止的最短天数' })
      .int('天数应为整数')
      .min(
        TENDER_LEGAL.issueToDeadlineDays,
        `自招标文件发出至投标截止不得少于法定的 ${TENDER_LEGAL.issueToDeadlineDays} 日`,
      )
      .max(180, '发出招标文件至投标截止的设置不得超过 180 日'),
    depositMaxPercent: z
      .number({ error: '请输入投标保证金比例上限' })
      .gt(0, '投标保证金比例上限应大于 0')
      .max(TENDER_LEGAL.depositMaxPercent, `投标保证金比例上限不得高于法定的 ${TENDER_LEGAL.depositMaxPercent}%`)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, '投标保证金比例最多保留两位小数'),
    clarifyDays: z
      .number({ error: '请输入澄清或修改距投标截止的最短天数' })
      .int('天数应为整数')
      .min(
        TENDER_LEGAL.clarifyDays,
        `影响投标文件编制的澄清或修改距投标截止不得少于法定的 ${TENDER_LEGAL.clarifyDays} 日`,
      )
      .max(60, '澄清或修改的设置不得超过 60 日'),
    publicityWithinDays: z
      .number({ error: '请输入收到评标报告后公示中标候选人的期限' })
      .int('天数应为整数')
      .min(1, '公示期限至少 1 日')
      .max(
        TENDER_LEGAL.publicityWithinDays,
        `应自收到评标报告之日起不超过法定的 ${TENDER_LEGAL.publicityWithinDays} 日内公示中标候选人`,
      )
      .default(TENDER_LEGAL.publicityWithinDays),
    publicityDays: z
      .number({ error: '请输入中标候选人公示期' })
      .int('天数应为整数')
      .min(TENDER_LEGAL.publicityDays, `中标候选人公示期不得少于法定的 ${TENDER_LEGAL.publicityDays} 日`)
      .max(30, '中标候选人公示期设置不得超过 30 日')
      .default(TENDER_LEGAL.publicityDays),
    /** the 评审系数 K values one is drawn from in the opening hall (no legal value: the centre's) */
    kCandidates: z
      .array(
        z
          .number({ error: '评审系数 K 应为数字' })
          .min(0.8, '评审系数 K 不小于 0.80')
          .max(1, '评审系数 K 不大于 1')
          .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, '评审系数 K 最多两位小数'),
      )
      .min(2, '评审系数 K 至少 2 个备选值')
      .max(21, '评审系数 K 最多 21 个备选值')
      .refine((a) => new Set(a).size === a.length, '评审系数 K 备选值不能重复')
      .default([...K_CANDIDATES_DEFAULT]),
  })
  .strict();
export type TenderSettings = z.infer<typeof tenderSettingsSchema>;
export const TENDER_SETTINGS_DEFAULTS: TenderSettings = { ...TENDER_LEGAL, kCandidates: [...K_CANDIDATES_DEFAULT] };

const SECTION_CODE = /^[A-Za-z0-9-]{1,40}$/;
/** Money in yuan with at most two decimals, below 10^13. */
const yuan = (what: string) =>
  z
    .number({ error: `请输入${what}` })
    .min(0, `${what}不能为负数`)
    .max(9_999_999_999_999, `${what}超出范围`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${what}最多保留两位小数`);
const day = (what: string) =>
  z.string({ error: `请选择${what}` }).refine((s) => isValidDate(s), `${what}应为有效日期（YYYY-MM-DD）`);

export const PERF_COUNT_MAX = 20;
export const PERF_YEARS_MAX = 10;

/** A section's performance requirement in words (the notice, the registration check): null when none is required. */
export function perfRequirementText(s: { perfCount: number; perfMinAmount: number; perfYears: number }): string | null {
  if (s.perfCount <= 0) return null;
  const amount =
    s.perfMinAmount > 0
      ? `单项合同金额不低于 ${(s.perfMinAmount / 10_000).toLocaleString('zh-CN', { maximumFractionDigits: 2 })} 万元的`
      : '';
  return `近 ${s.perfYears} 年内完成${amount}工程业绩不少于 ${s.perfCount} 项`;
}

/** A section as entered (标段信息). */
export const tenderSectionInputSchema = z
  .object({
    /** present when changing a section */
    id: z.uuid().optional(),
    projectId: z.uuid({ error: '缺少项目' }),
    code: z.string({ error: '请输入标段编号' }).trim().regex(SECTION_CODE, '标段编号为 1–40 位字母、数字或连字符'),
    name: z.string({ error: '请输入标段名称' }).trim().min(1, '请输入标段名称').max(100, '标段名称不超过 100 字'),
    estimate: yuan('标段估算价'),
    deposit: yuan('投标保证金'),
    docSaleStart: day('招标文件发售开始日期'),
    docSaleEnd: day('招标文件发售截止日期'),
    /** the bid deadline, which is also the opening time (DOMAIN.md: the same moment) */
    bidDeadline: z.iso.datetime({ offset: true, error: '请选择投标截止（开标）时间' }),
    /**
     * 业绩要求: at least `perfCount` completed projects (0: none required), each of a contract amount of at least
     * `perfMinAmount` yuan, completed within the last `perfYears` years — checked at registration against the
     * enterprise's reviewed performances (企业业绩).
     */
    perfCount: z
      .number({ error: '请输入业绩数量' })
      .int('业绩数量应为整数')
      .min(0, '业绩数量不能为负数')
      .max(PERF_COUNT_MAX, `业绩数量不超过 ${PERF_COUNT_MAX} 项`)
      .default(0),
    perfMinAmount: yuan('单项合同金额').default(0),
    perfYears: z
      .number({ error: '请输入业绩年限' })
      .int('业绩年限应为整数')
      .min(1, '业绩年限至少 1 年')
      .max(PERF_YEARS_MAX, `业绩年限不超过 ${PERF_YEARS_MAX} 年`)
      .default(3),
    /** optimistic concurrency when changing */
    version: z.number().int().min(1).optional(),
  })
  .strict();
/** As sent (the performance requirement may be left out: none). */
export type TenderSectionInput = z.input<typeof tenderSectionInputSchema>;

export const tenderSectionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  code: z.string(),
  name: z.string(),
  estimate: z.number(),
  deposit: z.number(),
  docSaleStart: z.string(),
  docSaleEnd: z.string(),
  bidDeadline: z.string(),
  perfCount: z.number(),
  perfMinAmount: z.number(),
  perfYears: z.number(),
  version: z.number(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TenderSection = z.infer<typeof tenderSectionSchema>;

export const tenderProjectSchema = z.object({
  id: z.string(),
  status: z.string(),
  /** the project's fields as the node stores them (项目名称, 项目编号, 招标人 …) */
  values: z.record(z.string(), z.unknown()),
  /** may the caller change its sections */
  canEdit: z.boolean(),
  sections: z.array(tenderSectionSchema),
});
export type TenderProject = z.infer<typeof tenderProjectSchema>;

export const TENDER_MESSAGES = {
  projectMissing: '项目不存在或无权查看',
  nodeNotConfigured: '项目进场登记节点尚未配置字段，请联系管理员',
  sectionMissing: '标段不存在或已删除',
  sectionCodeTaken: '该项目下已有相同编号的标段',
  sectionStale: '标段已被他人修改，请刷新后重试',
  deadlinePassed: '投标截止时间已过，标段不能再修改或删除',
  deadlineInPast: '投标截止（开标）时间不能早于当前时间',
  saleOrder: '招标文件发售截止日期不能早于开始日期',
  saleAfterDeadline: '招标文件发售截止日期不能晚于投标截止日期',
  saved: '标段已保存',
  deleted: '标段已删除',
  settingsSaved: '交易时限设置已保存',
} as const;

export interface TimelineProblem {
  field: keyof TenderSectionInput;
  rule: 'docSaleDays' | 'issueToDeadlineDays' | 'depositMaxPercent' | 'order';
  message: string;
}

/** Whole calendar days from date a to date b (YYYY-MM-DD), b − a. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The section's timeline and deposit against the settings, each problem naming the rule it breaks. Dates are the
 * trading centre's calendar dates (`tz`); the sale period counts both its first and last day.
 */
export function sectionTimelineProblems(
  s: Pick<TenderSectionInput, 'estimate' | 'deposit' | 'docSaleStart' | 'docSaleEnd' | 'bidDeadline'>,
  settings: TenderSettings,
  tz: string,
): TimelineProblem[] {
  const problems: TimelineProblem[] = [];
  const deadlineDay = dateIn(new Date(s.bidDeadline), tz);
  const saleDays = daysBetween(s.docSaleStart, s.docSaleEnd) + 1;
  if (saleDays < 1) {
    problems.push({ field: 'docSaleEnd', rule: 'order', message: TENDER_MESSAGES.saleOrder });
  } else if (saleDays < settings.docSaleDays) {
    problems.push({
      field: 'docSaleEnd',
      rule: 'docSaleDays',
      message: `招标文件发售期不得少于 ${settings.docSaleDays} 日（招标投标法实施条例第十六条），当前为 ${saleDays} 日`,
    });
  }
  if (daysBetween(s.docSaleEnd, deadlineDay) < 0) {
    problems.push({ field: 'docSaleEnd', rule: 'order', message: TENDER_MESSAGES.saleAfterDeadline });
  }
  const issueDays = daysBetween(s.docSaleStart, deadlineDay);
  if (issueDays < settings.issueToDeadlineDays) {
    problems.push({
      field: 'bidDeadline',
      rule: 'issueToDeadlineDays',
      message: `自招标文件开始发出之日起至投标截止之日止不得少于 ${settings.issueToDeadlineDays} 日（招标投标法第二十四条），当前为 ${issueDays} 日`,
    });
  }
  // cents, so that 2% of 1,234,567.89 compares exactly
  const maxCents = Math.floor((Math.round(s.estimate * 100) * settings.depositMaxPercent) / 100);
  if (Math.round(s.deposit * 100) > maxCents) {
    problems.push({
      field: 'deposit',
      rule: 'depositMaxPercent',
      message: `投标保证金不得超过标段估算价的 ${settings.depositMaxPercent}%（招标投标法实施条例第二十六条），上限为 ${(maxCents / 100).toFixed(2)} 元`,
    });
  }
  return problems;
}
