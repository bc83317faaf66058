import { type Chart as ChartConfig, CODE_PATTERN } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { chartPreviewQuery } from '../../api/config';
import { Chart } from '../../components/charts/Chart';

/**
 * The preview of a chart row of 图表设置: the node's real numbers (the records the signed-in developer may see), drawn
 * by the same renderer as the pages that show the chart. It follows the row as it is edited, a moment after typing
 * stops.
 */

const DEBOUNCE_MS = 400;

/** The chart a row asks for, or null while it lacks a dimension (or a measure field to sum, average …). */
export function previewable(row: Partial<ChartConfig>): ChartConfig | null {
  const dimension = (row.dimension ?? '').trim();
  const measure = row.measure ?? 'count';
  const measureField = measure === 'count' ? null : (row.measureField ?? '').trim() || null;
  if (!CODE_PATTERN.test(dimension)) return null;
  if (measure !== 'count' && !(measureField && CODE_PATTERN.test(measureField))) return null;
  return { title: (row.title ?? '').trim() || '图表', type: row.type ?? 'bar', dimension, measure, measureField };
}

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the value's content
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [key, ms]);
  return settled;
}

export function ChartPreview({ gnCoding, chart }: { gnCoding: string; chart: Partial<ChartConfig> }) {
  const asked = useSettled(previewable(chart), DEBOUNCE_MS);
  const data = useQuery({ ...chartPreviewQuery(gnCoding, asked!), enabled: asked !== null });
  const title = (chart.title ?? '').trim() || '图表';
  let body: React.ReactNode;
  if (!asked) {
    body = (
      <Typography.Text type="secondary">
        选择维度字段（求和、平均等还需度量字段）后，这里显示该节点的实际数据
      </Typography.Text>
    );
  } else if (data.isPending) {
    body = <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  } else if (data.isError) {
    body = <Alert type="error" showIcon title="预览数据读取失败" description={data.error.message} />;
  } else {
    const d = data.data[0]!;
    body = d.problem ? (
      <Alert type="warning" showIcon title={d.problem} data-testid="chart-problem" />
    ) : (
      <>
        <Chart
          type={asked.type}
          categories={d.categories}
          series={[{ name: title, values: d.values }]}
          label={`${title}预览`}
          height={200}
          emptyText="该节点还没有记录"
          testId={`chart-${asked.type}`}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="chart-records">
          来自该节点的 {d.records} 条记录（你可查看的范围）
        </Typography.Text>
      </>
    );
  }
  return (
    <figure style={{ margin: 0 }} data-testid="chart-preview">
      {body}
    </figure>
  );
}
