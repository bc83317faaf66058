import { fieldCodeSchema, fieldListSchema, fieldOptionSchema, uniqueKeyListSchema } from './engine';
import { MAX_OPTIONS, type UniqueKey } from './engine-fields';
import type { FieldDef, FieldOption, FieldValues } from './engine-rules';
import { paths } from './paths';
import { pageOf } from './portal';
import { CODE_PATTERN } from './shell-constants';
import { z } from './zod';

/** Schema engine endpoints: a node's fields, and the records of its own table. */

const gnCoding = z.string().trim().regex(CODE_PATTERN, '节点编码格式有误');
const pageSize = z
  .number()
  .int()
  .refine((n) => [10, 20, 30, 50].includes(n), '每页条数只能是 10、20、30、50')
  .default(10);

export const fieldsRequestSchema = z.object({ gnCoding, systemCoding: z.string().max(63).optional() });
export const saveFieldsSchema = z.object({
  gnCoding,
  fields: fieldListSchema,
  /** the fieldsVersion the edit started from; a stale one is a 409 */
  version: z.number().int().min(0),
  /** the node's uniqueness constraints (唯一约束); absent: the ones it has are kept */
  uniqueKeys: uniqueKeyListSchema.optional(),
});
/** A stored field list: typed for both sides, described as free JSON in the OpenAPI document (see fieldDefSchema). */
const storedFields = z.array(z.custom<FieldDef>());
export const nodeFieldsSchema = z.object({
  fields: storedFields,
  version: z.number().int(),
  /** the node's uniqueness constraints (唯一约束), as stored */
  uniqueKeys: z.array(z.custom<UniqueKey>()),
});
export type NodeFields = z.infer<typeof nodeFieldsSchema>;

export const recordListSchema = z.object({
  gnCoding,
  pageNum: z.number().int().min(1).max(100_000).default(1),
  pageSize,
  /** search form values (§5: empty dropped, date ranges joined with a comma, arrays take the last element) */
  search: z.record(z.string(), z.unknown()).optional(),
  /** JSON conditions on known fields with known operators */
  whereStr: z.string().max(20_000).optional(),
  sortField: z.string().max(63).optional(),
  order: z.string().max(10).optional(),
});
export const recordRefSchema = z.object({ gnCoding, id: z.string().uuid('记录不存在') });
export const recordSaveSchema = z.object({
  gnCoding,
  id: z.string().uuid('记录不存在').optional(),
  version: z.number().int().min(1).optional(),
  values: z.record(z.string(), z.unknown()),
});
export const recordSchema = z.object({
  id: z.string(),
  status: z.string(),
  version: z.number().int(),
  ownerId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** the level now under review (0 when none) */
  auditLevel: z.number().int().optional(),
  values: z.record(z.string(), z.unknown()),
  operations: z.array(z.object({ code: z.string(), name: z.string(), color: z.string(), show: z.boolean() })),
});
export type EngineRecord = z.infer<typeof recordSchema>;
/**
 * A page of records. The total is counted only up to a limit (1,000, or further when the page lies past it); when the
 * matches go on beyond it, `totalCapped` is true and `total` is the limit: show it as e.g. "1000+".
 */
export const recordPageSchema = pageOf(recordSchema).extend({ totalCapped: z.boolean().optional() });
export type RecordPage = z.infer<typeof recordPageSchema>;
export const auditStepSchema = z.object({
  level: z.number().int(),
  /** submit | pass | reject | revoke */
  action: z.string(),
  suggestion: z.string().nullable(),
  userName: z.string(),
  round: z.number().int(),
  time: z.string(),
});
export type AuditFlowStep = z.infer<typeof auditStepSchema>;
export const recordDetailSchema = recordSchema.extend({
  auditLevel: z.number().int(),
  auditFlow: z.array(auditStepSchema),
});
export type RecordDetail = z.infer<typeof recordDetailSchema>;
export const recordStepSchema = z.object({
  gnCoding,
  id: z.string().uuid('记录不存在'),
  version: z.number().int().min(1),
});
export const recordAuditSchema = recordStepSchema.extend({
  pass: z.boolean(),
  suggestion: z.string().trim().max(500, '审核建议最多 500 个字符').optional(),
});

