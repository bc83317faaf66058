import type { Indicators, Metrics, MonitoringReport, PersonDetail, PublicTxn } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
const BASE = '/ks/public-data/v1';

const txn = (n: number, over: Partial<PublicTxn> = {}): PublicTxn => ({
  id: uuid(n),
  title: `阳泉市测试工程${n}招标公告`,
  projectCode: `E14030020260${n}`,
  projectName: `阳泉市测试工程${n}`,
  sectionName: '施工标段',
  tradeType: '工程建设',
  region: '阳泉市',
  tenderer: '阳泉市城区住房和城乡建设局',
  publishedAt: '2026-10-08',
  controlPrice: 12_345_678.9,
  status: 'awarded',
  winPrice: 11_111_111.01,
  discountRate: 0.0999,
  bidders: null,
  concludedAt: '2026-11-02',
  latestNoticeId: uuid(100 + n),
  latestCategory: '中标结果公告',
  onPlatform: false,
  ...over,
});

const metrics = (over: Partial<Metrics> = {}): Metrics => ({
  published: 4,
  controlAmount: 6_500_000,
  opened: 2,
  bidsOpened: 5,
  bidders: 2.5,
  awarded: 3,
  awardAmount: 6_200_000,
  discountSamples: 2,
  discountRate: 0.125,
  failed: 1,
  concluded: 4,
  retenderRate: 0.25,
  ...over,
});

describe('交易明细 /demoPublicPage/detailsList', () => {
  it('lists the published 交易 with their prices, links each to its notice, filters and expands', async () => {
    const lists: TransportRequest[] = [];
    setupShell({
      handlers: {
        [`GET ${BASE}/details-list`]: (req) => {
          lists.push(req);
          return {
            data: {
              records: [
                txn(1),
                txn(2, { status: 'failed', controlPrice: 500_000, winPrice: null, discountRate: null, bidders: 2 }),
              ],
              total: 2,
            },
          };
        },
        [`GET ${BASE}/details`]: () => ({
          data: {
            transaction: txn(1),
            notices: [
              {
                id: uuid(1),
                title: '阳泉市测试工程1招标公告',
                category: '招标公告',
                publishedAt: '2026-10-08 10:00',
                amount: 12_345_678.9,
              },
              {
                id: uuid(101),
                title: '阳泉市测试工程1中标结果公告',
                category: '中标结果公告',
                publishedAt: '2026-11-02 09:00',
                amount: 11_111_111.01,
              },
            ],
            opening: null,
          },
        }),
      },
    });
    renderRoutes(routes, '/demoPublicPage/detailsList');
    const table = await screen.findByTestId('publicdata-details-table', {}, SLOW);
    const link = await within(table).findByTestId(`publicdata-row-notice-${uuid(1)}`, {}, SLOW);
    // the name opens the latest notice on the portal, in a new tab
    expect(link.getAttribute('href')).toBe(`/transac-news?id=${uuid(101)}`);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(table).getByText('12,345,678.90')).toBeTruthy();
    expect(within(table).getByText('11,111,111.01')).toBeTruthy();
    expect(within(table).getByText('9.99%')).toBeTruthy();
    expect(screen.getByTestId(`publicdata-status-${uuid(2)}`).textContent).toBe('流标/终止');
    expect(within(table).getByText('2 家')).toBeTruthy();
    expect(screen.getByText('共 2 宗')).toBeTruthy();
    expect(params(lists.at(-1)!)).toMatchObject({ pageNum: '1', pageSize: '10' });

    // a status filter asks the server, from page 1
    await userEvent.click(within(screen.getByTestId('publicdata-status')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('流标/终止'));
    await waitFor(() => expect(params(lists.at(-1)!)).toMatchObject({ status: 'failed', pageNum: '1' }));

    // a row opens its published notices
    await userEvent.click(within(table).getAllByRole('button', { name: /展开行|Expand row/ })[0]!);
    const detail = await screen.findByTestId(`publicdata-detail-${uuid(1)}`, {}, SLOW);
    expect(
      within(detail)
        .getByTestId(`publicdata-notice-${uuid(101)}`)
        .getAttribute('href'),
    ).toBe(`/transac-news?id=${uuid(101)}`);
    expect(detail.textContent).toContain('中标结果公告');
  });

  it('says 暂无数据 when nothing is published', async () => {
    setupShell({ handlers: { [`GET ${BASE}/details-list`]: () => ({ data: { records: [], total: 0 } }) } });
    renderRoutes(routes, '/demoPublicPage/detailsList');
    const table = await screen.findByTestId('publicdata-details-table', {}, SLOW);
    await waitFor(() => expect(within(table).getByText('暂无数据')).toBeTruthy());
  });
});

