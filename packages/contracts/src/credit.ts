import { PAGE_SIZES } from './constants';
import {
  CREDIT_CONDUCTS,
  CREDIT_LEVEL_TITLE_MAX,
  CREDIT_MAX_FILES,
  CREDIT_MESSAGES,
  CREDIT_RECORD_SOURCES,
  CREDIT_RECORD_STATUSES,
  CREDIT_SCORE_MAX,
  CREDIT_SUBJECT_KINDS,
  creditLevelsProblem,
} from './credit-rules';
import { isValidDate } from './dates';
import { PORTAL_KEYWORD_MAX } from './portal-constants';
import { z } from './zod';

/** Request and response schemas of the credit calls (spec §7 Credit) and the public credit list. */

const day = z.string().refine((v) => isValidDate(v), '日期格式有误，请重新输入');
const pageNum = z.coerce.number().int().min(1).max(100_000).default(1);
const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
  .default(10);
const keyword = z.string().trim().max(PORTAL_KEYWORD_MAX, `关键字不能超过${PORTAL_KEYWORD_MAX}个字符`).optional();
const recordId = z.string().uuid('记录不存在');
const version = z.number().int().min(1).optional();
const subjectKind = z.enum(CREDIT_SUBJECT_KINDS, { error: '主体类型只能是 enterprise 或 person' });
const score2 = (message: string) =>
  z
    .number({ error: message })
    .finite(message)
    .refine((n) => n >= 0 && n <= CREDIT_SCORE_MAX && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, message);

/** Whose credit: an enterprise (by default the caller's own) or a person (practitioner) of an enterprise. */
export const creditSubjectRefSchema = z.object({
  subjectKind: subjectKind.default('enterprise'),
  subjectId: z.string().uuid('主体不存在').optional(),
});
export type CreditSubjectRef = z.input<typeof creditSubjectRefSchema>;

export const creditSubjectSchema = z.object({
  kind: z.enum(CREDIT_SUBJECT_KINDS),
  id: z.string(),
  name: z.string(),
  /** enterprise: unified social credit code; person: certificate number */
  code: z.string(),
  /** enterprise type, or the person's practice area */
  type: z.string(),
  region: z.string().nullable(),
  /** the enterprise the subject is, or the person works for */
  enterpriseId: z.string(),
  enterpriseName: z.string(),
});
export type CreditSubject = z.infer<typeof creditSubjectSchema>;

export const creditGradeSchema = z.object({
  baseScore: z.number(),
  goodPoints: z.number(),
  badPoints: z.number(),
  score: z.number(),
  level: z.string(),
  /** passed records counted now */
  countedRecords: z.number().int(),
  computedAt: z.string(),
  /** the last day this grade holds (YYYY-MM-DD): a counted record ends or a passed one starts after it; null: none */
  validUntil: z.string().nullable(),
});
export type CreditGradeView = z.infer<typeof creditGradeSchema>;

export const creditOperationSchema = z.object({
  code: z.string(),
  name: z.string(),
  color: z.string(),
  show: z.boolean(),
});

export const creditFileSchema = z.object({ fileId: z.string(), fileName: z.string(), fileSize: z.number() });

export const creditRecordSchema = z.object({
  id: z.string(),
  subjectKind: z.enum(CREDIT_SUBJECT_KINDS),
  subjectId: z.string(),
  subjectName: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  standardId: z.string(),
  standardName: z.string(),
  xxGrouping: z.string(),
  conduct: z.enum(CREDIT_CONDUCTS),
  highest: z.number(),
  score: z.number(),
  /** what the record adds (good) or takes (bad) while it counts: the score capped by the standard's highest */
  points: z.number(),
  /** counts in the grade today (passed and within its validity) */
  counting: z.boolean(),
  title: z.string(),
  issuer: z.string().nullable(),
  remark: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  status: z.enum(CREDIT_RECORD_STATUSES),
  statusText: z.string(),
  source: z.enum(CREDIT_RECORD_SOURCES),
  sourceText: z.string(),
  files: z.array(creditFileSchema),
  createdBy: z.string(),
  createdAt: z.string(),
  submittedBy: z.string().nullable(),
  submittedAt: z.string().nullable(),
  auditedBy: z.string().nullable(),
  auditedAt: z.string().nullable(),
  auditSuggestion: z.string().nullable(),
  revokedBy: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  version: z.number().int(),
  /** what the caller may do with the record now (spec §6: buttons come from the server) */
  operations: z.array(creditOperationSchema),
});
export type CreditRecord = z.infer<typeof creditRecordSchema>;

