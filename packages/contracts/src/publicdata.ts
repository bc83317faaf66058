import { PAGE_SIZES } from './constants';
import { isValidDate } from './dates';
import { pageOf } from './portal';
import { REGIONS, TRADE_TYPES } from './portal-constants';
import { z } from './zod';

/**
 * 公共数据 (issue 19, /demoPublicPage/*): what the trading centre has published, read back as market data — every
 * published 交易 (a tendered section or lot: the group of published portal notices of one project code and section),
 * the control prices (最高投标限价) of the published sections, the people of the market with their public record, the
 * market indicators per period and the periodic monitoring report built from them.
 *
 * A 交易's control price is the amount of its first tender notice (招标公告 / 资格预审公告); its price the amount of its
 * 中标结果公告; it failed (流标 / 终止, to be re-tendered) with a 终止公告 or an opening that could not open (fewer than
 * three bids, on this platform). Sections run on this platform add what the opening hall recorded: the bids opened
 * (decrypted) when the opening closed. Drafts and withdrawn notices, unpublished sections and unpublished results never
 * count; persons show no private data.
 */

export const PUBLIC_DATA_MSG = {
  badMonth: '月份格式应为 YYYY-MM',
  monthOrder: '结束月份不能早于开始月份',
  monthSpan: (n: number) => `统计期间不能超过 ${n} 个月`,
  badDate: '日期格式应为 YYYY-MM-DD',
  dateOrder: '结束日期不能早于开始日期',
  badPeriod: '报告期间应为 YYYY-MM（月报）或 YYYY-Qn（季报），如 2026-10 或 2026-Q4',
  futurePeriod: '报告期间尚未开始',
  badRegion: '地区不在可选范围内',
  badTradeType: '交易类型不在可选范围内',
  badLimitType: '控制价公示只包括工程建设和政府采购',
  badGranularity: '统计粒度应为 month（月）、quarter（季）或 year（年）',
  badStatus: '交易状态不在可选范围内',
  badKeyword: '关键字不能超过 50 个字符',
  badPageSize: '每页条数应为 10、20、30 或 50',
  transactionMissing: '该交易不存在或尚未公开',
  personMissing: '该人员不存在',
} as const;

/** The longest period the indicators cover. */
export const PUBLIC_DATA_MAX_MONTHS = 60;

/** Trades whose first notice names a ceiling (最高投标限价 / 最高限价): the discount rate and 控制价公示 read only these. */
export const LIMIT_PRICE_TRADE_TYPES = ['工程建设', '政府采购'] as const;
export type LimitPriceTradeType = (typeof LIMIT_PRICE_TRADE_TYPES)[number];

/** The notice categories that open a 交易 (its first notice carries the control price). */
export const TENDER_NOTICE_CATEGORIES = ['招标公告', '资格预审公告'] as const;

export const TXN_STATUSES = ['bidding', 'opened', 'publicity', 'awarded', 'failed'] as const;
export type TxnStatus = (typeof TXN_STATUSES)[number];
export const TXN_STATUS_LABELS: Record<TxnStatus, string> = {
  bidding: '招标中',
  opened: '已开标',
  publicity: '中标候选人公示',
  awarded: '已成交',
  failed: '流标/终止',
};

export const GRANULARITIES = ['month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const GRANULARITY_LABELS: Record<Granularity, string> = { month: '月度', quarter: '季度', year: '年度' };
/** Months in one period of each granularity. */
export const GRANULARITY_MONTHS: Record<Granularity, number> = { month: 1, quarter: 3, year: 12 };

const opt = <T extends z.ZodType>(t: T) => t.optional();

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, PUBLIC_DATA_MSG.badMonth);
const day = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isValidDate(s), PUBLIC_DATA_MSG.badDate);
const region = z.enum(REGIONS, { message: PUBLIC_DATA_MSG.badRegion });
const tradeType = z.enum(TRADE_TYPES, { message: PUBLIC_DATA_MSG.badTradeType });
const keyword = z.string().trim().max(50, PUBLIC_DATA_MSG.badKeyword);

