import { SESSION_KEYS } from '@ks/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo, userInfo } from '../../test/server';
import LoginPage from '../auth/LoginPage';
import { POLL_MS } from './WechatQrDialog';

const routes = [
  { path: '/', element: <LoginPage /> },
  { path: '/system/pageConfig', element: <div data-testid="home-page">home</div> },
];

function serve(methods: string[]) {
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'POST /ks/authentication/login/login-mode': () => ({ data: { loginMode: 'ggfw', methods } }),
    'GET /ks/individual/wechat/qrcode': () => ({
      data: { state: 's'.repeat(32), url: 'about:blank', purpose: 'login', expiresAt: '2026-11-26T10:05:00Z' },
    }),
    'POST /ks/individual/wechat/scan-status': () => ({
      data: {
        status: 'success',
        message: '登录成功',
        login: {
          token: 'wx-token',
          refreshToken: 'wx-refresh',
          userInfo: { ...userInfo, loginRoleType: 'U' },
          roles: ['user'],
          codeStatus: 0,
        },
      },
    }),
  });
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('the sign-in page’s 微信扫码登录 entry', () => {
  it('is hidden when the platform does not offer WeChat sign-in', async () => {
    const server = serve(['password']);
    renderRoutes(routes, '/');
    await screen.findByTestId('login-account');
    await waitFor(() => expect(server.callsTo('/ks/authentication/login/login-mode')).toHaveLength(1));
    expect(screen.queryByTestId('wechat-login')).toBeNull();
  });

  it('signs in like the password login once the QR code is confirmed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve(['password', 'wechat']);
    renderRoutes(routes, '/');
    fireEvent.click(await screen.findByTestId('wechat-login'));
    await screen.findByTestId('wechat-frame');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    await screen.findByTestId('home-page');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('wx-token');
    expect(sessionStorage.getItem('refreshToken')).toBe('wx-refresh');
  });
});
