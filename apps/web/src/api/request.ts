import {
  Code,
  DOWNLOAD_TIMEOUT_MS,
  Msg,
  REQUEST_TIMEOUT_MS,
  SESSION_END_CODES,
  SESSION_END_DELAY_MS,
  SESSION_END_REASON_PARAM,
} from '@ks/contracts';
import { type PromptType, prompt } from '../components/prompt';
import { browser } from '../lib/browser';
import { navigateTo } from '../lib/navigation';
import { requirePasswordChange } from '../lib/passwordChange';
import { clearAllStorage, getRefreshToken, getToken, setTokens } from '../lib/session';
import { showLoginPrompt } from './loginPrompt';

/**
 * The one request client (spec §8). Every call goes through a Transport (fetch by default) and every side effect
 * (dialogs, the login prompt, navigation, storage, timers) through RequestEffects; both can be replaced, which is
 * how the tests drive every branch.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type ParamValue = string | number | boolean | null | undefined;
export type Params = Record<string, ParamValue>;

export interface RequestOptions {
  url: string;
  method?: Method;
  /** JSON body (or FormData / Blob / URLSearchParams as is); for GET a plain object is added to the query. */
  data?: unknown;
  params?: Params;
  /** true (default): send `Authorization: Bearer <token>` when a token exists; false: never send it. */
  isToken?: boolean;
  /** Milliseconds; REQUEST_TIMEOUT_MS by default. */
  timeout?: number;
  /** No dialog, login prompt or redirect of any kind: the caller handles the rejection itself. */
  silent?: boolean;
  headers?: Record<string, string>;
}

export interface DownloadOptions {
  url: string;
  method?: Method;
  data?: unknown;
  params?: Params;
  /** Milliseconds; DOWNLOAD_TIMEOUT_MS by default. */
  timeout?: number;
  silent?: boolean;
}

export interface DownloadResult {
  blob: Blob;
  /** From Content-Disposition (RFC 5987 `filename*` preferred), or null when the server sent none. */
  fileName: string | null;
}

export interface TransportRequest {
  url: string;
  method: Method;
  headers: Record<string, string>;
  body?: BodyInit;
  signal: AbortSignal;
}

/** The part of a fetch Response the client reads. */
export interface TransportResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  blob(): Promise<Blob>;
}

export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export const fetchTransport: Transport = (req) =>
  fetch(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    credentials: 'same-origin',
  });

export interface RequestEffects {
  /** The global prompt dialog. */
  prompt(options: { message: string; type: PromptType; onOk?: () => void }): void;
  /** The inline prompt above the login form. */
  loginPrompt(message: string): void;
  /** In-app navigation (the router's navigate when registered). */
  navigate(to: string): void;
  /** Full page navigation. */
  assign(url: string): void;
  /** Clears session storage and local storage (keeping the platform version). */
  clearStorage(): void;
  /** The current page's path. */
  pathname(): string;
  getToken(): string | null;
  /** setTimeout; returns a function that cancels it. */
  schedule(fn: () => void, ms: number): () => void;
  /** The account must change its password first (code 10020): open the change-password dialog. */
  requirePasswordChange(): void;
  /** The stored refresh token (issue 15), or null. */
  getRefreshToken(): string | null;
  /** Store the pair a refresh answered. */
  saveTokens(pair: { token: string; refreshToken: string }): void;
}

