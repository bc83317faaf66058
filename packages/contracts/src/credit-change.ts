import {
  RFC_KINDS,
  RFC_LOGBOOK_MAX,
  RFC_MAX_FILES,
  RFC_MESSAGES,
  RFC_STATUSES,
  RFC_SUGGESTION_MAX,
} from './credit-change-rules';
import { z } from './zod';

/**
 * Request and response schemas of the credit change calls (/ks/rfc/*, spec §3 change record, change data item,
 * contact, change-fields response; §7 Credit change). Names are the spec's.
 */

const code = z.string().trim().min(1).max(63);
const gnCoding = code.describe('the business area: RFC_AREAS (XYGL_XYJL 信用记录, XYGL_QYXX 企业信息)');
const systemCoding = z.string().trim().max(63).default('XYGL');
const businessId = z.string({ error: RFC_MESSAGES.businessNotFound }).uuid(RFC_MESSAGES.businessNotFound);
const changeId = z.string({ error: RFC_MESSAGES.notFound }).uuid(RFC_MESSAGES.notFound);
const version = z.number({ error: '缺少版本号，请刷新后重试' }).int().min(1);
const fileId = z.string().uuid('文件不存在');

export const rfcOperationSchema = z.object({
  code: z.string(),
  name: z.string(),
  color: z.string(),
  show: z.boolean(),
});
export type RfcOperation = z.infer<typeof rfcOperationSchema>;

/**
 * §3 change data item: one field of the business record, what it was (when the round was saved; refreshed while the
 * round is open) and what the round asks for. Values are the raw values (a date YYYY-MM-DD, a number as text, an id
 * for a choice); `oldText` / `newText` what the dialog shows. The attachment row has dataType 附件 and file names.
 */
export const rfcDataItemSchema = z.object({
  changeField: z.string(),
  /** the field's label (分值, 开始时间 …) */
  fieldName: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  oldText: z.string().nullable(),
  newText: z.string().nullable(),
  /** the field's type (text, number, date, select, contact) or 附件 for the attachment row */
  dataType: z.string(),
});
export type RfcDataItem = z.infer<typeof rfcDataItemSchema>;

/** What the dialog sends for a field: the server reads the old value itself. */
export const rfcDataInputSchema = z.object({
  changeField: z.string().trim().min(1).max(63),
  newValue: z.union([z.string(), z.number()]).nullish(),
  /** ignored: the server takes the old value from the record */
  oldValue: z.unknown().optional(),
  dataType: z.string().optional(),
});
export type RfcDataInput = z.input<typeof rfcDataInputSchema>;

export const rfcFileSchema = z.object({
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  /** the annex (fjList code) the file is for; null: an attachment of the initiate-change card */
  code: z.string().nullable(),
  /** download address (bearer token) */
  url: z.string(),
});
export type RfcFile = z.infer<typeof rfcFileSchema>;

/** §3 change record: one round of changes to one business record. */
export const rfcChangeRecordSchema = z.object({
  /** null: a round the caller may start, not saved yet (change-records with change true) */
  id: z.string().nullable(),
  /** 1-based: the dialog's tab is 第N轮变更 */
  round: z.number().int(),
  gnCoding: z.string(),
  businessId: z.string(),
  /** the business record's title (the credit item and its subject, or the enterprise) */
  businessName: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  /** '1' 正在变更, '2' 变更通过, '-1' 变更驳回 */
  change: z.enum(RFC_STATUSES),
  changeStatus: z.string(),
  /** the chosen type's labels joined by '/' (信息变更/信用记录信息) */
  changeType: z.string().nullable(),
  /** the cascader path of values joined by '/' (info/record) */
  changeTypeCode: z.string().nullable(),
  kind: z.enum(RFC_KINDS).nullable(),
  /** the reason (变更原因) */
  logbook: z.string().nullable(),
  /** submit time (ISO) */
  sbTime: z.string().nullable(),
  /** confirmation time: when the round was decided (ISO) */
  czTime: z.string().nullable(),
  /** the review suggestion */
  auditRecord: z.string().nullable(),
  auditorName: z.string().nullable(),
  /** download address of the first attachment of the initiate-change card */
  attachment: z.string().nullable(),
  /** every file of the round: the attachments (code null) and the annexes */
  files: z.array(rfcFileSchema),
  /** the enterprise may edit it now (its latest round, '1', not submitted) */
  userPermission: z.boolean(),
  /** the caller may decide it now (a reviewer holding its to-do while it is submitted) */
  managerPermission: z.boolean(),
  operations: z.array(rfcOperationSchema),
  dataList: z.array(rfcDataItemSchema),
  /** the decision: true passed, false rejected, null not decided */
  pass: z.boolean().nullable(),
  saved: z.boolean(),
  submitted: z.boolean(),
  /** the engine record of 信用变更申请 the review runs on (null until submitted) */
  reviewId: z.string().nullable(),
  /** the review level waiting (1-based) while submitted */
  auditLevel: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  version: z.number().int(),
});
export type RfcChangeRecord = z.infer<typeof rfcChangeRecordSchema>;

export const rfcChangeRecordsRequestSchema = z.object({
  /** true: the dialog opens to change — a round the caller may start is listed last (id null) */
  change: z.boolean().default(false),
  businessId,
  systemCoding,
  gnCoding,
});
export type RfcChangeRecordsRequest = z.input<typeof rfcChangeRecordsRequestSchema>;

export const rfcChangeTypesRequestSchema = z.object({ gnCoding, systemCoding });
export type RfcChangeTypesRequest = z.input<typeof rfcChangeTypesRequestSchema>;

