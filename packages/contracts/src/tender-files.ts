import { TENDER_LEGAL } from './tender';
import { z } from './zod';

/**
 * Tender documents (招标文件) of a section and their clarifications (澄清 / 修改), issue 16 — the 招标文件 tab (zswj) of
 * the five-in-one detail. The project's side (tenderee or agency) puts the section's documents up before they go on
 * sale; a registered bidder downloads them from the sale's start until the bid deadline, each download streamed
 * through the server and recorded; who downloaded stays hidden from the tenderee until opening (counts only). After
 * the sale starts the documents change only by a clarification, which the trading centre audits and the project's
 * side sends to every registered bidder (招标投标法实施条例第二十一条: one that may affect the making of bids, sent
 * fewer than `clarifyDays` days before the deadline, moves the deadline).
 */

/** What a document is (the project's side chooses one when it saves the document). */
export const TENDER_DOC_KINDS = ['招标文件', '工程量清单', '图纸', '其他'] as const;
export type TenderDocKind = (typeof TENDER_DOC_KINDS)[number];

/** The node codes that bound files carry (files.gn_coding): who may read them is this module's reader. */
export const TENDER_DOC_FILE_NODE = 'ZBTB_ZBWJ';
export const CLARIFY_FILE_NODE = 'ZBTB_CQWJ';

export const CLARIFY_STATUSES = ['draft', 'submitted', 'passed', 'rejected', 'sent'] as const;
export type ClarifyStatus = (typeof CLARIFY_STATUSES)[number];
export const CLARIFY_STATUS_LABELS: Record<ClarifyStatus, { text: string; color: string }> = {
  draft: { text: '草稿', color: 'default' },
  submitted: { text: '待审核', color: 'processing' },
  passed: { text: '审核通过', color: 'success' },
  rejected: { text: '已驳回', color: 'error' },
  sent: { text: '已发出', color: 'blue' },
};

export const TENDER_FILE_MESSAGES = {
  sectionMissing: '标段不存在或已删除',
  documentMissing: '招标文件不存在或已删除',
  clarificationMissing: '澄清或修改不存在或已删除',
  notSide: '只有项目的招标人或招标代理可以维护招标文件',
  notSideClarify: '只有项目的招标人或招标代理可以编写、提交、撤回或发出澄清或修改',
  notViewer: '只有项目的招标人、招标代理、已报名的投标人与交易中心可以查看该标段的招标文件',
  centreOnly: '只有交易中心可以审核澄清或修改',
  fileMissing: '附件不存在、不属于本单位或已用于其他记录，请重新上传',
  locked: '招标文件已开始发售，不能再增删，如需修改请发出澄清或修改（招标投标法实施条例第二十一条）',
  deadlinePassed: '投标截止时间已过，招标文件与澄清不能再变更',
  notRegistered: '贵单位尚未报名该标段，不能下载招标文件',
  notBidder: '只有已报名该标段的投标人可以下载招标文件',
  notOnSale: '招标文件尚未开始发售，请于发售开始后下载',
  downloadClosed: '投标截止时间已过，招标文件停止下载',
  notPublished: '该标段的招标公告尚未发布，招标文件尚未发售',
  hiddenBeforeOpening: '开标前不公开下载单位，仅显示下载数量',
  notDraft: '只有草稿或被驳回的澄清或修改可以修改或删除',
  notSubmitted: '只有待审核的澄清或修改可以撤回或审核',
  notPassed: '只有审核通过的澄清或修改可以发出',
  alreadySent: '该澄清或修改已发出',
  stale: '澄清或修改已被他人更改，请刷新后重试',
  opinionRequired: '请填写审核意见',
  laterDeadline: '新的投标截止时间应晚于当前投标截止时间',
  saved: '保存成功',
  deleted: '删除成功',
  submitted: '提交成功',
  revoked: '已撤回',
  audited: '审核完成',
  sent: '澄清或修改已发出，并已通知全部报名投标人',
} as const;

/**
 * The 15-day rule (招标投标法实施条例第二十一条, DOMAIN.md "Tender timeline"): a clarification that may affect the making
 * of bids, sent at `sendAt` fewer than `clarifyDays` days before the deadline in force, must move the deadline to at
 * least `clarifyDays` days after sending. Answers the refusal naming the rule, or null.
 */
