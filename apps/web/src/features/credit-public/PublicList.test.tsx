import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { createPortalServer, queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';
import { publicHandlers, publicRows, resetAll, setupVisitor } from './testkit';

afterEach(() => resetAll());

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };

const rows = () => screen.getAllByTestId('public-row');
const names = () => rows().map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('/credit/creditPublicList for a visitor (the portal frame, no sign-in)', () => {
  it('lists enterprises with grade, score and validity, searches by name prefix, part and credit code, pages', async () => {
    const server = setupVisitor();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/credit/creditPublicList', { antd: false });
    await waitFor(() => expect(rows()).toHaveLength(10), SLOW);
    // the portal frame: its header and breadcrumb; no sign-in was asked for
    expect(screen.getByTestId('portal-header')).toBeTruthy();
    expect(
      within(screen.getByTestId('breadcrumb'))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['首页', '信用公示']);
    expect(screen.getByTestId('public-total').textContent).toBe('23');
    expect(
      within(screen.getByTestId('public-table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['企业名称', '统一社会信用代码', '信用等级', '信用分', '评定日期', '有效期至']);
    // no token on the public calls
    for (const c of server.callsTo('/ks/credit/public/list')) expect(c.headers?.Authorization).toBeUndefined();

    // a name prefix
    await user.type(screen.getByTestId('filter-keyword'), '山西太行');
    await user.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(names().every((n) => n?.startsWith('山西太行'))).toBe(true));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ keyword: '山西太行' });
    expect(screen.getByTestId('public-total').textContent).toBe(
      String(publicRows.filter((r) => r.name.startsWith('山西太行')).length),
    );

    // a part of the name
    await user.clear(screen.getByTestId('filter-keyword'));
    await user.type(screen.getByTestId('filter-keyword'), '建设工程有限公司0');
    await user.click(within(screen.getByTestId('public-match')).getByRole('button', { name: '名称包含' }));
    await waitFor(() =>
      expect(queryOf(server.callsTo('/ks/credit/public/list').at(-1)!).get('match')).toBe('contains'),
    );
    await waitFor(() => expect(rows()).toHaveLength(9));

    // a credit code: exactly that enterprise
    const target = publicRows[7]!;
    await user.clear(screen.getByTestId('filter-keyword'));
    await user.type(screen.getByTestId('filter-keyword'), target.creditCode.toLowerCase());
    await user.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(names()).toEqual([target.name]));

    // reset, then page 3 (the last: 3 rows)
    await user.click(screen.getByTestId('filter-reset'));
    await waitFor(() => expect(rows()).toHaveLength(10));
    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(router.state.location.search).toBe('?pageNum=3');
    expect(names()).toEqual(publicRows.slice(20).map((r) => r.name));
    // one never evaluated says so, without a score or dates
    const fresh = publicRows.find((r) => r.level === null)!;
    await user.type(screen.getByTestId('filter-keyword'), fresh.name);
    await user.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(names()).toEqual([fresh.name]));
    expect(
      within(rows()[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(2),
    ).toEqual(['未评定', '—', '—', '—']);
  });

  it('filters by the levels the server names and shows a capped total as 1000+', async () => {
    const server = setupVisitor(5);
    const user = userEvent.setup();
    renderRoutes(routes, '/credit/creditPublicList', { antd: false });
    const chips = await screen.findByTestId('public-level-filter', {}, SLOW);
    await waitFor(() => expect(within(chips).getAllByRole('button')).toHaveLength(6));
    expect(
      within(chips)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['全部', 'AAA（≥90）', 'AA（80–90）', 'A（70–80）', 'B（60–70）', 'C（0–60）']);
    expect(await screen.findByTestId('public-total')).toHaveProperty('textContent', '5+');
    await user.click(within(chips).getByRole('button', { name: 'B（60–70）' }));
    await waitFor(() => expect(queryOf(server.callsTo('/ks/credit/public/list').at(-1)!).get('level')).toBe('B'));
    await waitFor(() =>
      expect(rows().every((r) => within(r).getByTestId('credit-grade').textContent === 'B')).toBe(true),
    );
  });

  it('shows the empty and the failed states', async () => {
    setupVisitor();
    const { unmount } = renderRoutes(routes, '/credit/creditPublicList?keyword=不存在的企业', { antd: false });
    expect((await screen.findByTestId('empty', {}, SLOW)).textContent).toContain('没有名称或信用代码符合条件的企业');
    unmount();
    const server = createPortalServer({
      ...publicHandlers(),
      'GET /ks/credit/public/list': () => ({ status: 500, code: 500, message: '服务器繁忙' }),
    });
    configureRequest({ transport: server.transport });
    renderRoutes(routes, '/credit/creditPublicList', { antd: false });
    expect(await screen.findByTestId('load-error', {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe('/credit/creditPublicList signed in (inside the shell)', () => {
  it('shows the same list in the back office with the sidebar, searches and keeps the node in the URL', async () => {
    const { server } = setupShell({ roleType: 'U', systemCoding: 'XYGL', handlers: publicHandlers() });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/credit/creditPublicList?systemCoding=XYGL&gnCoding=XY_LIST');
    const card = await screen.findByTestId('credit-public-list', {}, SLOW);
    expect(await screen.findByTestId('side-menu')).toBeTruthy();
    expect(screen.queryByTestId('portal-header')).toBeNull();
    await waitFor(() => expect(within(card).getAllByRole('row').length).toBe(11));
    expect(card.textContent).toContain('共 23 家企业');
    const search = within(screen.getByTestId('public-keyword')).getByRole('searchbox');
    await user.type(search, '大同{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        systemCoding: 'XYGL',
        gnCoding: 'XY_LIST',
        keyword: '大同',
      }),
    );
    await waitFor(() => expect(card.textContent).toContain('共 4 家企业'));
    // the public list is read without the session's token
    const calls = server.callsTo('/ks/credit/public/list');
    expect(calls.at(-1)!.headers?.Authorization).toBeUndefined();
  });
});
