import { createHmac, randomUUID } from 'node:crypto';

/**
 * The upstream public-resource platform (数据交换, issue 19): a push is `POST <url>/push` with a JSON body, signed —
 * `X-App-Id`, `X-Timestamp` (ms), `X-Nonce`, `X-Signature` = hex HMAC-SHA256 of `timestamp + nonce + body` with the
 * app secret — and `Idempotency-Key` = the business key, so the upstream keeps one copy however often it is sent.
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

export async function pushToUpstream(cfg: UpstreamConfig, businessKey: string, payload: unknown): Promise<PushResult> {
  const body = JSON.stringify(payload);
  const timestamp = String(Date.now());
  const nonce = randomUUID();
  const started = Date.now();
  try {
    const res = await fetch(`${cfg.url}/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-app-id': cfg.appId,
        'x-timestamp': timestamp,
        'x-nonce': nonce,
        'x-signature': signPush(cfg.appSecret, timestamp, nonce, body),
        'idempotency-key': businessKey,
      },
      body,
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
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
    const err = e as Error;
    const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
    return {
      ok: false,
      status: null,
      error: timedOut ? `上级平台 ${cfg.timeoutMs} 毫秒内未应答` : `无法连接上级平台：${err.message}`.slice(0, 500),
      durationMs: Date.now() - started,
    };
  }
}
