import { SESSION_KEYS, THEME_DEFAULTS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { bodyOf, creditMenus, menu, setupShell, shellRoutes } from './testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const li = (gnCoding: string) => screen.getByTestId(`side-item-${gnCoding}`).closest('li') as HTMLElement;
const isSelected = (gnCoding: string) => li(gnCoding).className.includes('ant-menu-item-selected');

describe('sidebar (spec §2, §4, screen 20)', () => {
  it('is absent until a system is chosen', async () => {
    setupShell();
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('probe');
    await screen.findByTestId('choose-system');
    expect(screen.queryByTestId('side-menu')).toBeNull();
  });

  it('loads the chosen system menus and never shows itShows 否 items', async () => {
    const { server } = setupShell({ systemCoding: 'XYGL' });
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-XY_LIST');
    const calls = server.callsTo('/ks/menu/v1/menus/main-menus');
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe('POST');
    expect(bodyOf(calls[0])).toEqual({ systemCoding: 'XYGL' });
    // the faulty server sent two hidden items: neither is rendered, at any depth
    expect(screen.queryByTestId('side-item-XY_HIDDEN')).toBeNull();
    expect(screen.queryByTestId('side-item-TOP_HIDDEN')).toBeNull();
    expect(screen.queryByText('隐藏菜单')).toBeNull();
    expect(screen.queryByText('顶层隐藏')).toBeNull();
    // the header names the system and links back to /judge
    await waitFor(() => expect(screen.getByTestId('current-system-name').textContent).toBe('信用管理'));
    expect(screen.getByTestId('current-system').getAttribute('href')).toBe('/judge');
  });

  it('on the landing page highlights no item (the first menu is open), with badges, scores and icons', async () => {
    setupShell({ systemCoding: 'XYGL' });
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-XY_LIST');
    expect(isSelected('XY_LIST')).toBe(false);
    expect(isSelected('XY_SCORE')).toBe(false);
    expect(screen.getByTestId('side-menu').querySelector('.ant-menu-item-selected')).toBeNull();
    expect(li('XY_DIR').className).toContain('ant-menu-submenu-open');
    // badge 120 shows as 99+, score as a tag
    expect(screen.getByTestId('side-badge-XY_LIST').textContent).toContain('99+');
    expect(screen.getByTestId('side-score-XY_SCORE').textContent).toBe('92.5分');
    expect(screen.queryByTestId('side-score-XY_LIST')).toBeNull();
    // icons by name
    expect(li('XY_DIR').querySelector('[data-icon="folder"]')).not.toBeNull();
    expect(li('XY_LIST').querySelector('[data-icon="file-text"]')).not.toBeNull();
  });

  it('a node opened before is not highlighted on the landing page, nor a directory leaf', async () => {
    sessionStorage.setItem(SESSION_KEYS.gnCoding, 'NEXT');
    setupShell({
      systemCoding: 'XYGL',
      menus: [
        menu({ gnCoding: 'SOLO', title: '单独菜单' }),
        menu({ gnCoding: 'NEXT', title: '下一个' }),
        menu({ gnCoding: 'EMPTY_DIR', title: '空目录', nodeProperties: 'directory' }),
      ],
    });
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-SOLO');
    for (const code of ['SOLO', 'NEXT', 'EMPTY_DIR']) expect(isSelected(code)).toBe(false);
  });

  it('a record page of a node (detail, form) highlights that node', async () => {
    setupShell({ systemCoding: 'XYGL' });
    renderRoutes(shellRoutes, '/dynamicPage/dynamicDetail?gnCoding=XY_LIST&systemCoding=XYGL&id=r1');
    await screen.findByTestId('side-item-XY_LIST');
    expect(isSelected('XY_LIST')).toBe(true);
  });

  it('a node page opened directly shows the sidebar of the system its URL names', async () => {
    // nothing chosen yet in this session (a bookmark, a link from elsewhere)
    const { server } = setupShell({});
    renderRoutes(shellRoutes, '/credit/analysis?gnCoding=XY_SCORE&systemCoding=XYGL');
    await screen.findByTestId('side-item-XY_SCORE');
    expect(isSelected('XY_SCORE')).toBe(true);
    expect(bodyOf(server.callsTo('/ks/menu/v1/menus/main-menus')[0])).toEqual({ systemCoding: 'XYGL' });
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('XYGL');
    await waitFor(() => expect(screen.getByTestId('current-system-name').textContent).toBe('信用管理'));
  });

  it('a configuration page does not take its systemCoding as the system being worked in', async () => {
    setupShell({});
    renderRoutes(shellRoutes, '/system/pageConfig?systemCoding=XYGL');
    await screen.findByTestId('choose-system');
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBeNull();
  });

  it('follows the route: the node whose page is open is active', async () => {
    setupShell({ systemCoding: 'XYGL' });
    renderRoutes(shellRoutes, '/credit/analysis?gnCoding=XY_SCORE&systemCoding=XYGL');
    await screen.findByTestId('side-item-XY_SCORE');
    expect(isSelected('XY_SCORE')).toBe(true);
    expect(isSelected('XY_LIST')).toBe(false);
  });

  it('clicking a leaf opens the page of its node property and stores gnCoding; venue goes to the calendar for admins', async () => {
    setupShell({ systemCoding: 'XYGL', roleType: 'M' });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/system/pageConfig');
    await user.click(await screen.findByTestId('side-item-XY_SCORE'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credit/analysis'));
    expect(router.state.location.search).toBe('?gnCoding=XY_SCORE&systemCoding=XYGL');
    expect(sessionStorage.getItem(SESSION_KEYS.gnCoding)).toBe('XY_SCORE');
    expect(isSelected('XY_SCORE')).toBe(true);

    await user.click(screen.getByTestId('side-item-CD_DIR'));
    await user.click(await screen.findByTestId('side-item-CD_VENUE'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/meetingVenue/meeting'));
    expect(screen.getByTestId('probe').textContent).toBe('/meetingVenue/meeting?gnCoding=CD_VENUE&systemCoding=XYGL');
    expect(sessionStorage.getItem(SESSION_KEYS.gnCoding)).toBe('CD_VENUE');

    // list nodes open the dynamic list
    await user.click(screen.getByTestId('side-item-XY_LIST'));
    await waitFor(() =>
      expect(screen.getByTestId('probe').textContent).toBe(
        '/dynamicPage/dynamicIndex?gnCoding=XY_LIST&systemCoding=XYGL',
      ),
    );
  });

  it('venue goes to the booking page for everyone else; disabled items do nothing', async () => {
    setupShell({ systemCoding: 'XYGL', roleType: 'U' });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/system/pageConfig');
    await user.click(await screen.findByTestId('side-item-CD_DIR'));
    await user.click(await screen.findByTestId('side-item-CD_VENUE'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/meetingVenue/booking'));
    expect(router.state.location.search).toBe('?gnCoding=CD_VENUE&systemCoding=XYGL');

    expect(li('CD_OFF').className).toContain('ant-menu-item-disabled');
    await user.click(screen.getByTestId('side-item-CD_OFF'));
    expect(router.state.location.search).toBe('?gnCoding=CD_VENUE&systemCoding=XYGL');
    expect(sessionStorage.getItem(SESSION_KEYS.gnCoding)).toBe('CD_VENUE');
  });

  it('collapses and expands for every user', async () => {
    setupShell({ systemCoding: 'XYGL', roleType: 'U' });
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-XY_LIST');
    const sider = screen.getByTestId('side-menu');
    expect(sider.getAttribute('data-collapsed')).toBe('false');
    expect(sider.style.width).toBe(`${THEME_DEFAULTS.asideWidth}px`);
    await user.click(screen.getByTestId('side-collapse'));
    expect(sider.getAttribute('data-collapsed')).toBe('true');
    expect(sider.style.width).toBe('64px');
    await user.click(screen.getByTestId('side-collapse'));
    expect(sider.getAttribute('data-collapsed')).toBe('false');
  });

  it('takes its width from the theme', async () => {
    setupShell({ systemCoding: 'XYGL', theme: { ...THEME_DEFAULTS, asideWidth: 260 } });
    renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-XY_LIST');
    await waitFor(() => expect(screen.getByTestId('side-menu').style.width).toBe('260px'));
  });

  it('developers get 系统设置, 节点设置 and 新建系统; others do not', async () => {
    setupShell({ systemCoding: 'XYGL', roleType: 'D' });
    const user = userEvent.setup();
    const { router, unmount } = renderRoutes(shellRoutes, '/system/pageConfig');
    await screen.findByTestId('side-item-XY_LIST');
    await user.click(screen.getByTestId('side-node-settings'));
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('/system/menuSetUp?systemCoding=XYGL'));
    await user.click(screen.getByTestId('side-system-settings'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/allSystem'));
    await user.click(screen.getByTestId('side-new-system'));
    const form = await screen.findByTestId('new-system-form');
    expect(form.getAttribute('data-open')).toBe('true');
    expect(within(form).getByTestId('new-system-submit').textContent).toBe('生成系统');
    unmount();

    for (const roleType of ['M', 'U'] as const) {
      setupShell({ systemCoding: 'XYGL', roleType });
      const view = renderRoutes(shellRoutes, '/system/pageConfig');
      await screen.findByTestId('side-item-XY_LIST');
      expect(screen.queryByTestId('side-dev-tools')).toBeNull();
      expect(screen.queryByTestId('side-system-settings')).toBeNull();
      expect(screen.queryByTestId('side-node-settings')).toBeNull();
      expect(screen.queryByTestId('side-new-system')).toBeNull();
      expect(screen.getByTestId('side-collapse')).toBeTruthy();
      view.unmount();
    }
  });

  it('shows 暂无菜单, with a hint to add menus for developers only', async () => {
    setupShell({ systemCoding: 'XYGL', roleType: 'D', menus: [] });
    const user = userEvent.setup();
    const { unmount } = renderRoutes(shellRoutes, '/system/pageConfig');
    const empty = await screen.findByTestId('side-empty');
    expect(empty.textContent).toContain('暂无菜单');
    await user.click(within(empty).getByTestId('side-empty-setup'));
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('/system/menuSetUp?systemCoding=XYGL'));
    unmount();

    setupShell({ systemCoding: 'XYGL', roleType: 'U', menus: [menu({ gnCoding: 'H', title: '隐', itShows: '否' })] });
    renderRoutes(shellRoutes, '/system/pageConfig');
    const plain = await screen.findByTestId('side-empty');
    expect(plain.textContent).toContain('暂无菜单');
    expect(plain.textContent).not.toContain('节点设置');
    expect(within(plain).queryByTestId('side-empty-setup')).toBeNull();
  });

  it('is hidden on /judge, where a system is chosen', async () => {
    setupShell({ systemCoding: 'XYGL' });
    renderRoutes(shellRoutes, '/judge');
    await screen.findByTestId('judge-systems');
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(creditMenus()).toHaveLength(3);
  });
});

describe('display groups in the sidebar', () => {
  it('puts consecutive items of one group under its heading and leaves ungrouped items as they are', async () => {
    const { toItems } = await import('./SideMenu');
    const nodes = [
      menu({ gnCoding: 'A', title: '甲', groupName: '业务办理' }),
      menu({ gnCoding: 'B', title: '乙', groupName: '业务办理' }),
      menu({ gnCoding: 'C', title: '丙' }),
      menu({ gnCoding: 'D', title: '丁', groupName: '统计' }),
    ];
    const items = toItems(nodes) as { type?: string; children?: { key: string }[]; key: string }[];
    expect(items.map((i) => i.type ?? 'item')).toEqual(['group', 'item', 'group']);
    expect(items[0]?.children?.map((c) => c.key)).toEqual([nodes[0]?.id, nodes[1]?.id]);
    expect(items[2]?.children).toHaveLength(1);
  });
});
