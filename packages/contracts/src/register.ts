import { ACCOUNT_MESSAGES as A, ACCOUNT_PATTERN } from './accounts-constants';
import { isValidMobile } from './identifiers';
import { REGIONS } from './portal-constants';
import { REGISTER_MESSAGES as M, REGISTRATION_STATUSES } from './register-rules';
import { z } from './zod';

/** Schemas of self-registration, activation and real-name registration (issue 15). Rules in register-rules.ts. */

const text = (message: string, max: number) =>
  z
    .string({ error: message })
    .refine((v) => !v.includes('\u0000'), '不能包含空字符（\\0）')
    .transform((v) => v.trim())
    .pipe(z.string().min(1, message).max(max, `最多 ${max} 个字符`));

/** A credit code as typed: trimmed and upper-cased; its format and check character are the service's to judge. */
const creditCodeInput = z
  .string({ error: M.creditCodeRequired })
  .max(64, M.creditCodeFormat)
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.string().min(1, M.creditCodeRequired));

const mobile = (required: string) =>
  z
    .string({ error: required })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, required).refine(isValidMobile, M.phoneFormat));

const accountInput = z
  .string({ error: A.accountRequired })
  .trim()
  .min(1, A.accountRequired)
  .regex(ACCOUNT_PATTERN, A.accountFormat);

/** An RSA-OAEP ciphertext (base64) of a password, made with the login public key (no label), as update-secret takes. */
const encryptedPassword = z.string({ error: A.passwordRequired }).min(1, A.passwordRequired).max(1024);

const proof = z.string({ error: M.proofRequired }).trim().min(1, M.proofRequired).max(200, M.proofRequired);
const smsCode = z.string({ error: '请输入短信验证码' }).trim().min(1, '请输入短信验证码').max(12, '短信验证码格式有误');

export const registerPurposeSchema = z.enum(['register', 'legal', 'realname'], '验证码用途不在可选范围内');
export type RegisterPurpose = z.infer<typeof registerPurposeSchema>;

export const creditCodeVerifySchema = z.object({ creditCode: creditCodeInput });
export const creditCodeVerifyResultSchema = z.object({
  creditCode: z.string(),
  /** registered already, or an application for it is under review: nothing else is said about it */
  registered: z.boolean(),
});

export const smsPhoneSchema = z.object({ phone: mobile('请输入手机号码') });
export const smsPhonePurposeSchema = z.object({ phone: mobile('请输入手机号码'), purpose: registerPurposeSchema });
export const smsVerifySchema = z.object({
  phone: mobile('请输入手机号码'),
  purpose: registerPurposeSchema,
  code: smsCode,
});
export const smsSentSchema = z.object({
  resendAfterSeconds: z.number(),
  /** provider: sent by SMS; outbox: development — the code is in the outbox (/smsOutbox); off: not configured */
  mode: z.enum(['provider', 'outbox', 'off']),
});
export const registerProofSchema = z.object({ proof: z.string() });

export const registrationSubmitSchema = z.object({
  name: text(M.enterpriseNameRequired, 200),
  creditCode: creditCodeInput,
  enterpriseType: text(M.enterpriseTypeRequired, 40),
  region: z.enum(REGIONS, M.regionRequired),
  address: text(M.addressRequired, 200),
  legalPerson: text(M.legalPersonRequired, 50),
  legalPhone: mobile(M.legalPhoneRequired),
  /** the proof the SMS verification of the legal representative's phone answered (purpose legal) */
  legalProof: proof,
  contactName: text(M.contactRequired, 64),
  contactPhone: mobile(M.contactPhoneRequired),
  account: accountInput,
  password: encryptedPassword,
  /** the business licence, uploaded through /ks/register/v1/licence */
  licenceFileId: z.string({ error: M.licenceRequired }).uuid(M.licenceRequired),
});
export type RegistrationSubmit = z.input<typeof registrationSubmitSchema>;

export const registrationSubmittedSchema = z.object({
  id: z.string(),
  applicationNo: z.string(),
  status: z.enum(REGISTRATION_STATUSES),
});

export const registrationProgressQuerySchema = z.object({
  creditCode: creditCodeInput,
  /** the application number */
  keyWord: z
    .string({ error: '请输入申请编号' })
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.string().min(1, '请输入申请编号').max(32, M.applicationNotFound)),
});
export const registrationProgressSchema = z.object({
  applicationNo: z.string(),
  enterpriseName: z.string(),
  status: z.enum(REGISTRATION_STATUSES),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** the reviewer's reason of a rejection */
  reason: z.string().nullable(),
  /** an approved enterprise has activated its account */
  activated: z.boolean(),
});
export type RegistrationProgress = z.infer<typeof registrationProgressSchema>;

export const licenceUploadedSchema = z.object({ fileId: z.string(), fileName: z.string(), fileSize: z.number() });

export const activationBasicSchema = z.object({
  creditCode: creditCodeInput,
  legalPerson: text(M.legalPersonRequired, 50),
  legalPhone: mobile(M.legalPhoneRequired),
});
export const activationMatchSchema = z.object({ enterpriseName: z.string(), account: z.string() });
export const activateSchema = activationBasicSchema.extend({ code: smsCode });
export const activatedSchema = z.object({ account: z.string() });

export const userRegisterSchema = z.object({
  realName: text(M.realNameRequired, 50),
  idNumber: z
    .string({ error: M.idNumberRequired })
    .max(64, M.idNumberFormat)
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.string().min(1, M.idNumberRequired)),
  phone: mobile('请输入手机号码'),
  /** the proof the SMS verification of the phone answered (purpose realname) */
  proof,
  account: accountInput,
  password: encryptedPassword,
});
export type UserRegister = z.input<typeof userRegisterSchema>;
export const userRegisteredSchema = z.object({ account: z.string(), userName: z.string(), idNumber: z.string() });

/** An administrator registers an enterprise by hand (企业信息 → 登记企业). */
export const adminEnterpriseCreateSchema = z.object({
  name: text(M.enterpriseNameRequired, 200),
  creditCode: creditCodeInput,
  enterpriseType: text(M.enterpriseTypeRequired, 40),
  region: z.enum(REGIONS, M.regionRequired),
  address: text(M.addressRequired, 200),
  legalPerson: text(M.legalPersonRequired, 50),
  legalPhone: mobile(M.legalPhoneRequired),
  account: accountInput,
  /** the initial password (the enterprise must change it at its first sign-in) */
  password: z.string({ error: A.passwordRequired }).min(1, A.passwordRequired).max(64, '密码长度应为 8 到 64 位'),
  /** required when the code fails its check character (pilot-region codes); logged */
  overrideReason: z
    .string()
    .max(200, '最多 200 个字符')
    .nullish()
    .transform((v) => v?.trim() || null),
});
export type AdminEnterpriseCreate = z.input<typeof adminEnterpriseCreateSchema>;
export const adminEnterpriseCreatedSchema = z.object({
  enterpriseId: z.string(),
  userId: z.string(),
  account: z.string(),
});