describe('控制价公示 /demoPublicPage/priceLimitDetails', () => {
  it('shows each section’s 最高投标限价 and the filter’s sum', async () => {
    setupShell({
      handlers: {
        [`GET ${BASE}/price-limit-list`]: () => ({
          data: {
            records: [
              {
                id: uuid(1),
                projectCode: 'SXGC-2026-1101',
                projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
                sectionName: 'BD-01 施工标段',
                tradeType: '工程建设',
                category: '招标公告',
                region: '太原市',
                tenderer: '太原市晋源区教育局',
                controlPrice: 38_500_000,
                publishedAt: '2026-11-29',
                onPlatform: true,
              },
            ],
            total: 1,
            amount: 38_500_000,
          },
        }),
      },
    });
    renderRoutes(routes, '/demoPublicPage/priceLimitDetails');
    const table = await screen.findByTestId('publicdata-price-limit-table', {}, SLOW);
    await within(table).findByText('38,500,000.00', {}, SLOW);
    expect(within(table).getByText('3,850.00')).toBeTruthy();
    expect(within(table).getByText('本平台标段')).toBeTruthy();
    expect(screen.getByTestId('publicdata-limit-sum').textContent).toContain(
      '共 1 个标段，最高投标限价合计 3,850.00 万元（38,500,000.00 元）',
    );
    expect(screen.getByTestId(`publicdata-limit-notice-${uuid(1)}`).getAttribute('href')).toBe(
      `/transac-news?id=${uuid(1)}`,
    );
  });
});

const indicators: Indicators = {
  granularity: 'month',
  startMonth: '2026-09',
  endMonth: '2026-11',
  total: metrics(),
  periods: [
    { period: '2026-09', ...metrics({ published: 1, discountRate: null, retenderRate: null, bidders: null }) },
    { period: '2026-10', ...metrics({ published: 2, discountRate: 0.1 }) },
    { period: '2026-11', ...metrics({ published: 1, discountRate: 0.15, retenderRate: 0.5 }) },
  ],
  byRegion: [{ name: '阳泉市', ...metrics({ published: 3 }) }],
  byTradeType: [{ name: '工程建设', ...metrics({ published: 4 }) }],
};