/** Months between two 'YYYY-MM' values, both counted. */
export function monthsBetween(start: string, end: string): number {
  const [ys, ms] = start.split('-').map(Number) as [number, number];
  const [ye, me] = end.split('-').map(Number) as [number, number];
  return (ye - ys) * 12 + (me - ms) + 1;
}

/** Pages as the house's lists have them: pageNum from 1, pageSize one of PAGE_SIZES. */
const paging = {
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), PUBLIC_DATA_MSG.badPageSize)
    .default(10),
};

const checkDates = (v: { dateFrom?: string; dateTo?: string }, ctx: z.RefinementCtx) => {
  if (v.dateFrom && v.dateTo && v.dateTo < v.dateFrom)
    ctx.addIssue({ code: 'custom', path: ['dateTo'], message: PUBLIC_DATA_MSG.dateOrder });
};

const listFilters = {
  keyword: opt(keyword),
  region: opt(region),
  /** publication of the first notice, days of the centre's calendar, both counted */
  dateFrom: opt(day),
  dateTo: opt(day),
};

// ---- 交易明细 -------------------------------------------------------------------------------------------------------

export const publicTxnListQuerySchema = z
  .object({
    ...listFilters,
    tradeType: opt(tradeType),
    status: opt(z.enum(TXN_STATUSES, { message: PUBLIC_DATA_MSG.badStatus })),
    ...paging,
  })
  .superRefine(checkDates);
export type PublicTxnListQuery = z.input<typeof publicTxnListQuerySchema>;

export const publicTxnSchema = z.object({
  /** the first tender notice's id: the 交易's key */
  id: z.string(),
  title: z.string(),
  projectCode: z.string().nullable(),
  projectName: z.string().nullable(),
  sectionName: z.string().nullable(),
  tradeType: z.string(),
  region: z.string(),
  tenderer: z.string().nullable(),
  /** the first tender notice's publication, YYYY-MM-DD */
  publishedAt: z.string(),
  /** yuan: 最高投标限价 / 最高限价 (works, purchases), 起始价 / 挂牌价 (land, equity, others) */
  controlPrice: z.number().nullable(),
  status: z.enum(TXN_STATUSES),
  /** yuan: the price of the 中标结果公告 */
  winPrice: z.number().nullable(),
  /** 1 − price / control price (trades with a ceiling only), 4 decimals */
  discountRate: z.number().nullable(),
  /** bids opened (decrypted) in this platform's opening hall; null: not opened here */
  bidders: z.number().int().nullable(),
  /** when it was awarded or failed, YYYY-MM-DD */
  concludedAt: z.string().nullable(),
  latestNoticeId: z.string(),
  latestCategory: z.string(),
  /** run through this platform's tendering (sections, opening hall) */
  onPlatform: z.boolean(),
});
export type PublicTxn = z.infer<typeof publicTxnSchema>;
export const publicTxnListSchema = pageOf(publicTxnSchema);

export const publicTxnDetailQuerySchema = z.object({ id: z.uuid({ message: PUBLIC_DATA_MSG.transactionMissing }) });
export const publicTxnDetailSchema = z.object({
  transaction: publicTxnSchema,
  /** its published notices, oldest first */
  notices: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      category: z.string(),
      publishedAt: z.string(),
      amount: z.number().nullable(),
    }),
  ),
  /** this platform's opening of the section (null: not opened here) */
  opening: z
    .object({
      status: z.string(),
      statusLabel: z.string(),
      at: z.string(),
      bidders: z.number().int(),
      failureReason: z.string().nullable(),
    })
    .nullable(),
});
export type PublicTxnDetail = z.infer<typeof publicTxnDetailSchema>;

// ---- 控制价公示 -----------------------------------------------------------------------------------------------------

export const priceLimitQuerySchema = z
  .object({
    ...listFilters,
    tradeType: opt(z.enum(LIMIT_PRICE_TRADE_TYPES, { message: PUBLIC_DATA_MSG.badLimitType })),
    ...paging,
  })
  .superRefine(checkDates);
