import { SESSION_KEYS, THEME_DEFAULTS, type Theme } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { theme as antdTheme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { themeFromValues } from './ThemeDrawer';
import { bodyOf, darkTheme, setupShell, shellRoutes } from './testData';
import { antdThemeOf, asideWidthOf, TABLE_VARS } from './theme';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const dataTheme = () => document.documentElement.dataset.theme;

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('theme-button'));
  return screen.findByTestId('theme-settings');
}

describe('theme settings (spec §3 Theme, §4, §9)', () => {
  it('applies the saved theme on load: header colours and primary colour', async () => {
    setupShell({ theme: { ...THEME_DEFAULTS, themeColor: '#722ED1', navBgColor: '#001529', navTextColor: '#eeeeee' } });
    renderRoutes(shellRoutes, '/judge');
    await waitFor(() => expect(dataTheme()).toBe('light'));
    await waitFor(() => expect(screen.getByTestId('app-header').style.background).toBe('rgb(0, 21, 41)'));
    expect(screen.getByTestId('app-platform-name').style.color).toBe('rgb(238, 238, 238)');
    // antd's primary colour follows themeColor (the system cards paint their icon with it)
    const card = await screen.findByTestId('judge-system-XYGL');
    expect((card.querySelector('span[style*="background"]') as HTMLElement).style.background).toBe('rgb(114, 46, 209)');
  });

  it('switches to dark at once, saves the whole theme with PUT and keeps it', async () => {
    const { server } = setupShell();
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/judge');
    await waitFor(() => expect(dataTheme()).toBe('light'));
    const drawer = await openDrawer(user);
    await user.click(within(drawer).getByText('深色'));
    // previewed immediately
    await waitFor(() => expect(dataTheme()).toBe('dark'));
    await user.click(screen.getByTestId('theme-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const puts = server.callsTo('/ks/individual/theme').filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(bodyOf(puts[0])).toEqual({ ...THEME_DEFAULTS, theme: 'dark' });
    expect(dataTheme()).toBe('dark');
  });

  it('dropping the drawer without saving reverts the preview', async () => {
    const { server } = setupShell();
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/judge');
    const drawer = await openDrawer(user);
    await user.click(within(drawer).getByText('深色'));
    await waitFor(() => expect(dataTheme()).toBe('dark'));
    await user.click(screen.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(dataTheme()).toBe('light'));
    expect(server.callsTo('/ks/individual/theme').filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('恢复默认 fills in the defaults, 保存 sends them', async () => {
    const saved: Theme = { ...darkTheme, asideWidth: 300 };
    const { server } = setupShell({ theme: saved });
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/judge');
    await waitFor(() => expect(dataTheme()).toBe('dark'));
    const drawer = await openDrawer(user);
    expect((within(drawer).getByTestId('theme-asideWidth') as HTMLInputElement).value).toBe('300');
    await user.click(screen.getByTestId('theme-reset'));
    await waitFor(() => expect(dataTheme()).toBe('light'));
    expect((within(drawer).getByTestId('theme-asideWidth') as HTMLInputElement).value).toBe('200');
    await user.click(screen.getByTestId('theme-save'));
    await screen.findByText('保存成功');
    const put = server.callsTo('/ks/individual/theme').find((c) => c.method === 'PUT');
    expect(put && bodyOf(put)).toEqual(THEME_DEFAULTS);
  });

  it('refuses a sidebar narrower than 200', async () => {
    const { server } = setupShell();
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/judge');
    const drawer = await openDrawer(user);
    const width = within(drawer).getByTestId('theme-asideWidth');
    await user.clear(width);
    await user.click(screen.getByTestId('theme-save'));
    expect(await within(drawer).findByText('请输入侧边栏宽度')).toBeTruthy();
    expect(server.callsTo('/ks/individual/theme').filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('persists across sign-in: signing out drops the attribute, signing in again loads it from the server', async () => {
    setupShell({ theme: darkTheme });
    const user = userEvent.setup();
    const { router } = renderRoutes(shellRoutes, '/judge');
    await waitFor(() => expect(dataTheme()).toBe('dark'));
    await user.click(screen.getByTestId('user-dropdown'));
    await user.click(await screen.findByTestId('logout-item'));
    await user.click(await screen.findByTestId('logout-confirm'));
    await screen.findByTestId('signed-out');
    expect(dataTheme()).toBeUndefined();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    // sign in again (a fresh session and a fresh server answer)
    const { server } = setupShell({ theme: darkTheme });
    await act(() => router.navigate('/judge'));
    await waitFor(() => expect(dataTheme()).toBe('dark'));
    expect(server.callsTo('/ks/individual/theme')).toHaveLength(1);
  });

  it('puts changed table colours on the document for the plain-CSS list tables; signing out takes them away', async () => {
    setupShell({ theme: { ...darkTheme, tableBgColor: '#111111', tableTextColor: '#eeeeee' } });
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/judge');
    const style = document.documentElement.style;
    await waitFor(() => expect(style.getPropertyValue(TABLE_VARS.bg)).toBe('#111111'));
    expect(style.getPropertyValue(TABLE_VARS.text)).toBe('#eeeeee');
    await user.click(screen.getByTestId('user-dropdown'));
    await user.click(await screen.findByTestId('logout-item'));
    await user.click(await screen.findByTestId('logout-confirm'));
    await screen.findByTestId('signed-out');
    expect(style.getPropertyValue(TABLE_VARS.bg)).toBe('');
    expect(style.getPropertyValue(TABLE_VARS.text)).toBe('');
  });

  it('falls back to the defaults when the theme cannot be loaded, without a dialog', async () => {
    setupShell({ handlers: { 'GET /ks/individual/theme': () => ({ status: 500, code: 500, message: '服务异常' }) } });
    renderRoutes(shellRoutes, '/judge');
    await screen.findByTestId('judge-systems');
    await waitFor(() => expect(dataTheme()).toBe('light'));
    expect(screen.getByTestId('app-header').style.background).toBe('rgb(19, 98, 252)');
    // default table colours: the tables keep the theme's own
    expect(document.documentElement.style.getPropertyValue(TABLE_VARS.bg)).toBe('');
  });
});

describe('theme helpers', () => {
  it('antd theme: primary colour, dark algorithm, table and card colours only when changed', () => {
    const light = antdThemeOf({ ...THEME_DEFAULTS });
    expect(light.algorithm).toBe(antdTheme.defaultAlgorithm);
    expect(light.token?.colorPrimary).toBe('#409EFF');
    expect(light.components?.Table).toEqual({});
    const dark = antdThemeOf({ ...darkTheme, tableBgColor: '#111111', cardTextColor: '#eeeeee' });
    expect(dark.algorithm).toBe(antdTheme.darkAlgorithm);
    expect(dark.token?.colorPrimary).toBe('#722ED1');
    expect(dark.components?.Table).toMatchObject({ colorBgContainer: '#111111' });
    expect(dark.components?.Card).toMatchObject({ colorText: '#eeeeee', colorTextHeading: '#eeeeee' });
  });

  it('sidebar width is never below 200', () => {
    expect(asideWidthOf({ ...THEME_DEFAULTS, asideWidth: 150 })).toBe(200);
    expect(asideWidthOf({ ...THEME_DEFAULTS, asideWidth: 320 })).toBe(320);
  });

  it('half-edited values keep the saved ones', () => {
    const base: Theme = { ...THEME_DEFAULTS };
    expect(themeFromValues({ theme: 'dark', asideWidth: 150, navBgColor: '' }, base)).toEqual({
      ...base,
      theme: 'dark',
    });
    expect(themeFromValues({ asideWidth: 240, themeColor: '#123456' }, base)).toEqual({
      ...base,
      asideWidth: 240,
      themeColor: '#123456',
    });
  });
});
