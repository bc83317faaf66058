import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { allEntities, createPortalServer, queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { marketDetail } from '../../test/server';
import { capitalText } from './MarketDetailPage';

let server: ReturnType<typeof createPortalServer>;

beforeEach(() => {
  server = createPortalServer();
  configureRequest({ transport: server.transport });
});

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = (path: string) => renderRoutes(routes, path, { antd: false });
const crumbs = () =>
  within(screen.getByTestId('breadcrumb'))
    .getAllByRole('listitem')
    .map((l) => l.textContent);
const lastQuery = () => queryOf(server.callsTo('/ks/portal/v1/market/entities').at(-1)!);

describe('/market-list and the credit levels', () => {
  it('offers the level titles administrators set and filters by them', async () => {
    server = createPortalServer({
      'GET /ks/credit/public/levels': () => ({
        data: {
          levels: ['优秀', '良好', '一般', '较差', '差'].map((title, i) => ({
            title,
            minScore: 90 - i * 10,
            maxScore: i === 0 ? null : 100 - i * 10,
          })),
        },
      }),
    });
    configureRequest({ transport: server.transport });
    const user = userEvent.setup();
    render('/market-list?kind=enterprise');
    const levels = await screen.findByTestId('filter-credit-grade');
    await within(levels).findByRole('button', { name: '优秀' });
    expect(within(levels).queryByRole('button', { name: 'AAA' })).toBeNull();
    await user.click(within(levels).getByRole('button', { name: '良好' }));
    await waitFor(() => expect(lastQuery().get('creditGrade')).toBe('良好'));
  });
});

describe('/market', () => {
  it('offers the three kinds and a search that opens the list', async () => {
    const user = userEvent.setup();
    const { router } = render('/market');
    for (const kind of ['enterprise', 'agency', 'practitioner']) {
      expect((await screen.findByTestId(`market-entry-${kind}`)).getAttribute('href')).toBe(
        `/market-list?kind=${kind}`,
      );
    }
    expect(crumbs()).toEqual(['首页', '市场主体']);
    await user.selectOptions(screen.getByTestId('market-search-kind'), 'agency');
    await user.type(screen.getByTestId('market-search-input'), '代理');
    await user.click(screen.getByTestId('market-search-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market-list'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      kind: 'agency',
      keyword: '代理',
    });
  });
});

describe('/market-list', () => {
  it('enterprises: type filter (without 招标代理机构), grade filter, table and pages', async () => {
    const user = userEvent.setup();
    const { router } = render('/market-list?kind=enterprise');
    await waitFor(() => expect(screen.getAllByTestId('market-row')).toHaveLength(10));
    expect(crumbs()).toEqual(['首页', '市场主体', '企业']);
    expect(screen.getByTestId('market-total').textContent).toBe('12');
    const types = await screen.findByTestId('filter-enterprise-type');
    await waitFor(() => expect(within(types).getAllByRole('button')).toHaveLength(3));
    expect(within(types).queryByRole('button', { name: '招标代理机构' })).toBeNull();
    expect(screen.queryByTestId('filter-practice-area')).toBeNull();
    await user.click(within(types).getByRole('button', { name: '监理企业' }));
    await waitFor(() => expect(lastQuery().get('enterpriseType')).toBe('监理企业'));
    await user.click(within(screen.getByTestId('filter-credit-grade')).getByRole('button', { name: 'AAA' }));
    await waitFor(() => expect(lastQuery().get('creditGrade')).toBe('AAA'));
    expect(lastQuery().get('enterpriseType')).toBe('监理企业');
    await waitFor(() => expect(screen.getByTestId('market-total').textContent).toBe('4'));
    for (const g of screen.getAllByTestId('credit-grade')) expect(g.textContent).toBe('AAA');
    const link = screen.getAllByTestId('market-name')[0];
    expect(link.getAttribute('href')).toBe(`/market-details?kind=enterprise&id=${allEntities[0].id}`);
    await user.click(screen.getByTestId('filter-reset'));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=enterprise'));
    await user.click(await screen.findByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(screen.getAllByTestId('market-row')).toHaveLength(2));
  });

  it('practitioners: practice area instead of type; the kind tabs switch the list', async () => {
    const user = userEvent.setup();
    const { router } = render('/market-list?kind=agency&creditGrade=AA');
    await screen.findByTestId('market-table');
    expect(screen.queryByTestId('filter-enterprise-type')).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('机构名称');
    await user.click(within(screen.getByTestId('market-kind-tabs')).getByRole('tab', { name: '从业人员' }));
    await waitFor(() => expect(lastQuery().get('kind')).toBe('practitioner'));
    // the grade carries over to the other kind
    expect(lastQuery().get('creditGrade')).toBe('AA');
    expect(new URLSearchParams(router.state.location.search).get('kind')).toBe('practitioner');
    const areas = await screen.findByTestId('filter-practice-area');
    await user.click(await within(areas).findByRole('button', { name: '一级建造师' }));
    await waitFor(() => expect(lastQuery().get('practiceArea')).toBe('一级建造师'));
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '姓名',
      '证书编号',
      '执业领域',
      '所在企业',
      '信用等级',
    ]);
    expect(crumbs()).toEqual(['首页', '市场主体', '从业人员']);
  });
});

