import { DEFAULT_HOME_URL, type LoginMode, SESSION_KEYS } from '@ks/contracts';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../api/request';
import { guardRedirect, homeUrlOrDefault } from '../lib/paths';
import { renderRoutes } from '../test/render';
import { createFakeServer, overview, platformInfo, systems, userInfo } from '../test/server';
import { routes } from './routes';

function signIn(homeUrl?: string) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-1');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['admin']));
  if (homeUrl) sessionStorage.setItem(SESSION_KEYS.homeUrl, homeUrl);
}

let loginMode: LoginMode = 'ggfw';
let server: ReturnType<typeof createFakeServer>;

beforeEach(() => {
  loginMode = 'ggfw';
  server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/portal/v1/home/config': () => ({ data: { loginMode, bidHallUrl: 'https://hall.example.test/' } }),
    'GET /ks/portal/v1/home/overview': () => ({ data: overview }),
    'GET /ks/portal/v1/notices': () => ({ data: { records: overview.byCategory[0].items, total: 1 } }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo, roles: ['admin'] } }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
  });
  configureRequest({ transport: server.transport });
});

afterEach(() => {
  configureRequest();
  for (const m of document.head.querySelectorAll('meta[name^="ks-"]')) m.remove();
});

function addMeta(name: string, content: string) {
  const meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  document.head.append(meta);
}

const render = (path: string) => renderRoutes(routes, path, { antd: false });

describe('guardRedirect (spec §2)', () => {
  it('lets anonymous visitors open only / and the public paths', () => {
    expect(guardRedirect('/', false, null)).toBeNull();
    for (const p of ['/login', '/realName', '/creditCode', '/auth', '/admin-business', '/caLogin', '/caLoginPage']) {
      expect(guardRedirect(p, false, null)).toBeNull();
    }
    expect(guardRedirect('/caRegister', false, null)).toBeNull();
    expect(guardRedirect('/venue', false, null)).toBeNull();
    expect(guardRedirect('/market-details', false, null)).toBeNull();
    expect(guardRedirect('/system/pageConfig', false, null)).toBe('/');
    expect(guardRedirect('/credit/analysis', false, null)).toBe('/');
    expect(guardRedirect('/admin-business/x', false, null)).toBeNull();
    expect(guardRedirect('/no-such-page', false, null)).toBe('/');
    // issue 15: the registration flows live under the public paths; the signed-in account pages do not
    for (const p of ['/creditCode/register', '/creditCode/progress', '/creditCode/activate']) {
      expect(guardRedirect(p, false, null)).toBeNull();
    }
    expect(guardRedirect('/lock', false, null)).toBe('/');
    expect(guardRedirect('/userCenter/uCenter', false, null)).toBe('/');
  });

  it('sends a signed-in visitor from / to the stored home URL, else /system/pageConfig', () => {
    expect(guardRedirect('/', true, null)).toBe(DEFAULT_HOME_URL);
    expect(guardRedirect('/', true, '/credit/analysis')).toBe('/credit/analysis');
    expect(guardRedirect('/system/pageConfig', true, null)).toBeNull();
    expect(guardRedirect('/login', true, null)).toBeNull();
  });

  it('ignores a home URL that would loop or leave the app', () => {
    expect(homeUrlOrDefault('/')).toBe(DEFAULT_HOME_URL);
    expect(homeUrlOrDefault('https://evil.example')).toBe(DEFAULT_HOME_URL);
    expect(homeUrlOrDefault('//evil.example')).toBe(DEFAULT_HOME_URL);
    expect(homeUrlOrDefault('')).toBe(DEFAULT_HOME_URL);
  });
});

