import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';
import { monthLabel, rangeText } from './AnalysisPage';
import { bodyJson, LEVELS, resetAll } from './testkit';

afterEach(() => resetAll());

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };

const months = Array.from({ length: 12 }, (_, i) => {
  const total = 2025 * 12 + 11 + i;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
});

function overview(kind: string) {
  const counts = kind === 'enterprise' ? [6, 13, 9, 6, 3] : [2, 5, 8, 6, 3];
  const graded = counts.reduce((a, b) => a + b, 0);
  return {
    subjectKind: kind,
    subjects: kind === 'enterprise' ? 40 : 24,
    graded,
    averageScore: kind === 'enterprise' ? 77.8 : 74.25,
    distribution: LEVELS.map((l, i) => ({ title: l.title, count: counts[i]!, ratio: counts[i]! / graded })),
    trend: months.map((month, i) => ({ month, good: i % 4, bad: i === 11 ? 7 : 1 })),
  };
}

const handlers = {
  'POST /ks/credit/grade-overview': (req: Parameters<typeof bodyJson>[0]) => ({
    data: overview(bodyJson(req).subjectKind ?? 'enterprise'),
  }),
  'POST /ks/credit/management/top-titles': () => ({
    data: {
      levels: LEVELS.map((l) => ({ ...l, enterprises: 1, persons: 1 })),
      totals: [
        { key: 'waiting', title: '待审核记录', value: 4 },
        { key: 'good', title: '有效良好行为记录', value: 89 },
        { key: 'bad', title: '有效不良行为记录', value: 60 },
      ],
    },
  }),
};

describe('/credit/analysis', () => {
  it('draws the grade distribution (bars, pie) and the 12-month trend from grade-overview, per subject kind', async () => {
    const { server } = setupShell({ roleType: 'M', systemCoding: 'XYGL', handlers });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/credit/analysis?gnCoding=XY_SCORE&systemCoding=XYGL');
    const bar = await screen.findByTestId('analysis-distribution-bar', {}, SLOW);
    expect(bar.getAttribute('aria-label')).toBe('企业信用等级分布柱状图：企业：AAA 6，AA 13，A 9，B 6，C 3');
    expect(bar.querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('analysis-distribution-pie').getAttribute('aria-label')).toContain('AAA 6（16.2%）');
    const trend = screen.getByTestId('analysis-trend');
    expect(trend.getAttribute('aria-label')).toContain('良好行为：');
    expect(trend.getAttribute('aria-label')).toContain('不良行为：12月 1');
    expect(trend.getAttribute('aria-label')).toContain('11月 7');
    const stats = screen.getByTestId('analysis-stats');
    expect(stats.textContent).toContain('企业总数40');
    expect(stats.textContent).toContain('已评定企业37');
    expect(stats.textContent).toContain('77.80');
    expect(stats.textContent).toContain('待审核记录4');
    const table = screen.getByTestId('analysis-levels');
    const first = within(table).getAllByRole('row')[1]!;
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['AAA', '≥ 90', '6', '16.2%']);
    expect(screen.getByText(/2025-12 至 2026-11/)).toBeTruthy();

    await user.click(screen.getByText('从业人员'));
    await waitFor(() =>
      expect(screen.getByTestId('analysis-distribution-bar').getAttribute('aria-label')).toContain('从业人员：AAA 2'),
    );
    expect(router.state.location.search).toContain('kind=person');
    expect(bodyJson(server.callsTo('/ks/credit/grade-overview').at(-1)!)).toEqual({ subjectKind: 'person' });
    // the side menu still marks the node: the systemCoding and gnCoding stay in the URL
    expect(router.state.location.search).toContain('gnCoding=XY_SCORE');
  });

  it('a user the server refuses sees the 403 card, not an error dialog', async () => {
    setupShell({
      roleType: 'U',
      systemCoding: 'XYGL',
      handlers: {
        'POST /ks/credit/grade-overview': () => ({ status: 403, code: 403, message: '无权访问' }),
        'POST /ks/credit/management/top-titles': () => ({ status: 403, code: 403, message: '无权访问' }),
      },
    });
    renderRoutes(routes, '/credit/analysis?gnCoding=XY_SCORE&systemCoding=XYGL');
    expect((await screen.findByTestId('forbidden', {}, SLOW)).textContent).toContain(
      '只有管理员、审核人员和开发者可以查看信用分析',
    );
    expect(screen.queryByTestId('prompt-dialog')).toBeNull();
  });

  it('labels ranges and months', () => {
    expect(rangeText(90, null)).toBe('≥ 90');
    expect(rangeText(60, 70)).toBe('60 ≤ 分数 < 70');
    expect(monthLabel('2026-01')).toBe('1月');
    expect(monthLabel('2025-12')).toBe('12月');
  });
});