export type PriceLimitQuery = z.input<typeof priceLimitQuerySchema>;
export const priceLimitRowSchema = z.object({
  id: z.string(),
  projectCode: z.string().nullable(),
  projectName: z.string().nullable(),
  sectionName: z.string().nullable(),
  tradeType: z.string(),
  /** 招标公告 or 资格预审公告 */
  category: z.string(),
  region: z.string(),
  tenderer: z.string().nullable(),
  /** 最高投标限价, yuan */
  controlPrice: z.number(),
  publishedAt: z.string(),
  onPlatform: z.boolean(),
});
export type PriceLimitRow = z.infer<typeof priceLimitRowSchema>;
export const priceLimitListSchema = pageOf(priceLimitRowSchema).extend({
  /** the control prices of every row of the filter (not only the page), yuan */
  amount: z.number(),
});

// ---- 人员 -----------------------------------------------------------------------------------------------------------

export const personListQuerySchema = z.object({
  keyword: opt(keyword),
  practiceArea: opt(z.string().trim().max(40)),
  ...paging,
});
export const personRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    enterpriseName: z.string().nullable(),
    practiceArea: z.string(),
    region: z.string().nullable(),
    /** the registration number, masked */
    certNo: z.string(),
    creditGrade: z.string().nullable(),
  })
  .strict();
export type PersonRow = z.infer<typeof personRowSchema>;
export const personListSchema = pageOf(personRowSchema).extend({ practiceAreas: z.array(z.string()) });

export const personQuerySchema = z.object({ id: z.uuid({ message: PUBLIC_DATA_MSG.personMissing }) });
/** A person's public record: no identity number, phone or address — only what the market may know. */
export const personDetailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    enterpriseName: z.string().nullable(),
    practiceArea: z.string(),
    region: z.string().nullable(),
    certNo: z.string(),
    creditGrade: z.string().nullable(),
    creditScore: z.number().nullable(),
    qualifications: z.array(
      z
        .object({
          name: z.string(),
          level: z.string(),
          certNo: z.string(),
          validUntil: z.string().nullable(),
          expired: z.boolean(),
        })
        .strict(),
    ),
    performances: z.array(
      z
        .object({
          projectName: z.string(),
          role: z.string(),
          builder: z.string().nullable(),
          amount: z.string().nullable(),
          completedAt: z.string().nullable(),
        })
        .strict(),
    ),
    creditRecords: z.array(
      z
        .object({
          kind: z.string(),
          title: z.string(),
          score: z.number(),
          issuer: z.string(),
          startDate: z.string(),
          endDate: z.string().nullable(),
          expired: z.boolean(),
        })
        .strict(),
    ),
  })
  .strict();
export type PersonDetail = z.infer<typeof personDetailSchema>;

// ---- 市场指标 -------------------------------------------------------------------------------------------------------

export const indicatorsQuerySchema = z
  .object({
    granularity: z.enum(GRANULARITIES, { message: PUBLIC_DATA_MSG.badGranularity }).default('month'),
    startMonth: opt(month),
    endMonth: opt(month),
    region: opt(region),
    tradeType: opt(tradeType),
  })
  .superRefine((v, ctx) => {
    if (v.startMonth && v.endMonth) {
      if (v.endMonth < v.startMonth)
        ctx.addIssue({ code: 'custom', path: ['endMonth'], message: PUBLIC_DATA_MSG.monthOrder });
      else if (monthsBetween(v.startMonth, v.endMonth) > PUBLIC_DATA_MAX_MONTHS)
        ctx.addIssue({
          code: 'custom',
          path: ['endMonth'],
          message: PUBLIC_DATA_MSG.monthSpan(PUBLIC_DATA_MAX_MONTHS),
        });
    }
  });
export type IndicatorsQuery = z.input<typeof indicatorsQuerySchema>;

