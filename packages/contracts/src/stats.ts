import { pageOf } from './portal';
import { z } from './zod';

/**
 * 统计分析 (issue 19): /custom/statistics (交易统计), /custom/completeCount (办件统计), /custom/viewProgress (办理进度) and
 * the to-do statistics calls of §7 (/ks/task/v1/todo-statistics/*).
 *
 * A 交易 (transaction) is a section (标段) of a project whose 进场登记 has passed review: its month is the month of the
 * section's bid deadline (开标), its amount the section's estimate (招标控制价, yuan), its region the city of the project's
 * 项目所在地 (省本级 when only the province is given), its type the project's 项目类型.
 */

export const STATS_MSG = {
  badMonth: '月份格式应为 YYYY-MM',
  monthOrder: '结束月份不能早于开始月份',
  monthSpan: (n: number) => `统计期间不能超过 ${n} 个月`,
  noNode: '业务节点不存在或没有办件数据',
  overdueRange: (min: number, max: number) => `超期时限应为 ${min}～${max} 小时之间的整数`,
  noEnterprise: '当前账号未关联企业，没有可统计的数据',
} as const;

/** The longest period a statistics call covers. */
export const STATS_MAX_MONTHS = 60;
/** 办理进度: how long an application may wait at one review level before it counts as overdue (setting; hours). */
export const STATS_OVERDUE_DEFAULT_HOURS = 72;
export const STATS_OVERDUE_MIN_HOURS = 1;
export const STATS_OVERDUE_MAX_HOURS = 24 * 90;
/** An export of participating enterprises covers at most this many rows. */
export const STATS_EXPORT_MAX_ROWS = 200_000;
export const STATS_PAGE_SIZES = [10, 20, 30, 50] as const;

export const TODO_STATE_LABELS = { open: '待办', done: '已办' } as const;
export type TodoState = keyof typeof TODO_STATE_LABELS;

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, STATS_MSG.badMonth);

/** Months between two 'YYYY-MM' values, both counted. */
export function monthSpan(start: string, end: string): number {
  const [ys, ms] = start.split('-').map(Number) as [number, number];
  const [ye, me] = end.split('-').map(Number) as [number, number];
  return (ye - ys) * 12 + (me - ms) + 1;
}

/** The period and region every statistics call filters by; without a period: the current year. */
export const statsFilterFields = {
  startMonth: month.optional(),
  endMonth: month.optional(),
  region: z.string().trim().max(50).optional(),
};

const checkPeriod = (v: { startMonth?: string; endMonth?: string }, ctx: z.RefinementCtx) => {
  if (v.startMonth && v.endMonth) {
    if (v.endMonth < v.startMonth) ctx.addIssue({ code: 'custom', path: ['endMonth'], message: STATS_MSG.monthOrder });
    else if (monthSpan(v.startMonth, v.endMonth) > STATS_MAX_MONTHS)
      ctx.addIssue({ code: 'custom', path: ['endMonth'], message: STATS_MSG.monthSpan(STATS_MAX_MONTHS) });
  }
};

export const statsFilterSchema = z.object(statsFilterFields).superRefine(checkPeriod);
export type StatsFilter = z.input<typeof statsFilterSchema>;

const paging = {
  curPage: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (STATS_PAGE_SIZES as readonly number[]).includes(n), '每页条数应为 10、20、30 或 50')
    .default(10),
};

const moneyRow = { count: z.number().int(), amount: z.number() };

/** 交易统计: totals, by type, by region, by month (count and amount). */
export const txnStatsQuerySchema = z
  .object({ ...statsFilterFields, type: z.string().trim().max(40).optional() })
  .superRefine(checkPeriod);
export const txnStatsSchema = z.object({
  startMonth: z.string(),
  endMonth: z.string(),
  total: z.object(moneyRow),
  byType: z.array(z.object({ name: z.string(), ...moneyRow })),
  byRegion: z.array(z.object({ name: z.string(), ...moneyRow })),
  byMonth: z.array(z.object({ month: z.string(), ...moneyRow })),
  /** the regions and types that have transactions (filter options) */
  regions: z.array(z.string()),
  types: z.array(z.string()),
});
export type TxnStats = z.infer<typeof txnStatsSchema>;

export const txnListQuerySchema = z
  .object({
    ...statsFilterFields,
    type: z.string().trim().max(40).optional(),
    /** one month of the period (a bar of the month chart) */
    month: month.optional(),
    ...paging,
  })
  .superRefine(checkPeriod);
export const txnRowSchema = z.object({
  sectionId: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  projectCode: z.string().nullable(),
  projectName: z.string().nullable(),
  type: z.string(),
  region: z.string(),
  month: z.string(),
  openedAt: z.string(),
  amount: z.number(),
});
export type TxnRow = z.infer<typeof txnRowSchema>;
export const txnListSchema = pageOf(txnRowSchema);

/** 办件统计: engine records per system and node by state. */
export const completeCountSchema = z.object({
  startMonth: z.string(),
  endMonth: z.string(),
  rows: z.array(
    z.object({
      systemCoding: z.string(),
      systemName: z.string(),
      gnCoding: z.string(),
      nodeName: z.string(),
      draft: z.number().int(),
      pending: z.number().int(),
      passed: z.number().int(),
      rejected: z.number().int(),
      total: z.number().int(),
    }),
  ),
});
export type CompleteCount = z.infer<typeof completeCountSchema>;
export const RECORD_STATES = ['draft', 'pending', 'passed', 'rejected'] as const;
export const completeListQuerySchema = z
  .object({
    ...statsFilterFields,
    gnCoding: z.string().trim().min(1).max(63),
    status: z.enum(RECORD_STATES).optional(),
    ...paging,
  })
  .superRefine(checkPeriod);
