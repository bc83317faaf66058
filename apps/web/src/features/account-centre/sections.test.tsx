import { AccountMsg, SmsMsg } from '@ks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { AntdProviders } from '../../app/AntdProviders';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { resetPrompts } from '../../components/prompt';
import { dropPasswordChange, isPasswordChangeRequired, passwordChangeReason } from '../../lib/passwordChange';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler } from '../../test/server';
import { ChangePasswordDialog, EXPIRED_PASSWORD_NOTICE } from '../auth/ChangePasswordDialog';
import { bodyOf, setupShell, shellRoutes } from '../shell/testData';
import SmsOutboxPage from './SmsOutboxPage';

afterEach(() => {
  act(() => dropPasswordChange());
  configureRequest();
  act(() => resetPrompts());
});

const history = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => ({
    at: new Date(Date.UTC(2026, 2, 2, 1, 59 - i - offset)).toISOString(),
    ip: `10.0.0.${i + offset}`,
    device: 'Chrome 120 / Windows 10/11',
    success: i % 3 !== 0,
  }));

function setup(extra: Record<string, Handler> = {}) {
  return setupShell({
    roleType: 'U',
    handlers: {
      'GET /ks/individual/valida/phone': () => ({
        data: { hasPhone: true, verified: false, maskedPhone: '138****8000' },
      }),
      'GET /ks/individual/login/update-secret-time': () => ({ data: { mustChange: false, days: 12, maxDays: 90 } }),
      'GET /ks/individual/log-history': (req) => {
        const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
        return { data: { records: page === 1 ? history(10) : history(2, 10), total: 12 } };
      },
      ...extra,
    },
  });
}