export interface RfcChangeTypeNode {
  value: string;
  label: string;
  kind: (typeof RFC_KINDS)[number];
  children?: RfcChangeTypeNode[];
}
export const rfcChangeTypeNodeSchema: z.ZodType<RfcChangeTypeNode> = z.lazy(() =>
  z.object({
    value: z.string(),
    label: z.string(),
    kind: z.enum(RFC_KINDS),
    children: z.array(rfcChangeTypeNodeSchema).optional(),
  }),
);

export const rfcChangeFieldsRequestSchema = z.object({
  /** the business record */
  id: businessId,
  gnCoding,
  systemCoding,
  /** the chosen change type: fields it may not change come back readonly (absent: the area's information type) */
  changeTypeCode: z.string().trim().max(200).nullish(),
  /** a round whose new values fill `list` (absent: the open round, if any) */
  changeId: changeId.nullish(),
});
export type RfcChangeFieldsRequest = z.input<typeof rfcChangeFieldsRequestSchema>;

export const rfcFieldOptionSchema = z.object({
  value: z.string(),
  label: z.string(),
  /** standards: the group (xx_grouping) they belong to */
  group: z.string().optional(),
  /** standards: the highest score */
  highest: z.number().optional(),
});

/** §3 change-fields: one field of the before/after form. */
export const rfcFieldSchema = z.object({
  /** the key in map, list and dataList (start_time, score …) */
  code: z.string(),
  /** the column (编码) of the business record the field writes */
  bianma: z.string(),
  name: z.string(),
  /** text | textarea | number | date | select | contact | file */
  type: z.string(),
  readonly: z.boolean(),
  required: z.boolean(),
  /** grid span out of 24 */
  col: z.number().int(),
  options: z.array(rfcFieldOptionSchema).optional(),
  /** score: the current standard's highest score */
  highest: z.number().optional(),
});
export type RfcField = z.infer<typeof rfcFieldSchema>;

/** §3 annex of a change type (fjList): a required one must have a file before save. */
export const rfcAnnexSchema = z.object({
  code: z.string(),
  name: z.string(),
  required: z.boolean(),
  /** accepted extensions, e.g. ['pdf', 'jpg'] */
  formats: z.array(z.string()),
  maxSizeMb: z.number(),
  /** the file the open round has for it */
  fileId: z.string().optional(),
  url: z.string().optional(),
});
export type RfcAnnex = z.infer<typeof rfcAnnexSchema>;

export const rfcChangeFieldsSchema = z.object({
  /** the business record's current values (raw) by field code */
  map: z.record(z.string(), z.string().nullable()),
  fields: z.array(rfcFieldSchema),
  /** the before/after rows: old = current value, new = the round's value (or the current one) */
  list: z.array(rfcDataItemSchema),
  fjList: z.array(rfcAnnexSchema),
});
export type RfcChangeFields = z.infer<typeof rfcChangeFieldsSchema>;

export const rfcFileInputSchema = z.object({ fileId, code: z.string().trim().min(1).max(63) });

/** save-change-data: creates the round (no id) or revises the open one (id and version). */
export const rfcSaveRequestSchema = z.object({
  gnCoding,
  systemCoding,
  businessId,
  /** absent: start a new round */
  id: changeId.nullish(),
  version: version.nullish(),
  dataList: z.array(rfcDataInputSchema).max(50).default([]),
  /** annex files by fjList code */
  fileList: z.array(rfcFileInputSchema).max(RFC_MAX_FILES, RFC_MESSAGES.tooManyFiles).default([]),
  /** file ids of the initiate-change card (at least one: 请上传附件！) */
  attachment: z.array(fileId).max(RFC_MAX_FILES, RFC_MESSAGES.tooManyFiles).default([]),
  changeType: z.string().trim().max(200).nullish(),
  changeTypeCode: z.string().trim().max(200).nullish(),
  logbook: z
    .string()
    .max(RFC_LOGBOOK_MAX + 100)
    .nullish(),
  /** ignored on save (decisions go through change-audit) */
  pass: z.boolean().nullish(),
  auditRecord: z.string().nullish(),
});
export type RfcSaveRequest = z.input<typeof rfcSaveRequestSchema>;

export const rfcSubmitRequestSchema = z.object({ id: changeId, version });
export type RfcSubmitRequest = z.input<typeof rfcSubmitRequestSchema>;

export const rfcAuditRequestSchema = z.object({
  id: changeId,
  version,
  pass: z.boolean({ error: '请选择审核结果' }),
  auditRecord: z.string().trim().max(RFC_SUGGESTION_MAX, RFC_MESSAGES.suggestionTooLong).nullish(),
});
export type RfcAuditRequest = z.input<typeof rfcAuditRequestSchema>;

export const rfcContactsRequestSchema = z.object({
  /** the enterprise (businessId of 企业信息) */
  id: businessId,
  /** the enterprise's type (accepted for the spec; the list is the enterprise's people whatever it is) */
  qyType: z.string().trim().max(40).nullish(),
});
export type RfcContactsRequest = z.input<typeof rfcContactsRequestSchema>;

/** §3 contact: one of the enterprise's people. */
export const rfcContactSchema = z.object({
  id: z.string(),
  ry_name: z.string(),
  tel: z.string().nullable(),
  ryName: z.string(),
});
export type RfcContact = z.infer<typeof rfcContactSchema>;

export const rfcTemplateQuerySchema = z.object({
  gnCoding,
  /** the change type; absent: the area's first type */
  changeTypeCode: z.string().trim().max(200).optional(),
});
export type RfcTemplateQuery = z.input<typeof rfcTemplateQuerySchema>;
