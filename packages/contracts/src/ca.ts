import { loginResponseSchema } from './auth';
import { Msg } from './codes';
import { PAGE_SIZES } from './constants';
import { z } from './zod';

/**
 * CA certificate sign-in (CA锁, issue 15). The browser reads certificates and signatures from the local signing agent
 * that Chinese CA vendors install (an HTTP service on 127.0.0.1); the server checks the certificate (validity period,
 * chain up to a configured root, the unified social credit code in its subject) and the signature over a single-use
 * nonce it issued, then signs in as the enterprise user who bound the certificate.
 */

/** How long a CA nonce may be signed and sent back. */
export const CA_NONCE_TTL_MS = 2 * 60_000;
/** A binding whose certificate expires within this many days is shown 即将过期. */
export const CA_EXPIRY_WARN_DAYS = 30;
/** GM/T 0009: the default signer id of an SM2 signature. */
export const SM2_DEFAULT_USER_ID = '1234567812345678';
export const CA_ALGORITHMS = ['RSA', 'ECDSA', 'SM2'] as const;
export type CaAlgorithm = (typeof CA_ALGORITHMS)[number];

/** The words of the CA pages and answers (Chinese, shown as they are). */
export const CA_MSG = {
  notConfigured: 'CA 证书登录尚未配置，请联系平台管理员',
  agentNotConfigured: '未配置证书签名助手地址，请联系平台管理员',
  agentDown: '未检测到证书驱动/签名助手，请确认已安装并启动驱动/签名助手后重试',
  noCertificates: '未读取到证书，请插入 CA 锁后重试',
  badCertificate: '证书格式不正确，无法识别',
  expired: '证书已过期',
  notYetValid: '证书尚未生效',
  foreign: '该证书不是由平台信任的 CA 机构签发，无法使用',
  issuerExpired: '签发该证书的 CA 证书不在有效期内',
  caCertificate: '这是一张 CA 证书，请使用企业证书',
  noCreditCode: '证书中未包含有效的统一社会信用代码，无法对应企业',
  unsupportedKey: '不支持该证书的密钥算法',
  badSignature: '证书签名验证失败，请确认使用的是该证书对应的 CA 锁',
  nonceUsed: '签名随机数无效或已使用，请重新签名',
  nonceExpired: '签名随机数已过期，请重新签名',
  notRegistered: '该证书对应的企业尚未在平台注册',
  notBound: '该证书尚未绑定企业账号，请先绑定证书',
  alreadyBound: '该证书已绑定，无需重复绑定',
  codeMismatch: '证书中的统一社会信用代码与该账号所属企业不一致',
  notEnterpriseAccount: '该账号不是企业账号，无法绑定证书',
  noEnterprise: '您的账号未关联企业，无法管理 CA 锁',
  boundUserGone: '绑定该证书的账号已不属于该企业，请重新绑定证书',
  bindingNotFound: '证书绑定不存在或已解除',
  bound: '证书绑定成功',
  unbound: '已解除绑定',
  signedIn: '登录成功',
} as const;

/** The status of a binding's certificate as /lock shows it. */
export const CA_EXPIRY_STATES = ['valid', 'expiring', 'expired'] as const;
export type CaExpiryState = (typeof CA_EXPIRY_STATES)[number];
export const CA_EXPIRY_LABELS: Record<CaExpiryState, string> = {
  valid: '有效',
  expiring: '即将过期',
  expired: '已过期',
};

/** The state of a certificate valid until `notAfter` at `now`: expired, within CA_EXPIRY_WARN_DAYS, or valid. */
export function caExpiryState(notAfter: Date | string, now: Date): CaExpiryState {
  const end = new Date(notAfter).getTime();
  if (end <= now.getTime()) return 'expired';
  return end - now.getTime() <= CA_EXPIRY_WARN_DAYS * 86_400_000 ? 'expiring' : 'valid';
}

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/;
/** A certificate as PEM or base64 DER (what the signing agent answers). */
const certificateText = z
  .string({ error: '请提供证书' })
  .trim()
  .min(100, CA_MSG.badCertificate)
  .max(20_000, CA_MSG.badCertificate)
  .refine((s) => s.startsWith('-----BEGIN CERTIFICATE-----') || BASE64.test(s), CA_MSG.badCertificate);
