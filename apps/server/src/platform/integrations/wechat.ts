import { z } from 'zod';

/**
 * The WeChat Open Platform's website QR sign-in (网站应用微信登录), as documented:
 * 1. the browser shows `{open}/connect/qrconnect?appid&redirect_uri&response_type=code&scope=snsapi_login&state#wechat_redirect`;
 * 2. once the phone confirms, WeChat sends the browser to `redirect_uri?code&state` (no code when the user refused);
 * 3. the server trades the code: `GET {api}/sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code`
 *    → access_token, openid, unionid (when the app belongs to an open-platform account), or errcode/errmsg;
 * 4. `GET {api}/sns/userinfo?access_token&openid` → nickname, headimgurl, unionid.
 * The app secret stays on the server; it is in no answer and no message.
 */
export interface WechatConfig {
  appId: string;
  appSecret: string;
  /** the platform's own address as browsers reach it */
  redirectBase: string;
  openUrl: string;
  apiUrl: string;
  timeoutMs: number;
}

/** The path of the redirect_uri callback on this platform. */
export const WECHAT_CALLBACK_PATH = '/ks/individual/wechat/verify-qrcode';

/** A failed call to WeChat: the message is fit to show (Chinese, no secret). */
export class WechatError extends Error {
  constructor(
    message: string,
    readonly errcode: number | null = null,
  ) {
    super(message);
    this.name = 'WechatError';
  }
}

const errSchema = z.object({ errcode: z.coerce.number(), errmsg: z.coerce.string().catch('') });
const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().optional(),
  openid: z.string().min(1).max(128),
  unionid: z.string().min(1).max(128).optional(),
  scope: z.string().optional(),
});
const userSchema = z.object({
  openid: z.string().min(1).max(128),
  nickname: z.coerce.string().catch(''),
  headimgurl: z.coerce.string().catch(''),
  unionid: z.string().min(1).max(128).optional(),
});

export interface WechatIdentity {
  openid: string;
  unionid: string | null;
  accessToken: string;
}
export interface WechatProfile {
  nickname: string;
  headimgurl: string | null;
  unionid: string | null;
}

export function createWechatClient(cfg: WechatConfig, deps: { fetch?: typeof fetch } = {}) {
  const doFetch = deps.fetch ?? fetch;
  const redirectUri = `${cfg.redirectBase}${WECHAT_CALLBACK_PATH}`;

  /** GET a WeChat API address and read its JSON; errcode (non-zero) answers become a WechatError. */
  async function getJson(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(`${cfg.apiUrl}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(cfg.timeoutMs), headers: { accept: 'application/json' } });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
      throw new WechatError(timedOut ? '连接微信服务超时，请稍后再试' : '无法连接微信服务，请稍后再试');
    }
    if (!res.ok) throw new WechatError(`微信服务返回 HTTP ${res.status}，请稍后再试`);
    let body: unknown;
    try {
      body = JSON.parse(await res.text());
    } catch {
      throw new WechatError('微信服务的应答无法识别，请稍后再试');
    }
    const err = errSchema.safeParse(body);
    if (err.success && err.data.errcode !== 0) {
      throw new WechatError(
        `微信授权失败：${err.data.errmsg || '未知错误'}（errcode ${err.data.errcode}）`,
        err.data.errcode,
      );
    }
    return body;
  }

  return {
    redirectUri,
    /** The QR page for a ticket's state. */
    qrconnectUrl(state: string): string {
      const q = new URLSearchParams({
        appid: cfg.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state,
      });
      return `${cfg.openUrl}/connect/qrconnect?${q.toString()}#wechat_redirect`;
    },

    /** Trade the callback's code for the user's openid / unionid. */
    async exchangeCode(code: string): Promise<WechatIdentity> {
      const body = await getJson('/sns/oauth2/access_token', {
        appid: cfg.appId,
        secret: cfg.appSecret,
        code,
        grant_type: 'authorization_code',
      });
      const t = tokenSchema.safeParse(body);
      if (!t.success) throw new WechatError('微信服务的应答缺少 openid，请稍后再试');
      return { openid: t.data.openid, unionid: t.data.unionid ?? null, accessToken: t.data.access_token };
    },

    /** The user's nickname and portrait (and unionid) with the access token of the exchange. */
    async userInfo(accessToken: string, openid: string): Promise<WechatProfile> {
      const body = await getJson('/sns/userinfo', { access_token: accessToken, openid, lang: 'zh_CN' });
      const u = userSchema.safeParse(body);
      if (!u.success) throw new WechatError('微信服务的用户信息无法识别');
      return {
        nickname: u.data.nickname.slice(0, 100),
        headimgurl: /^https?:\/\//.test(u.data.headimgurl) ? u.data.headimgurl : null,
        unionid: u.data.unionid ?? null,
      };
    },
  };
}

export type WechatClient = ReturnType<typeof createWechatClient>;
