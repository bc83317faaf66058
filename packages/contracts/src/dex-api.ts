import {
  dexIdSchema,
  dexPushDetailSchema,
  dexPushPageSchema,
  dexPushQuerySchema,
  dexRegDecideSchema,
  dexRegDetailSchema,
  dexRegPageSchema,
  dexRegQuerySchema,
  dexRegRejectSchema,
  dexRegRowSchema,
  dexSyncJobSchema,
  dexSyncStartSchema,
  dexSyncStateSchema,
} from './dex';
import { paths } from './paths';

const T = '数据交换';

/** Registry entries of data exchange (issue 19). */
export const dexApi = {
  dexPushList: {
    ...paths.dexPushList,
    summary:
      '交易推送记录（管理员）：业务键、类型、状态、尝试次数、最近错误、下次尝试；分页、状态/类型/关键字筛选；configured 为是否配置了上级平台',
    tag: T,
    auth: true,
    body: dexPushQuerySchema,
    data: dexPushPageSchema,
  },
  dexPushDetail: {
    ...paths.dexPushDetail,
    summary: '一条推送及其每次尝试（时间、HTTP 状态、耗时、错误）（管理员）',
    tag: T,
    auth: true,
    body: dexIdSchema,
    data: dexPushDetailSchema,
  },
  dexPushResend: {
    ...paths.dexPushResend,
    summary: '重新推送一条推送失败的记录（管理员）：重新排队，尝试次数清零',
    tag: T,
    auth: true,
    body: dexIdSchema,
    data: dexPushDetailSchema,
  },
  dexSyncList: {
    ...paths.dexSyncList,
    summary:
      '监管审核：从上游平台同步来的企业登记（管理员、开发者）：关键字（名称、统一社会信用代码、上游编号）、登记状态、审核状态、同步结果、上游更新日期区间；排序字段白名单；分页。configured 为是否配置了上游平台',
    tag: T,
    auth: true,
    body: dexRegQuerySchema,
    data: dexRegPageSchema,
  },
  dexSync: {
    ...paths.dexSync,
    summary:
      '开始一次企业登记同步（管理员）：后台任务分页拉取上游登记（full 为全量，否则自上次完成的同步以来的增量），全部拉取成功后在一个事务内写入并逐条记审核日志（新增 / 变更 / 无变化 / 拒收）；同一时间只有一个同步任务（409）；未配置上游平台 409',
    tag: T,
    auth: true,
    body: dexSyncStartSchema,
    data: dexSyncJobSchema,
  },
  dexSyncJob: {
    ...paths.dexSyncJob,
    summary: '最近一次同步任务的状态与进度（已拉取 / 上游总数、各结果计数、失败原因）（管理员、开发者）',
    tag: T,
    auth: true,
    data: dexSyncStateSchema,
  },
  dexRegDetail: {
    ...paths.dexRegDetail,
    summary:
      '一条同步登记：本次同步的字段变化、与企业库的差异（通过后将写入的内容）、审核日志、上游原始数据（管理员、开发者）',
    tag: T,
    auth: true,
    body: dexIdSchema,
    data: dexRegDetailSchema,
  },
  dexRegApprove: {
    ...paths.dexRegApprove,
    summary:
      '审核通过一条待审核登记（管理员）：新建或更新企业库中的企业（按统一社会信用代码对应），记审核日志与操作日志；已审核或已重新同步的 409',
    tag: T,
    auth: true,
    body: dexRegDecideSchema,
    data: dexRegRowSchema,
  },
  dexRegReject: {
    ...paths.dexRegReject,
    summary: '驳回一条待审核登记（管理员），须填写驳回原因；企业库不变；记审核日志与操作日志',
    tag: T,
    auth: true,
    body: dexRegRejectSchema,
    data: dexRegRowSchema,
  },
} as const;
