import { Empty } from 'antd';
import { useMemo } from 'react';
import { type ChartClick, EChart, type EChartsOption } from './EChart';

/**
 * The product's everyday chart: bars (grouped when there are several series), lines, or a pie of one series, over
 * named categories — drawn by ECharts (EChart.tsx). Its box says in words what it shows, the numbers included, for
 * screen readers.
 */

export type ChartType = 'bar' | 'line' | 'pie';

export interface ChartSeries {
  name: string;
  values: readonly number[];
  color?: string;
}

export const CHART_COLORS = ['#1362fc', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a', '#eb2f96', '#8c8c8c'];

/** Percent of a part, one decimal (0 when the whole is 0). */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%';
}

/** The chart's numbers in words: "series：category value，…" (a pie: each slice with its share). */
export function describeChart(type: ChartType, categories: readonly string[], series: readonly ChartSeries[]): string {
  if (type === 'pie') {
    const s = series[0];
    const total = (s?.values ?? []).reduce((a, b) => a + b, 0);
    return categories.map((c, i) => `${c} ${s?.values[i] ?? 0}（${percent(s?.values[i] ?? 0, total)}）`).join('，');
  }
  return series.map((s) => `${s.name}：${categories.map((c, i) => `${c} ${s.values[i] ?? 0}`).join('，')}`).join('；');
}

/** The ECharts option of a chart. */
export function chartOption(
  type: ChartType,
  categories: readonly string[],
  series: readonly ChartSeries[],
  opts: { showValues?: boolean; valueFormatter?: (v: number) => string } = {},
): EChartsOption {
  const color = series.map((s, i) => s.color ?? CHART_COLORS[i % CHART_COLORS.length]!);
  const fmt = opts.valueFormatter;
  const formatter = fmt ? (p: { value: unknown }) => fmt(Number(p.value)) : undefined;
  if (type === 'pie') {
    const s = series[0];
    return {
      color: CHART_COLORS,
      tooltip: fmt ? { trigger: 'item', valueFormatter: (v: unknown) => fmt(Number(v)) } : { trigger: 'item' },
      legend: { type: 'scroll', orient: 'vertical', right: 8, top: 'middle' },
      series: [
        {
          type: 'pie',
          name: s?.name ?? '',
          radius: ['0%', '68%'],
          center: ['38%', '50%'],
          label: { formatter: '{b}\n{d}%' },
          data: categories.map((c, i) => ({ name: c, value: s?.values[i] ?? 0 })),
        },
      ],
    };
  }
  return {
    color,
    tooltip: fmt ? { trigger: 'axis', valueFormatter: (v: unknown) => fmt(Number(v)) } : { trigger: 'axis' },
    legend: { show: series.length > 1, top: 0 },
    // the axis labels inside the box (ECharts 6's successor of containLabel)
    grid: {
      left: 8,
      right: 16,
      top: series.length > 1 ? 32 : 16,
      bottom: 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'axisLabel',
    },
    xAxis: {
      type: 'category',
      data: [...categories],
      axisLabel: { interval: 'auto', hideOverlap: true },
      boundaryGap: type === 'bar',
    },
    yAxis: fmt ? { type: 'value', axisLabel: { formatter: (v: number) => fmt(v) } } : { type: 'value' },
    series: series.map((s) => ({
      type,
      name: s.name,
      data: [...s.values],
      barMaxWidth: 36,
      smooth: false,
      label: opts.showValues ? { show: true, position: 'top', ...(formatter ? { formatter } : {}) } : { show: false },
    })),
  };
}

export function Chart({
  type,
  categories,
  series,
  label,
  height = 240,
  showValues = false,
  emptyText = '暂无数据',
  valueFormatter,
  testId,
  onClick,
}: {
  type: ChartType;
  categories: readonly string[];
  /** bar, line: one or more series over the categories; pie: the first series, one slice per category */
  series: readonly ChartSeries[];
  /** what the chart is, for screen readers (the numbers are added) */
  label: string;
  height?: number;
  /** numbers over bars and points */
  showValues?: boolean;
  emptyText?: string;
  valueFormatter?: (v: number) => string;
  testId?: string;
  /** a click on a bar, point or slice: its category's index (drill-down) */
  onClick?: (index: number, c: ChartClick) => void;
}) {
  const option = useMemo(
    () => chartOption(type, categories, series, { showValues, valueFormatter }),
    [type, categories, series, showValues, valueFormatter],
  );
  if (categories.length === 0 || series.every((s) => s.values.every((v) => !v))) {
    return (
      <div data-testid={testId} style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
      </div>
    );
  }
  return (
    <EChart
      option={option}
      height={height}
      label={`${label}：${describeChart(type, categories, series)}`}
      testId={testId}
      onClick={onClick && ((c) => onClick(c.dataIndex, c))}
    />
  );
}
