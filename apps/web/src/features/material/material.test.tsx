import type { MaterialPeriod, MaterialPrice } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo } from '../../test/server';
import { setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));

const period = (n: number, over: Partial<MaterialPeriod> = {}): MaterialPeriod => ({
  id: uuid(n),
  period: '2026-10',
  label: '2026年10月',
  city: '太原市',
  status: 'published',
  rowCount: 3,
  fileName: '太原市2026年10月材料信息价.xlsx',
  importedAt: '2026-10-05T02:00:00.000Z',
  importedByName: '系统管理员',
  publishedAt: '2026-10-05T02:00:00.000Z',
  ...over,
});
const price = (n: number, over: Partial<MaterialPrice> = {}): MaterialPrice => ({
  id: String(n),
  period: '2026-10',
  city: '太原市',
  county: '市区',
  classification: '黑色及有色金属',
  materialGroup: '钢筋',
  code: `CL001${String(n).padStart(3, '0')}`,
  name: '螺纹钢筋',
  spec: `HRB400E Φ${10 + 2 * n}`,
  unit: 't',
  priceEx: '3451.33',
  priceIn: '3900.00',
  remark: '',
  ...over,
});
const trend = {
  material: { code: 'CL001001', name: '螺纹钢筋', spec: 'HRB400E Φ12', unit: 't' },
  points: [
    { period: '2026-09', label: '2026年9月', priceEx: '3400.00', priceIn: '3842.00' },
    { period: '2026-10', label: '2026年10月', priceEx: '3451.33', priceIn: '3900.00' },
  ],
};
const publicHandlers = (infoCalls: unknown[]) => ({
  'GET /ks/material/price/period-list': () => ({ data: [period(1)] }),
  'POST /ks/material/price/counties': () => ({
    data: [
      { value: '市区', count: 2 },
      { value: '小店区', count: 1 },
    ],
  }),
  'POST /ks/material/price/classification': () => ({ data: [{ value: '黑色及有色金属', count: 3 }] }),
  'POST /ks/material/price/material-group': () => ({ data: [{ value: '钢筋', count: 3 }] }),
  'POST /ks/material/price/info-list': (req: TransportRequest) => {
    const body = json(req);
    infoCalls.push(body);
    const records = body.keyWord === '不存在' ? [] : [price(1), price(2)];
    return { data: { records, total: records.length, capped: false, period: period(1) } };
  },
  'POST /ks/material/history/trend': () => ({ data: trend }),
});

