import { TENDER_LEGAL } from './tender';
import { z } from './zod';

/**
 * Tender notices (招标公告) and change notices (变更公告) of a section (issue 16): written in the five-in-one detail's
 * 招标公告 tab, kept as records of the engine node 招标公告 (ZBTB_ZBGG) so that they are reviewed through the engine's
 * workflow, and published on the portal's transaction information when the review passes. The qualification
 * requirements are values of the qualification tree (资质, common/cert-cascade) chosen in the qualification dialog
 * (screen 14) and combined with 且 (every one) or 或 (any one); registration checks bidders against them.
 */
export const TENDER_NOTICE_NODE = 'ZBTB_ZBGG';
export const NOTICE_KINDS = ['招标公告', '变更公告'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const QUAL_RELATIONS = ['且', '或'] as const;
export type QualRelation = (typeof QUAL_RELATIONS)[number];

/** The engine node's field codes the module reads and writes (the seed configures them). */
export const NOTICE_FIELD = {
  section: 'bdid',
  sectionLabel: 'bdmc',
  kind: 'gglx',
  title: 'ggbt',
  body: 'ggnr',
  qualLabels: 'zzyq',
  qualItems: 'zzyqz',
  qualRelation: 'zzgx',
  affectsBids: 'yxtb',
  newDeadline: 'xjzsj',
  reason: 'bgyy',
} as const;

/** Screen 14: the qualification dialog's strings. */
export const QUALIFICATION_DIALOG = {
  title: '选择资质要求',
  clearAll: '清空',
  clearConfirm: '此操作将删除全部已选文件, 是否继续?',
  help: '投标人具备的资质等级须大于或等于所要求的等级；多项要求之间的关系：「或」表示具备其中任一项即可，「且」表示须同时具备全部各项。',
  empty: '请在左侧勾选资质要求',
} as const;

/** Labels joined the way the form shows them (screen 14: `;`). */
export const joinQualLabels = (labels: readonly string[]) => labels.join(';');

export const NOTICE_MESSAGES = {
  sectionMissing: '标段不存在或已删除',
  notSide: '只有项目的招标人或招标代理可以编写招标公告',
  projectNotPassed: '项目进场登记尚未审核通过，不能编写招标公告',
  noticeMissing: '公告不存在或已删除',
  alreadyPublished: '该标段的招标公告已发布，如需修改请发布变更公告',
  pendingExists: '该标段已有待审核的公告，请等待审核结果',
  notPublishedYet: '该标段的招标公告尚未发布，不能发布变更公告',
  deadlinePassed: '投标截止时间已过，不能再发布公告',
  notEditable: '公告已提交或已审核，不能修改',
  noticeNodeNotConfigured: '招标公告节点尚未配置字段，请联系管理员',
  unknownQualification: '资质要求不在资质目录中',
  saved: '公告已保存',
  submitted: '公告已提交审核',
} as const;

const html = z
  .string({ error: '请填写公告正文' })
  .max(200_000, '公告正文过长（不超过 20 万字符）')
  .refine(
    (s) =>
      s
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .trim().length > 0,
    '请填写公告正文',
  );

/** A notice as written in the 招标公告 tab. */
export const tenderNoticeInputSchema = z
  .object({
    id: z.uuid().optional(),
    version: z.number().int().min(0).optional(),
    sectionId: z.uuid({ error: '缺少标段' }),
    kind: z.enum(NOTICE_KINDS, { error: '请选择公告类型' }),
    title: z.string({ error: '请填写公告标题' }).trim().min(1, '请填写公告标题').max(200, '公告标题不超过 200 字'),
    bodyHtml: html,
    /** the chosen requirements' labels joined by `;` (screen 14) and their values */
    qualLabels: z.string().max(2000, '资质要求过长').default(''),
    qualItems: z.array(z.string().min(1).max(100)).max(20, '资质要求最多 20 项').default([]),
    qualRelation: z.enum(QUAL_RELATIONS, { error: '请选择资质要求之间的关系' }).default('且'),
    /** a change notice: does it affect the making of bids, the new deadline if it moves, and why */
    affectsBids: z.boolean().default(false),
    newDeadline: z.iso.datetime({ offset: true, error: '请选择新的投标截止时间' }).nullable().default(null),
    reason: z.string().trim().max(500, '变更原因不超过 500 字').default(''),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === '变更公告' && !v.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: '请填写变更原因' });
    }
    if (v.kind === '招标公告' && v.newDeadline) {
      ctx.addIssue({ code: 'custom', path: ['newDeadline'], message: '招标公告不能修改投标截止时间，请修改标段' });
    }
  });
export type TenderNoticeInput = z.input<typeof tenderNoticeInputSchema>;

