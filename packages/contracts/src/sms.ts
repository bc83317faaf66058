import { isValidMobile } from './identifiers';
import { z } from './zod';

/**
 * SMS verification codes (issue 15): what a code is for, the limits the server applies, and the words both sides show.
 * A code is 6 digits, valid 5 minutes; a right code answers a single-use proof (15 minutes) that a later step presents.
 */
export const SMS_PURPOSES = ['register', 'legal', 'realname', 'reset', 'phone', 'login', 'verify'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

/** Purposes anyone may ask a code for through `send-sms` (registration and real-name steps). */
export const SMS_ANONYMOUS_PURPOSES: readonly SmsPurpose[] = ['register', 'legal', 'realname'];
/** Purposes only a signed-in caller may ask a code for through `send-sms`. */
export const SMS_SIGNED_IN_PURPOSES: readonly SmsPurpose[] = ['phone', 'verify'];

export const SMS_PURPOSE_LABELS: Record<SmsPurpose, string> = {
  register: '注册',
  legal: '法人验证',
  realname: '实名认证',
  reset: '找回密码',
  phone: '更换手机号',
  login: '短信登录',
  verify: '验证手机号',
};

export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 5 * 60;
export const SMS_PROOF_TTL_SECONDS = 15 * 60;
export const SMS_RESEND_SECONDS = 60;
export const SMS_DAILY_LIMIT = 10;
export const SMS_MAX_ATTEMPTS = 5;

export const SmsMsg = {
  PHONE_REQUIRED: '请输入手机号码',
  PHONE_INVALID: '请输入正确的手机号码（以1开头的11位数字）',
  CODE_REQUIRED: '请输入验证码',
  CODE_FORMAT: '请输入 6 位数字验证码',
  CODE_NONE: '请先获取验证码',
  CODE_WRONG: '验证码错误',
  CODE_EXPIRED: '验证码已过期，请重新获取',
  CODE_TOO_MANY: '验证码错误次数过多，请重新获取',
  PROOF_INVALID: '手机验证已失效，请重新验证',
  DAILY_LIMIT: `该手机号今日获取验证码已达 ${SMS_DAILY_LIMIT} 次上限，请明天再试`,
  OFF: '短信服务未开通，无法发送验证码，请联系平台管理员',
  SENT: '验证码已发送',
  PURPOSE_SIGNED_IN: '请先登录后再获取该验证码',
  PURPOSE_OTHER: '该验证码请在对应页面获取',
  VERIFY_OWN_PHONE: '只能验证本人账号绑定的手机号',
  OUTBOX_NOTICE: '开发发件箱：短信服务未配置，验证码仅在此显示，生产环境不可用',
  OUTBOX_UNAVAILABLE: '生产环境不可用：开发发件箱仅在未配置短信服务的开发、演示环境中提供',
} as const;

/** '请在 N 秒后重新获取验证码' */
export const smsWaitMessage = (seconds: number) => `请在 ${seconds} 秒后重新获取验证码`;

export const mobileSchema = z
  .string({ message: SmsMsg.PHONE_REQUIRED })
  .trim()
  .min(1, SmsMsg.PHONE_REQUIRED)
  .refine(isValidMobile, SmsMsg.PHONE_INVALID);

export const smsCodeSchema = z
  .string({ message: SmsMsg.CODE_REQUIRED })
  .trim()
  .min(1, SmsMsg.CODE_REQUIRED)
  .regex(/^\d{6}$/, SmsMsg.CODE_FORMAT);

export const smsPurposeSchema = z.enum(SMS_PURPOSES, { message: '验证码用途有误' });

export const sendSmsRequestSchema = z.object({ phone: mobileSchema, purpose: smsPurposeSchema });
export type SendSmsRequest = z.infer<typeof sendSmsRequestSchema>;

export const sendSmsResponseSchema = z.object({
  /** seconds until another code may be asked for this phone */
  resendAfterSeconds: z.number().int(),
});
export type SendSmsResponse = z.infer<typeof sendSmsResponseSchema>;

export const phoneVerifyRequestSchema = z.object({
  phone: mobileSchema,
  purpose: smsPurposeSchema,
  code: smsCodeSchema,
});
export type PhoneVerifyRequest = z.infer<typeof phoneVerifyRequestSchema>;

export const smsProofSchema = z.object({
  /** single use, 15 minutes, bound to the phone and purpose of its code */
  proof: z.string(),
});
export type SmsProof = z.infer<typeof smsProofSchema>;

/** A proof the client presents: opaque text from phone-verify. */
export const proofInputSchema = z
  .string({ message: SmsMsg.PROOF_INVALID })
  .trim()
  .min(1, SmsMsg.PROOF_INVALID)
  .max(200, SmsMsg.PROOF_INVALID);

export const smsOutboxQuerySchema = z.object({
  phone: z.string().trim().max(20).regex(/^\d*$/, '手机号只能是数字').optional(),
});

export const smsOutboxItemSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  template: z.string(),
  params: z.record(z.string(), z.string()),
  text: z.string(),
  createdAt: z.string(),
});
export type SmsOutboxItem = z.infer<typeof smsOutboxItemSchema>;
