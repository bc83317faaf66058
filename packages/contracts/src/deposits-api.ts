import {
  depositDelaySchema,
  depositListSchema,
  depositPageSchema,
  depositPaySchema,
  depositRefundSchema,
  depositSchema,
  depositSectionSchema,
  depositSectionStatusSchema,
  depositStepSchema,
  guaranteeAppliedSchema,
  guaranteeApplySchema,
  guaranteeIdSchema,
  guaranteeSchema,
  issuerInfoSchema,
} from './deposits';
import { paths } from './paths';
import { z } from './zod';

const T = '保证金与保函';

/**
 * Registry entries of bid deposits and electronic guarantee letters (issue 16). A bidder sees and acts on their own
 * enterprise's deposits only; the tenderee's side sees counts; the trading centre (M) sees every bidder's and confirms
 * receipt, refunds and extends the payment deadline.
 */
export const depositsApi = {
  depositList: {
    ...paths.depositList,
    summary:
      '保证金与保函（/custom/guarantee）：投标人看本单位已报名标段的保证金与保函，交易中心看全部；含出函机构是否配置',
    tag: T,
    auth: true,
    body: depositListSchema,
    data: depositPageSchema,
  },
  depositPaymentStatus: {
    ...paths.depositPaymentStatus,
    summary:
      '一个标段的保证金情况：各状态的数量（报名人数不显示名单），投标人本单位的一条；交易中心另见每个投标人的明细',
    tag: T,
    auth: true,
    body: depositSectionSchema,
    data: depositSectionStatusSchema,
  },
  depositPay: {
    ...paths.depositPay,
    summary:
      '投标人登记缴纳保证金（从付款账号汇入本单位在该标段的虚拟子账号）：须已报名、金额等于标段保证金、缴纳截止前；已由保函替代时拒绝',
    tag: T,
    auth: true,
    body: depositPaySchema,
    data: depositSchema,
  },
  depositReceived: {
    ...paths.depositReceived,
    summary: '交易中心确认保证金到账（已缴纳 → 已到账），记录时间与操作人',
    tag: T,
    auth: true,
    body: depositStepSchema,
    data: depositSchema,
  },
  depositRefund: {
    ...paths.depositRefund,
    summary: '交易中心退还保证金（已到账 → 已退还，投标截止后），记录时间、操作人与说明',
    tag: T,
    auth: true,
    body: depositRefundSchema,
    data: depositSchema,
  },
  depositDelay: {
    ...paths.depositDelay,
    summary: '交易中心延长一个标段的保证金缴纳截止时间（须晚于当前截止、不晚于投标截止，并说明原因）',
    tag: T,
    auth: true,
    body: depositDelaySchema,
    data: depositSectionStatusSchema,
  },
  guaranteeIssuer: {
    ...paths.guaranteeIssuer,
    summary: '出函机构：是否已配置及其名称；未配置时不能申请电子保函',
    tag: T,
    auth: true,
    data: issuerInfoSchema,
  },
  guaranteeApply: {
    ...paths.guaranteeApply,
    summary:
      '申请投标保函：为已报名的标段生成一条「保函申请」草稿（金额为标段保证金），补充附件后提交审核；审核通过后由出函机构出具。未配置出函机构时 409',
    tag: T,
    auth: true,
    body: guaranteeApplySchema,
    data: guaranteeAppliedSchema,
  },
  guaranteeResult: {
    ...paths.guaranteeResult,
    summary: '保函出函结果：待出函或出函中时向出函机构查询一次并更新；本单位或交易中心',
    tag: T,
    auth: true,
    body: guaranteeIdSchema,
    data: guaranteeSchema,
  },
  guaranteeRetry: {
    ...paths.guaranteeRetry,
    summary: '出函失败的保函重新向出函机构申请；本单位或交易中心',
    tag: T,
    auth: true,
    body: guaranteeIdSchema,
    data: guaranteeSchema,
  },
  guaranteeFile: {
    ...paths.guaranteeFile,
    summary: '下载已出具的保函 PDF：申请单位与交易中心；其他投标人 404',
    tag: T,
    auth: true,
    query: guaranteeIdSchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
