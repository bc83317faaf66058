import { loginResponseSchema } from './auth';
import { paths } from './paths';
import { loginDeviceSchema, loginModeSchema, refreshRequestSchema, refreshResponseSchema } from './sessions';
import {
  wechatBindingSchema,
  wechatQrcodeQuerySchema,
  wechatQrcodeSchema,
  wechatRemoveSchema,
  wechatScanStatusSchema,
  wechatStateSchema,
  wechatVerifyQuerySchema,
} from './wechat';
import { z } from './zod';

const T = '账号';

/**
 * Registry entries of WeChat QR sign-in and binding (the WeChat Open Platform's website flow), rotating refresh tokens,
 * the login mode and the login-devices list (spec §7 Account).
 */
export const wechatApi = {
  wechatQrcode: {
    ...paths.wechatQrcode,
    summary:
      '微信扫码：创建 5 分钟有效的扫码票据（purpose=login 登录；purpose=bind 绑定当前账号，须登录）并返回微信开放平台 qrconnect 地址；未配置时 400「微信登录未配置」',
    tag: T,
    auth: false,
    query: wechatQrcodeQuerySchema,
    data: wechatQrcodeSchema,
  },
  wechatScanStatus: {
    ...paths.wechatScanStatus,
    summary:
      '轮询扫码结果：waiting / expired / denied；登录票据确认后签发会话（data.login，与账号登录相同）或 unbound「该微信未绑定账号」；绑定票据确认后保存绑定（bound），该微信已绑定其他账号 409。票据一次有效',
    tag: T,
    auth: false,
    body: wechatStateSchema,
    data: wechatScanStatusSchema.extend({ login: loginResponseSchema.optional() }),
  },
  wechatVerify: {
    ...paths.wechatVerify,
    summary:
      '微信回调（redirect_uri）：以 code 换取 access_token、openid、unionid 并记在 state 对应的票据上；返回一个 HTML 提示页（在二维码 iframe 或新窗口中显示）',
    tag: T,
    auth: false,
    query: wechatVerifyQuerySchema,
    binary: true,
    data: z.null(),
  },
  wechatList: {
    ...paths.wechatList,
    summary: '当前账号绑定的微信',
    tag: T,
    auth: true,
    data: z.array(wechatBindingSchema),
  },
  wechatRemove: {
    ...paths.wechatRemove,
    summary: '解除当前账号的一个微信绑定（记入操作日志）',
    tag: T,
    auth: true,
    body: wechatRemoveSchema,
    data: z.null(),
  },
  loginMode: {
    ...paths.loginMode,
    summary: '登录方式：平台登录模式（ggfw / login / ywbl）与可用的登录方式（password 总是；sms、ca、wechat 在配置后）',
    tag: T,
    auth: false,
    data: loginModeSchema,
  },
  refreshToken: {
    ...paths.refreshToken,
    summary:
      '以刷新令牌换取新的访问令牌与刷新令牌（旧的一对随即失效）；已轮换过的刷新令牌再次出现视为泄露，整条登录链（会话及其所有轮换）被注销',
    tag: T,
    auth: false,
    body: refreshRequestSchema,
    data: refreshResponseSchema,
  },
  loginDevices: {
    ...paths.loginDevices,
    summary: '登录设备：当前账号有效的会话（设备、地址、登录时间、最近活动、是否当前）',
    tag: T,
    auth: true,
    data: z.array(loginDeviceSchema),
  },
} as const;
