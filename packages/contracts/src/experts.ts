import { isValidDateTime } from './dates';
import {
  COMMITTEE_MAX,
  DEFAULT_RECENT_DAYS,
  EXPERT_SPECIALTIES,
  EXTRACTION_STATUS_VALUES,
  SHANXI_CITIES,
} from './experts-rules';
import { pageOf } from './portal';
import { z } from './zod';

/** Expert extraction (issue 16): request and answer schemas. The rules are in experts-rules.ts (zod-free). */

export const EXPERT_POOL_NODE = 'ZJCQ_ZJK';
export const EXTRACTION_NODE = 'ZJCQ_CQXM';
export const EXPERT_RECENT_DAYS_SETTING = 'experts.recentDays';

export const EXTRACTION_MESSAGES = {
  notFound: '抽取记录不存在',
  onlyAdmin: '只有抽取管理员（平台管理员）可以进行专家抽取操作',
  notDraft: '只有草稿状态的抽取记录可以修改或删除',
  committedAlready: '该抽取已提交种子承诺，条件不能再修改',
  notCommitted: '请先提交种子承诺，再进行抽取',
  drawnAlready: '该抽取已完成抽取',
  notDrawn: '尚未抽取，不能登记专家答复',
  answeredAlready: '该专家的答复已登记',
  memberNotFound: '抽取名单中没有该专家',
  poolEmpty: (s: string) => `专业「${s}」没有符合抽取条件的专家`,
  shortfall: (s: string, need: number, have: number) =>
    `专业「${s}」符合抽取条件的专家不足：需要 ${need} 人，仅有 ${have} 人，请调整抽取条件`,
  exhausted: (s: string) => `专业「${s}」符合条件的专家已全部抽出，无法补抽，请重新组织抽取`,
  notComplete: '还有专家未确认参加或人数不足，不能确认名单',
  notConfirmed: '名单确认后才能公开',
  beforeEvaluation: (t: string) => `评标开始时间（${t}）之前不能公开专家名单`,
  evaluationBeforeOpening: '评标开始时间不能早于开标时间',
  declineNote: '请填写拒绝原因',
  region: (r: string) => `「${r}」不是可选的抽取地区`,
  expertNotInPool: '回避的专家不在专家库中',
  confidential: '专家名单在评标开始前保密',
  seedHidden: (t: string) => `抽取种子将在名单确认且评标开始（${t}）后公开`,
} as const;

const text = (max: number, name: string) =>
  z.string().trim().min(1, `请填写${name}`).max(max, `${name}不能超过 ${max} 个字`);
const dateTime = (name: string) => z.string().refine(isValidDateTime, `${name}须为 YYYY-MM-DD HH:mm 格式的有效时间`);

export const extractionLineSchema = z.object({
  specialty: z.enum(EXPERT_SPECIALTIES.map((s) => s.value) as [string, ...string[]], {
    error: '请选择专家库中的评标专业',
  }),
  count: z.number({ error: '请填写抽取人数' }).int('抽取人数须为整数').min(1, '抽取人数至少 1 人').max(COMMITTEE_MAX),
});

export const extractionConditionsSchema = z.object({
  tendereeReps: z.number({ error: '请填写招标人代表人数' }).int('招标人代表人数须为整数').min(0).max(COMMITTEE_MAX),
  lines: z.array(extractionLineSchema).min(1, '请至少添加一个抽取专业').max(EXPERT_SPECIALTIES.length),
  regions: z
    .array(z.enum(SHANXI_CITIES, { error: '请选择山西省的地市' }))
    .max(SHANXI_CITIES.length)
    .default([]),
  avoidEmployers: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
  avoidExpertIds: z.array(z.string().uuid('回避的专家不在专家库中')).max(200).default([]),
  recentDays: z
    .number()
    .int('回避天数须为整数')
    .min(0, '回避天数不能为负数')
    .max(3650, '回避天数不能超过 3650 天')
    .default(DEFAULT_RECENT_DAYS),
});
export type ExtractionConditions = z.infer<typeof extractionConditionsSchema>;

export const extractionCreateSchema = z.object({
  projectName: text(200, '项目名称'),
  sectionName: text(200, '标段名称'),
  /** the project's or section's number in the trading system (free text until five-in-one lands) */
  projectRef: z.string().trim().max(64, '项目编号不能超过 64 个字').default(''),
  /**
   * the five-in-one section the committee is for: its tenderee, its agency and the enterprises registered for it are
   * added to the employers to avoid (the server reads them; the client cannot leave one out)
   */
  sectionId: z.uuid('标段不存在').optional(),
  openingAt: dateTime('开标时间'),
  evaluationStartAt: dateTime('评标开始时间'),
  location: z.string().trim().max(200).default(''),
  conditions: extractionConditionsSchema,
});
export type ExtractionCreate = z.infer<typeof extractionCreateSchema>;

export const extractionIdSchema = z.object({ id: z.string().uuid(EXTRACTION_MESSAGES.notFound) });

export const extractionAnswerSchema = z.object({
  id: z.string().uuid(EXTRACTION_MESSAGES.notFound),
  memberId: z.string().uuid(EXTRACTION_MESSAGES.memberNotFound),
  answer: z.enum(['confirmed', 'declined'], { error: '请选择专家的答复' }),
  note: z.string().trim().max(500, '备注不能超过 500 个字').default(''),
});

