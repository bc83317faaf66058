import { ArrowLeftOutlined } from '@ant-design/icons';
import { isValidMobile, SMS_RESEND_SECONDS } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, type FormInstance, Space } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../../api/platform';
import type { SmsSent } from '../../api/register';
import { isApiError } from '../../api/request';
import { applySaveError, fieldErrorsOf, type NamePath } from '../../components/admin';
import { SiteFooter } from '../../components/SiteFooter';
import { PRIMARY_COLOR } from '../../lib/theme';
import { REGISTER_PATHS } from './shared-paths';

export { REGISTER_PATHS };

/** The frame of the public registration pages: the platform's name, a way back to sign-in, a card, the footer. */
export function RegisterFrame({
  title,
  subtitle,
  width = 760,
  children,
  testId,
}: {
  title: string;
  subtitle?: ReactNode;
  width?: number;
  children: ReactNode;
  testId: string;
}) {
  const { data: platform } = useQuery(platformQuery);
  const platformName = platform?.platformName || DEFAULT_PLATFORM_NAME;
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: '#f3f6fb' }}>
      <header
        style={{
          height: 56,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '0 32px',
          color: '#fff',
          background: `linear-gradient(90deg, ${PRIMARY_COLOR} 0%, #0c4fd6 100%)`,
        }}
      >
        <span style={{ fontSize: 18, fontWeight: 600 }}>{platformName}</span>
        <Link to={REGISTER_PATHS.login} style={{ color: '#fff' }} data-testid="register-back-login">
          <ArrowLeftOutlined /> 返回登录
        </Link>
      </header>
      <main style={{ flex: 1, display: 'flex', justifyContent: 'center', padding: '32px 16px 48px' }}>
        <Card
          data-testid={testId}
          style={{ width: '100%', maxWidth: width, boxShadow: '0 8px 28px rgba(19, 98, 252, 0.08)' }}
          styles={{ body: { padding: '28px 40px 32px' } }}
        >
          <div style={{ textAlign: 'center', marginBottom: 24 }}>
            <h1 style={{ fontSize: 22, fontWeight: 600, color: '#1f2a44', margin: 0 }}>{title}</h1>
            {subtitle ? <div style={{ fontSize: 13, color: '#8a93a6', marginTop: 6 }}>{subtitle}</div> : null}
          </div>
          {children}
        </Card>
      </main>
      <SiteFooter />
    </div>
  );
}

/** In development (SMS mode outbox) nothing is sent: the code waits in the developers' outbox, and the page says so. */
export function OutboxHint({ mode, phone }: { mode: SmsSent['mode'] | null; phone?: string }) {
  if (mode !== 'outbox') return null;
  const href = `${REGISTER_PATHS.outbox}${phone ? `?phone=${encodeURIComponent(phone)}` : ''}`;
  return (
    <Alert
      data-testid="sms-outbox-hint"
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title="开发环境：短信未真实发送"
      description={
        <span>
          短信服务处于开发模式，验证码写入了开发发件箱，
          <a href={href} target="_blank" rel="noreferrer" data-testid="sms-outbox-link">
            打开短信发件箱查看验证码
          </a>
          。
        </span>
      }
    />
  );
}

/**
 * 获取验证码 with its countdown (60 s, or longer when the server says so). `send` gets the phone from the form field
 * `phoneField` (validated first); a refusal goes onto the phone field or the form's alert via `onError`.
 */
export function SmsCodeButton({
  form,
  phoneField,
  send,
  onSent,
  onError,
  testId,
  disabled,
  fields,
}: {
  form: FormInstance;
  phoneField: string;
  /** the form's fields that server field errors go onto */
  fields: readonly string[];
  send: (phone: string) => Promise<SmsSent>;
  onSent: (sent: SmsSent, phone: string) => void;
  onError: (lines: string[]) => void;
  testId: string;
  disabled?: boolean;
}) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );
  const start = useCallback((seconds: number) => {
    if (timer.current) clearInterval(timer.current);
    setLeft(seconds);
    timer.current = setInterval(() => {
      setLeft((s) => {
        if (s <= 1 && timer.current) {
          clearInterval(timer.current);
          timer.current = null;
        }
        return Math.max(0, s - 1);
      });
    }, 1000);
  }, []);
  const click = async () => {
    try {
      await form.validateFields([phoneField]);
    } catch {
      return;
    }
    const phone = String(form.getFieldValue(phoneField) ?? '').trim();
    if (!isValidMobile(phone)) return;
    setSending(true);
    try {
      const sent = await send(phone);
      start(Math.max(SMS_RESEND_SECONDS, Math.ceil(sent.resendAfterSeconds)));
      onSent(sent, phone);
    } catch (err) {
      // field errors onto their fields (the phone, or the credit code of an activation), the rest above the form
      onError(formErrors(err, form, fields));
      // too soon for this phone: count down the wait the server names
      if (isApiError(err) && err.status === 429) {
        const wait = Number((err.data as { resendAfterSeconds?: unknown } | null)?.resendAfterSeconds);
        if (Number.isFinite(wait) && wait > 0) start(Math.ceil(wait));
      }
    } finally {
      setSending(false);
    }
  };
  return (
    <Button data-testid={testId} disabled={disabled || left > 0} loading={sending} onClick={() => void click()}>
      {left > 0 ? `${left} 秒后重新获取` : '获取验证码'}
    </Button>
  );
}

/** A row of actions under a result. */
export function Actions({ children }: { children: ReactNode }) {
  return (
    <Space size="middle" style={{ width: '100%', justifyContent: 'center' }} wrap>
      {children}
    </Space>
  );
}

/**
 * The server's answer to a silent form call: field errors onto the form's fields; the lines for the alert above the
 * form — none when every field error found its field (the field says it), else the message and the rest.
 */
export function formErrors(
  err: unknown,
  form: FormInstance | null,
  fields: readonly string[] = [],
  mapName?: (name: NamePath) => NamePath,
): string[] {
  const lines = applySaveError(err, form, fields, mapName);
  const onFields = fieldErrorsOf(err).length;
  return onFields > 0 && lines.length === 1 ? [] : lines;
}
