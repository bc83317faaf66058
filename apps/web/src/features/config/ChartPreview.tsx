import type { Chart } from '@ks/contracts';
import { SvgChart } from '../../components/charts/SvgChart';
import { SAMPLE_LABEL } from './previews';

/** A small chart of a configured chart row, drawn from illustrative sample numbers (the node's data is not read). */

export const SAMPLE_VALUES = [12, 19, 8, 15, 10] as const;

export function sampleCategories(dimension: string): string[] {
  const base = dimension || '类别';
  return SAMPLE_VALUES.map((_, i) => `${base}${i + 1}`);
}

export function ChartPreview({ chart }: { chart: Partial<Chart> }) {
  const title = chart.title || '图表';
  return (
    <figure style={{ margin: 0 }} data-testid="chart-preview">
      <SvgChart
        type={chart.type ?? 'bar'}
        categories={sampleCategories(chart.dimension ?? '')}
        series={[{ name: title, values: SAMPLE_VALUES }]}
        label={`${title}预览（${SAMPLE_LABEL}）`}
      />
      <figcaption style={{ fontSize: 12, color: '#ad6800', marginTop: 4 }} data-testid="chart-sample-label">
        {SAMPLE_LABEL}：图中数字仅用于示意，不是节点的实际统计
      </figcaption>
    </figure>
  );
}