export const creditRecordListSchema = creditSubjectRefSchema.extend({
  status: z.enum(CREDIT_RECORD_STATUSES).optional(),
  conduct: z.enum(CREDIT_CONDUCTS).optional(),
  standardId: z.string().uuid('信用标准不存在').optional(),
  xxGrouping: z.string().trim().max(50).optional(),
  pageNum,
  pageSize,
});
export type CreditRecordListRequest = z.input<typeof creditRecordListSchema>;

const recordValues = {
  standardId: z.string({ error: CREDIT_MESSAGES.standardRequired }).uuid(CREDIT_MESSAGES.standardRequired),
  score: z.number({ error: CREDIT_MESSAGES.scoreRequired }).finite(CREDIT_MESSAGES.scoreRequired),
  startTime: day,
  /** absent: the standard's validity from the start */
  endTime: day.nullish(),
  title: z.string().trim().min(1, '请填写事由').max(200, '事由不能超过200个字符'),
  issuer: z.string().trim().max(100, '认定单位不能超过100个字符').nullish(),
  remark: z.string().trim().max(500, '备注不能超过500个字符').nullish(),
  /** evidence: files uploaded for the credit node (CREDIT_NODE), the whole list */
  fileIds: z.array(z.string().uuid('文件不存在')).max(CREDIT_MAX_FILES, CREDIT_MESSAGES.tooManyFiles).default([]),
};

export const creditRecordAddSchema = z.object({
  subjectKind: subjectKind.default('enterprise'),
  subjectId: z.string().uuid('主体不存在').optional(),
  ...recordValues,
});
export type CreditRecordAddRequest = z.input<typeof creditRecordAddSchema>;

export const creditRecordUpdateSchema = z.object({ id: recordId, version: z.number().int().min(1), ...recordValues });
export type CreditRecordUpdateRequest = z.input<typeof creditRecordUpdateSchema>;

export const creditRecordStepSchema = z.object({ id: recordId, version });
export const creditRecordRevokeSchema = creditRecordStepSchema.extend({
  /** a reviewer revoking a passed record says why */
  reason: z.string().trim().max(500, '撤销原因不能超过500个字符').optional(),
});
export const creditRecordAuditSchema = creditRecordStepSchema.extend({
  pass: z.boolean({ error: '请选择审核结果' }),
  suggestion: z.string().trim().max(500, '审核建议不能超过500个字符').optional(),
  /** the reviewer may correct the score (within the standard's highest: the shorter §5 message) */
  score: z.number().finite().optional(),
});

export const creditRetrieveResultSchema = z.object({
  /** published decisions about the subject the platform holds */
  found: z.number().int(),
  created: z.array(creditRecordSchema),
  skipped: z.array(z.object({ title: z.string(), reason: z.string() })),
  message: z.string(),
});

export const creditTreeLeafSchema = z.object({
  primaryKey: z.string(),
  xxGrouping: z.string(),
  nodeName: z.string(),
  conduct: z.enum(CREDIT_CONDUCTS),
  highest: z.number(),
  /** how long a record of the item counts at most, in months (the declaration form checks the end against it) */
  validityMonths: z.number().int(),
  badge: z.number().int(),
  score: z.number(),
});
export const creditTreeGroupSchema = z.object({
  primaryKey: z.string(),
  xxGrouping: z.string(),
  nodeName: z.string(),
  conduct: z.enum(CREDIT_CONDUCTS),
  badge: z.number().int(),
  score: z.number(),
  children: z.array(creditTreeLeafSchema),
});
/** Screen 20: the header (nodeName, score) and the groups of standard items with badges and scores. */
export const creditLeftTreeSchema = z.object({
  nodeName: z.string(),
  score: z.number().nullable(),
  level: z.string().nullable(),
  /** what the badges count: the subject's records of the item, or (reviewers, no subject) records waiting */
  badgeOf: z.enum(['records', 'waiting']),
  children: z.array(creditTreeGroupSchema),
});

