import {
  logHistoryItemSchema,
  logHistoryQuerySchema,
  phoneQuerySchema,
  phoneStateSchema,
  portraitSchema,
  resetSecretRequestSchema,
  secretTimeSchema,
  smsLoginRequestSchema,
  updatePhoneRequestSchema,
  verifyPhoneRequestSchema,
} from './account-centre';
import { loginResponseSchema } from './auth';
import { paths } from './paths';
import { pageOf } from './portal';
import { sendSmsResponseSchema } from './sms';
import { z } from './zod';

const T = '账号';

/** Password, phone, SMS sign-in and the user centre (issue 15). */
export const accountCentreApi = {
  resetSecret: {
    ...paths.resetSecret,
    summary:
      '找回密码（无需登录）：手机号 + 用途 reset 的短信凭证 proof + 新密码（RSA 密文）；多个账号共用手机号时须填账号。结束该账号全部会话',
    tag: T,
    auth: false,
    body: resetSecretRequestSchema,
    data: z.null(),
  },
  resetCode: {
    ...paths.resetCode,
    summary: '发送找回密码验证码：无论手机号是否绑定账号，应答与频率限制都相同（只在绑定时真正发送）',
    tag: T,
    auth: false,
    query: phoneQuerySchema,
    data: sendSmsResponseSchema,
  },
  loginVerifyCode: {
    ...paths.loginVerifyCode,
    summary: '发送短信登录验证码：无论手机号是否绑定账号，应答与频率限制都相同（只在绑定时真正发送）',
    tag: T,
    auth: false,
    query: phoneQuerySchema,
    data: sendSmsResponseSchema,
  },
  smsLogin: {
    ...paths.smsLogin,
    summary: '短信验证码登录：手机号 + 验证码；未绑定的手机号与错误验证码应答相同',
    tag: T,
    auth: false,
    body: smsLoginRequestSchema,
    data: loginResponseSchema,
  },
  updatePhone: {
    ...paths.updatePhone,
    summary: '更换手机号：新手机号 + 用途 phone 的短信凭证 proof',
    tag: T,
    auth: true,
    body: updatePhoneRequestSchema,
    data: phoneStateSchema,
  },
  secretTime: {
    ...paths.secretTime,
    summary: '密码已使用天数与是否须修改（PASSWORD_MAX_AGE_DAYS，0 为不限）',
    tag: T,
    auth: true,
    data: secretTimeSchema,
  },
  phoneState: {
    ...paths.phoneState,
    summary: '本人手机号是否绑定、是否已验证，以及打码后的手机号',
    tag: T,
    auth: true,
    data: phoneStateSchema,
  },
  verifyPhone: {
    ...paths.verifyPhone,
    summary: '以用途 verify 的验证码验证本人当前手机号',
    tag: T,
    auth: true,
    body: verifyPhoneRequestSchema,
    data: phoneStateSchema,
  },
  portrait: {
    ...paths.portrait,
    summary: '上传头像（multipart，字段 file：JPG/PNG/GIF/WEBP，≤5MB）；服务端裁剪为 256×256 并重新编码为 WEBP',
    tag: T,
    auth: true,
    data: portraitSchema,
  },
  logHistory: {
    ...paths.logHistory,
    summary: '本人登录记录：时间、IP、设备（浏览器与系统）、结果，新的在前，分页',
    tag: T,
    auth: true,
    query: logHistoryQuerySchema,
    data: pageOf(logHistoryItemSchema),
  },
} as const;
