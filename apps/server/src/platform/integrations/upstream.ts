import { createHmac, randomUUID } from 'node:crypto';

/**
 * The upstream public-resource platform (数据交换, issue 19). Every call is a POST with a JSON body, signed — `X-App-Id`,
 * `X-Timestamp` (ms), `X-Nonce`, `X-Signature` = hex HMAC-SHA256 of `timestamp + nonce + body` with the app secret:
 * - a push is `POST <url>/push` with `Idempotency-Key` = the business key, so the upstream keeps one copy however often
 *   it is sent;
 * - the enterprise registrations are `POST <url>/registrations` with `{since, cursor, pageSize}` (see
 *   `fetchRegistrationPage`).
 */
export interface UpstreamConfig {
  url: string;
  appId: string;
  appSecret: string;
  timeoutMs: number;
}

export interface PushResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export function signPush(secret: string, timestamp: string, nonce: string, body: string): string {
  return createHmac('sha256', secret)
    .update(timestamp + nonce + body)
    .digest('hex');
}

/** A signed POST of `body` (JSON text) to `<url><path>`. */
function signedPost(cfg: UpstreamConfig, path: string, body: string, headers: Record<string, string> = {}) {
  const timestamp = String(Date.now());
  const nonce = randomUUID();
  return fetch(`${cfg.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-app-id': cfg.appId,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-signature': signPush(cfg.appSecret, timestamp, nonce, body),
      ...headers,
    },
    body,
    signal: AbortSignal.timeout(cfg.timeoutMs),
  });
}

/** The Chinese words for a request that got no answer: a timeout, or no connection. */
function unanswered(cfg: UpstreamConfig, e: unknown): string {
  const err = e as Error;
  const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
  return timedOut ? `上级平台 ${cfg.timeoutMs} 毫秒内未应答` : `无法连接上级平台：${err.message}`.slice(0, 500);
}

export async function pushToUpstream(cfg: UpstreamConfig, businessKey: string, payload: unknown): Promise<PushResult> {
  const body = JSON.stringify(payload);
  const started = Date.now();
  try {
    const res = await signedPost(cfg, '/push', body, { 'idempotency-key': businessKey });
    const text = await res.text().catch(() => '');
    const durationMs = Date.now() - started;
    if (res.ok) return { ok: true, status: res.status, error: null, durationMs };
    return {
      ok: false,
      status: res.status,
      error: `上级平台返回 HTTP ${res.status}${text ? `：${text.slice(0, 300)}` : ''}`,
      durationMs,
    };
  } catch (e) {
    return { ok: false, status: null, error: unanswered(cfg, e), durationMs: Date.now() - started };
  }
}

/**
 * One page of the upstream's enterprise registrations (its 市场主体登记 interface): `POST <url>/registrations` with
 * `{"since": ISO time | null, "cursor": text | null, "pageSize": n}` — the registrations whose `updatedAt` is at or
 * after `since` (null: all), in `(updatedAt, id)` order, from `cursor` (null: the first page; each answer names the
 * next). The answer: `{"code": 0, "message": "ok", "data": {"total": n, "records": [...], "nextCursor": text | null}}`,
 * where `total` counts every record of the query and a record is
 * `{id, name, creditCode, legalPerson, registeredCapital (yuan, text or number), regionCode (GB/T 2260), address,
 *   establishedAt (YYYY-MM-DD), entType, regType, regStatus, updatedAt (ISO 8601)}`.
 * The records are handed on unchecked (`unknown`): the sync checks each one and refuses what is wrong, with the reason.
 * Anything else — no answer, an HTTP error, a non-zero code, a body of another shape — throws an UpstreamError whose
 * message says what happened, in Chinese.
 */
export interface RegistrationPage {
  total: number;
  records: unknown[];
  nextCursor: string | null;
}

export class UpstreamError extends Error {}

export async function fetchRegistrationPage(
  cfg: UpstreamConfig,
  q: { since: string | null; cursor: string | null; pageSize: number },
): Promise<RegistrationPage> {
  let res: Response;
  let text: string;
  try {
    res = await signedPost(cfg, '/registrations', JSON.stringify(q));
    text = await res.text();
  } catch (e) {
    throw new UpstreamError(unanswered(cfg, e));
  }
  if (!res.ok) throw new UpstreamError(`上级平台返回 HTTP ${res.status}${text ? `：${text.slice(0, 300)}` : ''}`);
  let body: { code?: unknown; message?: unknown; data?: { total?: unknown; records?: unknown; nextCursor?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError('上级平台的应答不是 JSON');
  }
  if (body?.code !== 0) {
    throw new UpstreamError(`上级平台拒绝了请求：${String(body?.message ?? body?.code ?? '未知原因').slice(0, 300)}`);
  }
  const d = body.data;
  const nextCursor = d?.nextCursor ?? null;
  if (
    !d ||
    !Array.isArray(d.records) ||
    typeof d.total !== 'number' ||
    !Number.isInteger(d.total) ||
    d.total < 0 ||
    (nextCursor !== null && (typeof nextCursor !== 'string' || nextCursor.length === 0 || nextCursor.length > 500))
  ) {
    throw new UpstreamError('上级平台的应答格式有误（缺少 total、records 或 nextCursor）');
  }
  return { total: d.total, records: d.records, nextCursor: nextCursor as string | null };
}
