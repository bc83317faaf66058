import { PAGE_SIZES } from './constants';
import { CREDIT_LEVEL_TITLE_MAX } from './credit-rules';
import {
  LOGIN_MODES,
  MARKET_KINDS,
  NOTICE_CATEGORIES,
  NOTICE_STATUSES,
  PORTAL_KEYWORD_MAX,
  REGIONS,
  TRADE_TYPES,
} from './portal-constants';
import { dateProblem, fileIdOfUrl, NOTICE_LINK_MESSAGES } from './portal-rules';
import { z } from './zod';

/** A real calendar day in the portal's range: 2020-13-45, 2020-02-30 and 0000-01-01 are 400s, never a query. */
const dateStr = z.string().superRefine((v, ctx) => {
  const problem = dateProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const pageNum = z.coerce.number().int().min(1).max(100_000).default(1);
const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
  .default(10);
const keyword = z.string().trim().max(PORTAL_KEYWORD_MAX, `关键字不能超过${PORTAL_KEYWORD_MAX}个字符`).optional();

export const noticeListQuerySchema = z
  .object({
    category: z.enum(NOTICE_CATEGORIES).optional(),
    tradeType: z.enum(TRADE_TYPES).optional(),
    region: z.enum(REGIONS).optional(),
    startDate: dateStr.optional(),
    endDate: dateStr.optional(),
    keyword,
    pageNum,
    pageSize,
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: '结束日期不能早于开始日期',
    path: ['endDate'],
  });
export type NoticeListQuery = z.infer<typeof noticeListQuerySchema>;

export const attachmentSchema = z.object({ name: z.string().min(1).max(200), url: z.string().min(1).max(500) });

/** A notice attachment as saved: a name and the download address of a file uploaded for notices (checked to exist). */
export const noticeAttachmentInputSchema = z.object({
  name: z.string().trim().min(1, '请输入附件名称').max(200, '附件名称不能超过200个字符'),
  url: z
    .string()
    .trim()
    .max(500, '附件地址不能超过500个字符')
    .refine((u) => fileIdOfUrl(u) !== null, NOTICE_LINK_MESSAGES.attachmentNotOurs),
});

export const noticeSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  category: z.string(),
  tradeType: z.string(),
  region: z.string(),
  projectCode: z.string().nullable(),
  publishedAt: z.string().nullable(),
});
export type NoticeSummary = z.infer<typeof noticeSummarySchema>;

export const noticeDetailSchema = noticeSummarySchema.extend({
  bodyHtml: z.string(),
  attachments: z.array(attachmentSchema),
  amount: z.string().nullable(),
  tenderer: z.string().nullable(),
  /** free text until the tendering module links notices to its projects and sections */
  projectName: z.string().nullable(),
  sectionName: z.string().nullable(),
});
export type NoticeDetail = z.infer<typeof noticeDetailSchema>;

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ records: z.array(item), total: z.number().int() });

export const homeOverviewSchema = z.object({
  byCategory: z.array(z.object({ category: z.string(), items: z.array(noticeSummarySchema) })),
  byTradeType: z.array(z.object({ tradeType: z.string(), items: z.array(noticeSummarySchema) })),
  stats: z.object({
    projects: z.number().int(),
    /** yuan, as a decimal string */
    transactionAmount: z.string(),
    enterprises: z.number().int(),
    notices: z.number().int(),
  }),
});
export type HomeOverview = z.infer<typeof homeOverviewSchema>;

export const optionSchema = z.object({ label: z.string(), value: z.string() });
export type Option = z.infer<typeof optionSchema>;

export const idParamSchema = z.object({ id: z.string().uuid('记录不存在') });

export const marketListQuerySchema = z.object({
  kind: z.enum(MARKET_KINDS).default('enterprise'),
  enterpriseType: z.string().max(40).optional(),
  practiceArea: z.string().max(40).optional(),
  /** a level title (administrators may rename the levels: credit level/titles) */
  creditGrade: z.string().trim().min(1).max(CREDIT_LEVEL_TITLE_MAX, '信用等级不存在').optional(),
  keyword,
  pageNum,
  pageSize,
});
export type MarketListQuery = z.infer<typeof marketListQuerySchema>;