describe('/market-details', () => {
  it('shows basic information, qualifications, performance and credit records; empty sections say 暂无数据', async () => {
    const e = allEntities[0];
    render(`/market-details?kind=enterprise&id=${e.id}`);
    expect((await screen.findByTestId('market-detail-name')).textContent).toBe(e.name);
    const detail = marketDetail(1);
    expect(screen.getByTestId('section-basic').textContent).toContain(detail.basic.legalPerson!);
    expect(screen.getByTestId('section-basic').textContent).toContain('5000万元');
    expect(screen.getByTestId('qualifications').textContent).toContain('建筑工程施工总承包');
    expect(screen.getByTestId('performances-empty').textContent).toContain('暂无数据');
    expect(screen.getByTestId('credit-records').textContent).toContain('省级优质工程');
    expect(screen.getByTestId('credit-records').textContent).toContain('+2');
    expect(crumbs()).toEqual(['首页', '市场主体', '企业', '主体详情']);
    const back = within(screen.getByTestId('breadcrumb')).getByRole('link', { name: '企业' });
    expect(back.getAttribute('href')).toBe('/market-list?kind=enterprise');
  });

  it('marks lapsed qualifications 已过期 and lapsed credit records 已失效', async () => {
    const e = allEntities[0];
    server = createPortalServer({
      'GET /ks/portal/v1/market/detail': () => ({
        data: marketDetail(1, {
          qualifications: [
            {
              name: '建筑工程施工总承包',
              level: '二级',
              certNo: 'D214000001',
              validUntil: '2024-01-31',
              expired: true,
            },
            {
              name: '市政公用工程施工总承包',
              level: '二级',
              certNo: 'D214000002',
              validUntil: '2029-01-31',
              expired: false,
            },
          ],
          creditRecords: [
            {
              kind: '不良',
              title: '安全管理不到位',
              score: -3,
              issuer: '住建局',
              startDate: '2024-01-01',
              endDate: '2025-01-01',
              expired: true,
            },
          ],
        }),
      }),
    });
    configureRequest({ transport: server.transport });
    render(`/market-details?kind=enterprise&id=${e.id}`);
    const rows = (await screen.findByTestId('qualifications')).querySelectorAll('tbody tr');
    expect(within(rows[0] as HTMLElement).getByTestId('expired').textContent).toBe('已过期');
    expect(within(rows[1] as HTMLElement).queryByTestId('expired')).toBeNull();
    expect(within(screen.getByTestId('credit-records')).getByTestId('expired').textContent).toBe('已失效');
  });

  it('an unknown entity shows a friendly page without a dialog', async () => {
    render('/market-details?kind=agency&id=10000000-0000-4000-8000-999999999999');
    const nf = await screen.findByTestId('entity-not-found');
    expect(nf.textContent).toContain('市场主体不存在');
    expect(screen.getByTestId('back-to-list').getAttribute('href')).toBe('/market-list?kind=agency');
    expect(currentPrompt()).toBeNull();
  });

  it('formats registered capital given in yuan', () => {
    expect(capitalText('97780000.00')).toBe('9778 万元');
    expect(capitalText('5000万元')).toBe('5000万元');
    expect(capitalText(null)).toBe('—');
  });
});
