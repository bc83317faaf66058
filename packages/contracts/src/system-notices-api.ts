import { paths } from './paths';
import { pageOf } from './portal';
import {
  currentNoticeSchema,
  noticeMsgSchema,
  systemNoticeListQuerySchema,
  systemNoticeReadSchema,
  systemNoticeReadsQuerySchema,
  systemNoticeSaveSchema,
  systemNoticeSchema,
} from './system-notices';
import { z } from './zod';

const idBody = z.object({ id: z.string().uuid('通知不存在') });
const T = '系统通知';

/** System notices (screen 16; §7 Common/notifications notice-read). */
export const systemNoticesApi = {
  currentNotices: {
    ...paths.currentNotices,
    summary: '当前用户应看到的系统通知：在发布范围与有效期内，弹窗通知未读、滚动公告未设置不再显示',
    tag: T,
    auth: true,
    data: z.array(currentNoticeSchema),
  },
  noticeRead: {
    ...paths.noticeRead,
    summary: '记录已读（msgId；-99 仅关闭，不上报）；重复上报保持首次已读时间',
    tag: T,
    auth: true,
    body: noticeMsgSchema,
    data: z.null(),
  },
  noticeDismiss: {
    ...paths.noticeDismiss,
    summary: '滚动公告「不再显示」：该用户此后不再看到这条公告',
    tag: T,
    auth: true,
    body: noticeMsgSchema,
    data: z.null(),
  },
  systemNoticeList: {
    ...paths.systemNoticeList,
    summary: '系统通知管理列表（管理员）：类型、状态、关键字，分页；含已读人数与通知对象人数',
    tag: T,
    auth: true,
    query: systemNoticeListQuerySchema,
    data: pageOf(systemNoticeSchema),
  },
  systemNoticeDetail: {
    ...paths.systemNoticeDetail,
    summary: '系统通知详情（管理员）',
    tag: T,
    auth: true,
    query: idBody,
    data: systemNoticeSchema,
  },
  systemNoticeSave: {
    ...paths.systemNoticeSave,
    summary: '新建（不带 id）或修改（带 id 与 version）系统通知；内容在服务端净化，附件须为已上传的公告文件',
    tag: T,
    auth: true,
    body: systemNoticeSaveSchema,
    data: systemNoticeSchema,
  },
  systemNoticePublish: {
    ...paths.systemNoticePublish,
    summary: '发布系统通知（草稿或已撤回 → 已发布），在线用户即时收到',
    tag: T,
    auth: true,
    body: idBody,
    data: systemNoticeSchema,
  },
  systemNoticeWithdraw: {
    ...paths.systemNoticeWithdraw,
    summary: '撤回系统通知（已发布 → 已撤回），在线用户的页面随即不再显示',
    tag: T,
    auth: true,
    body: idBody,
    data: systemNoticeSchema,
  },
  systemNoticeDelete: {
    ...paths.systemNoticeDelete,
    summary: '删除草稿',
    tag: T,
    auth: true,
    body: idBody,
    data: z.null(),
  },
  systemNoticeReads: {
    ...paths.systemNoticeReads,
    summary: '系统通知的已读用户（管理员），分页',
    tag: T,
    auth: true,
    query: systemNoticeReadsQuerySchema,
    data: pageOf(systemNoticeReadSchema),
  },
} as const;
