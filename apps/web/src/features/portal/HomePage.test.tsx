import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { createPortalServer } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { type Handler, overview } from '../../test/server';

function setup(handlers: Record<string, Handler> = {}) {
  const server = createPortalServer(handlers);
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = () => renderRoutes(routes, '/', { antd: false });

describe('portal home', () => {
  it('renders header, banner and search at once and skeletons until the data arrives', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const server = setup();
    const transport = server.transport;
    configureRequest({
      transport: async (req) => {
        if (req.url.includes('/home/overview')) await gate;
        return transport(req);
      },
    });
    render();
    expect(await screen.findByTestId('home-banner')).toBeTruthy();
    expect(screen.getByTestId('portal-header')).toBeTruthy();
    expect(screen.getByTestId('home-search-input')).toBeTruthy();
    expect(screen.getByTestId('category-skeleton')).toBeTruthy();
    expect(within(screen.getByTestId('home-stats')).getAllByRole('status')).toHaveLength(4);
    release();
    expect(await screen.findByTestId('category-notices')).toBeTruthy();
    expect(screen.queryByTestId('category-skeleton')).toBeNull();
  });

  it('shows the statistics with the amount in 亿元; public calls carry no token', async () => {
    const server = setup();
    render();
    await waitFor(() => expect(screen.getByTestId('stat-amount').textContent).toContain('12.35亿元'));
    expect(screen.getByTestId('stat-projects').textContent).toContain('1,234');
    expect(screen.getByTestId('stat-enterprises').textContent).toContain('56');
    expect(screen.getByTestId('stat-notices').textContent).toContain('789');
    expect(server.callsTo('/ks/portal/v1/home/overview')[0].headers.Authorization).toBeUndefined();
  });

  it('switches the latest notices by category; 更多 links to the filtered list', async () => {
    const user = userEvent.setup();
    setup();
    render();
    const tabs = await screen.findByTestId('category-tabs');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['招标公告', '变更公告', '资格预审公告', '中标候选人公示', '中标结果公告', '终止公告']);
    await waitFor(() => expect(screen.getByTestId('category-notices').textContent).toContain('招标公告示例一'));
    await user.click(within(tabs).getByRole('tab', { name: '终止公告' }));
    expect(screen.getByTestId('category-notices').textContent).toContain('终止公告示例一');
    expect(screen.getByTestId('category-more').getAttribute('href')).toBe(
      `/transac?category=${encodeURIComponent('终止公告')}`,
    );
    const first = overview.byCategory[5].items[0];
    expect(within(screen.getByTestId('category-notices')).getByRole('link').getAttribute('href')).toBe(
      `/transac-news?id=${first.id}`,
    );
  });

  it('lists the six trade types with their latest notices', async () => {
    setup();
    render();
    await waitFor(() => expect(screen.getAllByTestId('trade-type-notices')).toHaveLength(6));
    const cards = screen.getAllByTestId('trade-type-card');
    expect(cards.map((c) => c.getAttribute('data-trade-type'))).toEqual([
      '工程建设',
      '政府采购',
      '土地矿业',
      '国有产权',
      '医药采购',
      '其他交易',
    ]);
    expect(cards[1].textContent).toContain('政府采购示例一');
  });

  it('searches the transaction list with the keyword', async () => {
    const user = userEvent.setup();
    const server = setup();
    const { router } = render();
    await user.type(await screen.findByTestId('home-search-input'), '医院');
    await user.click(screen.getByTestId('home-search-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transac'));
    expect(new URLSearchParams(router.state.location.search).get('keyword')).toBe('医院');
    await waitFor(() => expect(server.callsTo('/ks/portal/v1/notices').length).toBeGreaterThan(0));
  });

  it('quick entries: 业务办理 to /login (ggfw), 信用公示 to the public credit list', async () => {
    setup();
    render();
    expect((await screen.findByTestId('quick-business')).getAttribute('href')).toBe('/login');
    expect(screen.getByTestId('quick-credit').getAttribute('href')).toBe('/credit/creditPublicList');
  });

  it('a failed overview shows 重新加载 in place, no dialog', async () => {
    let fail = true;
    const user = userEvent.setup();
    setup({
      'GET /ks/portal/v1/home/overview': () =>
        fail ? { status: 500, code: 500, message: '服务器内部错误' } : { data: overview },
    });
    render();
    const errors = await screen.findAllByTestId('load-error');
    expect(currentPrompt()).toBeNull();
    fail = false;
    await user.click(within(errors[0]).getByRole('button', { name: '重新加载' }));
    expect(await screen.findByTestId('category-notices')).toBeTruthy();
  });
});