describe('市场指标 /demoPublicPage/indicatorDet', () => {
  it('shows the figures and charts of the period, asks again for another granularity and opens the report', async () => {
    const asked: TransportRequest[] = [];
    setupShell({
      handlers: {
        [`GET ${BASE}/indicators`]: (req) => {
          asked.push(req);
          return { data: indicators };
        },
      },
    });
    const { router } = renderRoutes(routes, '/demoPublicPage/indicatorDet');
    const discount = await screen.findByTestId('publicdata-total-discount', {}, SLOW);
    await waitFor(() => expect(discount.textContent).toContain('12.50%'));
    expect(screen.getByTestId('publicdata-total-retender').textContent).toContain('25.00%');
    expect(screen.getByTestId('publicdata-total-retender').textContent).toContain('流标或终止 1 宗 / 办结 4 宗');
    expect(screen.getByTestId('publicdata-total-bidders').textContent).toContain('2.50');
    expect(screen.getByTestId('publicdata-total-control').textContent).toContain('650.00');
    // the charts say their numbers; a period without a base is a gap, not a zero
    expect(screen.getByTestId('publicdata-chart-volume').getAttribute('aria-label')).toContain(
      '发布：2026-09 1，2026-10 2',
    );
    expect(screen.getByTestId('publicdata-chart-rates').getAttribute('aria-label')).toContain(
      '平均下浮率：2026-09 —，2026-10 10.00%，2026-11 15.00%',
    );
    expect(within(screen.getByTestId('publicdata-by-region')).getByText('阳泉市')).toBeTruthy();
    expect(params(asked.at(-1)!)).toMatchObject({ granularity: 'month' });

    await userEvent.click(within(screen.getByTestId('publicdata-granularity')).getByText('季度'));
    await waitFor(() => expect(params(asked.at(-1)!)).toMatchObject({ granularity: 'quarter' }));

    await userEvent.click(screen.getByTestId('publicdata-to-report'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/demoPublicPage/monitoringReport'));
  });

  it('shows the server’s refusal instead of numbers', async () => {
    setupShell({
      handlers: { [`GET ${BASE}/indicators`]: () => ({ status: 500, code: 500, message: '服务器错误' }) },
    });
    renderRoutes(routes, '/demoPublicPage/indicatorDet');
    expect(await screen.findByTestId('load-error', {}, SLOW)).toBeTruthy();
  });
});

const report: MonitoringReport = {
  period: '2026-Q1',
  label: '2026年第一季度',
  kind: 'quarter',
  previousPeriod: '2025-Q4',
  previousLabel: '2025年第四季度',
  region: null,
  start: '2026-01-01',
  end: '2026-03-31',
  current: metrics(),
  previous: metrics({ published: 2, discountRate: 0.05, retenderRate: 0.5 }),
  trend: [{ period: '2026-01', ...metrics() }],
  byRegion: [{ name: '阳泉市', ...metrics({ published: 3 }) }],
  byTradeType: [{ name: '工程建设', ...metrics() }],
  findings: ['本期重新招标率 25.00%（流标或终止 1 宗，办结 4 宗），较上期下降 25.00 个百分点。'],
  generatedAt: '2026-11-29 10:00',
};

describe('监测报告 /demoPublicPage/monitoringReport', () => {
  it('shows the report of the period in the address, prints it and downloads its PDF', async () => {
    const asked: TransportRequest[] = [];
    const pdfs: TransportRequest[] = [];
    setupShell({
      handlers: {
        [`GET ${BASE}/monitoring-report`]: (req) => {
          asked.push(req);
          return { data: report };
        },
        [`GET ${BASE}/monitoring-report/pdf`]: (req) => {
          pdfs.push(req);
          return { data: null };
        },
      },
    });
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: () => 'blob:x' });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    try {
      renderRoutes(routes, '/demoPublicPage/monitoringReport?period=2026-Q1');
      const title = await screen.findByTestId('publicdata-report-title', {}, SLOW);
      expect(title.textContent).toBe('公共资源交易市场监测报告（2026年第一季度）');
      expect(params(asked[0]!)).toMatchObject({ period: '2026-Q1' });
      const summary = screen.getByTestId('publicdata-report-summary');
      // 平均下浮率 12.50% against 5.00%: up 7.5 points; 重新招标率 25.00% against 50.00%: down 25 points
      expect(within(summary).getByText('上升 7.50 个百分点')).toBeTruthy();
      expect(within(summary).getByText('下降 25.00 个百分点')).toBeTruthy();
      expect(screen.getByTestId('publicdata-report-findings').textContent).toContain('较上期下降 25.00 个百分点');
      // the print copy sits in <body> for the print style sheet
      expect(document.querySelector('.ks-report-print')?.textContent).toContain('2026年第一季度');

      await userEvent.click(screen.getByTestId('publicdata-print'));
      expect(print).toHaveBeenCalledTimes(1);
      await userEvent.click(screen.getByTestId('publicdata-pdf'));
      await waitFor(() => expect(pdfs).toHaveLength(1));
      expect(params(pdfs[0]!)).toEqual({ period: '2026-Q1' });
      await waitFor(() => expect(click).toHaveBeenCalled());
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('市场监测报告-2026年第一季度.pdf');
    } finally {
      click.mockRestore();
      print.mockRestore();
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });
});

const person: PersonDetail = {
  id: uuid(5),
  name: '马春花',
  enterpriseName: '山西沁河建筑安装工程集团有限公司',
  practiceArea: '一级建造师',
  region: '临汾市',
  certNo: '晋114*******20',
  creditGrade: 'AAA',
  creditScore: 97.5,
  qualifications: [
    { name: '一级建造师', level: '建筑工程', certNo: '晋114*******20', validUntil: '2027-11-12', expired: false },
  ],
  performances: [
    {
      projectName: '忻州市污水处理厂提标改造工程',
      role: '项目经理',
      builder: null,
      amount: '88260000.00',
      completedAt: '2025-12-22',
    },
  ],
  creditRecords: [],
};

describe('从业人员 /demoPublicPage/perDetails', () => {
  it('lists people and opens one person’s public record', async () => {
    const asked: TransportRequest[] = [];
    setupShell({
      roleType: 'U',
      handlers: {
        [`GET ${BASE}/persons`]: () => ({
          data: {
            records: [
              {
                id: uuid(5),
                name: '马春花',
                enterpriseName: person.enterpriseName,
                practiceArea: '一级建造师',
                region: '临汾市',
                certNo: '晋114*******20',
                creditGrade: 'AAA',
              },
            ],
            total: 1,
            practiceAreas: ['一级建造师', '注册监理工程师'],
          },
        }),
        [`GET ${BASE}/person`]: (req) => {
          asked.push(req);
          return { data: person };
        },
      },
    });
    const { router } = renderRoutes(routes, '/demoPublicPage/perDetails');
    const link = await screen.findByTestId(`publicdata-person-${uuid(5)}`, {}, SLOW);
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${uuid(5)}`));
    const quals = await screen.findByTestId('publicdata-person-quals', {}, SLOW);
    expect(within(quals).getAllByText('晋114*******20').length).toBe(1);
    expect(within(screen.getByTestId('publicdata-person-perfs')).getByText('88,260,000.00')).toBeTruthy();
    expect(within(screen.getByTestId('publicdata-person-credit')).getByText('暂无数据')).toBeTruthy();
    expect(params(asked[0]!)).toEqual({ id: uuid(5) });
  });
});