export const defaultEffects: RequestEffects = {
  prompt: (options) => prompt(options),
  loginPrompt: (message) => showLoginPrompt(message),
  navigate: (to) => navigateTo(to),
  assign: (url) => browser.assign(url),
  clearStorage: () => clearAllStorage(),
  pathname: () => browser.pathname(),
  getToken: () => getToken(),
  schedule: (fn, ms) => {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
  requirePasswordChange: () => requirePasswordChange(),
  getRefreshToken: () => getRefreshToken(),
  saveTokens: (pair) => setTokens(pair),
};

/** Where a refresh token is traded for a new pair (contracts paths.refreshToken). */
export const REFRESH_URL = '/ks/auth/v1/authorization/refresh';

export type ApiErrorKind = 'response' | 'timeout' | 'network';

export class ApiError<D = unknown> extends Error {
  override name = 'ApiError';
  /** response: the server answered; timeout / network: it did not (status and code 0). */
  readonly kind: ApiErrorKind;
  /** HTTP status (0 without a response). */
  readonly status: number;
  /** Envelope code (the HTTP status when the body was no envelope; 0 without a response). */
  readonly code: number;
  readonly data: D;

  constructor(kind: ApiErrorKind, status: number, code: number, message: string, data: D) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** A refusal: the caller may not see or do this (HTTP 403, or an envelope code 403). */
export const isForbidden = (err: unknown) => isApiError(err) && (err.status === 403 || err.code === 403);

/** The root counts as the login page (spec §2), and so does the business-handling sign-in entry (mode ywbl). */
export function isLoginPath(pathname: string): boolean {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return p === '/' || p === '' || p === '/login' || p === '/admin-business' || p === '/creditCode';
}

export const COMPANY_INFO_URL = '/system/companyInfo?type=1';

interface ParsedEnvelope {
  code: number | undefined;
  data: unknown;
  message: string;
}

function parseEnvelope(text: string): ParsedEnvelope | null {
  if (!text) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const rawCode = b.code ?? b.status;
  const code = typeof rawCode === 'number' ? rawCode : typeof rawCode === 'string' ? Number(rawCode) : Number.NaN;
  if (!Number.isFinite(code)) return null;
  return {
    code,
    data: b.data !== undefined ? b.data : (b.result ?? null),
    message: typeof b.message === 'string' ? b.message : typeof b.msg === 'string' ? b.msg : '',
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

function isRawBody(v: unknown): v is BodyInit {
  return (
    (typeof FormData !== 'undefined' && v instanceof FormData) ||
    (typeof Blob !== 'undefined' && v instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && v instanceof URLSearchParams) ||
    v instanceof ArrayBuffer
  );
}

function buildUrl(url: string, params: Params | undefined): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const qs = search.toString();
  if (!qs) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}

/** File name from a Content-Disposition header; `filename*=UTF-8''…` (RFC 5987) wins over `filename=`. */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    const value = star[2].trim().replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header);
  if (plain) {
    const value = (plain[1] ?? plain[2] ?? '').trim();
    if (!value) return null;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

export interface RequestClientConfig {
  transport?: Transport;
  effects?: Partial<RequestEffects>;
}

export interface RequestClient {
  request<T = unknown>(options: RequestOptions): Promise<T>;
  download(options: DownloadOptions): Promise<DownloadResult>;
  /**
   * Applies the error catalogue to a failure of a `silent` call after all, for callers that handle some failures
   * themselves (e.g. field validation errors shown on a form) and leave the rest to the usual handling.
   */
  report(err: ApiError): void;
}

export function createRequestClient(config: RequestClientConfig = {}): RequestClient {
  const transport = config.transport ?? fetchTransport;
  const fx: RequestEffects = { ...defaultEffects, ...config.effects };
  /** Set once the session is ending: later failures of requests already in flight do not prompt again. */
  let ending = false;

  /**
   * Spec §8: the prompt, then after 500 ms storage cleared and a full navigation. The page reload would take the
   * prompt with it, so the sign-in page is told why (`/login?reason=<code>`) and says so itself.
   */
  function endSession(message: string | null, target: string): void {
    if (ending) return;
    ending = true;
    if (message !== null) fx.prompt({ message, type: 1 });
    fx.schedule(() => {
      fx.clearStorage();
      fx.assign(target);
    }, SESSION_END_DELAY_MS);
  }

  /** Set while the 418 prompt is showing: the other calls of the page refused with 418 do not queue more of it. */
  let completing = false;

  /** The error catalogue of spec §8. */
  function handleFailure(err: ApiError): void {
    if (SESSION_END_CODES.includes(err.code)) {
      endSession(err.message, `/login?${SESSION_END_REASON_PARAM}=${err.code}`);
      return;
    }
    if (err.status === Code.UNAUTHORIZED || err.message === Msg.NOT_SIGNED_IN) {
      endSession(null, '/');
      return;
    }
    if (err.code === Code.PASSWORD_CHANGE_REQUIRED) {
      // every call of the page fails alike until the password is changed: one dialog, no prompts
      fx.requirePasswordChange();
      return;
    }
    if (err.status === Code.COMPLETE_COMPANY_INFO || err.code === Code.COMPLETE_COMPANY_INFO) {
      // spec §2: 418 leads to the company information (type=1), once whatever number of calls were refused
      if (completing) return;
      completing = true;
      fx.prompt({
        message: err.message,
        type: 2,
        onOk: () => {
          completing = false;
          fx.navigate(COMPANY_INFO_URL);
        },
      });
      return;
    }
    if (err.status === Code.BAD_GATEWAY || err.code === Code.BAD_GATEWAY) return;
    if (isLoginPath(fx.pathname())) {
      fx.loginPrompt(err.message);
      return;
    }
    const serverError = err.status >= 500 || (err.code >= 500 && err.code < 600);
    fx.prompt({ message: err.message, type: serverError ? 1 : 2 });
  }

  /**
   * Sends the request and hands the response to `read`, all within `timeout`. Rejects with an ApiError of kind
   * timeout or network when no answer arrives; `read` throws response errors itself.
   */
  function exchange<R>(
    options: RequestOptions,
    timeout: number,
    read: (res: TransportResponse) => Promise<R>,
  ): Promise<R> {
    const method = options.method ?? 'GET';
    const headers: Record<string, string> = { Accept: 'application/json, */*', ...options.headers };
    if (options.isToken !== false) {
      const token = fx.getToken();
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    let params = options.params;
    let body: BodyInit | undefined;
    if (options.data !== undefined && options.data !== null) {
      if (method === 'GET') {
        if (isPlainObject(options.data)) params = { ...(options.data as Params), ...params };
      } else if (isRawBody(options.data)) {
        body = options.data;
      } else {
        body = JSON.stringify(options.data);
        headers['Content-Type'] = 'application/json;charset=UTF-8';
      }
    }
    const controller = new AbortController();
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const cancelTimer = fx.schedule(() => {
        if (settled) return;
        settled = true;
        controller.abort();
        reject(new ApiError('timeout', 0, 0, Msg.REQUEST_TIMEOUT, null));
      }, timeout);
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        cancelTimer();
        fn();
      };
      const url = buildUrl(options.url, params);
      // a transport that throws synchronously fails like one that rejects
      Promise.resolve()
        .then(() => transport({ url, method, headers, body, signal: controller.signal }))
        .then(read)
        .then(
          (value) => settle(() => resolve(value)),
          (err: unknown) =>
            settle(() => reject(isApiError(err) ? err : new ApiError('network', 0, 0, Msg.REQUEST_FAILED, null))),
        );
    });
  }

  function responseError(res: TransportResponse, env: ParsedEnvelope | null): ApiError {
    const code = env?.code ?? res.status;
    return new ApiError('response', res.status, code, env?.message || Msg.REQUEST_FAILED, env?.data ?? null);
  }

  const ok = (status: number) => status >= 200 && status < 300;

  /** One refresh at a time: the calls of a page that all found the session expired share it. */
  let refreshing: Promise<boolean> | null = null;

  /**
   * Trade the stored refresh token for a new pair (issue 15): true when the pair is stored. Any failure (none stored,
   * refused, replayed, network) is false, and the caller's own error is handled as usual.
   */
  function refreshSession(): Promise<boolean> {
    if (refreshing) return refreshing;
    const refreshToken = fx.getRefreshToken();
    if (!refreshToken) return Promise.resolve(false);
    refreshing = exchange(
      { url: REFRESH_URL, method: 'POST', data: { refreshToken }, isToken: false },
      REQUEST_TIMEOUT_MS,
      async (res) => {
        const env = parseEnvelope(await res.text());
        const pair = env?.data as { token?: unknown; refreshToken?: unknown } | null;
        if (!env || !ok(res.status) || env.code !== Code.OK || !pair) return false;
        if (typeof pair.token !== 'string' || typeof pair.refreshToken !== 'string') return false;
        fx.saveTokens({ token: pair.token, refreshToken: pair.refreshToken });
        return true;
      },
    )
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function request<T = unknown>(options: RequestOptions, retried = false): Promise<T> {
    try {
      return await exchange(options, options.timeout ?? REQUEST_TIMEOUT_MS, async (res) => {
        const env = parseEnvelope(await res.text());
        if (env && ok(res.status) && env.code === Code.OK) return env.data as T;
        throw responseError(res, env);
      });
    } catch (err) {
      const apiError = isApiError(err) ? err : new ApiError('network', 0, 0, Msg.REQUEST_FAILED, null);
      // an expired session gets one refresh, then the call is sent again with the new token
      if (
        !retried &&
        !ending &&
        apiError.code === Code.SESSION_EXPIRED &&
        options.isToken !== false &&
        (await refreshSession())
      ) {
        return request<T>(options, true);
      }
      if (!options.silent) handleFailure(apiError);
      throw apiError;
    }
  }

  async function download(options: DownloadOptions): Promise<DownloadResult> {
    try {
      return await exchange(
        { ...options, isToken: true },
        options.timeout ?? DOWNLOAD_TIMEOUT_MS,
        async (res): Promise<DownloadResult> => {
          const contentType = res.headers.get('content-type') ?? '';
          const fileName = fileNameFromDisposition(res.headers.get('content-disposition'));
          if (/[/+]json\b/i.test(contentType)) {
            // A JSON answer to a download is an envelope: an error unless it is a plain success.
            const text = await res.text();
            const env = parseEnvelope(text);
            if (!ok(res.status) || (env && env.code !== Code.OK)) throw responseError(res, env);
            return { blob: new Blob([text], { type: contentType }), fileName };
          }
          if (!ok(res.status)) throw responseError(res, null);
          return { blob: await res.blob(), fileName };
        },
      );
    } catch (err) {
      const apiError = isApiError(err) ? err : new ApiError('network', 0, 0, Msg.REQUEST_FAILED, null);
      if (!options.silent) handleFailure(apiError);
      throw apiError;
    }
  }

  return { request: (options) => request(options), download, report: handleFailure };
}

let client = createRequestClient();

/** Replaces the transport and/or effects of the app-wide client (tests; the app itself uses the defaults). */
export function configureRequest(config: RequestClientConfig = {}): void {
  client = createRequestClient(config);
}

/** Resolves with `data` of a code-200 envelope; otherwise handles the error (spec §8) and rejects with ApiError. */
export function request<T = unknown>(options: RequestOptions): Promise<T> {
  return client.request<T>(options);
}

/** The usual handling (spec §8) for a failure the caller received from a `silent` call and does not handle itself. */
export function reportApiError(err: ApiError): void {
  client.report(err);
}

/** Downloads a file (bearer token, 60 s timeout); a JSON answer is an envelope error handled like request's. */
export function download(options: DownloadOptions): Promise<DownloadResult> {
  return client.download(options);
}
