import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { bodyOf, menu, setupShell, shellRoutes } from './testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('/judge, choosing a system (spec §2)', () => {
  it('lists the systems with their to-do badges (max 99)', async () => {
    const { server } = setupShell();
    renderRoutes(shellRoutes, '/judge');
    const grid = await screen.findByTestId('judge-systems');
    const xy = within(grid).getByTestId('judge-system-XYGL');
    expect(within(xy).getByTestId('judge-system-name').textContent).toBe('信用管理');
    expect(xy.textContent).toContain('XYGL');
    expect(within(xy).getByTestId('judge-system-todo').textContent).toContain('5');
    const cd = within(grid).getByTestId('judge-system-CDYY');
    expect(within(cd).getByTestId('judge-system-todo').textContent).toContain('99+');
    expect(server.callsTo('/ks/authority/manager/system-list')[0].method).toBe('POST');
  });

  it('entering a system stores it, loads its menus and opens the first visible leaf', async () => {
    const { server } = setupShell({ roleType: 'U' });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    await user.click(await screen.findByTestId('judge-system-XYGL'));
    // first menu 信用信息 → its first child 信用记录 (a list node)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dynamicPage/dynamicIndex'));
    expect(router.state.location.search).toBe('?gnCoding=XY_LIST&systemCoding=XYGL');
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('XYGL');
    expect(sessionStorage.getItem(SESSION_KEYS.gnCoding)).toBe('XY_LIST');
    expect(bodyOf(server.callsTo('/ks/menu/v1/menus/main-menus')[0])).toEqual({ systemCoding: 'XYGL' });
    // the sidebar appears with that leaf active, and the header names the system
    const item = await screen.findByTestId('side-item-XY_LIST');
    expect(item.closest('li')?.className).toContain('ant-menu-item-selected');
    await waitFor(() => expect(screen.getByTestId('current-system-name').textContent).toBe('信用管理'));
    // the menus were loaded once, shared by /judge and the sidebar
    expect(server.callsTo('/ks/menu/v1/menus/main-menus')).toHaveLength(1);
  });

  it('skips hidden and disabled items when looking for the first leaf', async () => {
    setupShell({
      menus: [
        menu({ gnCoding: 'H', title: '隐藏', itShows: '否', nodeProperties: 'lock' }),
        menu({
          gnCoding: 'D1',
          title: '目录',
          nodeProperties: 'directory',
          children: [
            menu({ gnCoding: 'OFF', title: '停用', disabled: true }),
            menu({ gnCoding: 'FA', title: '文件分析', nodeProperties: 'fileAnalysis' }),
          ],
        }),
      ],
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    await user.click(await screen.findByTestId('judge-system-CDYY'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fileAnalysis/index'));
    expect(router.state.location.search).toBe('?gnCoding=FA&systemCoding=CDYY');
  });

  it('a system without menus opens /system/pageConfig', async () => {
    setupShell({ menus: [] });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    await user.click(await screen.findByTestId('judge-system-CDYY'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/pageConfig'));
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('CDYY');
  });

  it('works from the keyboard and marks the current system', async () => {
    setupShell({ systemCoding: 'CDYY' });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    const cd = await screen.findByTestId('judge-system-CDYY');
    expect(cd.getAttribute('data-current')).toBe('true');
    expect(cd.textContent).toContain('当前系统');
    expect(screen.getByTestId('judge-system-XYGL').getAttribute('data-current')).toBe('false');
    screen.getByTestId('judge-system-XYGL').focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dynamicPage/dynamicIndex'));
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('XYGL');
  });

  it('stays on /judge with the previous system when the menus cannot be loaded', async () => {
    setupShell({
      systemCoding: 'CDYY',
      handlers: { 'POST /ks/menu/v1/menus/main-menus': () => ({ status: 403, code: 403, message: '系统已停用' }) },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    await user.click(await screen.findByTestId('judge-system-XYGL'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('系统已停用'));
    expect(router.state.location.pathname).toBe('/judge');
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('CDYY');
  });

  it('shows 暂无数据 when the user may enter no system', async () => {
    setupShell({ handlers: { 'POST /ks/authority/manager/system-list': () => ({ data: [] }) } });
    renderRoutes(shellRoutes, '/judge');
    expect((await screen.findByTestId('judge-empty')).textContent).toContain('暂无数据');
  });

  it('the header link goes back to /judge', async () => {
    setupShell({ systemCoding: 'XYGL' });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/system/pageConfig');
    await user.click(await screen.findByTestId('current-system'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/judge'));
    expect(await screen.findByTestId('judge-systems')).toBeTruthy();
  });
});
