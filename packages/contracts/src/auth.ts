import { Msg } from './codes';
import { LOGIN_ROLE_TYPES } from './roles';
import { z } from './zod';

export const loginRoleTypeSchema = z.enum(LOGIN_ROLE_TYPES);

/**
 * The login public key, and a single-use nonce (5 minutes) that the next sign-in must use as the RSA-OAEP label of its
 * three ciphertexts: a captured sign-in body cannot be sent again.
 */
export const publicKeyResponseSchema = z.object({ publicKey: z.string(), nonce: z.string() });

/** The first three fields are RSA-OAEP (SHA-256) ciphertexts, base64, with the nonce (UTF-8) as the OAEP label. */
export const loginRequestSchema = z.object({
  logValue: z.string().min(1).max(1024),
  passWord: z.string().min(1).max(1024),
  loginRoleType: z.string().min(1).max(1024),
  nonce: z.string({ error: Msg.LOGIN_NONCE_INVALID }).uuid(Msg.LOGIN_NONCE_INVALID),
  uuid: z.string().uuid(Msg.CAPTCHA_WRONG).optional(),
  code: z.string().max(16).optional(),
});

/** Does a sign-in of this account from this address need a captcha now? (Asked before the password is typed.) */
export const captchaNeededRequestSchema = z.object({ logValue: z.string().trim().min(1).max(64) });
export const captchaNeededResponseSchema = z.object({ captchaRequired: z.boolean() });

/** Changing one's own password (also the only call allowed while an administrator's reset forces it). */
export const updateSecretRequestSchema = z.object({
  /** both RSA-OAEP ciphertexts (no label) */
  oldPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Limits on the decrypted values. */
export const loginPlainSchema = z.object({
  logValue: z.string().trim().min(1, '请输入账号').max(64, '账号过长'),
  passWord: z.string().min(1, '请输入密码').max(128, '密码过长'),
  loginRoleType: loginRoleTypeSchema,
});

/** Practice status per region: 0 unknown/pending, 1 abnormal, 2 normal (spec §4). */
export const practiceDetailSchema = z.object({
  region: z.string(),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  reason: z.string(),
});
export type PracticeDetail = z.infer<typeof practiceDetailSchema>;

export const practicingStatusSchema = z.object({
  /** Set (a summary text) when any region is abnormal; absent otherwise. */
  abnormal: z.string().optional(),
  practiceDetails: z.array(practiceDetailSchema),
});
export type PracticingStatus = z.infer<typeof practicingStatusSchema>;

export const userInfoSchema = z.object({
  id: z.string(),
  userName: z.string(),
  loginRoleType: loginRoleTypeSchema,
  photo: z.string().nullable(),
  practicingStatus: practicingStatusSchema,
  enterpriseName: z.string().nullable().optional(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResponseSchema = z.object({
  token: z.string(),
  /** Opaque, single-use: POST …/authorization/refresh trades it for a new token and refresh token (rotation). */
  refreshToken: z.string(),
  userInfo: userInfoSchema,
  roles: z.array(z.string()),
  /** 0: a normal sign-in; 1: the password was reset by an administrator and must be changed. */
  codeStatus: z.number().int(),
  /** Set when the account was locked since its previous sign-in (failed attempts): the owner is told. */
  securityNotice: z.string().nullable().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const captchaResponseSchema = z.object({ uuid: z.string(), img: z.string() });
export type CaptchaResponse = z.infer<typeof captchaResponseSchema>;

/** data of a 400 from login when a captcha is (now) needed. */
export const loginErrorDataSchema = z.object({
  captchaRequired: z.boolean(),
  lockedUntil: z.string().optional(),
});
export type LoginErrorData = z.infer<typeof loginErrorDataSchema>;

export const platformInfoSchema = z.object({
  describe: z.string(),
  filingsCoding: z.string(),
  version: z.string(),
  platformName: z.string(),
  phone: z.string(),
});
export type PlatformInfo = z.infer<typeof platformInfoSchema>;

export const currentUserSchema = z.object({
  userInfo: userInfoSchema,
  roles: z.array(z.string()),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const systemItemSchema = z.object({
  systemName: z.string(),
  systemCoding: z.string(),
  title: z.string(),
  todoCount: z.number().int(),
});
export type SystemItem = z.infer<typeof systemItemSchema>;
