import { z } from 'zod';

/**
 * The electronic guarantee issuer (电子保函出函机构: a bank or a guarantee company's platform) that issues bid guarantee
 * letters for the trading centre's bidders. Its API, as the centre's interface agreement with the issuer defines it
 * (JSON over HTTPS, the centre's key as `Authorization: Bearer {key}`):
 *
 * 1. `POST {url}/v1/guarantees` with `Idempotency-Key: {applyNo}` and the application
 *    `{ applyNo, type: "tender", applicant: { name, creditCode }, beneficiary: { name }, project: { code, name },
 *       section: { code, name }, amount, currency: "CNY", validFrom, validTo, bidDeadline }`
 *    → `{ orderNo, status: "processing" | "issued" | "rejected", guaranteeNo?, issuedAt?, message? }`.
 *    The same applyNo always answers the same order, so a retry after a lost answer never applies twice.
 * 2. `GET {url}/v1/guarantees/{orderNo}` → the same shape (the result while the issuer works on it).
 * 3. `GET {url}/v1/guarantees/{orderNo}/letter` → the issued letter, `application/pdf`.
 * Errors are non-2xx answers, with `{ message }` when the issuer says why.
 *
 * Nothing here touches the database: callers run it outside transactions.
 */
export interface GuaranteeIssuerConfig {
  url: string;
  key: string;
  name: string;
  timeoutMs: number;
}

export interface GuaranteeApplication {
  applyNo: string;
  applicant: { name: string; creditCode: string };
  beneficiary: { name: string };
  project: { code: string; name: string };
  section: { code: string; name: string };
  amount: number;
  /** YYYY-MM-DD */
  validFrom: string;
  validTo: string;
  /** ISO instant */
  bidDeadline: string;
}

const resultSchema = z.object({
  orderNo: z.string().min(1).max(64),
  status: z.enum(['processing', 'issued', 'rejected']),
  guaranteeNo: z.string().min(1).max(64).nullish(),
  issuedAt: z.string().nullish(),
  message: z.string().max(300).nullish(),
});
export type IssuerResult = z.infer<typeof resultSchema>;

/** A failed call to the issuer: the message is fit to show (Chinese, no key). */
export class GuaranteeIssuerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuaranteeIssuerError';
  }
}

const PDF_MAGIC = Buffer.from('%PDF-');
/** The largest letter accepted from an issuer. */
export const LETTER_MAX_BYTES = 20 * 1024 * 1024;

export type GuaranteeIssuer = ReturnType<typeof createGuaranteeIssuer>;

export function createGuaranteeIssuer(cfg: GuaranteeIssuerConfig, deps: { fetch?: typeof fetch } = {}) {
  const doFetch = deps.fetch ?? fetch;

  async function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    let res: Response;
    try {
      res = await doFetch(`${cfg.url}${path}`, {
        ...init,
        signal: AbortSignal.timeout(cfg.timeoutMs),
        headers: { authorization: `Bearer ${cfg.key}`, ...init.headers },
      });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
      throw new GuaranteeIssuerError(timedOut ? '连接出函机构超时，请稍后重试' : '无法连接出函机构，请稍后重试');
    }
    if (!res.ok) {
      let said = '';
      try {
        const body = JSON.parse(await res.text()) as { message?: unknown };
        if (typeof body.message === 'string') said = body.message.slice(0, 200);
      } catch {
        // no JSON reason: the status says enough
      }
      throw new GuaranteeIssuerError(`出函机构返回 HTTP ${res.status}${said ? `：${said}` : ''}`);
    }
    return res;
  }

  async function result(res: Response): Promise<IssuerResult> {
    let body: unknown;
    try {
      body = JSON.parse(await res.text());
    } catch {
      throw new GuaranteeIssuerError('出函机构的应答不是有效的 JSON');
    }
    const parsed = resultSchema.safeParse(body);
    if (!parsed.success) throw new GuaranteeIssuerError('出函机构的应答格式不符合接口约定');
    if (parsed.data.status === 'issued' && !parsed.data.guaranteeNo) {
      throw new GuaranteeIssuerError('出函机构的应答缺少保函编号');
    }
    return parsed.data;
  }

  return {
    name: cfg.name,

    /** Sends an application (idempotent by applyNo). */
    async apply(a: GuaranteeApplication): Promise<IssuerResult> {
      const res = await call('/v1/guarantees', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': a.applyNo, accept: 'application/json' },
        body: JSON.stringify({ ...a, type: 'tender', currency: 'CNY' }),
      });
      return result(res);
    },

    /** The issuer's result of an accepted application. */
    async query(orderNo: string): Promise<IssuerResult> {
      return result(
        await call(`/v1/guarantees/${encodeURIComponent(orderNo)}`, { headers: { accept: 'application/json' } }),
      );
    },

    /** The issued letter's PDF. */
    async letter(orderNo: string): Promise<Buffer> {
      const res = await call(`/v1/guarantees/${encodeURIComponent(orderNo)}/letter`, {
        headers: { accept: 'application/pdf' },
      });
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > LETTER_MAX_BYTES) throw new GuaranteeIssuerError('出函机构返回的保函文件过大');
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > LETTER_MAX_BYTES) throw new GuaranteeIssuerError('出函机构返回的保函文件过大');
      if (bytes.length < PDF_MAGIC.length || !bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
        throw new GuaranteeIssuerError('出函机构返回的保函文件不是 PDF');
      }
      return bytes;
    },
  };
}
