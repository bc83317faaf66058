import { CA_MSG, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { AgentError, agentSign, listAgentCerts, utf8Base64 } from '../../lib/caAgent';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo, systems, userInfo } from '../../test/server';
import { LOCK_DEVELOPER_HINT, LOCK_EMPTY_HINT } from './LockPage';

const AGENT = 'http://127.0.0.1:28090';
const CERT = 'MIIB'.padEnd(200, 'A');
const info = {
  holder: '示例建设工程有限公司',
  issuer: '测试国密 CA',
  serial: '0A1B',
  fingerprint: 'f'.repeat(64),
  algorithm: 'SM2',
  notBefore: '2026-01-01T00:00:00.000Z',
  notAfter: '2031-01-01T00:00:00.000Z',
  creditCode: '91140100MA0K8G2J79',
  enterpriseName: '示例建设工程有限公司',
  registered: true,
  bound: true,
  expiry: 'valid',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  configureRequest();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  act(() => resetPrompts());
});

describe('the signing agent client', () => {
  it('lists certificates, keeping only well-formed ones', async () => {
    const fetchImpl = vi.fn(async () =>
      json(200, {
        certs: [{ id: 'k1', certificate: CERT, label: '示例' }, { id: 2 }, { id: 'k3', certificate: CERT }],
      }),
    );
    expect(await listAgentCerts(AGENT, fetchImpl as never)).toEqual([
      { id: 'k1', certificate: CERT, label: '示例' },
      { id: 'k3', certificate: CERT, label: undefined },
    ]);
    expect(fetchImpl).toHaveBeenCalledWith(`${AGENT}/certs`, expect.objectContaining({ method: 'GET' }));
  });

  it('tells an agent that does not answer from one that refuses', async () => {
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(listAgentCerts(AGENT, down as never)).rejects.toMatchObject({ kind: 'unreachable' });
    const pin = vi.fn(async () => json(403, { error: 'PIN 码错误' }));
    const err = await agentSign(AGENT, 'k1', 'nonce', pin as never).catch((e) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect(err).toMatchObject({ kind: 'refused', message: 'PIN 码错误' });
  });

  it('asks the key to sign the UTF-8 bytes of the text, as base64', async () => {
    const fetchImpl = vi.fn(async (_url: string, init: RequestInit) => {
      expect(JSON.parse(String(init.body))).toEqual({ id: 'k1', data: utf8Base64('nonce-中') });
      return json(200, { signature: 'c2ln' });
    });
    expect(await agentSign(AGENT, 'k1', 'nonce-中', fetchImpl as never)).toBe('c2ln');
    expect(utf8Base64('中')).toBe('5Lit');
  });
});

function server(config: { enabled: boolean; agentUrl: string | null; message: string | null }) {
  const s = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/ca/config': () => ({ data: config }),
    'POST /ks/ca/ent-info': () => ({ data: info }),
    'POST /ks/ca/nonce': () => ({ data: { nonce: '11111111-1111-4111-8111-111111111111', expiresAt: '' } }),
    'POST /ks/ca/ca-login': () => ({
      data: {
        token: 'tok-ca',
        userInfo: { ...userInfo, loginRoleType: 'U', userName: '张建国' },
        roles: ['user'],
        codeStatus: 0,
        securityNotice: null,
      },
    }),
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: { userInfo: { ...userInfo, loginRoleType: 'U' }, roles: ['user'] },
    }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'GET /ks/ca/bindings': () => ({ data: { records: [], total: 0 } }),
  });
  configureRequest({ transport: s.transport });
  return s;
}

describe('/caLogin', () => {
  it('says plainly when CA sign-in is not configured', async () => {
    server({ enabled: false, agentUrl: null, message: CA_MSG.notConfigured });
    renderRoutes(routes, '/caLogin');
    expect((await screen.findByTestId('ca-not-configured', {}, { timeout: 30_000 })).textContent).toContain(
      CA_MSG.notConfigured,
    );
  });

  it('says the driver/agent is not running, and asks again on 重试', async () => {
    server({ enabled: true, agentUrl: AGENT, message: null });
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes(routes, '/caLogin');
    const down = await screen.findByTestId('ca-agent-down', {}, { timeout: 30_000 });
    expect(down.textContent).toContain('驱动/签名助手未启动');
    const calls = fetchMock.mock.calls.length;
    await userEvent.click(screen.getByTestId('ca-agent-retry'));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
  });

  it('signs the server’s nonce with the chosen key and signs in', async () => {
    const s = server({ enabled: true, agentUrl: AGENT, message: null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/certs')
          ? json(200, { certs: [{ id: 'k1', label: '示例建设工程有限公司（SM2）', certificate: CERT }] })
          : json(200, { signature: 'c2lnbmF0dXJl' }),
      ),
    );
    const { router } = renderRoutes(routes, '/caLogin');
    expect((await screen.findByTestId('ca-cert-info', {}, { timeout: 30_000 })).textContent).toContain(
      '91140100MA0K8G2J79',
    );
    await userEvent.click(screen.getByTestId('ca-login-submit'));
    await waitFor(() => expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-ca'));
    const body = JSON.parse(String(s.callsTo('/ks/ca/ca-login')[0]!.body));
    expect(body).toEqual({
      certificate: CERT,
      nonce: '11111111-1111-4111-8111-111111111111',
      signature: 'c2lnbmF0dXJl',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/pageConfig'));
  });
});

describe('/lock', () => {
  it('shows an enterprise user without bindings how to bind', async () => {
    server({ enabled: true, agentUrl: AGENT, message: null });
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-u');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: 'U' }));
    sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['user']));
    renderRoutes(routes, '/lock');
    expect((await screen.findByTestId('ca-empty', {}, { timeout: 30_000 })).textContent).toBe(LOCK_EMPTY_HINT);
    expect(screen.getByTestId('ca-bind')).toBeTruthy();
  });

  it('tells a developer what the page is for, without asking the server for bindings a developer may not read', async () => {
    const s = server({ enabled: true, agentUrl: AGENT, message: null });
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-d');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: 'D' }));
    sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['developer']));
    renderRoutes(routes, '/lock');
    const notice = await screen.findByTestId('ca-lock-developer', {}, { timeout: 30_000 });
    expect(notice.textContent).toContain(LOCK_DEVELOPER_HINT);
    expect(screen.queryByTestId('ca-bind')).toBeNull();
    expect(s.callsTo('/ks/ca/bindings')).toHaveLength(0);
  });
});
