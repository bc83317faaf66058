import type { CompleteCount, Progress, TxnStats } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const params = (req: TransportRequest) => Object.fromEntries(new URL(req.url, 'http://x').searchParams);

const txn: TxnStats = {
  startMonth: '2026-01',
  endMonth: '2026-12',
  total: { count: 5, amount: 12_345_678.9 },
  byType: [
    { name: '公路工程', count: 3, amount: 10_000_000 },
    { name: '水利水电工程', count: 2, amount: 2_345_678.9 },
  ],
  byRegion: [
    { name: '运城市', count: 4, amount: 11_000_000 },
    { name: '忻州市', count: 1, amount: 1_345_678.9 },
  ],
  byMonth: [
    { month: '2026-03', count: 2, amount: 5_000_000 },
    { month: '2026-04', count: 3, amount: 7_345_678.9 },
  ],
  regions: ['运城市', '忻州市'],
  types: ['公路工程', '水利水电工程'],
};

const txnRow = (n: number, over: Record<string, unknown> = {}) => ({
  sectionId: uuid(n),
  sectionCode: 'BD-01',
  sectionName: `第${n}标段`,
  projectCode: `TJ-${n}`,
  projectName: `运城市盐湖区统计项目${n}`,
  type: '公路工程',
  region: '运城市',
  month: '2026-03',
  openedAt: '2026-03-12 09:30',
  amount: 1_000_000 * n,
  ...over,
});