export const creditLevelRowSchema = z.object({
  title: z.string(),
  minScore: z.number(),
  /** the next level's floor (exclusive); null for the top level */
  maxScore: z.number().nullable(),
});

export const creditTopTitlesSchema = z.object({
  levels: z.array(creditLevelRowSchema.extend({ enterprises: z.number().int(), persons: z.number().int() })),
  totals: z.array(z.object({ key: z.string(), title: z.string(), value: z.number() })),
});

export const creditGradeOverviewRequestSchema = z.object({ subjectKind: subjectKind.default('enterprise') });
export const creditGradeOverviewSchema = z.object({
  subjectKind: z.enum(CREDIT_SUBJECT_KINDS),
  subjects: z.number().int(),
  graded: z.number().int(),
  averageScore: z.number().nullable(),
  distribution: z.array(z.object({ title: z.string(), count: z.number().int(), ratio: z.number() })),
  /** records decided per month, the last 12 months (YYYY-MM), oldest first */
  trend: z.array(z.object({ month: z.string(), good: z.number().int(), bad: z.number().int() })),
});

export const creditSubjectListSchema = z.object({
  subjectKind: subjectKind.default('enterprise'),
  keyword,
  level: z.string().trim().min(1).max(CREDIT_LEVEL_TITLE_MAX).optional(),
  enterpriseType: z.string().trim().max(40).optional(),
  pageNum,
  pageSize,
});
export type CreditSubjectListRequest = z.input<typeof creditSubjectListSchema>;
export const creditSubjectRowSchema = creditSubjectSchema.extend({
  grade: creditGradeSchema.nullable(),
  /** records waiting for review */
  waiting: z.number().int(),
});

export const creditManagementListSchema = z.object({
  subjectKind: subjectKind.optional(),
  status: z.enum(CREDIT_RECORD_STATUSES).optional(),
  conduct: z.enum(CREDIT_CONDUCTS).optional(),
  standardId: z.string().uuid('信用标准不存在').optional(),
  keyword,
  pageNum,
  pageSize,
});

export const creditInfoSchema = z.object({
  subject: creditSubjectSchema,
  grade: creditGradeSchema.nullable(),
  levels: z.array(creditLevelRowSchema),
  counts: z.record(z.enum(CREDIT_RECORD_STATUSES), z.number().int()),
});

export const creditLevelTitlesSchema = z.object({
  baseScore: z.number(),
  levels: z.array(creditLevelRowSchema),
});
export const creditLevelTitlesSaveSchema = z
  .object({
    baseScore: score2(CREDIT_MESSAGES.baseScore),
    levels: z.array(
      z.object({
        title: z.string({ error: CREDIT_MESSAGES.levelTitle }),
        minScore: z.number({ error: CREDIT_MESSAGES.levelScore }),
      }),
    ),
  })
  .superRefine((v, ctx) => {
    const problem = creditLevelsProblem(v.levels);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['levels'] });
  });
export type CreditLevelTitlesSave = z.input<typeof creditLevelTitlesSaveSchema>;

export const creditLetterQuerySchema = z.object({ enterpriseId: z.string().uuid('企业不存在').optional() });
export const creditLetterSchema = z.object({
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  creditCode: z.string(),
  legalPerson: z.string().nullable(),
  /** the text of the commitment: as signed, or as it would be signed now */
  content: z.string(),
  signed: z.boolean(),
  signedAt: z.string().nullable(),
  signerName: z.string().nullable(),
});
export const creditLetterListSchema = z.object({ keyword, signed: z.boolean().optional(), pageNum, pageSize });