export const extractionListQuerySchema = z.object({
  keyword: z.string().trim().max(100).default(''),
  status: z.enum(EXTRACTION_STATUS_VALUES).optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

export const extractionSummarySchema = z.object({
  id: z.string(),
  code: z.string(),
  projectName: z.string(),
  sectionName: z.string(),
  projectRef: z.string(),
  openingAt: z.string(),
  evaluationStartAt: z.string(),
  status: z.enum(EXTRACTION_STATUS_VALUES),
  statusLabel: z.string(),
  committeeSize: z.number().int(),
  expertCount: z.number().int(),
  seedHash: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type ExtractionSummary = z.infer<typeof extractionSummarySchema>;
export const extractionPageSchema = pageOf(extractionSummarySchema);

export const extractionMemberSchema = z.object({
  id: z.string(),
  line: z.number().int(),
  seq: z.number().int(),
  specialty: z.string(),
  /** null while the list is confidential to the caller */
  expertId: z.string().nullable(),
  name: z.string().nullable(),
  gender: z.string().nullable(),
  phone: z.string().nullable(),
  employer: z.string().nullable(),
  title: z.string().nullable(),
  region: z.string().nullable(),
  answer: z.enum(['pending', 'confirmed', 'declined']),
  answerLabel: z.string(),
  note: z.string(),
  answeredAt: z.string().nullable(),
  answeredBy: z.string().nullable(),
  drawnAt: z.string(),
  /** drawn to replace a declined member */
  replacement: z.boolean(),
});
export type ExtractionMember = z.infer<typeof extractionMemberSchema>;

export const extractionLineStateSchema = z.object({
  specialty: z.string(),
  category: z.string(),
  count: z.number().int(),
  confirmed: z.number().int(),
  pending: z.number().int(),
  declined: z.number().int(),
  /** the experts eligible for the line when it was drawn */
  eligible: z.number().int().nullable(),
  exhausted: z.boolean(),
});

export const extractionLogSchema = z.object({ time: z.string(), who: z.string(), logbook: z.string() });

export const extractionDetailSchema = z.object({
  ...extractionSummarySchema.shape,
  location: z.string(),
  conditions: extractionConditionsSchema,
  committedAt: z.string().nullable(),
  poolHash: z.string().nullable(),
  poolSize: z.number().int().nullable(),
  snapshotAt: z.string().nullable(),
  drawnAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** the seed, once revealed to the caller */
  seed: z.string().nullable(),
  /** the caller sees names (the extraction administrator, or everybody once evaluation started) */
  namesVisible: z.boolean(),
  /** the caller may act (the extraction administrator) */
  canManage: z.boolean(),
  lines: z.array(extractionLineStateSchema),
  members: z.array(extractionMemberSchema),
  canFinalize: z.boolean(),
  canPublish: z.boolean(),
  avoidedExperts: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
  log: z.array(extractionLogSchema),
});
export type ExtractionDetail = z.infer<typeof extractionDetailSchema>;

export const poolExpertSchema = z.object({
  id: z.string(),
  specialty: z.string(),
  region: z.string(),
  employer: z.string(),
  available: z.boolean(),
  lastDrawnAt: z.string().nullable(),
});

export const extractionVerifySchema = z.object({
  id: z.string(),
  code: z.string(),
  projectName: z.string(),
  sectionName: z.string(),
  status: z.enum(EXTRACTION_STATUS_VALUES),
  statusLabel: z.string(),
  evaluationStartAt: z.string(),
  seedHash: z.string().nullable(),
  committedAt: z.string().nullable(),
  poolHash: z.string().nullable(),
  /** the seed and what the draw needs, once revealed to the caller (else null, with `hiddenReason`) */
  seed: z.string().nullable(),
  hiddenReason: z.string().nullable(),
  snapshot: z.object({ takenAt: z.string(), experts: z.array(poolExpertSchema) }).nullable(),
  conditions: extractionConditionsSchema.nullable(),
  members: z.array(
    z.object({
      line: z.number().int(),
      seq: z.number().int(),
      expertId: z.string(),
      name: z.string().nullable(),
      specialty: z.string(),
      answer: z.string(),
    }),
  ),
  /** the server's own re-run */
  outcome: z
    .object({
      seedMatches: z.boolean(),
      poolMatches: z.boolean(),
      listMatches: z.boolean(),
      problems: z.array(z.string()),
    })
    .nullable(),
});
export type ExtractionVerify = z.infer<typeof extractionVerifySchema>;

export const extractionOptionsSchema = z.object({
  specialties: z.array(
    z.object({ value: z.string(), category: z.string(), available: z.number().int(), total: z.number().int() }),
  ),
  regions: z.array(z.string()),
  recentDays: z.number().int(),
  poolSize: z.number().int(),
  /** experts of the pool for the avoid-by-name picker (id, name, employer) */
  experts: z.array(z.object({ id: z.string(), name: z.string(), employer: z.string(), specialty: z.string() })),
});
export type ExtractionOptions = z.infer<typeof extractionOptionsSchema>;

export const extractionAnsweredSchema = z.object({
  detail: extractionDetailSchema,
  /** the replacement drawn for a decline (null: none, or none left: see `exhausted`) */
  replacementId: z.string().nullable(),
  exhausted: z.boolean(),
});