describe('route table with the guard', () => {
  it('anonymous /system/pageConfig is sent to / (the portal home in login mode ggfw)', async () => {
    const { router } = render('/system/pageConfig');
    expect(await screen.findByTestId('home-banner')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('anonymous /login stays on the login page', async () => {
    const { router } = render('/login');
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('anonymous unknown path is sent to /', async () => {
    const { router } = render('/does/not/exist');
    await screen.findByTestId('home-banner');
    expect(router.state.location.pathname).toBe('/');
  });

  it('signed-in / goes to /system/pageConfig by default', async () => {
    signIn();
    const { router } = render('/');
    expect(await screen.findByTestId('systems-grid')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/system/pageConfig');
  });

  it('signed-in / goes to the stored homeUrl', async () => {
    signIn('/system/pageConfig?from=home');
    const { router } = render('/');
    await screen.findByTestId('systems-grid');
    expect(router.state.location.pathname).toBe('/system/pageConfig');
    expect(router.state.location.search).toBe('?from=home');
  });

  it('signed-in /system goes to /system/pageConfig', async () => {
    signIn();
    const { router } = render('/system');
    await screen.findByTestId('systems-grid');
    expect(router.state.location.pathname).toBe('/system/pageConfig');
  });

  it('an unknown path shows the 404 page whose 返回首页 button goes to /', async () => {
    signIn();
    const user = userEvent.setup();
    const { router } = render('/no-such-page');
    const home = await screen.findByTestId('notfound-home');
    expect(document.body.textContent).toContain('抱歉，您访问的页面不存在');
    expect(home.textContent).toBe('返回首页');
    await user.click(home);
    // `/` then sends the signed-in visitor on to the home URL
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/pageConfig'));
  });

  it('an unknown sub-path of a public path shows the 404 page to anonymous visitors', async () => {
    render('/login/unknown');
    expect(await screen.findByTestId('notfound-home')).toBeTruthy();
  });

  it('anonymous /system (a known protected route) is sent to /', async () => {
    const { router } = render('/system');
    await screen.findByTestId('home-banner');
    expect(router.state.location.pathname).toBe('/');
  });

  it('an unknown path below /system is a 404 for signed-in visitors', async () => {
    signIn();
    render('/system/noSuchPage');
    expect(await screen.findByTestId('notfound-home')).toBeTruthy();
  });

  it('reacts to the session ending: after the token is gone, protected pages send to /', async () => {
    signIn();
    const { router } = render('/system/pageConfig');
    await screen.findByTestId('systems-grid');
    sessionStorage.clear();
    await act(() => router.navigate('/system/pageConfig?again=1'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('login modes (spec §2)', () => {
  it('ggfw: / is the portal, /admin-business is not a route', async () => {
    render('/');
    expect(await screen.findByTestId('portal-header')).toBeTruthy();
    expect(screen.getByTestId('nav-home').getAttribute('aria-current')).toBe('page');
    cleanup();
    render('/admin-business');
    expect(await screen.findByTestId('notfound-home')).toBeTruthy();
  });

  it('login: / is the sign-in page, the portal pages stay, /admin-business is not a route', async () => {
    loginMode = 'login';
    render('/');
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    expect(screen.getByTestId('login-heading').textContent).toBe('欢迎登录');
    cleanup();
    render('/transac');
    expect(await screen.findByTestId('notice-list')).toBeTruthy();
    expect(screen.getByTestId('nav-transac').getAttribute('aria-current')).toBe('page');
    cleanup();
    render('/admin-business');
    expect(await screen.findByTestId('notfound-home')).toBeTruthy();
  });

  it('ywbl: / is the sign-in page and /admin-business the 业务办理 sign-in entry', async () => {
    loginMode = 'ywbl';
    render('/');
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    cleanup();
    render('/admin-business');
    await screen.findByTestId('login-submit');
    expect(screen.getByTestId('login-heading').textContent).toBe('业务办理');
  });

  it('reads the mode and the bid hall from the meta tags the server writes, without asking the API', async () => {
    addMeta('ks-login-mode', 'ywbl');
    addMeta('ks-bid-hall', '');
    render('/admin-business');
    await screen.findByTestId('login-submit');
    expect(screen.getByTestId('login-heading').textContent).toBe('业务办理');
    expect(server.callsTo('/ks/portal/v1/home/config')).toHaveLength(0);
  });

  it('a signed-in visitor at / still goes to the home URL in every mode', async () => {
    signIn();
    addMeta('ks-login-mode', 'login');
    const { router } = render('/');
    await screen.findByTestId('systems-grid');
    expect(router.state.location.pathname).toBe('/system/pageConfig');
  });
});
