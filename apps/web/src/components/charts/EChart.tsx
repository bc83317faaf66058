import { BarChart, HeatmapChart, LineChart, PieChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { type CSSProperties, useEffect, useRef } from 'react';

/**
 * Every chart of the product is drawn by Apache ECharts through this host. Only the pieces the product uses are
 * registered (`echarts/core` with bar, line, pie and heat map, their components and the SVG renderer), and only pages
 * that draw charts import this module — each page is its own chunk, so ECharts is loaded with the first chart page.
 * The SVG renderer keeps text crisp, prints well (the monitoring report is printed) and draws in jsdom for the tests.
 */
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  TitleComponent,
  DataZoomComponent,
  VisualMapComponent,
  SVGRenderer,
]);

export type EChartsOption = echarts.EChartsCoreOption;

/** What a click on a mark tells: its series, the category (or name) and index of the data item. */
export interface ChartClick {
  seriesName?: string;
  name: string;
  dataIndex: number;
  value: unknown;
}

/** The width a chart is drawn at before its box has one (jsdom, a hidden tab); it follows its box once it has one. */
const FALLBACK_WIDTH = 600;

export function EChart({
  option,
  height = 300,
  label,
  testId,
  onClick,
  style,
}: {
  option: EChartsOption;
  height?: number;
  /** what the chart shows, in words, for screen readers (and for the tests) */
  label: string;
  testId?: string;
  /** a click on a bar, point, slice or cell (drill-down) */
  onClick?: (c: ChartClick) => void;
  style?: CSSProperties;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const click = useRef(onClick);
  click.current = onClick;
  const size = useRef(height);
  size.current = height;

  // one ECharts instance for the life of the box: created on mount, disposed on unmount
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = echarts.init(el, null, {
      renderer: 'svg',
      width: el.clientWidth > 0 ? undefined : FALLBACK_WIDTH,
      height: size.current,
      locale: 'ZH',
    });
    chart.current = c;
    c.on('click', (p) => {
      const e = p as unknown as ChartClick;
      click.current?.({ seriesName: e.seriesName, name: e.name, dataIndex: e.dataIndex, value: e.value });
    });
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => {
        if (el.clientWidth > 0) c.resize({ width: 'auto', height: size.current });
      });
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.resize({ width: box.current && box.current.clientWidth > 0 ? 'auto' : FALLBACK_WIDTH, height });
  }, [height]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ width: '100%', height, cursor: onClick ? 'pointer' : undefined, ...style }}
    />
  );
}
