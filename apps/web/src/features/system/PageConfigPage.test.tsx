import { SESSION_KEYS } from '@ks/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, systems, userInfo } from '../../test/server';
import PageConfigPage, { roleLabel } from './PageConfigPage';

const routes: RouteObject[] = [{ path: '/system/pageConfig', element: <PageConfigPage /> }];

function setup(systemList: Handler, user = userInfo) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
  const server = createFakeServer({
    'POST /ks/authority/manager/system-list': systemList,
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: user, roles: ['admin'] } }),
  });
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
});

describe('PageConfigPage', () => {
  it('shows the user with role label and enterprise, and the systems with their to-do badges', async () => {
    const server = setup(() => ({ data: systems }));
    renderRoutes(routes, '/system/pageConfig');
    expect(screen.getByTestId('user-card-name').textContent).toBe('张三');
    expect(screen.getByTestId('user-card-role').textContent).toBe('管理员');
    expect(screen.getByTestId('user-card-enterprise').textContent).toBe('某某建设工程有限公司');

    const grid = await screen.findByTestId('systems-grid');
    const card = within(grid).getByTestId('system-card-xypj');
    expect(card.textContent).toContain('信用评价管理系统');
    expect(card.textContent).toContain('信用评价');
    expect(within(card).getByTestId('system-todo').textContent).toContain('3');
    // more than 99 to-dos show as 99+
    expect(within(within(grid).getByTestId('system-card-ztb')).getByTestId('system-todo').textContent).toContain('99+');
    expect(server.callsTo('/ks/authority/manager/system-list')[0].method).toBe('POST');
    expect(server.callsTo('/ks/authority/manager/system-list')[0].headers.Authorization).toBe('Bearer tok');
  });

  it('clicking a system selects it and stores its systemCoding', async () => {
    setup(() => ({ data: systems }));
    const user = userEvent.setup();
    renderRoutes(routes, '/system/pageConfig');
    const card = await screen.findByTestId('system-card-ztb');
    expect(card.getAttribute('data-selected')).toBe('false');
    await user.click(card);
    expect(card.getAttribute('data-selected')).toBe('true');
    expect(card.getAttribute('aria-pressed')).toBe('true');
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('ztb');
    await user.click(screen.getByTestId('system-card-zjcq'));
    expect(screen.getByTestId('system-card-ztb').getAttribute('data-selected')).toBe('false');
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('zjcq');
  });

  it('keeps the previously chosen system highlighted', async () => {
    sessionStorage.setItem(SESSION_KEYS.systemCoding, 'zjcq');
    setup(() => ({ data: systems }));
    renderRoutes(routes, '/system/pageConfig');
    expect((await screen.findByTestId('system-card-zjcq')).getAttribute('data-selected')).toBe('true');
  });

  it('shows 暂无数据 when the user has no system', async () => {
    setup(() => ({ data: [] }), { ...userInfo, loginRoleType: 'U', enterpriseName: null });
    renderRoutes(routes, '/system/pageConfig');
    expect((await screen.findByTestId('systems-empty')).textContent).toContain('暂无数据');
    expect(screen.getByTestId('user-card-role').textContent).toBe('企业/个人');
    expect(screen.queryByTestId('user-card-enterprise')).toBeNull();
  });

  it('shows a skeleton while loading', () => {
    setup(() => ({ data: systems }));
    renderRoutes(routes, '/system/pageConfig');
    expect(document.querySelector('.ant-skeleton')).not.toBeNull();
  });

  it('maps role types to labels (anything else is an ordinary user)', () => {
    expect(roleLabel('M')).toBe('管理员');
    expect(roleLabel('D')).toBe('开发者');
    expect(roleLabel('U')).toBe('企业/个人');
    expect(roleLabel('X')).toBe('企业/个人');
    expect(roleLabel(undefined)).toBe('企业/个人');
  });
});

describe('admin tools on the landing page', () => {
  function setupRoles(roles: string[]) {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
    sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
    const server = createFakeServer({
      'POST /ks/authority/manager/system-list': () => ({ data: systems }),
      'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo, roles } }),
    });
    configureRequest({ transport: server.transport });
  }

  it('admins get 门户公告管理, which opens /system/portalNotices', async () => {
    setupRoles(['admin']);
    const user = userEvent.setup();
    const adminRoutes: RouteObject[] = [
      ...routes,
      { path: '/system/portalNotices', element: <div data-testid="notices-page" /> },
    ];
    const { router } = renderRoutes(adminRoutes, '/system/pageConfig');
    const entry = await screen.findByTestId('portal-notices-entry');
    expect(entry.textContent).toContain('门户公告管理');
    await user.click(entry);
    expect(await screen.findByTestId('notices-page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/system/portalNotices');
  });

  it('others do not', async () => {
    setupRoles(['user']);
    renderRoutes(routes, '/system/pageConfig');
    await screen.findByTestId('systems-grid');
    expect(screen.queryByTestId('portal-notices-entry')).toBeNull();
    expect(screen.queryByTestId('admin-tools')).toBeNull();
  });
});
