import { Msg, type SmsPurpose } from '@ks/contracts';
import { Button, type FormInstance } from 'antd';
import { useEffect, useState } from 'react';
import { sendSms } from '../../api/accountCentre';
import { isApiError } from '../../api/request';

/** Field errors of a failed call, or null. */
export function fieldErrorsOf(err: unknown): Record<string, string[]> | null {
  if (!isApiError(err)) return null;
  const fe = (err.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors;
  return fe && Object.keys(fe).length ? fe : null;
}

export const messageOf = (err: unknown) => (isApiError(err) ? err.message : Msg.REQUEST_FAILED);

/**
 * Put a failed call's messages on the form: its field errors on the fields the form has (others on `fallback`), or
 * the message on `fallback`.
 */
export function showErrors<T>(form: FormInstance<T>, err: unknown, fields: string[], fallback: string) {
  const fe = fieldErrorsOf(err);
  if (fe) {
    const known = Object.entries(fe).filter(([k]) => fields.includes(k));
    const other = Object.entries(fe).filter(([k]) => !fields.includes(k));
    form.setFields([
      ...known.map(([name, errors]) => ({ name: name as never, errors })),
      ...(other.length ? [{ name: fallback as never, errors: other.flatMap(([, e]) => e) }] : []),
    ]);
    return;
  }
  form.setFields([{ name: fallback as never, errors: [messageOf(err)] }]);
}

/** 获取验证码 with its countdown (the server's resendAfterSeconds, also after a 429). */
export function SmsCodeButton({
  phone,
  purpose,
  onError,
  onSent,
  testId,
}: {
  /** the phone to send to, or null when the form's phone is not valid yet */
  phone: () => string | null;
  purpose: SmsPurpose;
  onError: (err: unknown) => void;
  onSent?: () => void;
  testId?: string;
}) {
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  const send = async () => {
    const p = phone();
    if (!p || sending) return;
    setSending(true);
    try {
      const r = await sendSms(p, purpose);
      setWait(r.resendAfterSeconds);
      onSent?.();
    } catch (err) {
      const after = isApiError(err) ? (err.data as { resendAfterSeconds?: number } | null)?.resendAfterSeconds : 0;
      if (after && after < 3600) setWait(after);
      onError(err);
    } finally {
      setSending(false);
    }
  };
  return (
    <Button
      onClick={() => void send()}
      loading={sending}
      disabled={wait > 0}
      data-testid={testId}
      style={{ minWidth: 112 }}
    >
      {wait > 0 ? `${wait} 秒后重发` : '获取验证码'}
    </Button>
  );
}