export const creditTypeOptionSchema = z.object({ label: z.string(), value: z.string(), count: z.number().int() });

export const creditExportSchema = z.object({
  /** grades: one row per subject with its grade; records: one row per record */
  type: z.enum(['grades', 'records']).default('grades'),
  subjectKind: subjectKind.default('enterprise'),
  subjectId: z.string().uuid('主体不存在').optional(),
  keyword,
  level: z.string().trim().min(1).max(CREDIT_LEVEL_TITLE_MAX).optional(),
  status: z.enum(CREDIT_RECORD_STATUSES).optional(),
});

export const creditDescriptionSchema = z.object({
  baseScore: z.number(),
  levels: z.array(creditLevelRowSchema),
  standards: z.number().int(),
  rules: z.array(z.string()),
});

export const creditParticipationSchema = z.object({
  enterpriseId: z.string().nullable(),
  /** has a grade or has signed the credit commitment */
  participated: z.boolean(),
  graded: z.boolean(),
  letterSigned: z.boolean(),
  level: z.string().nullable(),
  score: z.number().nullable(),
});

export const creditSelectTypesSchema = z.object({
  subjectKinds: z.array(z.object({ label: z.string(), value: z.string() })),
  conducts: z.array(z.object({ label: z.string(), value: z.string() })),
  statuses: z.array(z.object({ label: z.string(), value: z.string() })),
  sources: z.array(z.object({ label: z.string(), value: z.string() })),
  levels: z.array(z.object({ label: z.string(), value: z.string() })),
  groups: z.array(
    z.object({
      label: z.string(),
      value: z.string(),
      conduct: z.enum(CREDIT_CONDUCTS),
      children: z.array(
        z.object({ label: z.string(), value: z.string(), highest: z.number(), validityMonths: z.number().int() }),
      ),
    }),
  ),
});

export const creditPullDownQuerySchema = z.object({
  keyword,
  enterpriseId: z.string().uuid('企业不存在').optional(),
});
export const creditEntOptionSchema = z.object({
  label: z.string(),
  value: z.string(),
  creditCode: z.string(),
  level: z.string().nullable(),
});
export const creditPersonOptionSchema = z.object({
  label: z.string(),
  value: z.string(),
  certNo: z.string(),
  practiceArea: z.string(),
  enterpriseName: z.string(),
});
export const creditPersonQuerySchema = z.object({ id: z.string().uuid('人员不存在') });
export const creditPersonInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  certNo: z.string(),
  practiceArea: z.string(),
  region: z.string().nullable(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  grade: creditGradeSchema.nullable(),
  records: z.number().int(),
});

/** The public credit list: no sign-in; name (prefix, or contains) or credit code; grade and validity only. */
export const creditPublicListQuerySchema = z.object({
  keyword,
  match: z.enum(['prefix', 'contains']).default('prefix'),
  level: z.string().trim().min(1).max(CREDIT_LEVEL_TITLE_MAX).optional(),
  pageNum: z.coerce.number().int().min(1).max(100, '最多查看前 100 页，请输入更具体的名称').default(1),
  pageSize,
});
export type CreditPublicListQuery = z.input<typeof creditPublicListQuerySchema>;
export const creditPublicRowSchema = z.strictObject({
  name: z.string(),
  creditCode: z.string(),
  level: z.string().nullable(),
  score: z.number().nullable(),
  /** when the grade was last evaluated (YYYY-MM-DD) */
  evaluatedOn: z.string().nullable(),
  /** the last day the grade holds (YYYY-MM-DD); null: until the next evaluation */
  validUntil: z.string().nullable(),
});
export type CreditPublicRow = z.infer<typeof creditPublicRowSchema>;
export const creditPublicListSchema = z.object({
  records: z.array(creditPublicRowSchema),
  total: z.number().int(),
  /** the total was counted up to a cap: show it as "1000+" */
  totalCapped: z.boolean(),
});

/** The level titles and floors of the public list's level filter (no sign-in): what administrators set, highest first. */
export const creditPublicLevelsSchema = z.object({ levels: z.array(creditLevelRowSchema) });
