import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { evalSectionsQuery } from '../../api/evaluation';
import { LoadFailure, PageFrame, RefreshButton } from '../../components/admin';
import { SECTION } from './parts';
import { SectionsTable } from './SectionsTable';

/**
 * 评审概览 `/bidEvaluationSys/overview` (the sidebar's node of property reviewOverview; also `/bid/reviewProcess`): the
 * sections whose evaluation the caller organises, sits on or watches, each opening its room.
 */
export default function EvalOverviewPage() {
  const sections = useQuery(evalSectionsQuery);
  return (
    <PageFrame section={SECTION} title="评审概览">
      {sections.error ? (
        <LoadFailure error={sections.error} what="评标项目" />
      ) : (
        <Card
          size="small"
          title="评标项目"
          extra={<RefreshButton onClick={() => void sections.refetch()} query={sections} />}
        >
          <SectionsTable sections={sections.data ?? []} loading={sections.isLoading} emptyText="暂无评标项目" />
        </Card>
      )}
    </PageFrame>
  );
}
