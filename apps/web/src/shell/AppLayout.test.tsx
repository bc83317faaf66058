import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../api/request';
import { routes } from '../app/routes';
import { currentPrompt, resetPrompts } from '../components/prompt';
import { PAGE_ACCESS } from '../lib/pageAccess';
import { renderRoutes } from '../test/render';
import { createFakeServer, type Handler, platformInfo, systems, userInfo } from '../test/server';
import { LOGOUT_CONFIRM } from './AppLayout';

function setup(logout: Handler, loginRoleType: 'M' | 'D' | 'U' = 'M') {
  const roles = loginRoleType === 'M' ? ['admin'] : ['user'];
  const me = { ...userInfo, loginRoleType };
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-layout');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(me));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: { userInfo: { ...me, userName: '张三（已核验）' }, roles },
    }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'GET /ks/common/logout': logout,
  });
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('AppLayout', () => {
  it('shows the platform name in the header and as the page title, and the user in the dropdown', async () => {
    const server = setup(() => ({ data: null }));
    renderRoutes(routes, '/system/pageConfig');
    await waitFor(() => expect(screen.getByTestId('app-platform-name').textContent).toBe(platformInfo.platformName));
    expect(document.title).toBe(platformInfo.platformName);
    // the session is confirmed with the server and the fresh user info kept
    await waitFor(() => expect(screen.getByTestId('user-name').textContent).toBe('张三（已核验）'));
    expect(server.callsTo('/ks/auth/v1/authorization/check-login')[0].headers.Authorization).toBe('Bearer tok-layout');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '{}').userName).toBe('张三（已核验）');
  });

  it('退出登录 asks first; 取消 keeps the session', async () => {
    const server = setup(() => ({ data: null }));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('user-dropdown'));
    await user.click(await screen.findByTestId('logout-item'));
    expect(await screen.findByText(LOGOUT_CONFIRM)).toBeTruthy();
    await user.click(screen.getByTestId('logout-cancel'));
    await waitFor(() => expect(screen.queryByText(LOGOUT_CONFIRM)).toBeNull());
    expect(server.callsTo('/ks/common/logout')).toHaveLength(0);
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-layout');
    expect(router.state.location.pathname).toBe('/system/pageConfig');
  });

  it('退出登录, once confirmed, revokes the token, clears the session and goes to /', async () => {
    const server = setup(() => ({ data: null }));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('user-dropdown'));
    const item = await screen.findByTestId('logout-item');
    expect(item.textContent).toBe('退出登录');
    await user.click(item);
    expect(server.callsTo('/ks/common/logout')).toHaveLength(0);
    await user.click(await screen.findByTestId('logout-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(server.callsTo('/ks/common/logout')).toHaveLength(1);
    expect(server.callsTo('/ks/common/logout')[0].headers.Authorization).toBe('Bearer tok-layout');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(sessionStorage.length).toBe(0);
    // the landing page of login mode ggfw: the public portal
    expect(await screen.findByTestId('portal-header')).toBeTruthy();
  });

  it('still clears the session and leaves when the logout request fails, without a dialog', async () => {
    setup(() => ({ status: 401, code: 10001, message: '登录凭证无效或已注销，请重新登录' }));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('user-dropdown'));
    await user.click(await screen.findByTestId('logout-item'));
    await user.click(await screen.findByTestId('logout-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStorage.length).toBe(0);
    expect(currentPrompt()).toBeNull();
  });

  it('the dropdown lists the server entries before 退出登录; an entry opens its path', async () => {
    const server = setup(() => ({ data: null }));
    const headerMenus = [
      { key: 'uCenter', label: '用户中心', path: '/userCenter/uCenter', icon: 'UserOutlined' },
      { key: 'judge', label: '业务办理', path: '/judge', icon: 'AppstoreOutlined' },
      { key: 'permissionsSet', label: '权限设置', path: '/system/permissionsSet', icon: 'NoSuchIcon' },
    ];
    const withMenus = createFakeServer({
      'GET /ks/individual/menus': () => ({ data: headerMenus }),
      'GET /ks/individual/theme': () => ({ data: null }),
    });
    configureRequest({
      transport: (req) => (req.url.startsWith('/ks/individual/') ? withMenus.transport(req) : server.transport(req)),
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('user-dropdown'));
    await screen.findByTestId('header-menu-uCenter');
    const labels = Array.from(document.querySelectorAll('.ant-dropdown-menu-item')).map((e) => e.textContent);
    expect(labels).toEqual(['用户中心', '业务办理', '权限设置', '修改密码', '退出登录']);
    expect(withMenus.callsTo('/ks/individual/menus')[0].headers.Authorization).toBe('Bearer tok-layout');
    await user.click(screen.getByTestId('header-menu-judge'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/judge'));
    expect(await screen.findByTestId('judge-systems')).toBeTruthy();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-layout');
  });

  it('without server entries the dropdown still offers 退出登录, without an error dialog', async () => {
    setup(() => ({ data: null }));
    const user = userEvent.setup();
    renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('user-dropdown'));
    await screen.findByTestId('logout-item');
    expect(Array.from(document.querySelectorAll('.ant-dropdown-menu-item')).map((e) => e.textContent)).toEqual([
      '修改密码',
      '退出登录',
    ]);
    expect(currentPrompt()).toBeNull();
  });

  it('a user without rights gets the 403 page on every configuration and administration page, without asking the server', async () => {
    const denied = (role: 'M' | 'D' | 'U') => Object.entries(PAGE_ACCESS).filter(([, a]) => !a.roles.includes(role));
    // an enterprise user: every configuration page, the administrators' pages
    expect(denied('U').map(([p]) => p)).toEqual(
      expect.arrayContaining([
        '/system/allSystem',
        '/system/menuSetUp',
        '/system/permissionsSet',
        '/system/auditLevel',
      ]),
    );
    // a developer: the administrators' pages, as before
    expect(denied('D').map(([p]) => p)).toEqual(
      expect.arrayContaining(['/system/permissionsSet', '/system/permissConfig', '/system/adminInfo']),
    );
    for (const role of ['U', 'D'] as const) {
      for (const [path, access] of denied(role)) {
        const server = setup(() => ({ data: null }), role);
        const { unmount } = renderRoutes(routes, path);
        const page = await screen.findByTestId('forbidden-page');
        expect(page.textContent, path).toContain(`无权访问：${access.title}`);
        // the header stays (its bell counts); the page itself asked nothing, so no refusal reached the prompt dialog
        expect(screen.getByTestId('app-header')).toBeTruthy();
        const asked = server.calls.map((c) => c.url.split('?')[0]);
        expect(
          asked.filter(
            // the header's own calls (the system notices of the signed-in user, the weather and the bell's counts)
            (u) =>
              !/^\/ks\/(portal\/v1\/home\/platform|auth\/|individual\/|authority\/manager\/system-list|notification\/v1\/audit\/notice-list|common\/weather|message\/v1\/counts)/.test(
                u,
              ),
          ),
          `${role} ${path}`,
        ).toEqual([]);
        expect(currentPrompt()).toBeNull();
        unmount();
        sessionStorage.clear();
      }
    }
    // two renders of the signed-in layout per listed page and role: the list grows with every administration page
  }, 120_000);

  it('opens the page for those who may: an administrator on 角色权限', async () => {
    setup(() => ({ data: null }), 'M');
    renderRoutes(routes, '/system/permissionsSet');
    expect((await screen.findAllByText('角色权限', undefined, { timeout: 15_000 })).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('forbidden-page')).toBeNull();
  });
});
