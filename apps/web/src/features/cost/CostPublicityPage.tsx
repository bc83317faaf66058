import { useQuery } from '@tanstack/react-query';
import { Card, Result, Spin } from 'antd';
import { Link } from 'react-router';
import { costPublicityQuery } from '../../api/cost';
import { isApiError } from '../../api/request';
import { LoadFailure, PageFrame } from '../../components/admin';
import { COST_INDEX_PATH } from '../../lib/paths';
import { useSearchParam } from '../../lib/searchParam';
import { PublicitySummary } from './CostPublicity';
import './cost.css';

function Publicity() {
  const [sectionId] = useSearchParam('sectionId');
  const q = useQuery(costPublicityQuery(sectionId));
  if (!sectionId) return <Result status="404" title="请从消息或文件分析进入公示页" />;
  if (q.isError) {
    const e = q.error;
    if (isApiError(e) && e.status === 404) {
      return (
        <Card>
          <Result status="info" title={e.message} data-testid="cost-publicity-none" />
        </Card>
      );
    }
    return <LoadFailure error={e} what="检测结果公示" reason={e.message} />;
  }
  if (!q.data) return <Spin />;
  return (
    <Card
      title="造价文件检测结果公示"
      extra={q.data.canManage ? <Link to={`${COST_INDEX_PATH}?sectionId=${sectionId}`}>返回文件分析</Link> : null}
    >
      <PublicitySummary p={q.data} />
    </Card>
  );
}

/**
 * 造价文件检测结果公示 `/fileAnalysis/publicity?sectionId=` (issue 18): the published summary of a section's detection
 * for its bidders (the message telling them links here), and the administrators' view of it.
 */
export default function CostPublicityPage() {
  return (
    <PageFrame section={{ title: '招标投标' }} title="检测结果公示" wide>
      <Publicity />
    </PageFrame>
  );
}