export const todoSystemSchema = z.object({
  systemCoding: z.string(),
  systemName: z.string(),
  todoCount: z.number().int(),
});
export const todoListRequestSchema = z.object({
  systemCoding: z.string().max(63).optional(),
  curPage: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(6),
  sizes: z.array(z.number().int()).max(10).optional(),
});
export const todoRecordSchema = z.object({
  id: z.string(),
  gnName: z.string(),
  gnCoding: z.string(),
  systemCoding: z.string(),
  recordId: z.string(),
  level: z.number().int(),
  sbTime: z.string(),
  businessName: z.string(),
  userName: z.string(),
  /** where the to-do opens: the notice-jump setting of type todo, else the record in its own node (contracts recordRoute) */
  path: z.string(),
});

export const opLogRequestSchema = z.object({ gnCoding, id: z.string().uuid('记录不存在') });
export const opLogEntrySchema = z.object({
  glName: z.string(),
  czrClassification: z.string(),
  czrName: z.string(),
  logbook: z.string(),
  failInfo: z.string().nullable(),
  czTime: z.string(),
});
export type OpLogEntry = z.infer<typeof opLogEntrySchema>;

// ── option sources, filters, forms, export, assignment (zod-free types for the web) ──

/** POST common/pull-down and base/dictionary/config/dic/pull-down. */
export interface PullDownRequest {
  /** the code of a field of node gnCoding */
  displayCode: string;
  gnCoding: string;
  systemCoding: string;
  /** typed search text (filter-select) */
  key?: string;
  /** JSON of the parents' values for a dependent select: `{"<parentCode>": "<value>"}` */
  whereStr?: string;
}
export interface PullDownResult {
  list: FieldOption[];
  labelKey: string;
  valueKey: string;
}
/** POST common/cert-cascade: the qualification (资质) tree; data is FieldOption[] with children. */
export interface CertCascadeRequest {
  displayCode: string;
  gnCoding: string;
  systemCoding: string;
}
export type CertCascadeResult = FieldOption[];
/** POST array/filter/directory/filter-fields (§3 Filter definition). */
export interface FilterFieldsRequest {
  gnCoding: string;
  systemCoding: string;
  /** only this field's group */
  displayCode?: string;
  /** true: the groups of the list's header search popovers (shown columns) rather than the filter card */
  headerFilter?: boolean;
}
export interface FilterGroup {
  name: string;
  code: string;
  type: string;
  dataList: FieldOption[];
}
export interface FilterFieldsResult {
  displayCode: string;
  displayList: FilterGroup[];
}
/** POST info/v1/form/details: a new record's form (no id: defaults) or an existing record's. */
export interface FormDetailsRequest {
  gnCoding: string;
  systemCoding: string;
  id?: string;
}
export interface FormDetailsResult {
  fields: FieldDef[];
  values: FieldValues;
  version: number | null;
  status: string | null;
}
/** POST engine/v1/records/export: the list body without paging; answers an xlsx file. */
export interface RecordExportRequest {
  gnCoding: string;
  search?: Record<string, unknown>;
  whereStr?: string;
  sortField?: string;
  order?: string;
}
/** The most rows one export writes; a larger result is a 400 asking to narrow the filter. */
export const EXPORT_MAX_ROWS = 50_000;
/** POST authority/manager/assignable-list: reviewers who may take the record's current audit level. */
export interface AssignableListRequest {
  gnCoding: string;
  id: string;
}
export interface AssignableUser {
  id: string;
  userName: string;
  orgName?: string;
}
/** POST engine/v1/records/assign: give the current level's open to-do to another reviewer (answers the detail). */
export interface RecordAssignRequest {
  gnCoding: string;
  id: string;
  version: number;
  userId: string;
}
/** GET base/dictionary/config/dic/codes (developers): the dictionaries a `dic` field may name. */
export interface DictionaryCode {
  code: string;
  /** enabled items */
  count: number;
  /** the first top-level labels, to recognise the dictionary */
  sample: string[];
}
/** POST node/field/value-range (developers): save a field's option list; answers the node's fields. */
export interface ValueRangeRequest {
  gnCoding: string;
  code: string;
  list: FieldOption[];
}

const displayCode = z
  .string({ error: '字段编码格式有误' })
  .trim()
  .min(1, '字段编码格式有误')
  .max(63, '字段编码格式有误');
