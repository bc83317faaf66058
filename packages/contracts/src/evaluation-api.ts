import {
  evalBeginSchema,
  evalDeclareSchema,
  evalDocumentQuerySchema,
  evalExportQuerySchema,
  evalExtractionOptionsSchema,
  evalMethodSchema,
  evalReopenSchema,
  evalRoomSchema,
  evalSaveSchema,
  evalSectionBodySchema,
  evalSectionQuerySchema,
  evalSectionsSchema,
  evalSignInSchema,
  evalSignReportSchema,
  evalSubmitSchema,
  evalVoteSchema,
} from './evaluation';
import { paths } from './paths';
import { z } from './zod';

const T = '评标';

/**
 * Registry entries of bid evaluation (issue 17). Every change is one transaction with an entry of the tamper-evident
 * log, an operation-log row and a live `evaluation` event (data { sectionId }) that makes the open rooms re-read.
 */
export const evaluationApi = {
  evalSections: {
    ...paths.evalSections,
    summary:
      '评标标段列表：组织的（招标人、招标代理，管理员为全部）、担任评委的、监督查看的，含评标状态与第一中标候选人',
    tag: T,
    auth: true,
    data: evalSectionsSchema,
  },
  evalRoom: {
    ...paths.evalRoom,
    summary:
      '评标室：评标办法、评标委员会成员与签到、回避声明、组长推选、本人评分、提交与退回记录、汇总结果、异常提示与开评标日志；专家签署回避声明并签到前看不到投标人',
    tag: T,
    auth: true,
    query: evalSectionQuerySchema,
    data: evalRoomSchema,
  },
  evalExtractions: {
    ...paths.evalExtractions,
    summary: '可用于组建评标委员会的已确认专家抽取记录',
    tag: T,
    auth: true,
    query: evalSectionQuerySchema,
    data: evalExtractionOptionsSchema,
  },
  evalBegin: {
    ...paths.evalBegin,
    summary: '开始评标：开标结束后，以一次已确认的专家抽取组建评标委员会（按专业分入技术组或商务组，全部参加资格评审）',
    tag: T,
    auth: true,
    body: evalBeginSchema,
    data: evalRoomSchema,
  },
  evalMethod: {
    ...paths.evalMethod,
    summary:
      '设置评标办法：资格评审因素、技术与商务评分因素及分值、价格分公式（基准价方法、K 值、偏离扣分）、偏离阈值；开始评分后不能修改',
    tag: T,
    auth: true,
    body: evalMethodSchema,
    data: evalRoomSchema,
  },
  evalDeclare: {
    ...paths.evalDeclare,
    summary: '专家签署回避声明：无利害关系，或申请回避并写明事由（回避后不能参加评审）',
    tag: T,
    auth: true,
    body: evalDeclareSchema,
    data: evalRoomSchema,
  },
  evalSignIn: {
    ...paths.evalSignIn,
    summary: '专家签到评审组（资格 ZS、技术 JS、商务 SW）；须先签署回避声明',
    tag: T,
    auth: true,
    body: evalSignInSchema,
    data: evalRoomSchema,
  },
  evalVote: {
    ...paths.evalVote,
    summary: '推选评标委员会组长：得票过半数者当选',
    tag: T,
    auth: true,
    body: evalVoteSchema,
    data: evalRoomSchema,
  },
  evalSave: {
    ...paths.evalSave,
    summary: '保存本人评分：只限已签到的本组评审因素，分值在因素范围内；提交后不能修改',
    tag: T,
    auth: true,
    body: evalSaveSchema,
    data: evalRoomSchema,
  },
  evalSubmit: {
    ...paths.evalSubmit,
    summary: '提交本组评审结果：须全部评完；不合格须写理由；偏离中位数超过阈值的评分须写书面理由；提交后锁定',
    tag: T,
    auth: true,
    body: evalSubmitSchema,
    data: evalRoomSchema,
  },
  evalReopen: {
    ...paths.evalReopen,
    summary: '组长退回某专家某组的评审结果重评，须写明理由，记入日志并提示监督',
    tag: T,
    auth: true,
    body: evalReopenSchema,
    data: evalRoomSchema,
  },
  evalRender: {
    ...paths.evalRender,
    summary: '组长汇总评标结果：全部提交后按评标办法计算资格结论、技术与商务得分、基准价与价格分、总分与排名',
    tag: T,
    auth: true,
    body: evalSectionBodySchema,
    data: evalRoomSchema,
  },
  evalSignReport: {
    ...paths.evalSignReport,
    summary: '评委签署评标报告：同意，或记录不同意见及理由；全部签署后评标结束',
    tag: T,
    auth: true,
    body: evalSignReportSchema,
    data: evalRoomSchema,
  },
  evalExport: {
    ...paths.evalExport,
    summary: '导出评标报告（xlsx 或 PDF）：每位评委的评分、价格分计算过程、不同意见与签署',
    tag: T,
    auth: true,
    query: evalExportQuerySchema,
    binary: true,
    data: z.unknown(),
  },
  evalDocument: {
    ...paths.evalDocument,
    summary: '评委查阅已解密的投标文件（只读）；须先签署回避声明并签到',
    tag: T,
    auth: true,
    query: evalDocumentQuerySchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
