import { loginRoleTypeSchema } from './auth';
import { mobileSchema, proofInputSchema, smsCodeSchema } from './sms';
import { z } from './zod';

/**
 * Password, phone and the user centre (issue 15): the password policy both sides apply, the anonymous password reset
 * by SMS, SMS sign-in, changing and verifying the phone, the password's age, the portrait and the sign-in history.
 */
export const PASSWORD_HISTORY_DEPTH = 3;

export const AccountMsg = {
  PASSWORD_HAS_ACCOUNT: '密码不能包含账号名',
  PASSWORD_REUSED: `新密码不能与最近 ${PASSWORD_HISTORY_DEPTH} 次使用过的密码相同`,
  RESET_NO_MATCH: '账号与手机号不匹配',
  RESET_MANY_ACCOUNTS: '该手机号绑定了多个账号，请同时填写账号',
  RESET_DONE: '密码已重置，请使用新密码登录',
  PHONE_SAME: '新手机号与当前手机号相同',
  PHONE_TAKEN: '该手机号已被其他账号使用',
  PHONE_CHANGED: '手机号已更换',
  PHONE_NONE: '当前账号未绑定手机号，请先绑定手机号',
  PHONE_VERIFIED: '手机号已验证',
  SMS_LOGIN_FAILED: '验证码错误',
  PORTRAIT_NOT_IMAGE: '请上传 JPG、PNG、GIF 或 WEBP 格式的图片',
  PORTRAIT_TOO_LARGE: '头像图片不能超过 5MB',
  PORTRAIT_UNREADABLE: '图片无法识别，请换一张图片',
  PORTRAIT_SAVED: '头像已更新',
} as const;

/** Largest portrait upload (it is re-encoded to 256×256 on the server). */
export const PORTRAIT_MAX_BYTES = 5 * 1024 * 1024;
export const PORTRAIT_SIZE = 256;

/** The whole policy but history (the server checks the last passwords too): length, three classes, no account name. */
export function passwordPolicyProblem(pw: string, account?: string | null): string | null {
  if (pw.length < 8 || pw.length > 64) return '密码长度应为 8 到 64 位';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(pw)).length;
  if (classes < 3) return '密码需包含大写字母、小写字母、数字、符号中的至少三种';
  const name = account?.trim().toLowerCase();
  if (name && name.length >= 3 && pw.toLowerCase().includes(name)) return AccountMsg.PASSWORD_HAS_ACCOUNT;
  return null;
}

/** How the policy reads on screen. */
export const PASSWORD_POLICY_TEXT = `至少 8 位，包含大写字母、小写字母、数字、符号中的至少三种，不能包含账号名，不能与最近 ${PASSWORD_HISTORY_DEPTH} 次使用过的密码相同`;

export const resetSecretRequestSchema = z.object({
  /** optional: needed only when several accounts share the phone */
  account: z.string().trim().max(64, '账号过长').optional(),
  phone: mobileSchema,
  /** the proof of a 'reset' code of this phone (POST /ks/common/sms/phone-verify) */
  proof: proofInputSchema,
  /** RSA-OAEP ciphertext (no label) of the new password */
  newPassword: z.string().min(1, '请输入新密码').max(1024),
});
export type ResetSecretRequest = z.infer<typeof resetSecretRequestSchema>;

export const phoneQuerySchema = z.object({ phone: mobileSchema });

export const smsLoginRequestSchema = z.object({
  phone: mobileSchema,
  code: smsCodeSchema,
  /** the role the caller signs in as (the sign-in page's tab); any when absent */
  loginRoleType: loginRoleTypeSchema.optional(),
});
export type SmsLoginRequest = z.infer<typeof smsLoginRequestSchema>;

export const updatePhoneRequestSchema = z.object({ phone: mobileSchema, proof: proofInputSchema });
export type UpdatePhoneRequest = z.infer<typeof updatePhoneRequestSchema>;

export const verifyPhoneRequestSchema = z.object({ code: smsCodeSchema });

export const secretTimeSchema = z.object({
  /** the password must be changed now (too old, or reset by an administrator) */
  mustChange: z.boolean(),
  /** whole days since the password was last set */
  days: z.number().int(),
  /** PASSWORD_MAX_AGE_DAYS; 0: no limit */
  maxDays: z.number().int(),
});
export type SecretTime = z.infer<typeof secretTimeSchema>;

export const phoneStateSchema = z.object({
  hasPhone: z.boolean(),
  verified: z.boolean(),
  /** 138****8000, or null */
  maskedPhone: z.string().nullable(),
});
export type PhoneState = z.infer<typeof phoneStateSchema>;

export const portraitSchema = z.object({ photo: z.string() });

export const logHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码有误').default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});

export const logHistoryItemSchema = z.object({
  at: z.string(),
  ip: z.string(),
  /** 浏览器 + 系统, e.g. Chrome 120 / Windows 10 */
  device: z.string(),
  success: z.boolean(),
});
export type LogHistoryItem = z.infer<typeof logHistoryItemSchema>;

/** 138****8000 */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/** A user agent as people read it: browser (major version) and system. */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return '未知设备';
  const browser =
    match(ua, /Edg(?:e|A|iOS)?\/(\d+)/, 'Edge') ??
    match(ua, /OPR\/(\d+)/, 'Opera') ??
    match(ua, /MicroMessenger\/(\d+)/, '微信') ??
    match(ua, /Firefox\/(\d+)/, 'Firefox') ??
    match(ua, /(?:Chrome|CriOS|HeadlessChrome)\/(\d+)/, 'Chrome') ??
    (/Safari\//.test(ua) ? (match(ua, /Version\/(\d+)/, 'Safari') ?? 'Safari') : null) ??
    match(ua, /MSIE (\d+)|Trident\/.*rv:(\d+)/, 'IE') ??
    (/curl\//.test(ua) ? 'curl' : '其他浏览器');
  const os = /Windows NT 10/.test(ua)
    ? 'Windows 10/11'
    : /Windows NT 6\.1/.test(ua)
      ? 'Windows 7'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Android/.test(ua)
          ? 'Android'
          : /iPhone|iPad|iPod/.test(ua)
            ? 'iOS'
            : /Mac OS X|Macintosh/.test(ua)
              ? 'macOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : '其他系统';
  return `${browser} / ${os}`;
}

function match(ua: string, re: RegExp, name: string): string | null {
  const m = re.exec(ua);
  if (!m) return null;
  const v = m[1] ?? m[2];
  return v ? `${name} ${v}` : name;
}