export function clarifyDeadlineProblem(
  c: { affectsBids: boolean; newDeadline: string | null },
  deadline: string,
  sendAt: Date,
  clarifyDays: number = TENDER_LEGAL.clarifyDays,
): string | null {
  if (!c.affectsBids) return null;
  const minimum = sendAt.getTime() + clarifyDays * 86_400_000;
  const effective = c.newDeadline ? Date.parse(c.newDeadline) : Date.parse(deadline);
  if (effective >= minimum) return null;
  return `影响投标文件编制的澄清或修改应在投标截止时间至少 ${clarifyDays} 日前发出，不足 ${clarifyDays} 日的应顺延投标截止时间（招标投标法实施条例第二十一条）：新的投标截止时间不得早于发出之时起 ${clarifyDays} 日（${new Date(minimum).toISOString().slice(0, 16).replace('T', ' ')} UTC）`;
}

const uuid = (what: string) => z.uuid({ error: `缺少${what}` });
export const tenderSectionRefSchema = z.object({ sectionId: uuid('标段') }).strict();
export const tenderIdRefSchema = z.object({ id: uuid('记录'), version: z.number().int().min(0).optional() }).strict();

// ── documents ──────────────────────────────────────────────────────────────

export const tenderDocInputSchema = z
  .object({
    sectionId: uuid('标段'),
    fileId: uuid('文件，请先上传'),
    name: z.string({ error: '请填写文件名称' }).trim().min(1, '请填写文件名称').max(100, '文件名称不超过 100 字'),
    kind: z.enum(TENDER_DOC_KINDS, { error: '请选择文件类别（招标文件、工程量清单、图纸或其他）' }),
  })
  .strict();
export type TenderDocInput = z.infer<typeof tenderDocInputSchema>;

export const tenderDocSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  kind: z.enum(TENDER_DOC_KINDS),
  name: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  uploadedBy: z.string(),
  createdAt: z.string(),
  operations: z.object({ delete: z.boolean(), download: z.boolean() }),
});
export type TenderDoc = z.infer<typeof tenderDocSchema>;

/** Who the caller is to the section: its project's side, the trading centre, a registered bidder, or a reader. */
export const TENDER_FILE_ROLES = ['side', 'centre', 'bidder', 'reader'] as const;

export const tenderDocsSchema = z.object({
  sectionId: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  docSaleStart: z.string(),
  docSaleEnd: z.string(),
  /** the instant the sale starts (the start of docSaleStart in the centre's zone) */
  saleStartsAt: z.string(),
  bidDeadline: z.string(),
  noticePublishedAt: z.string().nullable(),
  role: z.enum(TENDER_FILE_ROLES),
  /** may the caller add or delete documents now, and if not (for the side) why */
  canEdit: z.boolean(),
  editProblem: z.string().nullable(),
  /** may the caller download now, and if not (for bidders) why */
  canDownload: z.boolean(),
  downloadProblem: z.string().nullable(),
  documents: z.array(tenderDocSchema),
});
export type TenderDocs = z.infer<typeof tenderDocsSchema>;

export const tenderDownloadQuerySchema = z.object({ id: uuid('招标文件') });

/**
 * A file attached to a section (标段附件): one of its tender documents (with the recorded downloads of bidders), or
 * the file of one of its clarifications (with the clarification's status).
 */
export const sectionAttachmentSchema = z.object({
  source: z.enum(['document', 'clarification']),
  /** the document's or the clarification's id */
  id: z.string(),
  /** 招标文件 / 工程量清单 / 图纸 / 其他, or 澄清文件 */
  kind: z.string(),
  /** the document's name, or the clarification's title */
  name: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  /** who uploaded the document or wrote the clarification */
  by: z.string(),
  /** uploaded, or the clarification sent (else written) */
  at: z.string(),
  /** a clarification's status (draft | submitted | passed | rejected | sent); null for a document */
  status: z.enum(CLARIFY_STATUSES).nullable(),
  /** a document's recorded downloads by bidders; null for a clarification */
  downloads: z.number().nullable(),
});
export type SectionAttachment = z.infer<typeof sectionAttachmentSchema>;

export const sectionAttachmentsSchema = z.object({
  sectionId: z.string(),
  sectionCode: z.string(),
  sectionName: z.string(),
  attachments: z.array(sectionAttachmentSchema),
});
export type SectionAttachments = z.infer<typeof sectionAttachmentsSchema>;

/** The files of every section of a project (bd-files). */
export const projectSectionFilesSchema = z.object({
  projectId: z.string(),
  sections: z.array(sectionAttachmentsSchema),
});
export type ProjectSectionFiles = z.infer<typeof projectSectionFilesSchema>;

export const TENDER_ATTACHMENT_MESSAGES = {
  notReader: '只有项目的招标人、招标代理、交易中心与监督人员可以查看标段附件；投标人请在「招标文件」中下载',
} as const;