export const completeRowSchema = z.object({
  id: z.string(),
  businessName: z.string(),
  status: z.string(),
  auditLevel: z.number().int(),
  enterpriseName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompleteRow = z.infer<typeof completeRowSchema>;
export const completeListSchema = pageOf(completeRowSchema);

/** 办理进度: applications in review, per level; time spent per level (decided ones); overdue. */
export const progressSchema = z.object({
  startMonth: z.string(),
  endMonth: z.string(),
  overdueHours: z.number().int(),
  pending: z.number().int(),
  overdue: z.number().int(),
  levels: z.array(
    z.object({
      gnCoding: z.string(),
      nodeName: z.string(),
      level: z.number().int(),
      levelName: z.string(),
      /** applications waiting at this level now */
      pending: z.number().int(),
      overdue: z.number().int(),
      /** decisions taken at this level in the period and the time they took (hours) */
      decided: z.number().int(),
      avgHours: z.number().nullable(),
      maxHours: z.number().nullable(),
    }),
  ),
});
export type Progress = z.infer<typeof progressSchema>;
export const progressListQuerySchema = z
  .object({
    ...statsFilterFields,
    gnCoding: z.string().trim().max(63).optional(),
    level: z.coerce.number().int().min(1).max(99).optional(),
    overdue: z.enum(['1', '0']).optional(),
    ...paging,
  })
  .superRefine(checkPeriod);
export const progressRowSchema = z.object({
  recordId: z.string(),
  gnCoding: z.string(),
  nodeName: z.string(),
  businessName: z.string(),
  submitterName: z.string(),
  level: z.number().int(),
  levelName: z.string(),
  since: z.string(),
  waitingHours: z.number(),
  overdue: z.boolean(),
});
export type ProgressRow = z.infer<typeof progressRowSchema>;
export const progressListSchema = pageOf(progressRowSchema);

export const statsSettingsSchema = z.object({
  overdueHours: z
    .number()
    .int(STATS_MSG.overdueRange(STATS_OVERDUE_MIN_HOURS, STATS_OVERDUE_MAX_HOURS))
    .min(STATS_OVERDUE_MIN_HOURS, STATS_MSG.overdueRange(STATS_OVERDUE_MIN_HOURS, STATS_OVERDUE_MAX_HOURS))
    .max(STATS_OVERDUE_MAX_HOURS, STATS_MSG.overdueRange(STATS_OVERDUE_MIN_HOURS, STATS_OVERDUE_MAX_HOURS)),
});
export type StatsSettings = z.infer<typeof statsSettingsSchema>;

/** To-do statistics (§7 /ks/task/v1/todo-statistics/*). */
const stateCounts = { open: z.number().int(), done: z.number().int(), total: z.number().int() };
export const todoStatsListSchema = z.array(
  z.object({
    systemCoding: z.string(),
    systemName: z.string(),
    gnCoding: z.string(),
    nodeName: z.string(),
    ...stateCounts,
  }),
);
export const todoStatsRegionSchema = z.array(z.object({ region: z.string(), ...stateCounts }));
export const todoStatsEnterpriseQuerySchema = z.object({ ...statsFilterFields, ...paging }).superRefine(checkPeriod);
export const todoStatsEnterpriseSchema = pageOf(
  z.object({ enterpriseId: z.string(), enterpriseName: z.string(), region: z.string(), ...stateCounts }),
);
export const todoRecordsQuerySchema = z
  .object({
    ...statsFilterFields,
    gnCoding: z.string().trim().max(63).optional(),
    enterpriseId: z.uuid().optional(),
    state: z.enum(['open', 'done']).optional(),
    ...paging,
  })
  .superRefine(checkPeriod);
export const todoRecordRowSchema = z.object({
  id: z.string(),
  gnCoding: z.string(),
  nodeName: z.string(),
  businessName: z.string(),
  submitterName: z.string(),
  enterpriseName: z.string().nullable(),
  region: z.string(),
  level: z.number().int(),
  sbTime: z.string(),
  doneAt: z.string().nullable(),
});
export type TodoRecordRow = z.infer<typeof todoRecordRowSchema>;
export const todoRecordsSchema = pageOf(todoRecordRowSchema);

/** Enterprises participating in transactions (registered for sections of the period). */
export const PARTICIPATE_SORTS = ['sections', 'amount'] as const;
export const participateQuerySchema = z
  .object({
    ...statsFilterFields,
    type: z.string().trim().max(40).optional(),
    keyword: z.string().trim().max(100).optional(),
    sortField: z.enum(PARTICIPATE_SORTS).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    ...paging,
  })
  .superRefine(checkPeriod);
export const participateExportSchema = z
  .object({
    ...statsFilterFields,
    type: z.string().trim().max(40).optional(),
    keyword: z.string().trim().max(100).optional(),
  })
  .superRefine(checkPeriod);
export const participateRowSchema = z.object({
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  creditCode: z.string(),
  region: z.string().nullable(),
  /** sections registered for */
  sections: z.number().int(),
  /** their estimates (yuan) */
  amount: z.number(),
});
export type ParticipateRow = z.infer<typeof participateRowSchema>;
export const participateListSchema = pageOf(participateRowSchema);