const systemCoding = z.string().trim().max(63);
export const pullDownRequestSchema = z.object({
  displayCode,
  gnCoding,
  systemCoding,
  key: z.string().trim().max(100, '搜索内容最多 100 个字符').optional(),
  whereStr: z.string().max(5000).optional(),
});
export const pullDownResultSchema = z.object({
  list: z.array(fieldOptionSchema),
  labelKey: z.string(),
  valueKey: z.string(),
});
export const certCascadeRequestSchema = z.object({ displayCode, gnCoding, systemCoding });
export const filterFieldsRequestSchema = z.object({
  gnCoding,
  systemCoding,
  displayCode: displayCode.optional(),
  headerFilter: z.boolean().optional(),
});
export const filterGroupSchema = z.object({
  name: z.string(),
  code: z.string(),
  type: z.string(),
  dataList: z.array(fieldOptionSchema),
});
export const filterFieldsResultSchema = z.object({ displayCode: z.string(), displayList: z.array(filterGroupSchema) });
export const formDetailsRequestSchema = z.object({
  gnCoding,
  systemCoding,
  id: z.string().uuid('记录不存在').optional(),
});
export const formDetailsResultSchema = z.object({
  fields: storedFields,
  values: z.record(z.string(), z.unknown()),
  version: z.number().int().nullable(),
  status: z.string().nullable(),
});
export const recordExportSchema = recordListSchema.omit({ pageNum: true, pageSize: true });
export const assignableListRequestSchema = z.object({ gnCoding, id: z.string().uuid('记录不存在') });
export const assignableUserSchema = z.object({ id: z.string(), userName: z.string(), orgName: z.string().optional() });
export const recordAssignSchema = recordStepSchema.extend({ userId: z.string().uuid('请选择指派人员') });
export const dictionaryCodeSchema = z.object({
  code: z.string(),
  count: z.number().int(),
  sample: z.array(z.string()),
});
export const valueRangeSchema = z.object({
  gnCoding,
  code: fieldCodeSchema,
  list: z.array(fieldOptionSchema).max(MAX_OPTIONS, `最多 ${MAX_OPTIONS} 个选项`),
});

