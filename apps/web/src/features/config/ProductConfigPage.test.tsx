import { act, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { platformInfo } from '../../test/server';
import { configCounts } from './ProductConfigPage';
import { CONFIG_PAGES } from './shared';
import { renderConfig, sampleSystems, setupConfigServer } from './testkit';

const PATH = '/configPage/productConfig';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('产品配置', () => {
  it('shows the platform information, real counts and a link to every configuration page', async () => {
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    const info = await screen.findByTestId('platform-info');
    await waitFor(() => expect(info.textContent).toContain(platformInfo.platformName));
    expect(info.textContent).toContain(platformInfo.version);
    expect(info.textContent).toContain(platformInfo.filingsCoding);
    expect(info.textContent).toContain(platformInfo.describe);
    await waitFor(() => expect(within(screen.getByTestId('count-systems')).getByText('2')).toBeTruthy());
    expect(within(screen.getByTestId('count-enabled')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('count-nodes')).getByText('7')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('count-templates')).getByText('0')).toBeTruthy());
    expect(server.callsTo('/ks/config/style-templates')).toHaveLength(1);
    expect(server.callsTo('/ks/config/notice-jump')).toHaveLength(1);
    const links = screen.getAllByTestId('config-link').map((a) => a.getAttribute('href'));
    expect(links).toEqual(CONFIG_PAGES.map((p) => p.path));
    // 审核级别 and 审核方式 are reachable from the configuration menu, not only by typing their addresses
    expect(links).toEqual(expect.arrayContaining(['/system/auditLevel', '/system/auditWay']));
    expect(screen.getByTestId('product-systems').textContent).toContain('信用管理系统');
  });

  it('configCounts sums the systems and their menus', () => {
    expect(configCounts(undefined)).toBeNull();
    expect(configCounts(sampleSystems())).toEqual({ systems: 2, enabled: 1, nodes: 7 });
  });
});

describe('routes', () => {
  it('registers every configuration page inside the signed-in layout', () => {
    const paths: string[] = [];
    const walk = (list: RouteObject[], prefix: string) => {
      for (const r of list) {
        const p = r.path ? `${prefix}/${r.path}`.replace(/\/+/g, '/') : prefix;
        if (r.path) paths.push(p);
        if (r.children) walk(r.children, p);
      }
    };
    walk(routes, '');
    for (const p of [...CONFIG_PAGES.map((x) => x.path), PATH]) expect(paths).toContain(p);
  });
});
