import { Code, Msg, NETWORK_CONGESTED_DELAY_MS, SESSION_END_CODES, UploadMsg } from '@ks/contracts';
import { isApiError, reportApiError } from '../../api/request';

/**
 * §8 upload errors: no answer (a stalled or broken network) → 当前网络拥堵，请重新上传！ after 1.5 s; a refusal → the
 * server's message, else 上传失败！ (a typed attachment: 文件上传失败，请重新上传！); an ended session → the usual §8
 * handling (dialog, then the sign-in page).
 */

export type Notify = (message: string, type: 'error' | 'warning' | 'info' | 'success') => void;

export interface UploadErrorEffects {
  notify: Notify;
  /** setTimeout; returns a function that cancels it */
  schedule?: (fn: () => void, ms: number) => () => void;
}

const defaultSchedule = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

/** The fallback message of a failed upload: typed attachments have their own (§8). */
export const failedMessage = (typed: boolean): string => (typed ? UploadMsg.TYPED_FAILED : UploadMsg.FAILED);

/** The message a refused upload shows: the server's own, or the fallback when it gave none. */
export function refusalMessage(err: unknown, typed: boolean): string {
  if (isApiError(err) && err.kind === 'response') {
    const m = err.message?.trim();
    if (m && m !== Msg.REQUEST_FAILED) return m;
  }
  return failedMessage(typed);
}

/** Shows the §8 message of a failed upload. Returns a function that drops a congestion message not shown yet. */
export function reportUploadError(err: unknown, typed: boolean, fx: UploadErrorEffects): () => void {
  if (isApiError(err) && (SESSION_END_CODES.includes(err.code) || err.status === Code.UNAUTHORIZED)) {
    reportApiError(err);
    return () => undefined;
  }
  if (isApiError(err) && err.kind !== 'response') {
    return (fx.schedule ?? defaultSchedule)(
      () => fx.notify(UploadMsg.NETWORK_CONGESTED, 'error'),
      NETWORK_CONGESTED_DELAY_MS,
    );
  }
  fx.notify(refusalMessage(err, typed), 'error');
  return () => undefined;
}
