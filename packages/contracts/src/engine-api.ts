import { z } from 'zod';
import { fieldListSchema } from './engine';
import { paths } from './paths';
import { pageOf } from './portal';
import { CODE_PATTERN } from './shell-constants';

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
});
export const nodeFieldsSchema = z.object({ fields: z.array(z.any()), version: z.number().int() });

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
  values: z.record(z.string(), z.unknown()),
  operations: z.array(z.object({ code: z.string(), name: z.string(), color: z.string(), show: z.boolean() })),
});
export type EngineRecord = z.infer<typeof recordSchema>;
export const auditStepSchema = z.object({
  level: z.number().int(),
  /** submit | pass | reject | revoke */
  action: z.string(),
  suggestion: z.string().nullable(),
  userName: z.string(),
  round: z.number().int(),
  time: z.string(),
});
export const recordDetailSchema = recordSchema.extend({
  auditLevel: z.number().int(),
  auditFlow: z.array(auditStepSchema),
});
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

export const engineApi = {
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
    data: pageOf(recordSchema),
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
