import { dexIdSchema, dexPushDetailSchema, dexPushPageSchema, dexPushQuerySchema } from './dex';
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
} as const;
