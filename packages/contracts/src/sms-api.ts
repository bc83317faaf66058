import { paths } from './paths';
import {
  phoneVerifyRequestSchema,
  sendSmsRequestSchema,
  sendSmsResponseSchema,
  smsOutboxItemSchema,
  smsOutboxQuerySchema,
  smsProofSchema,
} from './sms';
import { z } from './zod';

const T = '短信验证码';

/** SMS codes (issue 15): send, verify for a proof, and the developers' outbox. */
export const smsApi = {
  sendSms: {
    ...paths.sendSms,
    summary:
      '发送 6 位短信验证码（5 分钟有效）。register/legal/realname 无需登录；phone/verify 需登录（verify 只能发往本人手机号）。每个手机号 60 秒一次、每天 10 次；短信服务未开通 503',
    tag: T,
    auth: false,
    body: sendSmsRequestSchema,
    data: sendSmsResponseSchema,
  },
  smsPhoneVerify: {
    ...paths.smsPhoneVerify,
    summary: '校验验证码，正确则作废该验证码并返回一次性凭证 proof（15 分钟，绑定手机号与用途）；错 5 次验证码作废',
    tag: T,
    auth: false,
    body: phoneVerifyRequestSchema,
    data: smsProofSchema,
  },
  smsOutbox: {
    ...paths.smsOutbox,
    summary: '开发发件箱（SMS_PROVIDER=outbox 且非生产环境，否则 404）：最近 50 条短信，可按手机号筛选，新的在前',
    tag: T,
    auth: false,
    query: smsOutboxQuerySchema,
    data: z.array(smsOutboxItemSchema),
  },
} as const;
