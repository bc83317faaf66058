import { accountCentreApi } from './account-centre-api';
import { accountsApi } from './accounts-api';
import {
  captchaNeededRequestSchema,
  captchaNeededResponseSchema,
  captchaResponseSchema,
  currentUserSchema,
  loginRequestSchema,
  loginResponseSchema,
  platformInfoSchema,
  publicKeyResponseSchema,
  systemItemSchema,
  updateSecretRequestSchema,
} from './auth';
import { bidsApi } from './bids-api';
import { caApi } from './ca-api';
import { costApi } from './cost-api';
import { creditApi } from './credit-api';
import { depositsApi } from './deposits-api';
import { dexApi } from './dex-api';
import { engineApi } from './engine-api';
import { evaluationApi } from './evaluation-api';
import { expertsApi } from './experts-api';
import { feedbackApi } from './feedback-api';
import { filesApi } from './files-api';
import { helpApi } from './help-api';
import { ledgerApi } from './ledger-api';
import { libraryApi } from './library-api';
import { materialApi } from './material-api';
import { messagesApi } from './messages-api';
import { monitorApi } from './monitor-api';
import { openingApi } from './opening-api';
import { type ApiName, paths } from './paths';
import { performanceApi } from './performance-api';
import {
  adminNoticeListQuerySchema,
  adminNoticeSchema,
  homeOverviewSchema,
  idParamSchema,
  marketDetailSchema,
  marketEntitySchema,
  marketListQuerySchema,
  noticeDetailSchema,
  noticeListQuerySchema,
  noticeSaveSchema,
  noticeSummarySchema,
  optionSchema,
  pageOf,
  portalConfigSchema,
} from './portal';
import { MARKET_KINDS } from './portal-constants';
import { publicDataApi } from './publicdata-api';
import { registerApi } from './register-api';
import { rfcApi } from './rfc-api';
import { shellApi } from './shell-api';
import { smsApi } from './sms-api';
import { statsApi } from './stats-api';
import { systemNoticesApi } from './system-notices-api';
import { tenderApi } from './tender-api';
import { tenderFilesApi } from './tender-files-api';
import { venueApi } from './venue-api';
import { wechatApi } from './wechat-api';
import { z } from './zod';

/**
 * Endpoint registry: the one list of what the API offers. The server builds its OpenAPI document
 * (/ks/docs) from it and checks that every registered route is implemented; the web calls paths from it.
 */
export interface EndpointDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  tag: string;
  /** false: no token needed */
  auth: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** multipart/form-data: its text fields (the file parts are described in the summary) */
  form?: z.ZodType;
  /** the answer is the file itself, not the envelope */
  binary?: boolean;
  /** schema of `data` in the success envelope */
  data: z.ZodType;
}

const def = <const T extends EndpointDef>(d: T) => d;

