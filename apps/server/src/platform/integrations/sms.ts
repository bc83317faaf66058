import { Code } from '@ks/contracts';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../errors';

/**
 * Who delivers an SMS: a provider's API (Aliyun, Tencent Cloud — sms-aliyun.ts, sms-tencent.ts) or the developers'
 * outbox (modules/sms). Messages are a provider template and its parameters, never free text.
 */
export interface SmsSender {
  /**
   * Send one templated message. Throws an AppError (502 '短信发送失败：…') when the provider refuses or cannot be
   * reached. `ctx.tx`: the transaction the caller records the message in (the outbox writes in it, so a failure later
   * in that transaction leaves nothing behind).
   */
  send(phone: string, templateId: string, params: Record<string, string>, ctx?: { tx?: DbOrTx }): Promise<void>;
}

/** The 502 of a provider failure; the reason is the provider's words (never a key). */
export const smsSendFailed = (reason: string) =>
  new AppError(502, Code.BAD_GATEWAY, `短信发送失败：${reason.slice(0, 200) || '短信服务无响应'}`);

/** POST to a provider with a time limit; network failures and timeouts become smsSendFailed. */
export async function postWithTimeout(
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: ctrl.signal });
    return { status: res.status, text: await res.text() };
  } catch (e) {
    if (ctrl.signal.aborted) throw smsSendFailed(`短信服务 ${Math.round(timeoutMs / 100) / 10} 秒内无响应`);
    throw smsSendFailed(`无法连接短信服务（${(e as Error).message}）`);
  } finally {
    clearTimeout(timer);
  }
}