describe('交易统计 /custom/statistics', () => {
  it('shows the totals, lists the transactions behind them, filters by region and exports the participants', async () => {
    const lists: TransportRequest[] = [];
    const stats: TransportRequest[] = [];
    const exports: TransportRequest[] = [];
    setupShell({
      handlers: {
        'GET /ks/task/v1/statistics/transactions': (req) => {
          stats.push(req);
          return { data: txn };
        },
        'GET /ks/task/v1/statistics/transaction-list': (req) => {
          lists.push(req);
          return { data: { records: [txnRow(1), txnRow(2)], total: 2 } };
        },
        'GET /ks/task/v1/todo-statistics/participate-ent-list': () => ({
          data: {
            records: [
              {
                enterpriseId: uuid(9),
                enterpriseName: '山西路桥建设集团有限公司',
                creditCode: '91140000MA0K000001',
                region: '太原市',
                sections: 3,
                amount: 8_000_000,
              },
            ],
            total: 1,
          },
        }),
        'POST /ks/task/v1/todo-statistics/export-participate-list': (req) => {
          exports.push(req);
          return { data: null };
        },
      },
    });
    renderRoutes(routes, '/custom/statistics');
    const count = await screen.findByTestId('stats-total-count', {}, SLOW);
    await waitFor(() => expect(count.textContent).toContain('5'));
    expect(screen.getByTestId('stats-total-amount').textContent).toContain('1,234.57');
    // the charts say their numbers
    expect(screen.getByTestId('stats-chart-month').getAttribute('aria-label')).toContain('2026-03 2，2026-04 3');
    expect(screen.getByTestId('stats-chart-region').getAttribute('aria-label')).toContain('运城市 4');
    // the drill-down lists the records of the period
    const table = await screen.findByTestId('stats-txn-table', {}, SLOW);
    await within(table).findByText('运城市盐湖区统计项目1', {}, SLOW);
    expect(screen.getByText('共 2 个标段')).toBeTruthy();
    expect(params(lists.at(-1)!)).toMatchObject({ startMonth: txn.startMonth, endMonth: txn.endMonth, curPage: '1' });
    expect(screen.getByText('山西路桥建设集团有限公司')).toBeTruthy();

    // a region: the statistics and the list ask for it
    await userEvent.click(within(screen.getByTestId('stats-region')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('运城市'));
    await waitFor(() => expect(params(stats.at(-1)!).region).toBe('运城市'));
    await waitFor(() => expect(params(lists.at(-1)!).region).toBe('运城市'));

    await userEvent.click(screen.getByTestId('stats-participants-export'));
    await waitFor(() => expect(exports).toHaveLength(1));
    expect(JSON.parse(String(exports[0]!.body))).toMatchObject({ region: '运城市', startMonth: txn.startMonth });
  });

  it('shows an empty state when there is nothing to count', async () => {
    setupShell({
      handlers: {
        'GET /ks/task/v1/statistics/transactions': () => ({
          data: {
            ...txn,
            total: { count: 0, amount: 0 },
            byType: [],
            byRegion: [],
            byMonth: [],
            regions: [],
            types: [],
          },
        }),
        'GET /ks/task/v1/statistics/transaction-list': () => ({ data: { records: [], total: 0 } }),
        'GET /ks/task/v1/todo-statistics/participate-ent-list': () => ({ data: { records: [], total: 0 } }),
      },
    });
    renderRoutes(routes, '/custom/statistics');
    await screen.findByTestId('stats-total-count', {}, SLOW);
    await waitFor(() => expect(screen.getAllByText('暂无数据').length).toBeGreaterThanOrEqual(4));
  });
});

const counts: CompleteCount = {
  startMonth: '2026-01',
  endMonth: '2026-12',
  rows: [
    {
      systemCoding: 'ZBTB',
      systemName: '招标投标',
      gnCoding: 'ZBTB_XMDJ',
      nodeName: '项目进场登记',
      draft: 1,
      pending: 2,
      passed: 3,
      rejected: 0,
      total: 6,
    },
  ],
};

describe('办件与待办统计 /custom/completeCount', () => {
  it('opens the records behind a count and the to-dos behind a to-do number', async () => {
    const records: TransportRequest[] = [];
    const todos: TransportRequest[] = [];
    setupShell({
      handlers: {
        'GET /ks/task/v1/statistics/complete-count': () => ({ data: counts }),
        'GET /ks/task/v1/todo-statistics/todo-list': () => ({
          data: [
            {
              systemCoding: 'ZBTB',
              systemName: '招标投标',
              gnCoding: 'ZBTB_XMDJ',
              nodeName: '项目进场登记',
              open: 2,
              done: 4,
              total: 6,
            },
          ],
        }),
        'GET /ks/task/v1/todo-statistics/region': () => ({ data: [{ region: '运城市', open: 2, done: 4, total: 6 }] }),
        'GET /ks/task/v1/todo-statistics/enterprise': () => ({
          data: {
            records: [
              { enterpriseId: uuid(7), enterpriseName: '统计测试公司', region: '运城市', open: 2, done: 4, total: 6 },
            ],
            total: 1,
          },
        }),
        'GET /ks/task/v1/statistics/complete-list': (req) => {
          records.push(req);
          return {
            data: {
              records: [
                {
                  id: uuid(1),
                  businessName: '项目进场登记：统计测试项目',
                  status: '已通过',
                  auditLevel: 0,
                  enterpriseName: '统计测试公司',
                  createdAt: '2026-03-01 10:00',
                  updatedAt: '2026-03-02 10:00',
                },
              ],
              total: 1,
            },
          };
        },
        'GET /ks/task/v1/todo-statistics/todo-records': (req) => {
          todos.push(req);
          return {
            data: {
              records: [
                {
                  id: uuid(2),
                  gnCoding: 'ZBTB_XMDJ',
                  nodeName: '项目进场登记',
                  businessName: '项目进场登记：待审项目',
                  submitterName: '赵立新',
                  enterpriseName: '统计测试公司',
                  region: '运城市',
                  level: 1,
                  sbTime: '2026-03-03 09:00',
                  doneAt: null,
                },
              ],
              total: 1,
            },
          };
        },
      },
    });
    renderRoutes(routes, '/custom/completeCount');
    await userEvent.click(await screen.findByTestId('stats-count-ZBTB_XMDJ-passed', {}, SLOW));
    expect(await screen.findByText('项目进场登记：统计测试项目', {}, SLOW)).toBeTruthy();
    expect(params(records.at(-1)!)).toMatchObject({ gnCoding: 'ZBTB_XMDJ', status: 'passed' });
    expect(screen.getByTestId('stats-drill-title').textContent).toBe('办件明细：项目进场登记 · 已通过');

    await userEvent.click(screen.getByTestId('stats-todo-ZBTB_XMDJ-open'));
    expect(await screen.findByText('项目进场登记：待审项目', {}, SLOW)).toBeTruthy();
    expect(params(todos.at(-1)!)).toMatchObject({ gnCoding: 'ZBTB_XMDJ', state: 'open' });

    await userEvent.click(screen.getByTestId(`stats-ent-${uuid(7)}-done`));
    await waitFor(() => expect(params(todos.at(-1)!)).toMatchObject({ enterpriseId: uuid(7), state: 'done' }));
    expect(screen.getByTestId('stats-todo-open').textContent).toContain('2');
  });
});

const progress: Progress = {
  startMonth: '2026-01',
  endMonth: '2026-12',
  overdueHours: 72,
  pending: 3,
  overdue: 1,
  levels: [
    {
      gnCoding: 'ZBTB_XMDJ',
      nodeName: '项目进场登记',
      level: 1,
      levelName: '初审',
      pending: 3,
      overdue: 1,
      decided: 5,
      avgHours: 12.5,
      maxHours: 80,
    },
  ],
};

describe('办理进度 /custom/viewProgress', () => {
  it('lists the overdue applications and lets the administrator change the limit', async () => {
    const lists: TransportRequest[] = [];
    const saves: TransportRequest[] = [];
    setupShell({
      handlers: {
        'GET /ks/task/v1/statistics/progress': () => ({ data: progress }),
        'GET /ks/task/v1/statistics/progress-list': (req) => {
          lists.push(req);
          const overdue = params(req).overdue === '1';
          return {
            data: {
              records: [
                {
                  recordId: uuid(3),
                  gnCoding: 'ZBTB_XMDJ',
                  nodeName: '项目进场登记',
                  businessName: overdue ? '项目进场登记：超期项目' : '项目进场登记：待审项目',
                  submitterName: '赵立新',
                  level: 1,
                  levelName: '初审',
                  since: '2026-03-01 09:00',
                  waitingHours: overdue ? 90 : 5,
                  overdue,
                },
              ],
              total: 1,
            },
          };
        },
        'POST /ks/task/v1/statistics/settings': (req) => {
          saves.push(req);
          return { data: JSON.parse(String(req.body)) };
        },
      },
    });
    renderRoutes(routes, '/custom/viewProgress');
    expect(await screen.findByText('项目进场登记：待审项目', {}, SLOW)).toBeTruthy();
    expect(screen.getByTestId('stats-level-table').textContent).toContain('12.5');
    await userEvent.click(screen.getByTestId('stats-progress-overdue'));
    expect(await screen.findByText('项目进场登记：超期项目', {}, SLOW)).toBeTruthy();
    expect(params(lists.at(-1)!).overdue).toBe('1');
    expect(screen.getByText('超期', { selector: '.ant-tag' })).toBeTruthy();

    await userEvent.click(screen.getByTestId('stats-settings'));
    const hours = await screen.findByTestId('stats-settings-hours');
    const input = hours.querySelector('input') ?? (hours as HTMLInputElement);
    await userEvent.clear(input);
    await userEvent.type(input, '48');
    await userEvent.click(screen.getByTestId('stats-settings-save'));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(JSON.parse(String(saves[0]!.body))).toEqual({ overdueHours: 48 });
  });

  it('shows no settings button to an enterprise user', async () => {
    setupShell({
      roleType: 'U',
      handlers: {
        'GET /ks/task/v1/statistics/progress': () => ({ data: { ...progress, pending: 0, overdue: 0, levels: [] } }),
        'GET /ks/task/v1/statistics/progress-list': () => ({ data: { records: [], total: 0 } }),
      },
    });
    renderRoutes(routes, '/custom/viewProgress');
    expect(await screen.findByText('暂无审核中的申请', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('stats-settings')).toBeNull();
  });
});
