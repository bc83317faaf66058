import { WechatMsg } from '@ks/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import type { ScanStatus } from '../../api/wechat';
import { renderRoutes } from '../../test/render';
import { createFakeServer, userInfo } from '../../test/server';
import { POLL_MS, WechatQrDialog } from './WechatQrDialog';

const QR = '/ks/individual/wechat/qrcode';
const STATUS = '/ks/individual/wechat/scan-status';
const ticket = (n: number) => ({
  state: `state-${n}-abcdefghijklmnop`,
  url: `https://open.example.test/connect/qrconnect?appid=wx1&state=state-${n}`,
  purpose: 'login',
  expiresAt: '2026-11-26T10:05:00Z',
});

let answers: Array<{ status?: number; data?: unknown; message?: string }>;
let issued: number;
let server: ReturnType<typeof createFakeServer>;
let done: ScanStatus[];

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" data-testid="reopen" onClick={() => setOpen(true)}>
        reopen
      </button>
      <WechatQrDialog open={open} purpose="login" onClose={() => setOpen(false)} onDone={(s) => done.push(s)} />
    </>
  );
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  answers = [];
  issued = 0;
  done = [];
  server = createFakeServer({
    [`GET ${QR}`]: () => ({ data: ticket(++issued) }),
    [`POST ${STATUS}`]: () => answers.shift() ?? { data: { status: 'waiting', message: WechatMsg.WAITING } },
  });
  configureRequest({ transport: server.transport });
});
afterEach(() => {
  configureRequest();
  vi.useRealTimers();
});

const tick = () => act(() => vi.advanceTimersByTimeAsync(POLL_MS));

describe('WechatQrDialog', () => {
  it('shows the ticket’s QR page and polls every 2 s until the sign-in succeeds', async () => {
    renderRoutes([{ path: '/', element: <Harness /> }]);
    const frame = await screen.findByTestId('wechat-frame');
    expect(frame.getAttribute('src')).toBe(ticket(1).url);
    expect(server.callsTo(STATUS)).toHaveLength(0);
    await tick();
    await waitFor(() => expect(server.callsTo(STATUS)).toHaveLength(1));
    expect(JSON.parse(String(server.callsTo(STATUS)[0]!.body))).toEqual({ state: ticket(1).state });
    // a login ticket is polled without a token
    expect(server.callsTo(STATUS)[0]!.headers.Authorization).toBeUndefined();
    const login = { token: 't', refreshToken: 'r', userInfo, roles: ['user'], codeStatus: 0 };
    answers.push({ data: { status: 'success', message: '登录成功', login } });
    await tick();
    await waitFor(() => expect(done).toHaveLength(1));
    expect(done[0]!.login?.token).toBe('t');
    // no more polls after success
    await tick();
    await tick();
    expect(server.callsTo(STATUS)).toHaveLength(2);
  });

  it('stops polling when the dialog closes', async () => {
    renderRoutes([{ path: '/', element: <Harness /> }]);
    await screen.findByTestId('wechat-frame');
    await tick();
    await waitFor(() => expect(server.callsTo(STATUS)).toHaveLength(1));
    fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
    await tick();
    await tick();
    await tick();
    expect(server.callsTo(STATUS)).toHaveLength(1);
    expect(done).toHaveLength(0);
  });

  it('says 该微信未绑定账号 or 二维码已过期 and offers a fresh QR code', async () => {
    renderRoutes([{ path: '/', element: <Harness /> }]);
    await screen.findByTestId('wechat-frame');
    answers.push({ data: { status: 'unbound', message: WechatMsg.NOT_BOUND } });
    await tick();
    expect((await screen.findByTestId('wechat-ended')).textContent).toBe(WechatMsg.NOT_BOUND);
    const polls = server.callsTo(STATUS).length;
    await tick();
    expect(server.callsTo(STATUS)).toHaveLength(polls);
    fireEvent.click(screen.getByTestId('wechat-retry'));
    await waitFor(() => expect(screen.getByTestId('wechat-frame').getAttribute('src')).toBe(ticket(2).url));
    answers.push({ data: { status: 'expired', message: WechatMsg.TICKET_EXPIRED } });
    await tick();
    expect((await screen.findByTestId('wechat-ended')).textContent).toBe(WechatMsg.TICKET_EXPIRED);
  });

  it('shows a refusal of the server in place (e.g. not configured), without polling', async () => {
    server = createFakeServer({
      [`GET ${QR}`]: () => ({ status: 400, message: WechatMsg.NOT_CONFIGURED }),
    });
    configureRequest({ transport: server.transport });
    renderRoutes([{ path: '/', element: <Harness /> }]);
    expect((await screen.findByTestId('wechat-ended')).textContent).toBe(WechatMsg.NOT_CONFIGURED);
    await tick();
    expect(server.callsTo(STATUS)).toHaveLength(0);
  });
});