/** The indicators of a set of 交易 events (one period, one region, …). */
export const metricsSchema = z.object({
  /** 交易 whose first notice was published */
  published: z.number().int(),
  /** their control prices, yuan */
  controlAmount: z.number(),
  /** sections whose opening closed in this platform's hall */
  opened: z.number().int(),
  /** the bids opened (decrypted) there */
  bidsOpened: z.number().int(),
  /** bids per opened section (2 decimals); null: none opened */
  bidders: z.number().nullable(),
  /** 交易 awarded (中标结果公告) */
  awarded: z.number().int(),
  /** their prices, yuan */
  awardAmount: z.number(),
  /** the awarded 交易 with a ceiling and both prices: the discount rate's base */
  discountSamples: z.number().int(),
  /** mean of 1 − price / control price over them (4 decimals); null: none */
  discountRate: z.number().nullable(),
  /** 交易 that failed (流标 / 终止: to be re-tendered) */
  failed: z.number().int(),
  /** awarded + failed */
  concluded: z.number().int(),
  /** failed / concluded (4 decimals); null: none concluded */
  retenderRate: z.number().nullable(),
});
export type Metrics = z.infer<typeof metricsSchema>;

export const indicatorsSchema = z.object({
  granularity: z.enum(GRANULARITIES),
  /** the period as asked, widened to whole quarters or years */
  startMonth: z.string(),
  endMonth: z.string(),
  total: metricsSchema,
  /** every period of the range, oldest first: 2026-10, 2026-Q4 or 2026 */
  periods: z.array(metricsSchema.extend({ period: z.string() })),
  byRegion: z.array(metricsSchema.extend({ name: z.string() })),
  byTradeType: z.array(metricsSchema.extend({ name: z.string() })),
});
export type Indicators = z.infer<typeof indicatorsSchema>;

// ---- 监测报告 -------------------------------------------------------------------------------------------------------

export const REPORT_PERIOD = /^(\d{4})-(?:(0[1-9]|1[0-2])|Q([1-4]))$/;
export const reportQuerySchema = z.object({
  period: z.string().trim().regex(REPORT_PERIOD, PUBLIC_DATA_MSG.badPeriod),
  region: opt(region),
});
export type ReportQuery = z.input<typeof reportQuerySchema>;

/** A report period's first and last month and its name: 2026-10 → 2026年10月, 2026-Q4 → 2026年第四季度. */
export function reportPeriodOf(
  period: string,
): { kind: 'month' | 'quarter'; startMonth: string; endMonth: string; label: string } | null {
  const m = REPORT_PERIOD.exec(period);
  if (!m) return null;
  const year = m[1]!;
  if (m[2])
    return {
      kind: 'month',
      startMonth: `${year}-${m[2]}`,
      endMonth: `${year}-${m[2]}`,
      label: `${year}年${Number(m[2])}月`,
    };
  const q = Number(m[3]);
  const mm = (n: number) => String(n).padStart(2, '0');
  return {
    kind: 'quarter',
    startMonth: `${year}-${mm(q * 3 - 2)}`,
    endMonth: `${year}-${mm(q * 3)}`,
    label: `${year}年第${'一二三四'[q - 1]}季度`,
  };
}

/** The period before: the month or quarter before it. */
export function previousReportPeriod(period: string): string | null {
  const m = REPORT_PERIOD.exec(period);
  if (!m) return null;
  const year = Number(m[1]);
  if (m[2]) {
    const mo = Number(m[2]);
    return mo === 1 ? `${year - 1}-12` : `${year}-${String(mo - 1).padStart(2, '0')}`;
  }
  const q = Number(m[3]);
  return q === 1 ? `${year - 1}-Q4` : `${year}-Q${q - 1}`;
}

export const reportSchema = z.object({
  period: z.string(),
  label: z.string(),
  kind: z.enum(['month', 'quarter']),
  previousPeriod: z.string(),
  previousLabel: z.string(),
  region: z.string().nullable(),
  /** the report's days, YYYY-MM-DD, both counted (a running period ends today) */
  start: z.string(),
  end: z.string(),
  current: metricsSchema,
  previous: metricsSchema,
  /** the months up to the period's end, or this month in a running period (six for a monthly report, twelve for a quarterly one) */
  trend: z.array(metricsSchema.extend({ period: z.string() })),
  byRegion: z.array(metricsSchema.extend({ name: z.string() })),
  byTradeType: z.array(metricsSchema.extend({ name: z.string() })),
  /** the findings, generated from the numbers */
  findings: z.array(z.string()),
  generatedAt: z.string(),
});
export type MonitoringReport = z.infer<typeof reportSchema>;
