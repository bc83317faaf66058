import {
  caBindingsPageSchema,
  caBindingsQuerySchema,
  caCertInfoSchema,
  caCertificateBodySchema,
  caConfigSchema,
  caLoginResponseSchema,
  caNonceSchema,
  caRegisterSchema,
  caSignedSchema,
  caUnbindSchema,
} from './ca';
import { paths } from './paths';
import { z } from './zod';

const signInSummary =
  '证书登录：证书（PEM 或 base64 DER）与其私钥对 nonce（UTF-8）的签名（RSA PKCS#1 v1.5 / ECDSA 用 SHA-256；SM2 用 SM3，用户标识 1234567812345678）。校验有效期、证书链（CA_TRUSTED_ROOTS）、签名与 nonce（一次有效），证书须已绑定，以绑定它的企业账号登录（与账号登录相同：单点登录、操作日志「证书登录」）；失败记入登录尝试';

/** Registry entries of CA certificate sign-in (spec §7 Account: /ks/ca/caLogin, ent-info, ca-login) and /lock. */
export const caApi = {
  caConfig: {
    ...paths.caConfig,
    summary: 'CA 证书登录是否可用（已配置信任的根证书）及本机签名助手地址（CA_AGENT_URL）',
    tag: 'CA证书',
    auth: false,
    data: caConfigSchema,
  },
  caNonce: {
    ...paths.caNonce,
    summary: '签发一次性签名随机数（2 分钟内有效，使用一次即作废；保存在数据库，任一服务进程均可校验）',
    tag: 'CA证书',
    auth: false,
    data: caNonceSchema,
  },
  caEntInfo: {
    ...paths.caEntInfo,
    summary: '证书对应的企业：校验有效期与证书链后，按证书主题中的统一社会信用代码回答企业名称、信用代码、是否已绑定',
    tag: 'CA证书',
    auth: false,
    body: caCertificateBodySchema,
    data: caCertInfoSchema,
  },
  caSignIn: {
    ...paths.caSignIn,
    summary: signInSummary,
    tag: 'CA证书',
    auth: false,
    body: caSignedSchema,
    data: caLoginResponseSchema,
  },
  caLogin: {
    ...paths.caLogin,
    summary: `${signInSummary}（spec 的 caLogin 路径，与 ca-login 相同）`,
    tag: 'CA证书',
    auth: false,
    body: caSignedSchema,
    data: caLoginResponseSchema,
  },
  caRegister: {
    ...paths.caRegister,
    summary:
      '绑定证书（/caRegister）：企业账号与密码（与登录页相同的 RSA-OAEP 加密，loginNonce 作 label；失败计入登录失败次数，需要时带验证码）加证书签名；证书的统一社会信用代码须与账号所属企业一致',
    tag: 'CA证书',
    auth: false,
    body: caRegisterSchema,
    data: caCertInfoSchema,
  },
  caBindings: {
    ...paths.caBindings,
    summary: '证书绑定列表（/lock）：企业用户看本企业的，管理员看全部（关键字、有效期状态筛选，分页）；附过期提示',
    tag: 'CA证书',
    auth: true,
    query: caBindingsQuerySchema,
    data: caBindingsPageSchema,
  },
  caBind: {
    ...paths.caBind,
    summary: '企业用户为本企业绑定证书（证书签名；信用代码须与本企业一致），记入操作日志',
    tag: 'CA证书',
    auth: true,
    body: caSignedSchema,
    data: caCertInfoSchema,
  },
  caUnbind: {
    ...paths.caUnbind,
    summary: '解除证书绑定（本企业用户或管理员），记入操作日志',
    tag: 'CA证书',
    auth: true,
    body: caUnbindSchema,
    data: z.null(),
  },
} as const;