describe('user centre sections', () => {
  it('shows the masked phone, the password age with the policy, and pages the sign-in history', async () => {
    const { server } = setup();
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    await waitFor(() => expect(screen.getByTestId('ucenter-phone-value').textContent).toBe('138****8000'));
    expect(screen.getByTestId('ucenter-phone').textContent).toContain('未验证');
    expect((await screen.findByTestId('ucenter-password-age')).textContent).toContain(
      '密码已使用 12 天，每 90 天须修改一次',
    );
    expect(screen.getByTestId('ucenter-password').textContent).toContain('不能包含账号名');
    const table = screen.getByTestId('ucenter-log-table');
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBe(11));
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('10.0.0.0');
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('失败');
    const section = screen.getByTestId('ucenter-log-history');
    expect(section.textContent).toContain('共 12 条');
    await userEvent.click(within(section).getByTitle('2'));
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBe(3));
    expect(server.callsTo('/ks/individual/log-history').some((c) => c.url.includes('page=2'))).toBe(true);
  });

  it('changes the phone: code to the new phone, verified for a proof, then update-phone', async () => {
    const { server } = setup({
      'POST /ks/common/send-sms': () => ({ data: { resendAfterSeconds: 60 } }),
      'POST /ks/common/sms/phone-verify': () => ({ data: { proof: 'proof-1' } }),
      'PUT /ks/individual/login/update-phone': () => ({
        data: { hasPhone: true, verified: true, maskedPhone: '139****2222' },
      }),
    });
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    await userEvent.click(await screen.findByTestId('ucenter-phone-change'));
    await userEvent.type(await screen.findByTestId('ucenter-phone-new'), '13911112222');
    await userEvent.click(screen.getByTestId('ucenter-phone-send'));
    await waitFor(() => expect(screen.getByTestId('ucenter-phone-send').textContent).toMatch(/秒后重发/));
    expect(bodyOf(server.callsTo('/ks/common/send-sms')[0]!)).toEqual({ phone: '13911112222', purpose: 'phone' });
    await userEvent.type(screen.getByTestId('ucenter-phone-code'), '123456');
    await userEvent.click(screen.getByTestId('ucenter-phone-submit'));
    await waitFor(() => expect(screen.getByTestId('ucenter-phone-value').textContent).toBe('139****2222'));
    expect(bodyOf(server.callsTo('/ks/common/sms/phone-verify')[0]!)).toEqual({
      phone: '13911112222',
      purpose: 'phone',
      code: '123456',
    });
    expect(bodyOf(server.callsTo('/ks/individual/login/update-phone')[0]!)).toEqual({
      phone: '13911112222',
      proof: 'proof-1',
    });
  });

  it('shows a wrong code on the code field', async () => {
    setup({
      'POST /ks/common/sms/phone-verify': () => ({
        status: 400,
        code: 400,
        message: SmsMsg.CODE_WRONG,
        data: { fieldErrors: { code: [SmsMsg.CODE_WRONG] } },
      }),
    });
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    await userEvent.click(await screen.findByTestId('ucenter-phone-change'));
    await userEvent.type(await screen.findByTestId('ucenter-phone-new'), '13911112222');
    await userEvent.type(screen.getByTestId('ucenter-phone-code'), '000000');
    await userEvent.click(screen.getByTestId('ucenter-phone-submit'));
    expect(await screen.findByText(SmsMsg.CODE_WRONG)).toBeTruthy();
  });

  it('refuses a file that is not an image before uploading it, and uploads an image', async () => {
    const { server } = setup({
      'POST /ks/individual/portrait': () => ({ data: { photo: '/ks/common/common/file/download?fileId=f1' } }),
    });
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    const section = await screen.findByTestId('ucenter-portrait');
    const input = section.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['MZ'], 'a.exe', { type: 'application/x-msdownload' })] } });
    expect((await screen.findByTestId('ucenter-portrait-error')).textContent).toBe(AccountMsg.PORTRAIT_NOT_IMAGE);
    expect(server.callsTo('/ks/individual/portrait')).toHaveLength(0);
    const again = section.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(again, {
      target: { files: [new File([new Uint8Array([0xff, 0xd8, 0xff])], 'me.jpg', { type: 'image/jpeg' })] },
    });
    await waitFor(() => expect(server.callsTo('/ks/individual/portrait')).toHaveLength(1));
    expect(server.callsTo('/ks/individual/portrait')[0]!.body).toBeInstanceOf(FormData);
    await waitFor(() => expect(screen.queryByTestId('ucenter-portrait-error')).toBeNull());
  });

  it('a password older than the limit opens the forced change dialog', async () => {
    setup({
      'GET /ks/individual/login/update-secret-time': () => ({ data: { mustChange: true, days: 120, maxDays: 90 } }),
    });
    renderRoutes(shellRoutes, '/judge');
    await waitFor(() => expect(isPasswordChangeRequired()).toBe(true));
    expect(passwordChangeReason()).toBe('expired');
    render(
      <AppProviders queryClient={createQueryClient()}>
        <AntdProviders>
          <ChangePasswordDialog />
        </AntdProviders>
      </AppProviders>,
    );
    expect(await screen.findByText(EXPIRED_PASSWORD_NOTICE)).toBeTruthy();
  });
});

describe('/smsOutbox', () => {
  it('lists the messages with the developers’ notice', async () => {
    const server = createFakeServer({
      'GET /ks/common/sms/outbox': () => ({
        data: [
          {
            id: 1,
            phone: '13800138000',
            template: 'SMS_VERIFY_CODE',
            params: { code: '482913' },
            text: '【平台】您的验证码为 482913，5 分钟内有效',
            createdAt: '2026-03-02T01:00:00.000Z',
          },
        ],
      }),
    });
    configureRequest({ transport: server.transport });
    renderRoutes([{ path: '/smsOutbox', element: <SmsOutboxPage /> }], '/smsOutbox');
    expect((await screen.findByTestId('sms-outbox-notice')).textContent).toBe(SmsMsg.OUTBOX_NOTICE);
    await waitFor(() => expect(screen.getByTestId('sms-outbox-table').textContent).toContain('482913'));
  });

  it('says 生产环境不可用 when the server answers 404', async () => {
    const server = createFakeServer({});
    configureRequest({ transport: server.transport });
    renderRoutes([{ path: '/smsOutbox', element: <SmsOutboxPage /> }], '/smsOutbox');
    expect((await screen.findByTestId('sms-outbox-unavailable')).textContent).toContain('生产环境不可用');
  });
});