export const downloadRecordSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  sectionLabel: z.string(),
  documentId: z.string(),
  documentName: z.string(),
  kind: z.enum(TENDER_DOC_KINDS),
  fileName: z.string(),
  userName: z.string(),
  enterpriseName: z.string().nullable(),
  ip: z.string().nullable(),
  downloadedAt: z.string(),
});
export type DownloadRecord = z.infer<typeof downloadRecordSchema>;

export const DOWNLOAD_VISIBILITY = ['full', 'counts', 'own'] as const;
export const downloadStatusSchema = z.object({
  sectionId: z.string(),
  /** full: every record (the centre; the project's side after opening); counts only; own: the bidder's own records */
  visibility: z.enum(DOWNLOAD_VISIBILITY),
  /** why names are not shown (counts) */
  note: z.string().nullable(),
  opened: z.boolean(),
  documents: z.array(
    z.object({
      documentId: z.string(),
      name: z.string(),
      kind: z.enum(TENDER_DOC_KINDS),
      /** downloads and distinct enterprises among the records the caller may count */
      downloads: z.number(),
      enterprises: z.number(),
    }),
  ),
  totalDownloads: z.number(),
  totalEnterprises: z.number(),
  records: z.array(downloadRecordSchema),
});
export type DownloadStatus = z.infer<typeof downloadStatusSchema>;

export const DOWNLOAD_PAGE_SIZES = [10, 20, 30, 50] as const;
export const downloadRecordsQuerySchema = z
  .object({
    sectionId: z.uuid({ error: '标段参数有误' }).optional(),
    page: z.number().int().min(1, '页码应大于 0').default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (DOWNLOAD_PAGE_SIZES as readonly number[]).includes(n), '每页条数应为 10、20、30 或 50')
      .default(10),
  })
  .strict();
export const downloadRecordsPageSchema = z.object({ records: z.array(downloadRecordSchema), total: z.number() });

// ── clarifications ─────────────────────────────────────────────────────────

export const clarifyInputSchema = z
  .object({
    id: z.uuid().optional(),
    version: z.number().int().min(0).optional(),
    sectionId: uuid('标段'),
    title: z.string({ error: '请填写标题' }).trim().min(1, '请填写标题').max(200, '标题不超过 200 字'),
    content: z
      .string({ error: '请填写澄清或修改内容' })
      .trim()
      .min(1, '请填写澄清或修改内容')
      .max(5000, '澄清或修改内容不超过 5000 字'),
    fileId: z.uuid({ error: '附件参数有误' }).nullable().default(null),
    /** may it affect the making of bids (the 15-day rule applies) */
    affectsBids: z.boolean({ error: '请选择是否影响投标文件编制' }).default(false),
    /** the new bid deadline, when it moves */
    newDeadline: z.iso.datetime({ offset: true, error: '请选择新的投标截止时间' }).nullable().default(null),
  })
  .strict();
export type ClarifyInput = z.input<typeof clarifyInputSchema>;

export const clarifyAuditSchema = z
  .object({
    id: uuid('澄清或修改'),
    version: z.number().int().min(0).optional(),
    pass: z.boolean({ error: '请选择审核结果' }),
    opinion: z.string().trim().max(500, '审核意见不超过 500 字').default(''),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.pass && !v.opinion) ctx.addIssue({ code: 'custom', path: ['opinion'], message: '请填写审核意见' });
  });

export const clarificationSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  title: z.string(),
  content: z.string(),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  affectsBids: z.boolean(),
  newDeadline: z.string().nullable(),
  /** the deadline it replaced, once sent with a new one */
  oldDeadline: z.string().nullable(),
  status: z.enum(CLARIFY_STATUSES),
  opinion: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  auditedBy: z.string().nullable(),
  auditedAt: z.string().nullable(),
  sentBy: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** how many bidders' accounts were told */
  recipients: z.number(),
  version: z.number(),
  operations: z.object({
    edit: z.boolean(),
    delete: z.boolean(),
    submit: z.boolean(),
    revoke: z.boolean(),
    audit: z.boolean(),
    send: z.boolean(),
  }),
});
export type Clarification = z.infer<typeof clarificationSchema>;

export const sectionClarificationsSchema = z.object({
  sectionId: z.string(),
  bidDeadline: z.string(),
  clarifyDays: z.number(),
  /** may the caller write a new one */
  canCreate: z.boolean(),
  clarifications: z.array(clarificationSchema),
});
export type SectionClarifications = z.infer<typeof sectionClarificationsSchema>;
