import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { niceTicks, percent, SvgChart } from './SvgChart';

const levels = ['AAA', 'AA', 'A', 'B', 'C'];

describe('SvgChart', () => {
  it('draws one bar per value, as tall as its share of the axis top, and says the numbers to screen readers', () => {
    render(
      <SvgChart type="bar" categories={levels} series={[{ name: '企业', values: [4, 8, 0, 2, 1] }]} label="等级" />,
    );
    const svg = screen.getByRole('img');
    expect(svg.getAttribute('aria-label')).toBe('等级：企业：AAA 4，AA 8，A 0，B 2，C 1');
    const bars = Array.from(screen.getByTestId('chart-bar').querySelectorAll('rect'));
    expect(bars).toHaveLength(5);
    const h = bars.map((b) => Number(b.getAttribute('height')));
    // axis 0..8 (step 2): AA fills the plot, AAA half of it, A nothing
    expect(h[1]).toBeCloseTo(h[0]! * 2, 5);
    expect(h[2]).toBe(0);
    expect(screen.queryByTestId('chart-legend')).toBeNull();
  });

  it('groups bars of several series and names them in a legend', () => {
    render(
      <SvgChart
        type="bar"
        categories={['1月', '2月']}
        series={[
          { name: '良好行为', values: [3, 1] },
          { name: '不良行为', values: [0, 2] },
        ]}
        label="趋势"
      />,
    );
    expect(screen.getByTestId('chart-bar').querySelectorAll('rect')).toHaveLength(4);
    expect(screen.getByTestId('chart-legend').textContent).toBe('良好行为不良行为');
  });

  it('draws a line per series with a point per category', () => {
    render(
      <SvgChart
        type="line"
        categories={['2026-01', '2026-02', '2026-03']}
        series={[
          { name: '良好行为', values: [1, 5, 2] },
          { name: '不良行为', values: [0, 1, 0] },
        ]}
        label="趋势"
      />,
    );
    const lines = screen.getByTestId('chart-line').querySelectorAll('polyline');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.getAttribute('points')!.split(' ')).toHaveLength(3);
    expect(screen.getByTestId('chart-line').querySelectorAll('circle')).toHaveLength(6);
  });

  it('pie: a slice per non-zero value, a whole circle for a single one, the shares in the legend', () => {
    const { unmount } = render(
      <SvgChart type="pie" categories={levels} series={[{ name: '企业', values: [1, 3, 0, 0, 0] }]} label="分布" />,
    );
    const pie = screen.getByTestId('chart-pie');
    expect(pie.querySelectorAll('path')).toHaveLength(2);
    expect(pie.textContent).toContain('AA 3 75.0%');
    expect(screen.getByRole('img').getAttribute('aria-label')).toContain('AAA 1（25.0%）');
    unmount();
    render(
      <SvgChart type="pie" categories={levels} series={[{ name: '企业', values: [0, 5, 0, 0, 0] }]} label="分布" />,
    );
    expect(screen.getByTestId('chart-pie').querySelectorAll('path')).toHaveLength(0);
    expect(screen.getByTestId('chart-pie').querySelectorAll('circle')).toHaveLength(1);
  });

  it('pie of nothing says so instead of drawing slices', () => {
    render(
      <SvgChart type="pie" categories={levels} series={[{ name: '企业', values: [0, 0, 0, 0, 0] }]} label="分布" />,
    );
    expect(screen.getByTestId('chart-pie-empty')).toBeTruthy();
    expect(screen.getByTestId('chart-pie').textContent).toContain('暂无数据');
  });
});

describe('niceTicks and percent', () => {
  it('rounds the axis top up to a round step, whole numbers for counts', () => {
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(9)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(niceTicks(9, 4, true)).toEqual([0, 5, 10, 15, 20]);
    expect(niceTicks(3, 4, true)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0, 4, true)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(88.5)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('percent has one decimal and is 0% of nothing', () => {
    expect(percent(1, 3)).toBe('33.3%');
    expect(percent(0, 0)).toBe('0%');
  });
});
