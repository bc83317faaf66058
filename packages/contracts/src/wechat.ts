import { z } from './zod';

/** Messages of WeChat sign-in and binding (the website QR flow of the WeChat Open Platform). */
export const WechatMsg = {
  NOT_CONFIGURED: '微信登录未配置',
  TICKET_UNKNOWN: '二维码不存在或已失效，请刷新二维码',
  TICKET_EXPIRED: '二维码已过期，请刷新二维码',
  TICKET_USED: '二维码已使用，请刷新二维码',
  STATE_MISMATCH: '扫码校验失败（state 不匹配），请刷新二维码重试',
  WAITING: '请使用微信扫描二维码',
  DENIED: '已在微信中取消授权',
  NOT_BOUND: '该微信未绑定账号',
  BOUND_ELSEWHERE: '该微信已绑定其他账号，请先在原账号中解除绑定',
  ALREADY_BOUND: '当前账号已绑定微信，请先解除绑定',
  BIND_DONE: '微信绑定成功',
  LOGIN_DONE: '登录成功',
  BINDING_NOT_FOUND: '绑定记录不存在或已解除',
  UPSTREAM_FAILED: '微信服务暂不可用，请稍后再试',
  NOT_OWN_TICKET: '该二维码不属于当前账号，请刷新二维码',
} as const;

/** login: sign in by a bound WeChat; bind: bind a WeChat to the signed-in account. */
export const WECHAT_PURPOSES = ['login', 'bind'] as const;
export type WechatPurpose = (typeof WECHAT_PURPOSES)[number];

export const wechatQrcodeQuerySchema = z.object({
  purpose: z.enum(WECHAT_PURPOSES, { error: '用途须为 login 或 bind' }).default('login'),
});

/** A QR ticket: `url` is the WeChat qrconnect page (shown in an iframe or opened in a new window). */
export const wechatQrcodeSchema = z.object({
  state: z.string(),
  url: z.string(),
  purpose: z.enum(WECHAT_PURPOSES),
  expiresAt: z.string(),
});
export type WechatQrcode = z.infer<typeof wechatQrcodeSchema>;

export const wechatStateSchema = z.object({
  state: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, WechatMsg.TICKET_UNKNOWN),
});

export const WECHAT_SCAN_STATES = ['waiting', 'expired', 'denied', 'unbound', 'bound', 'success'] as const;
export type WechatScanState = (typeof WECHAT_SCAN_STATES)[number];

export const wechatBindingSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  headimgurl: z.string().nullable(),
  /** openid, partly masked */
  openid: z.string(),
  boundAt: z.string(),
});
export type WechatBinding = z.infer<typeof wechatBindingSchema>;

/** `login` is set (a sign-in answer, like the password login's) when a login ticket succeeded. */
export const wechatScanStatusSchema = z.object({
  status: z.enum(WECHAT_SCAN_STATES),
  message: z.string(),
  binding: wechatBindingSchema.optional(),
});

/** The redirect_uri callback: WeChat appends `code` (absent when the user refused) and `state`. */
export const wechatVerifyQuerySchema = z.object({
  code: z.string().max(256).optional(),
  state: z.string().max(128).optional(),
});

export const wechatRemoveSchema = z.object({ id: z.string().uuid(WechatMsg.BINDING_NOT_FOUND) });