export const api = {
  publicKey: def({
    ...paths.publicKey,
    summary:
      '获取登录加密公钥（PEM，RSA-2048，RSA-OAEP SHA-256）与一次性 nonce（5 分钟，作为下一次登录密文的 OAEP label）',
    tag: '账号',
    auth: false,
    data: publicKeyResponseSchema,
  }),
  captcha: def({
    ...paths.captcha,
    summary: '获取图形验证码（PNG 位图，data URL；5 分钟内一次有效）',
    tag: '账号',
    auth: false,
    data: captchaResponseSchema,
  }),
  login: def({
    ...paths.login,
    summary:
      '登录：logValue、passWord、loginRoleType 为公钥加密后的 base64（OAEP label 为 nonce）；验证码先于密码校验；同一账号与地址连续失败 5 次锁定 15 分钟',
    tag: '账号',
    auth: false,
    body: loginRequestSchema,
    data: loginResponseSchema,
  }),
  captchaNeeded: def({
    ...paths.captchaNeeded,
    summary: '该账号从当前地址登录是否需要验证码（输入密码前询问；未知账号同样作答）',
    tag: '账号',
    auth: false,
    body: captchaNeededRequestSchema,
    data: captchaNeededResponseSchema,
  }),
  updateSecret: def({
    ...paths.updateSecret,
    summary: '修改本人密码（原密码、新密码均为公钥加密）；管理员重置密码后登录，须先完成此操作',
    tag: '账号',
    auth: true,
    body: updateSecretRequestSchema,
    data: z.null(),
  }),
  logout: def({
    ...paths.logout,
    summary: '退出登录，注销当前令牌',
    tag: '账号',
    auth: true,
    data: z.null(),
  }),
  checkLogin: def({
    ...paths.checkLogin,
    summary: '检查登录状态：200 有效，401（10000 过期 / 10001 无效 / 10017 异地登录）',
    tag: '账号',
    auth: true,
    data: currentUserSchema,
  }),
  platform: def({
    ...paths.platform,
    summary: '平台信息：描述、备案号、版本',
    tag: '门户',
    auth: false,
    data: platformInfoSchema,
  }),
  systemList: def({
    ...paths.systemList,
    summary: '当前用户可进入的业务系统',
    tag: '配置',
    auth: true,
    data: z.array(systemItemSchema),
  }),
  portalConfig: def({
    ...paths.portalConfig,
    summary: '门户配置：登录模式、开标大厅地址',
    tag: '门户',
    auth: false,
    data: portalConfigSchema,
  }),
  homeOverview: def({
    ...paths.homeOverview,
    summary: '门户首页：各类别、各交易类型最新公告与统计数据',
    tag: '门户',
    auth: false,
    data: homeOverviewSchema,
  }),
  noticeList: def({
    ...paths.noticeList,
    summary: '交易信息列表（类别、交易类型、地区、日期范围、关键字，分页）',
    tag: '门户',
    auth: false,
    query: noticeListQuerySchema,
    data: pageOf(noticeSummarySchema),
  }),
  noticeDetail: def({
    ...paths.noticeDetail,
    summary: '交易信息详情（正文已净化）',
    tag: '门户',
    auth: false,
    query: idParamSchema,
    data: noticeDetailSchema,
  }),
  enterpriseTypes: def({
    ...paths.enterpriseTypes,
    summary: '市场主体类型',
    tag: '门户',
    auth: false,
    data: z.array(optionSchema),
  }),
  practiceAreas: def({
    ...paths.practiceAreas,
    summary: '从业人员执业领域',
    tag: '门户',
    auth: false,
    data: z.array(optionSchema),
  }),
  marketList: def({
    ...paths.marketList,
    summary: '市场主体列表（企业、招标代理机构、从业人员）',
    tag: '门户',
    auth: false,
    query: marketListQuerySchema,
    data: pageOf(marketEntitySchema),
  }),
  marketDetail: def({
    ...paths.marketDetail,
    summary: '市场主体详情：基本信息、资质、业绩、公开信用记录',
    tag: '门户',
    auth: false,
    query: z.object({ kind: z.enum(MARKET_KINDS), id: z.string().uuid('记录不存在') }),
    data: marketDetailSchema,
  }),
  adminNoticeList: def({
    ...paths.adminNoticeList,
    summary: '公告管理列表（管理员）',
    tag: '公告管理',
    auth: true,
    query: adminNoticeListQuerySchema,
    data: pageOf(adminNoticeSchema),
  }),
  adminNoticeDetail: def({
    ...paths.adminNoticeDetail,
    summary: '公告详情（管理员）',
    tag: '公告管理',
    auth: true,
    query: idParamSchema,
    data: adminNoticeSchema,
  }),
  adminNoticeSave: def({
    ...paths.adminNoticeSave,
    summary: '新建（不带 id）或修改（带 id 与 version）公告；正文在服务端净化',
    tag: '公告管理',
    auth: true,
    body: noticeSaveSchema,
    data: adminNoticeSchema,
  }),
  adminNoticePublish: def({
    ...paths.adminNoticePublish,
    summary: '发布公告（草稿或已撤回 → 已发布）',
    tag: '公告管理',
    auth: true,
    body: idParamSchema,
    data: adminNoticeSchema,
  }),
  adminNoticeWithdraw: def({
    ...paths.adminNoticeWithdraw,
    summary: '撤回公告（已发布 → 已撤回）',
    tag: '公告管理',
    auth: true,
    body: idParamSchema,
    data: adminNoticeSchema,
  }),
  adminNoticeDelete: def({
    ...paths.adminNoticeDelete,
    summary: '删除草稿',
    tag: '公告管理',
    auth: true,
    body: idParamSchema,
    data: z.null(),
  }),
  ...shellApi,
  ...engineApi,
  // @api:accounts
  ...accountsApi,
  // @api:files
  ...filesApi,
  // @api:credit
  ...creditApi,
  // @api:rfc
  ...rfcApi,
  // @api:system-notices
  ...systemNoticesApi,
  // @api:feedback
  ...feedbackApi,
  // @api:performance
  ...performanceApi,
  // @api:help
  ...helpApi,
  // @api:library
  ...libraryApi,
  // @api:messages
  ...messagesApi,
  // @api:wechat
  ...wechatApi,
  // @api:ca
  ...caApi,
  // @api:sms
  ...smsApi,
  // @api:register
  ...registerApi,
  // @api:account-centre
  ...accountCentreApi,
  // @api:tender
  ...tenderApi,
  // @api:tender-files
  ...tenderFilesApi,
  // @api:venue
  ...venueApi,
  // @api:experts
  ...expertsApi,
  // @api:deposits
  ...depositsApi,
  // @api:bids
  ...bidsApi,
  // @api:opening
  ...openingApi,
  // @api:evaluation
  ...evaluationApi,
  // @api:ledger
  ...ledgerApi,
  // @api:monitor
  ...monitorApi,
  // @api:cost
  ...costApi,
  // @api:dex
  ...dexApi,
  // @api:material
  ...materialApi,
  // @api:stats
  ...statsApi,
  // @api:publicdata
  ...publicDataApi,
} as const satisfies Record<ApiName, EndpointDef>;

export type { ApiName };
/** What an endpoint answers (`data` of the success envelope): the server's handlers are typed by it, and so is the web. */
export type ApiData<K extends ApiName> = z.infer<(typeof api)[K]['data']>;
type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
/** The JSON body an endpoint accepts (never: it takes none, or a multipart form). */
export type ApiBody<K extends ApiName> = (typeof api)[K] extends { body: infer S } ? InputOf<S> : never;
/** The query string an endpoint accepts (never: it takes none). */
export type ApiQuery<K extends ApiName> = (typeof api)[K] extends { query: infer S } ? InputOf<S> : never;
