import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton, Steps } from 'antd';
import { tradeOverviewQuery } from '../../api/evaluation';
import { formatDateTime } from '../../lib/format';

/**
 * 标段交易进度: the section's stages — notice, bids, opening, evaluation, publicity, award — each with its state, time
 * and a line on it (/ks/trade/overview-status).
 */
export function TradeProgress({ sectionId }: { sectionId: string }) {
  const q = useQuery(tradeOverviewQuery(sectionId));
  if (q.error) return <Alert type="warning" showIcon title="交易进度暂时无法读取" />;
  if (!q.data) return <Skeleton active paragraph={{ rows: 1 }} />;
  const current = q.data.stages.findIndex((s) => s.key === q.data.current);
  return (
    <Steps
      size="small"
      titlePlacement="vertical"
      current={current}
      data-testid="trade-progress"
      items={q.data.stages.map((s) => ({
        title: s.title,
        status: s.status,
        content: (
          <span data-testid={`trade-stage-${s.key}`} style={{ fontSize: 12 }}>
            {s.detail}
            {s.at ? <div style={{ color: 'rgba(0,0,0,0.45)' }}>{formatDateTime(s.at)}</div> : null}
          </span>
        ),
      }))}
    />
  );
}
