import type { CaAgentCert } from '@ks/contracts';

/**
 * The local signing agent Chinese CA vendors install beside the key's driver: an HTTP service on the user's machine
 * (CA_AGENT_URL, e.g. http://127.0.0.1:28090) that the browser asks directly.
 *
 *   GET  {agent}/certs  → { certs: [{ id, certificate: base64 DER, label? }] }
 *   POST {agent}/sign   { id, data: base64 } → { signature: base64 }   (a refusal: non-2xx with { error })
 *   POST {agent}/decrypt { id, data: base64, algorithm: 'RSA-OAEP-256' } → { plaintext: base64 }
 *        (RSA keys: unwraps a sealed bid's file key, which never leaves this browser afterwards)
 *
 * The signature is the key's own: RSA PKCS#1 v1.5 / ECDSA with SHA-256, SM2 with SM3 (user id 1234567812345678).
 */

export type AgentFailure = 'unreachable' | 'refused';

export class AgentError extends Error {
  constructor(
    readonly kind: AgentFailure,
    message: string,
  ) {
    super(message);
  }
}

export const AGENT_TIMEOUT_MS = 8000;
/** Signing may wait for the user to type the key's PIN in the driver's own window. */
export const AGENT_SIGN_TIMEOUT_MS = 60_000;

type Fetch = typeof fetch;

async function ask(fetchImpl: Fetch, url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, signal: ctrl.signal });
  } catch {
    throw new AgentError('unreachable', '无法连接证书签名助手');
  } finally {
    clearTimeout(timer);
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const said = (body as { error?: unknown } | null)?.error;
    throw new AgentError('refused', typeof said === 'string' && said ? said : `签名助手拒绝了请求（${res.status}）`);
  }
  return body;
}

/** The certificates of the keys plugged in. */
export async function listAgentCerts(
  agentUrl: string,
  fetchImpl: Fetch = fetch,
  timeoutMs = AGENT_TIMEOUT_MS,
): Promise<CaAgentCert[]> {
  const body = await ask(fetchImpl, `${agentUrl}/certs`, { method: 'GET' }, timeoutMs);
  const list = Array.isArray(body) ? body : (body as { certs?: unknown } | null)?.certs;
  if (!Array.isArray(list)) throw new AgentError('refused', '签名助手的应答无法识别');
  return list
    .filter(
      (c): c is CaAgentCert =>
        typeof c === 'object' &&
        c !== null &&
        typeof (c as CaAgentCert).id === 'string' &&
        typeof (c as CaAgentCert).certificate === 'string',
    )
    .map((c) => ({ id: c.id, certificate: c.certificate, label: typeof c.label === 'string' ? c.label : undefined }));
}

/** base64 of the text's UTF-8 bytes. */
export function utf8Base64(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The key `id` signs `text` (its UTF-8 bytes); the signature as base64. */
export async function agentSign(
  agentUrl: string,
  id: string,
  text: string,
  fetchImpl: Fetch = fetch,
  timeoutMs = AGENT_SIGN_TIMEOUT_MS,
): Promise<string> {
  const body = await ask(
    fetchImpl,
    `${agentUrl}/sign`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, data: utf8Base64(text) }),
    },
    timeoutMs,
  );
  const signature = (body as { signature?: unknown } | null)?.signature;
  if (typeof signature !== 'string' || !signature) throw new AgentError('refused', '签名助手未返回签名');
  return signature;
}

/** The key `id` decrypts `data` with RSA-OAEP (SHA-256): a sealed bid's wrapped file key. */
export async function agentDecrypt(
  agentUrl: string,
  id: string,
  data: Uint8Array,
  fetchImpl: Fetch = fetch,
  timeoutMs = AGENT_SIGN_TIMEOUT_MS,
): Promise<Uint8Array<ArrayBuffer>> {
  let bin = '';
  for (const b of data) bin += String.fromCharCode(b);
  const body = await ask(
    fetchImpl,
    `${agentUrl}/decrypt`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, data: btoa(bin), algorithm: 'RSA-OAEP-256' }),
    },
    timeoutMs,
  );
  const plaintext = (body as { plaintext?: unknown } | null)?.plaintext;
  if (typeof plaintext !== 'string' || !plaintext) throw new AgentError('refused', '签名助手未返回解密结果');
  const raw = atob(plaintext);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * The certificate among the agent's whose DER has this SHA-256 (hex): the one bound on the platform. Null when the key
 * holding it is not plugged in.
 */
export async function findAgentCert(
  agentUrl: string,
  fingerprint: string,
  fetchImpl: Fetch = fetch,
): Promise<CaAgentCert | null> {
  for (const c of await listAgentCerts(agentUrl, fetchImpl)) {
    const raw = atob(c.certificate);
    const der = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) der[i] = raw.charCodeAt(i);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    if (hex === fingerprint.toLowerCase()) return c;
  }
  return null;
}