// compile-time checks: the zod schemas and the zod-free types above agree
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _agree: [
  Same<z.input<typeof pullDownRequestSchema>, PullDownRequest>,
  Same<z.infer<typeof pullDownResultSchema>, PullDownResult>,
  Same<z.input<typeof certCascadeRequestSchema>, CertCascadeRequest>,
  Same<z.input<typeof filterFieldsRequestSchema>, FilterFieldsRequest>,
  Same<z.infer<typeof filterFieldsResultSchema>, FilterFieldsResult>,
  Same<z.input<typeof formDetailsRequestSchema>, FormDetailsRequest>,
  Same<z.input<typeof recordExportSchema>, RecordExportRequest>,
  Same<z.input<typeof assignableListRequestSchema>, AssignableListRequest>,
  Same<z.infer<typeof assignableUserSchema>, AssignableUser>,
  Same<z.input<typeof recordAssignSchema>, RecordAssignRequest>,
  Same<z.infer<typeof valueRangeSchema>, ValueRangeRequest>,
  Same<z.infer<typeof dictionaryCodeSchema>, DictionaryCode>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
void _agree;

export const engineApi = {
  pullDown: {
    ...paths.pullDown,
    summary: '字段的下拉选项（另一节点的记录或内置数据源；key 搜索，whereStr 为上级字段的值）',
    tag: '引擎',
    auth: true,
    body: pullDownRequestSchema,
    data: pullDownResultSchema,
  },
  dicPullDown: {
    ...paths.dicPullDown,
    summary: '字段的字典选项（字典编码为字段的 titleCoding；树形字典带 children）',
    tag: '引擎',
    auth: true,
    body: pullDownRequestSchema,
    data: pullDownResultSchema,
  },
  dicCodes: {
    ...paths.dicCodes,
    summary: '可供字段选用的字典（编码、启用项数、前几项；开发者）',
    tag: '引擎',
    auth: true,
    data: z.array(dictionaryCodeSchema),
  },
  certCascade: {
    ...paths.certCascade,
    summary: '资质树（资质类别 → 资质 → 等级）',
    tag: '引擎',
    auth: true,
    body: certCascadeRequestSchema,
    data: z.array(fieldOptionSchema),
  },
  filterFields: {
    ...paths.filterFields,
    summary: '节点的筛选定义（筛选卡片或表头搜索的分组及选项）',
    tag: '引擎',
    auth: true,
    body: filterFieldsRequestSchema,
    data: filterFieldsResultSchema,
  },
  formDetails: {
    ...paths.formDetails,
    summary: '表单：字段与值（无 id 为新记录的默认值）',
    tag: '引擎',
    auth: true,
    body: formDetailsRequestSchema,
    data: formDetailsResultSchema,
  },
  recordExport: {
    ...paths.recordExport,
    summary: `导出当前筛选的记录为 xlsx（显示的列；最多 ${EXPORT_MAX_ROWS} 行，超过时 400）`,
    tag: '引擎',
    auth: true,
    body: recordExportSchema,
    data: z.null(),
  },
  assignableList: {
    ...paths.assignableList,
    summary: '可承接记录当前审核级别的审核人员',
    tag: '引擎',
    auth: true,
    body: assignableListRequestSchema,
    data: z.array(assignableUserSchema),
  },
  recordAssign: {
    ...paths.recordAssign,
    summary: '任务指派：把当前审核级别的待办交给另一位审核人员',
    tag: '引擎',
    auth: true,
    body: recordAssignSchema,
    data: recordDetailSchema,
  },
  valueRange: {
    ...paths.valueRange,
    summary: '保存字段的值域（选项列表，开发者）',
    tag: '引擎',
    auth: true,
    body: valueRangeSchema,
    data: nodeFieldsSchema,
  },
  recordLogs: {
    ...paths.recordLogs,
    summary: '记录的操作日志（只增不改）',
    tag: '引擎',
    auth: true,
    body: opLogRequestSchema,
    data: z.array(opLogEntrySchema),
  },
  todoSystems: {
    ...paths.todoSystems,
    summary: '有待办的业务系统及待办数',
    tag: '待办',
    auth: true,
    data: z.array(todoSystemSchema),
  },
  todoList: {
    ...paths.todoList,
    summary: '当前用户的待办（审核任务）',
    tag: '待办',
    auth: true,
    body: todoListRequestSchema,
    data: pageOf(todoRecordSchema),
  },
  arrayFields: {
    ...paths.arrayFields,
    summary: '节点的字段定义',
    tag: '引擎',
    auth: true,
    body: fieldsRequestSchema,
    data: nodeFieldsSchema,
  },
  saveFields: {
    ...paths.saveFields,
    summary: '保存节点的字段定义并同步其数据表（开发者）',
    tag: '引擎',
    auth: true,
    body: saveFieldsSchema,
    data: nodeFieldsSchema,
  },
  recordList: {
    ...paths.recordList,
    summary: '节点记录列表：搜索、条件、排序、分页',
    tag: '引擎',
    auth: true,
    body: recordListSchema,
    data: recordPageSchema,
  },
  recordDetail: {
    ...paths.recordDetail,
    summary: '节点记录详情',
    tag: '引擎',
    auth: true,
    body: recordRefSchema,
    data: recordDetailSchema,
  },
  recordSave: {
    ...paths.recordSave,
    summary: '新增或修改节点记录（按字段规则校验）',
    tag: '引擎',
    auth: true,
    body: recordSaveSchema,
    data: recordSchema,
  },
  recordDelete: {
    ...paths.recordDelete,
    summary: '删除草稿记录',
    tag: '引擎',
    auth: true,
    body: recordRefSchema,
    data: z.null(),
  },
  recordSubmit: {
    ...paths.recordSubmit,
    summary: '提交审核（草稿或被驳回的记录）',
    tag: '引擎',
    auth: true,
    body: recordStepSchema,
    data: recordDetailSchema,
  },
  recordAudit: {
    ...paths.recordAudit,
    summary: '审核：通过或驳回（驳回须填写审核建议）；并发时仅一人成功，其余 409',
    tag: '引擎',
    auth: true,
    body: recordAuditSchema,
    data: recordDetailSchema,
  },
  recordRevoke: {
    ...paths.recordRevoke,
    summary: '撤回尚未审核的提交',
    tag: '引擎',
    auth: true,
    body: recordStepSchema,
    data: recordDetailSchema,
  },
} as const;
