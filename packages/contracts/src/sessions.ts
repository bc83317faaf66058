import { z } from './zod';

/** Messages of refresh tokens, login mode and the login-devices list. */
export const SessionMsg = {
  REFRESH_INVALID: '登录已失效，请重新登录',
  REFRESH_EXPIRED: '登录已超过最长有效期，请重新登录',
  REFRESH_REUSED: '检测到登录凭证被重复使用，为保护账号安全已退出相关登录，请重新登录',
} as const;

export const refreshRequestSchema = z.object({
  refreshToken: z.string({ error: SessionMsg.REFRESH_INVALID }).min(16, SessionMsg.REFRESH_INVALID).max(200),
});

/** A new pair: the old access token and refresh token no longer work. */
export const refreshResponseSchema = z.object({ token: z.string(), refreshToken: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const LOGIN_METHODS = ['password', 'sms', 'ca', 'wechat'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];
export const LOGIN_METHOD_LABELS: Record<LoginMethod, string> = {
  password: '账号登录',
  sms: '短信登录',
  ca: '证书登录',
  wechat: '微信扫码登录',
};

export const loginModeSchema = z.object({
  /** ggfw | login | ywbl (LOGIN_MODE) */
  loginMode: z.enum(['ggfw', 'login', 'ywbl']),
  /** the sign-in methods this platform offers now (password always) */
  methods: z.array(z.enum(LOGIN_METHODS)),
});
export type LoginModeInfo = z.infer<typeof loginModeSchema>;

export const loginDeviceSchema = z.object({
  id: z.string(),
  /** browser and system read from the user agent */
  device: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  method: z.string(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type LoginDevice = z.infer<typeof loginDeviceSchema>;
