import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Chart, chartOption, describeChart, percent } from './Chart';

describe('Chart (ECharts)', () => {
  it('draws bars as SVG with the numbers in words', () => {
    const { container } = render(
      <Chart type="bar" categories={['A', 'B']} series={[{ name: '数量', values: [3, 5] }]} label="分布" testId="c" />,
    );
    expect(screen.getByTestId('c').getAttribute('aria-label')).toBe('分布：数量：A 3，B 5');
    expect(container.querySelector('svg')).not.toBeNull();
    expect(container.querySelectorAll('path').length).toBeGreaterThan(1);
    // both axes are labelled: the categories and the value ticks
    const texts = [...container.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['A', 'B', '0', '5']));
  });

  it('says the pie shares and shows the empty text when nothing is counted', () => {
    expect(describeChart('pie', ['甲', '乙'], [{ name: 's', values: [1, 3] }])).toBe('甲 1（25.0%），乙 3（75.0%）');
    expect(percent(1, 0)).toBe('0%');
    render(<Chart type="pie" categories={['甲']} series={[{ name: 's', values: [0] }]} label="空" emptyText="无" />);
    expect(screen.getByText('无')).toBeTruthy();
  });

  it('builds one series per line, values over the marks when asked, and the pie from the first series', () => {
    const o = chartOption(
      'line',
      ['1月', '2月'],
      [
        { name: 'a', values: [1, 2] },
        { name: 'b', values: [3, 4] },
      ],
      { showValues: true },
    ) as { series: { type: string; data: number[]; label?: { show: boolean } }[] };
    expect(o.series.map((s) => [s.type, s.data, s.label?.show])).toEqual([
      ['line', [1, 2], true],
      ['line', [3, 4], true],
    ]);
    const pie = chartOption('pie', ['x', 'y'], [{ name: 'p', values: [5, 6] }]) as {
      series: { data: { name: string; value: number }[] }[];
    };
    expect(pie.series[0]!.data).toEqual([
      { name: 'x', value: 5 },
      { name: 'y', value: 6 },
    ]);
  });
});
