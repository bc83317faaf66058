import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { chartDataQuery } from '../../api/config';

/** The grid of charts draws with ECharts: loaded only for a node that has charts. */
const NodeChartsGrid = lazy(() => import('./NodeChartsGrid'));

/**
 * The charts configured for a node in 图表设置 (/system/echartsSetting), above its list: the node's real numbers over
 * the records the caller may see. A node without charts shows nothing (and loads no chart code).
 */
export function NodeCharts({ gnCoding }: { gnCoding: string }) {
  const q = useQuery(chartDataQuery(gnCoding));
  if (!q.data?.length) return null;
  return (
    <Suspense fallback={<div style={{ height: 290 }} />}>
      <NodeChartsGrid charts={q.data} />
    </Suspense>
  );
}