describe('/custom/materialPrices', () => {
  it('an administrator imports a period: the bad rows are listed by row number, then a good file imports; publishes after a confirmation', async () => {
    const imports: TransportRequest[] = [];
    const published: unknown[] = [];
    let periods = [
      period(1),
      period(2, { period: '2026-11', label: '2026年11月', status: 'draft', publishedAt: null }),
    ];
    setupShell({
      handlers: {
        ...publicHandlers([]),
        'GET /ks/material/admin/periods': () => ({ data: { records: periods, total: periods.length } }),
        'POST /ks/material/admin/import': (req) => {
          imports.push(req);
          if (imports.length === 1) {
            return {
              status: 400,
              code: 400,
              message: '共有 2 行数据有误，未导入任何数据，请修改后重新导入',
              data: {
                errorCount: 2,
                errors: [
                  {
                    row: 5,
                    column: '除税价（元）',
                    reason: '「除税价（元）」应为不小于 0 的金额（最多两位小数），实为「abc」',
                  },
                  { row: 9, column: '分类', reason: '「分类」「不存在」不在分类表中' },
                ],
              },
            };
          }
          const p = period(3, { period: '2026-12', label: '2026年12月', status: 'draft', publishedAt: null });
          periods = [...periods, p];
          return { data: p };
        },
        'POST /ks/material/admin/publish': (req) => {
          published.push(json(req));
          return { data: period(2) };
        },
      },
    });
    renderRoutes(routes, '/custom/materialPrices');
    const table = await screen.findByTestId('material-periods-table', {}, SLOW);
    await within(table).findByText('2026年11月', {}, SLOW);

    await userEvent.click(screen.getByTestId('material-import'));
    await screen.findByTestId('material-import-name', {}, SLOW);
    const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['x'], '信息价.xlsx', { type: 'application/octet-stream' }));
    expect(screen.getByTestId('material-import-name').textContent).toBe('信息价.xlsx');
    await userEvent.click(screen.getByTestId('material-import-ok'));
    const errors = await screen.findByTestId('material-import-errors', {}, SLOW);
    expect(screen.getByTestId('material-import-error').textContent).toContain('共有 2 行数据有误');
    expect(within(errors).getByText('第 5 行')).toBeTruthy();
    expect(within(errors).getByText('第 9 行')).toBeTruthy();
    expect(within(errors).getByText(/不在分类表中/)).toBeTruthy();
    // the fields go before the file
    const form = imports[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['period', 'city', 'file']);
    expect(form.get('city')).toBe('太原市');
    expect(String(form.get('period'))).toMatch(/^\d{4}-\d{2}$/);

    await userEvent.click(screen.getByTestId('material-import-ok'));
    await within(table).findByText('2026年12月', {}, SLOW);
    expect(screen.queryByTestId('material-import-errors')).toBeNull();

    await userEvent.click(screen.getByTestId(`material-publish-${uuid(2)}`));
    await userEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(published).toEqual([{ id: uuid(2) }]));
  });

  it('browses and searches the published prices and opens a material history as a chart', async () => {
    const infoCalls: { keyWord?: string; county?: string }[] = [];
    setupShell({ roleType: 'U', handlers: publicHandlers(infoCalls) });
    renderRoutes(routes, '/custom/materialPrices');
    const table = await screen.findByTestId('material-table', {}, SLOW);
    await within(table).findByText('HRB400E Φ12', {}, SLOW);
    expect(screen.queryByTestId('material-periods')).toBeNull();
    expect(screen.getByText('太原市2026年10月材料信息价')).toBeTruthy();
    const search = within(screen.getByTestId('material-keyword')).getByRole('searchbox');
    await userEvent.type(search, '不存在{Enter}');
    await waitFor(() => expect(infoCalls.at(-1)?.keyWord).toBe('不存在'));
    await within(table).findByText('暂无符合条件的材料', {}, SLOW);
    await userEvent.clear(search);
    await userEvent.type(search, '螺纹{Enter}');
    await within(table).findByText('HRB400E Φ12', {}, SLOW);
    await userEvent.click(screen.getByTestId('material-trend-1'));
    const chart = await screen.findByTestId('material-trend', {}, SLOW);
    expect(within(chart).getByText('螺纹钢筋 HRB400E Φ12（CL001001，单位：t）')).toBeTruthy();
    const rows = within(screen.getByTestId('material-trend-table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      '期次除税价（元）含税价（元）环比',
      '2026年9月3400.003842.00—',
      '2026年10月3451.333900.00+1.51%',
    ]);
    expect(within(chart).getByTestId('material-trend-chart').getAttribute('aria-label')).toContain(
      '含税价：2026年9月 3842',
    );
  });

  it('shows a developer the periods without import or publication', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        ...publicHandlers([]),
        'GET /ks/material/admin/periods': () => ({
          data: { records: [period(2, { status: 'draft', publishedAt: null })], total: 1 },
        }),
      },
    });
    renderRoutes(routes, '/custom/materialPrices');
    await within(await screen.findByTestId('material-periods-table', {}, SLOW)).findByText('草稿', {}, SLOW);
    expect(screen.queryByTestId('material-import')).toBeNull();
    expect(screen.queryByTestId(`material-publish-${uuid(2)}`)).toBeNull();
    expect(screen.getByTestId('material-template')).toBeTruthy();
  });
});

describe('/materialPrices (public)', () => {
  it('lets an anonymous visitor search the prices and open a history, with no token sent', async () => {
    const infoCalls: { keyWord?: string }[] = [];
    const server = createFakeServer({
      'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
      'GET /ks/portal/v1/home/config': () => ({ data: { loginMode: 'ggfw', hallUrl: null } }),
      ...publicHandlers(infoCalls),
    });
    configureRequest({ transport: server.transport });
    renderRoutes(routes, '/materialPrices');
    const table = await screen.findByTestId('mp-table', {}, SLOW);
    expect(within(table).getByText('HRB400E Φ12')).toBeTruthy();
    expect(screen.getByTestId('nav-material').getAttribute('aria-current')).toBe('page');
    await userEvent.type(screen.getByTestId('filter-keyword'), '螺纹');
    await userEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(infoCalls.at(-1)?.keyWord).toBe('螺纹'));
    await userEvent.click(screen.getByTestId('mp-trend-1'));
    await screen.findByTestId('material-trend', {}, SLOW);
    expect(screen.getByTestId('material-trend-chart')).toBeTruthy();
    await userEvent.click(screen.getByTestId('mp-trend-close'));
    expect(screen.queryByTestId('mp-trend')).toBeNull();
    expect(server.callsTo('/ks/material/price/info-list').every((c) => !c.headers?.Authorization)).toBe(true);
  });
});