const signatureText = z
  .string({ error: '请提供签名' })
  .trim()
  .min(16, CA_MSG.badSignature)
  .max(2048, CA_MSG.badSignature)
  .regex(BASE64, CA_MSG.badSignature);
const caNonce = z.string({ error: CA_MSG.nonceUsed }).uuid(CA_MSG.nonceUsed);

/** GET /ks/ca/config: whether CA sign-in works here, and where the browser finds the signing agent. */
export const caConfigSchema = z.object({
  enabled: z.boolean(),
  /** the local signing agent's base address; null: not configured */
  agentUrl: z.string().nullable(),
  /** why it is not usable (null when it is) */
  message: z.string().nullable(),
});
export type CaConfig = z.infer<typeof caConfigSchema>;

/** A nonce the certificate's key signs (its UTF-8 bytes), single use, CA_NONCE_TTL_MS. */
export const caNonceSchema = z.object({ nonce: z.string(), expiresAt: z.string() });
export type CaNonce = z.infer<typeof caNonceSchema>;

export const caCertificateBodySchema = z.object({ certificate: certificateText });
export type CaCertificateBody = z.infer<typeof caCertificateBodySchema>;

/** What a certificate is, after the server has checked it (validity period and chain). */
export const caCertInfoSchema = z.object({
  /** the holder: CN (or O) of the subject */
  holder: z.string(),
  issuer: z.string(),
  serial: z.string(),
  fingerprint: z.string(),
  algorithm: z.enum(CA_ALGORITHMS),
  notBefore: z.string(),
  notAfter: z.string(),
  creditCode: z.string(),
  /** the registered enterprise of that code; null: none */
  enterpriseName: z.string().nullable(),
  registered: z.boolean(),
  bound: z.boolean(),
  expiry: z.enum(CA_EXPIRY_STATES),
});
export type CaCertInfo = z.infer<typeof caCertInfoSchema>;

/** A certificate and its signature (base64) over the UTF-8 bytes of a nonce from /ks/ca/nonce. */
export const caSignedSchema = z.object({
  certificate: certificateText,
  nonce: caNonce,
  signature: signatureText,
});
export type CaSigned = z.infer<typeof caSignedSchema>;

export const caLoginResponseSchema = loginResponseSchema;

/**
 * /caRegister: the enterprise account proven by its password — logValue and passWord RSA-OAEP encrypted with the login
 * nonce (`loginNonce`, from /ks/common/public-key) as label, as the sign-in page does — and the certificate by its
 * signature over a CA nonce. A captcha when the account needs one (as on sign-in).
 */
export const caRegisterSchema = caSignedSchema.extend({
  logValue: z.string().min(1).max(1024),
  passWord: z.string().min(1).max(1024),
  loginNonce: z.string({ error: Msg.LOGIN_NONCE_INVALID }).uuid(Msg.LOGIN_NONCE_INVALID),
  uuid: z.string().uuid(Msg.CAPTCHA_WRONG).optional(),
  code: z.string().max(16).optional(),
});
export type CaRegisterBody = z.infer<typeof caRegisterSchema>;

export const caBindingSchema = z.object({
  id: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  creditCode: z.string(),
  holder: z.string(),
  issuer: z.string(),
  serial: z.string(),
  fingerprint: z.string(),
  algorithm: z.enum(CA_ALGORITHMS),
  notBefore: z.string(),
  notAfter: z.string(),
  expiry: z.enum(CA_EXPIRY_STATES),
  boundBy: z.string(),
  boundAt: z.string(),
});
export type CaBinding = z.infer<typeof caBindingSchema>;

export const caBindingsQuerySchema = z.object({
  /** enterprise name, credit code, holder or serial (administrators) */
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
  expiry: z.enum(CA_EXPIRY_STATES).optional(),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
    .default(10),
});
export type CaBindingsQuery = z.infer<typeof caBindingsQuerySchema>;

export const caBindingsPageSchema = z.object({ records: z.array(caBindingSchema), total: z.number().int() });
export type CaBindingsPage = z.infer<typeof caBindingsPageSchema>;

export const caUnbindSchema = z.object({ id: z.string().uuid(CA_MSG.bindingNotFound) });

/** The local signing agent's protocol (GET {agent}/certs, POST {agent}/sign): what the browser reads from it. */
export interface CaAgentCert {
  id: string;
  /** base64 DER (or PEM) */
  certificate: string;
  /** what the agent calls it (CN, device) */
  label?: string;
}
