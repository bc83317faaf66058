import { paths } from './paths';
import {
  indicatorsQuerySchema,
  indicatorsSchema,
  personDetailSchema,
  personListQuerySchema,
  personListSchema,
  personQuerySchema,
  priceLimitListSchema,
  priceLimitQuerySchema,
  publicTxnDetailQuerySchema,
  publicTxnDetailSchema,
  publicTxnListQuerySchema,
  publicTxnListSchema,
  reportQuerySchema,
  reportSchema,
} from './publicdata';
import { z } from './zod';

const T = '公共数据';
const WHO = '任何已登录用户可查看（只含已发布的公告、标段与结果）';

/** Registry entries of the public data pages (issue 19, /demoPublicPage/*). */
export const publicDataApi = {
  publicDetailsList: {
    ...paths.publicDetailsList,
    summary: `交易明细：已发布的交易（一个项目编号与标段的已发布公告），控制价、状态、成交价、下浮率与本平台开标的投标人数；关键字、交易类型、地区、状态、发布日期筛选，分页。${WHO}`,
    tag: T,
    auth: true,
    query: publicTxnListQuerySchema,
    data: publicTxnListSchema,
  },
  publicDetails: {
    ...paths.publicDetails,
    summary: `一个交易的已发布公告（按时间）与本平台开标情况。${WHO}`,
    tag: T,
    auth: true,
    query: publicTxnDetailQuerySchema,
    data: publicTxnDetailSchema,
  },
  publicPersons: {
    ...paths.publicPersons,
    summary: `从业人员公示：姓名、所属企业、执业类别、地区、注册证号（部分隐藏）、信用等级；分页。${WHO}`,
    tag: T,
    auth: true,
    query: personListQuerySchema,
    data: personListSchema,
  },
  publicPerson: {
    ...paths.publicPerson,
    summary: `一名从业人员的公开信息：资格证书（编号部分隐藏）、业绩与公开的信用记录；不含身份证号、电话等个人信息。${WHO}`,
    tag: T,
    auth: true,
    query: personQuerySchema,
    data: personDetailSchema,
  },
  publicPriceLimits: {
    ...paths.publicPriceLimits,
    summary: `控制价公示：已发布的工程建设、政府采购标段的最高投标限价（项目、标段、交易类型、地区、发布日期），合计；分页。${WHO}`,
    tag: T,
    auth: true,
    query: priceLimitQuerySchema,
    data: priceLimitListSchema,
  },
  publicIndicators: {
    ...paths.publicIndicators,
    summary: `市场指标：按月、季或年与地区、交易类型——发布标段数、控制价合计、平均投标人数、成交数与金额、平均下浮率（1 − 中标价 ÷ 控制价）、重新招标率（流标或终止 ÷ 办结）。${WHO}`,
    tag: T,
    auth: true,
    query: indicatorsQuerySchema,
    data: indicatorsSchema,
  },
  publicReport: {
    ...paths.publicReport,
    summary: `监测报告：一个月或季度的市场指标、与上期比较、分地区与分交易类型表、生成的主要发现。${WHO}`,
    tag: T,
    auth: true,
    query: reportQuerySchema,
    data: reportSchema,
  },
  publicReportPdf: {
    ...paths.publicReportPdf,
    summary: `监测报告（PDF）。${WHO}`,
    tag: T,
    auth: true,
    query: reportQuerySchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