export const marketEntitySchema = z.object({
  id: z.string(),
  kind: z.enum(MARKET_KINDS),
  name: z.string(),
  /** enterprise: credit code; practitioner: certificate number, masked */
  code: z.string(),
  /** enterprise type, or practice area for practitioners */
  type: z.string(),
  region: z.string().nullable(),
  creditGrade: z.string().nullable(),
  /** practitioners: their enterprise */
  enterpriseName: z.string().nullable(),
});
export type MarketEntity = z.infer<typeof marketEntitySchema>;

export const marketDetailSchema = z.object({
  basic: marketEntitySchema.extend({
    legalPerson: z.string().nullable(),
    address: z.string().nullable(),
    registeredCapital: z.string().nullable(),
    establishedAt: z.string().nullable(),
    creditScore: z.number().nullable(),
  }),
  qualifications: z.array(
    z.object({
      name: z.string(),
      level: z.string(),
      /** practitioners' certificate numbers are masked as in the list */
      certNo: z.string(),
      validUntil: z.string().nullable(),
      /** past its validity (China Standard Time): shown as 已过期 */
      expired: z.boolean(),
    }),
  ),
  performances: z.array(
    z.object({
      projectName: z.string(),
      role: z.string(),
      /** 建设单位 (null: not recorded) */
      builder: z.string().nullable(),
      amount: z.string().nullable(),
      completedAt: z.string().nullable(),
    }),
  ),
  creditRecords: z.array(
    z.object({
      /** 良好 or 不良 */
      kind: z.string(),
      title: z.string(),
      score: z.number(),
      issuer: z.string(),
      startDate: z.string(),
      endDate: z.string().nullable(),
      /** past its end date: it no longer counts towards the score (shown as 已失效) */
      expired: z.boolean(),
    }),
  ),
});
export type MarketDetail = z.infer<typeof marketDetailSchema>;

export const portalConfigSchema = z.object({
  loginMode: z.enum(LOGIN_MODES),
  /** external bid-opening hall (http(s)); null: not configured — the portal shows 开标大厅 disabled */
  bidHallUrl: z.string().nullable(),
  /** the platform's time zone (APP_TZ, IANA): which day "today" is for every date rule */
  timeZone: z.string(),
});
export type PortalConfig = z.infer<typeof portalConfigSchema>;

// ---- administration of notices (role M)
export const noticeInputSchema = z.object({
  title: z.string().trim().min(1, '请输入公告标题').max(200, '标题不能超过200个字符'),
  category: z.enum(NOTICE_CATEGORIES, { message: '请选择公告类别' }),
  tradeType: z.enum(TRADE_TYPES, { message: '请选择交易类型' }),
  region: z.enum(REGIONS, { message: '请选择地区' }),
  projectCode: z.string().trim().max(64, '项目编号不能超过64个字符').optional().nullable(),
  projectName: z.string().trim().max(200, '项目名称不能超过200个字符').optional().nullable(),
  sectionName: z.string().trim().max(200, '标段名称不能超过200个字符').optional().nullable(),
  tenderer: z.string().trim().max(200, '招标人不能超过200个字符').optional().nullable(),
  amount: z
    .string()
    .regex(/^\d{1,14}(\.\d{1,2})?$/, '金额格式有误（元，最多两位小数）')
    .optional()
    .nullable(),
  bodyHtml: z.string().min(1, '请填写内容').max(500_000, '正文过长'),
  attachments: z.array(noticeAttachmentInputSchema).max(20, '附件不能超过20个').default([]),
});
export type NoticeInput = z.infer<typeof noticeInputSchema>;

/** Create (no id) or update (id and the version read) a notice. */
export const noticeSaveSchema = noticeInputSchema
  .extend({ id: z.string().uuid().optional(), version: z.number().int().min(1).optional() })
  .refine((v) => !v.id || v.version !== undefined, { message: '缺少版本号，请刷新后重试', path: ['version'] });
export type NoticeSave = z.infer<typeof noticeSaveSchema>;

export const adminNoticeListQuerySchema = z.object({
  status: z.enum(NOTICE_STATUSES).optional(),
  category: z.enum(NOTICE_CATEGORIES).optional(),
  keyword,
  pageNum,
  pageSize,
});

export const adminNoticeSchema = noticeDetailSchema.extend({
  status: z.enum(NOTICE_STATUSES),
  version: z.number().int(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
});
export type AdminNotice = z.infer<typeof adminNoticeSchema>;