export const tenderNoticeSchema = z.object({
  id: z.string(),
  version: z.number(),
  /** the engine record's review state: draft, pending, passed, rejected … */
  status: z.string(),
  sectionId: z.string(),
  kind: z.enum(NOTICE_KINDS),
  title: z.string(),
  bodyHtml: z.string(),
  qualLabels: z.string(),
  qualItems: z.array(z.string()),
  qualRelation: z.enum(QUAL_RELATIONS),
  affectsBids: z.boolean(),
  newDeadline: z.string().nullable(),
  reason: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TenderNotice = z.infer<typeof tenderNoticeSchema>;

export const sectionNoticesSchema = z.object({
  sectionId: z.string(),
  /** the approved notice's publication on the portal (null: not yet) */
  publishedAt: z.string().nullable(),
  qualLabels: z.string(),
  qualRelation: z.enum(QUAL_RELATIONS),
  bidDeadline: z.string(),
  canEdit: z.boolean(),
  notices: z.array(tenderNoticeSchema),
});
export type SectionNotices = z.infer<typeof sectionNoticesSchema>;

/**
 * A change notice that affects bids and comes less than `clarifyDays` whole days before the deadline must move the
 * deadline to at least that far from the day it is issued (招标投标法实施条例第二十一条). Answers the message naming
 * the rule, or null.
 */
export function changeNoticeProblem(
  n: { affectsBids: boolean; newDeadline: string | null },
  deadline: string,
  now: Date,
  clarifyDays: number = TENDER_LEGAL.clarifyDays,
): string | null {
  if (!n.affectsBids) return null;
  const minimum = now.getTime() + clarifyDays * 86_400_000;
  const effective = n.newDeadline ? Date.parse(n.newDeadline) : Date.parse(deadline);
  if (effective >= minimum) return null;
  return `影响投标文件编制的澄清或修改应在投标截止时间至少 ${clarifyDays} 日前发出，不足 ${clarifyDays} 日的应顺延投标截止时间（招标投标法实施条例第二十一条）：新的投标截止时间不得早于 ${new Date(minimum).toISOString().slice(0, 16).replace('T', ' ')}（UTC）`;
}

// ── registration ────────────────────────────────────────────────────────────

export const REGISTRATION_MESSAGES = {
  notEnterprise: '只有企业用户可以报名投标',
  notPublished: '该标段的招标公告尚未发布，暂不能报名',
  deadlinePassed: '投标截止时间已过，不能再报名',
  already: '贵单位已报名该标段',
  sideCannot: '招标人、招标代理不能报名本项目',
  qualificationFailed: '资质不符合招标公告的资格要求，不能报名',
  hidden: '开标前不公开报名单位',
} as const;

export const registrationInputSchema = z
  .object({
    sectionId: z.uuid({ error: '缺少标段' }),
    contact: z.string({ error: '请填写联系人' }).trim().min(1, '请填写联系人').max(20, '联系人不超过 20 字'),
    phone: z.string({ error: '请填写联系电话' }).regex(/^1[3-9]\d{9}$/, '请输入 11 位手机号码'),
  })
  .strict();
export type RegistrationInput = z.infer<typeof registrationInputSchema>;

/** One requirement of the notice against what the enterprise holds. */
export const qualificationLineSchema = z.object({
  requirement: z.string(),
  /** the held qualification that meets it, or null */
  held: z.string().nullable(),
  certNo: z.string().nullable(),
  ok: z.boolean(),
  /** why not, when not */
  reason: z.string().nullable(),
});
export type QualificationLine = z.infer<typeof qualificationLineSchema>;

export const qualificationCheckSchema = z.object({
  ok: z.boolean(),
  relation: z.enum(QUAL_RELATIONS),
  lines: z.array(qualificationLineSchema),
  /** one sentence for the user */
  summary: z.string(),
});
export type QualificationCheck = z.infer<typeof qualificationCheckSchema>;

/** A section open for registration, as a bidder sees it (counts only; never who else registered). */
export const openSectionSchema = z.object({
  sectionId: z.string(),
  projectName: z.string(),
  projectCode: z.string(),
  tenderee: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  estimate: z.number(),
  deposit: z.number(),
  docSaleStart: z.string(),
  docSaleEnd: z.string(),
  bidDeadline: z.string(),
  publishedAt: z.string(),
  qualLabels: z.string(),
  qualRelation: z.enum(QUAL_RELATIONS),
  /** the section's performance requirement in words (业绩要求), null when none */
  perfRequirement: z.string().nullable(),
  /** the caller's registration time, or null */
  registeredAt: z.string().nullable(),
});
export type OpenSection = z.infer<typeof openSectionSchema>;

export const registrationSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  contact: z.string(),
  phone: z.string(),
  matched: z.array(z.object({ requirement: z.string(), held: z.string(), certNo: z.string() })),
  registeredAt: z.string(),
});
export type Registration = z.infer<typeof registrationSchema>;
