import {
  monitorAssignSchema,
  monitorAuditSchema,
  monitorExportQuerySchema,
  monitorListQuerySchema,
  monitorPageSchema,
  monitorPublishSchema,
  monitorRevokeSchema,
  monitorSectionQuerySchema,
  monitorViewSchema,
} from './monitor';
import { paths } from './paths';
import { z } from './zod';

const T = '监督台';

/**
 * Registry entries of the supervision console (issue 17). Administrators and holders of 监督查看 on the tender projects
 * only; every change is an entry of the tamper-evident log, an operation-log row and a live `monitor` event.
 */
export const monitorApi = {
  monitorList: {
    ...paths.monitorList,
    summary:
      '监督台列表：开标、评标、公示与定标中的标段，含负责的监督人员、异常数与待核查数；可按阶段、关键字、本人负责、待核查筛选',
    tag: T,
    auth: true,
    body: monitorListQuerySchema,
    data: monitorPageSchema,
  },
  monitorView: {
    ...paths.monitorView,
    summary: '一个标段的监督详情：异常及其核查意见、整体核查意见、指派记录、可指派的监督人员与可执行的操作',
    tag: T,
    auth: true,
    body: monitorSectionQuerySchema,
    data: monitorViewSchema,
  },
  monitorAssign: {
    ...paths.monitorAssign,
    summary: '指派监督人员负责标段（替换原负责人时原指派记为撤回）；被指派人收到消息',
    tag: T,
    auth: true,
    body: monitorAssignSchema,
    data: monitorViewSchema,
  },
  monitorRevoke: {
    ...paths.monitorRevoke,
    summary: '撤回标段的监督指派（管理员或负责人本人），须填写理由',
    tag: T,
    auth: true,
    body: monitorRevokeSchema,
    data: monitorViewSchema,
  },
  monitorAudit: {
    ...paths.monitorAudit,
    summary: '记录核查意见：对一项异常或对标段整体，结论为合规或责令整改（责令整改时通知项目的招标人、招标代理）',
    tag: T,
    auth: true,
    body: monitorAuditSchema,
    data: monitorViewSchema,
  },
  monitorPublish: {
    ...paths.monitorPublish,
    summary: '发布核查意见：在该标段的评标室中向项目方、评标委员会公开，并通知项目的招标人、招标代理',
    tag: T,
    auth: true,
    body: monitorPublishSchema,
    data: monitorViewSchema,
  },
  monitorExport: {
    ...paths.monitorExport,
    summary: '导出监督台列表（xlsx，按当前筛选）',
    tag: T,
    auth: true,
    query: monitorExportQuerySchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
