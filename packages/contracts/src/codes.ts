import { formatIn } from './dates';

/** Envelope codes and the Chinese messages that go with them (spec §7, §8). */
export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** Server asks the client to complete the enterprise information first (spec §2: 418 → /system/companyInfo?type=1). */
  COMPLETE_COMPANY_INFO: 418,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  /** The database (or another service the request needs) cannot be reached now; retry later. */
  SERVICE_UNAVAILABLE: 503,
  /** The file store has no room left (disk full, quota, file size limit): nothing was stored. */
  INSUFFICIENT_STORAGE: 507,
  /** Session expired (idle past the sliding expiry). */
  SESSION_EXPIRED: 10000,
  /** Token unknown, malformed or revoked (e.g. by logout). */
  TOKEN_INVALID: 10001,
  /** The account signed in elsewhere and this session was replaced. */
  SIGNED_IN_ELSEWHERE: 10017,
  /** The password was reset by an administrator: only changing it is allowed until it is done (HTTP 403). */
  PASSWORD_CHANGE_REQUIRED: 10020,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Codes that end the session on the client: prompt, then after 500 ms clear storage and go to /login. */
export const SESSION_END_CODES: readonly number[] = [
  Code.SESSION_EXPIRED,
  Code.TOKEN_INVALID,
  Code.SIGNED_IN_ELSEWHERE,
];

export const Msg = {
  OK: '操作成功',
  NOT_SIGNED_IN: '未登录',
  SESSION_EXPIRED: '登录已过期，请重新登录',
  TOKEN_INVALID: '登录凭证无效或已注销，请重新登录',
  SIGNED_IN_ELSEWHERE: '您的账号已在其他地方登录，如非本人操作请及时修改密码',
  BAD_REQUEST: '请求参数有误',
  MALFORMED_JSON: '请求体不是有效的 JSON',
  FORBIDDEN: '无权进行此操作',
  NOT_FOUND: '请求的资源不存在',
  CONFLICT: '数据已被修改或已存在，请刷新后重试',
  PAYLOAD_TOO_LARGE: '请求内容过大',
  TOO_MANY_REQUESTS: '请求过于频繁，请稍后再试',
  INTERNAL: '服务器内部错误，请联系管理员',
  DATABASE_UNAVAILABLE: '数据库暂时无法连接，请稍后重试',
  /** more work of one kind waiting than the server takes on (password hashes of sign-ins in a burst): 503 at once */
  SERVER_BUSY: '服务器繁忙，请稍后重试',
  /** the local file store is full (507): the upload kept nothing */
  STORAGE_FULL: '服务器存储空间不足，文件未能保存，请联系管理员清理空间后重新上传',
  /** the local file store cannot be written (503): permissions, a read-only disk, a file where its folder belongs */
  STORAGE_UNWRITABLE: '服务器文件目录无法写入，文件未能保存，请联系管理员',
  BAD_CREDENTIALS: '账号或密码错误',
  DECRYPT_FAILED: '登录信息未加密或无法解密，请刷新页面后重试',
  CAPTCHA_REQUIRED: '请输入验证码',
  CAPTCHA_WRONG: '验证码错误',
  LOGIN_NONCE_INVALID: '登录请求已失效，请重新登录',
  PASSWORD_CHANGE_REQUIRED: '您的密码已被管理员重置，请先修改密码',
  OLD_PASSWORD_WRONG: '原密码错误',
  SAME_PASSWORD: '新密码不能与原密码相同',
  ACCOUNT_DISABLED: '账号已停用，请联系管理员',
  /** Use accountLocked(until) to fill in the time. */
  ACCOUNT_LOCKED: '登录失败次数过多，账号已锁定，请于 {until} 后再试',
  // client-side (spec §8)
  REQUEST_TIMEOUT: '请求超时',
  REQUEST_FAILED: '请求失败，请联系管理员！',
  PROMPT_TITLE: '提示',
  PROMPT_DEFAULT: '提示信息',
  CHUNK_LOAD_FAILED: '页面资源加载失败，可能是网络不稳定或系统已更新，请刷新页面后重试',
} as const;

/** The query parameter that carries why a session ended to the sign-in page (/login?reason=10017). */
export const SESSION_END_REASON_PARAM = 'reason';

/** Why a session ended, by its code (10000, 10001, 10017), or null for any other value. */
export function sessionEndMessage(code: unknown): string | null {
  switch (Number(code)) {
    case Code.SESSION_EXPIRED:
      return Msg.SESSION_EXPIRED;
    case Code.TOKEN_INVALID:
      return Msg.TOKEN_INVALID;
    case Code.SIGNED_IN_ELSEWHERE:
      return Msg.SIGNED_IN_ELSEWHERE;
    default:
      return null;
  }
}

export function accountLockedMessage(until: Date): string {
  // shown in the platform's zone (APP_TZ) whatever the server's own
  return Msg.ACCOUNT_LOCKED.replace('{until}', formatIn(until, 'YYYY-MM-DD HH:mm:ss'));
}
