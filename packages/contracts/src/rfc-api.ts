import {
  rfcAuditRequestSchema,
  rfcChangeFieldsRequestSchema,
  rfcChangeFieldsSchema,
  rfcChangeRecordSchema,
  rfcChangeRecordsRequestSchema,
  rfcChangeTypeNodeSchema,
  rfcChangeTypesRequestSchema,
  rfcContactSchema,
  rfcContactsRequestSchema,
  rfcSaveRequestSchema,
  rfcSubmitRequestSchema,
  rfcTemplateQuerySchema,
} from './credit-change';
import { paths } from './paths';
import { z } from './zod';

const T = '信用变更';

/**
 * Registry entries of the credit change rounds (spec §7 Credit change, screen 1). A user of another enterprise gets 404
 * on every call (the record is not revealed); a signed-in user without the grant 403.
 */
export const rfcApi = {
  rfcChangeRecords: {
    ...paths.rfcChangeRecords,
    summary:
      '一条业务记录的变更轮次（第1轮在前，最新在后）；change 为 true 且可以发起新一轮时，末尾附一条未保存的新轮次（id 为 null）',
    tag: T,
    auth: true,
    body: rfcChangeRecordsRequestSchema,
    data: z.array(rfcChangeRecordSchema),
  },
  rfcChangeTypes: {
    ...paths.rfcChangeTypes,
    summary: '变更类型（级联选择；changeTypeCode 为路径以 / 连接）：信息变更、时间变更、联系人变更',
    tag: T,
    auth: true,
    body: rfcChangeTypesRequestSchema,
    data: z.array(rfcChangeTypeNodeSchema),
  },
  rfcChangeFields: {
    ...paths.rfcChangeFields,
    summary: '变更表单：业务记录的当前值（map）、字段（fields）、变更前后（list）与附件要求（fjList）',
    tag: T,
    auth: true,
    body: rfcChangeFieldsRequestSchema,
    data: rfcChangeFieldsSchema,
  },
  rfcSaveChangeData: {
    ...paths.rfcSaveChangeData,
    summary:
      '保存变更（企业）：无 id 发起新一轮（最新一轮已通过或已驳回时），有 id 修改正在变更且未提交的一轮（version 过期 409）；变更类型、原因、附件与必填附件、时间与分值规则同对话框',
    tag: T,
    auth: true,
    body: rfcSaveRequestSchema,
    data: rfcChangeRecordSchema,
  },
  rfcChangeSubmit: {
    ...paths.rfcChangeSubmit,
    summary: '提交变更（企业）：须先保存（请先保存！）；同一事务内生成信用变更申请并提交审核，审核人员收到待办',
    tag: T,
    auth: true,
    body: rfcSubmitRequestSchema,
    data: rfcChangeRecordSchema,
  },
  rfcChangeAudit: {
    ...paths.rfcChangeAudit,
    summary:
      '审核变更（pass true/false，按信用变更申请的审核级次）：驳回须填写审核建议；不在正在变更或未提交 409；两人同时审核只有一人成功；终审通过时同一事务内写入新值并重新评定',
    tag: T,
    auth: true,
    body: rfcAuditRequestSchema,
    data: rfcChangeRecordSchema,
  },
  rfcContacts: {
    ...paths.rfcContacts,
    summary: '联系人列表：企业的人员（账号姓名与电话），联系人变更从中选择；其他企业 404',
    tag: T,
    auth: true,
    body: rfcContactsRequestSchema,
    data: z.array(rfcContactSchema),
  },
  rfcTemplate: {
    ...paths.rfcTemplate,
    summary: '下载变更申请表模板（公开，xlsx，按变更类型生成）',
    tag: T,
    auth: false,
    query: rfcTemplateQuerySchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
