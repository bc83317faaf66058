import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { allNotices, createPortalServer, queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';

let server: ReturnType<typeof createPortalServer>;

beforeEach(() => {
  server = createPortalServer();
  configureRequest({ transport: server.transport });
});

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = (path = '/transac') => renderRoutes(routes, path, { antd: false });
const lastQuery = () => queryOf(server.callsTo('/ks/portal/v1/notices').at(-1)!);
const rows = () => screen.getAllByTestId('notice-row');

describe('transaction information list', () => {
  it('lists the first page with its total and the breadcrumb', async () => {
    render();
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByTestId('notice-total').textContent).toBe('35');
    expect(screen.getAllByTestId('notice-title')[0].textContent).toBe(allNotices[0].title);
    expect(
      within(screen.getByTestId('breadcrumb'))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['首页', '交易信息']);
    expect(lastQuery().get('pageNum')).toBe('1');
    expect(lastQuery().get('pageSize')).toBe('10');
  });

  it('reads the filters from the URL and sends them', async () => {
    render('/transac?category=变更公告&region=太原市&startDate=2026-01-01&endDate=2026-02-01&keyword=示例&pageSize=20');
    await screen.findByTestId('notice-list');
    const q = lastQuery();
    expect(Object.fromEntries(q)).toEqual({
      category: '变更公告',
      region: '太原市',
      startDate: '2026-01-01',
      endDate: '2026-02-01',
      keyword: '示例',
      pageNum: '1',
      pageSize: '20',
    });
    expect((screen.getByTestId('filter-region') as HTMLSelectElement).value).toBe('太原市');
    expect((screen.getByTestId('filter-keyword') as HTMLInputElement).value).toBe('示例');
    expect(
      within(screen.getByTestId('filter-category'))
        .getByRole('button', { name: '变更公告' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('a category chip filters the list, writes the URL and starts at page 1', async () => {
    const user = userEvent.setup();
    const { router } = render('/transac?pageNum=2');
    await screen.findByTestId('notice-list');
    await user.click(within(screen.getByTestId('filter-category')).getByRole('button', { name: '变更公告' }));
    await waitFor(() => expect(lastQuery().get('category')).toBe('变更公告'));
    expect(lastQuery().get('pageNum')).toBe('1');
    expect(new URLSearchParams(router.state.location.search).get('category')).toBe('变更公告');
    expect(router.state.location.search).not.toContain('pageNum');
    const expected = allNotices.filter((n) => n.category === '变更公告').length;
    await waitFor(() => expect(screen.getByTestId('notice-total').textContent).toBe(String(expected)));
    for (const row of rows()) expect(row.textContent).toContain('变更公告');
  });

  it('pages through the list and back/forward restore the page', async () => {
    const user = userEvent.setup();
    const { router } = render();
    await waitFor(() => expect(rows()).toHaveLength(10));
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(screen.getAllByTestId('notice-title')[0].textContent).toBe(allNotices[10].title));
    expect(router.state.location.search).toBe('?pageNum=2');
    expect(screen.getByRole('button', { name: '第 2 页' }).getAttribute('aria-current')).toBe('page');
    await user.click(screen.getByRole('button', { name: '下一页' }));
    await waitFor(() => expect(screen.getAllByTestId('notice-title')[0].textContent).toBe(allNotices[20].title));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.getAllByTestId('notice-title')[0].textContent).toBe(allNotices[10].title));
    // page size: back to page 1 with 20 rows
    await user.selectOptions(screen.getByLabelText('每页条数'), '20');
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(router.state.location.search).toBe('?pageSize=20');
    // jumper
    await user.type(screen.getByLabelText('跳至页码'), '2{Enter}');
    await waitFor(() => expect(rows()).toHaveLength(15));
  });

  it('keyword search and 重置', async () => {
    const user = userEvent.setup();
    const { router } = render();
    await screen.findByTestId('notice-list');
    await user.type(screen.getByTestId('filter-keyword'), '示例公告3');
    await user.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('示例公告3'));
    const matching = allNotices.filter((n) => n.title.includes('示例公告3')).length;
    await waitFor(() => expect(screen.getByTestId('notice-total').textContent).toBe(String(matching)));
    await user.click(screen.getByTestId('filter-reset'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((screen.getByTestId('filter-keyword') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(screen.getByTestId('notice-total').textContent).toBe('35'));
  });

  it('refuses an end date before the start date', async () => {
    const user = userEvent.setup();
    const { router } = render('/transac?startDate=2026-03-01');
    await screen.findByTestId('notice-list');
    const end = screen.getByTestId('filter-end-date');
    await user.type(end, '2026-01-01');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', '结束日期不能早于开始日期');
    expect(router.state.location.search).not.toContain('endDate');
  });

  it('is open to signed-in visitors too, and sends no token (the portal is public)', async () => {
    sessionStorage.setItem('token', 'tok-signed-in');
    render();
    await screen.findByTestId('notice-list');
    expect(server.callsTo('/ks/portal/v1/notices')[0].headers.Authorization).toBeUndefined();
    expect(screen.getByTestId('nav-workbench').getAttribute('href')).toBe('/system/pageConfig');
  });

  it('shows 暂无数据 when nothing matches', async () => {
    render('/transac?keyword=不存在的公告');
    expect((await screen.findByTestId('empty')).textContent).toContain('暂无数据');
    expect(screen.queryByTestId('pagination')).toBeNull();
  });
});
