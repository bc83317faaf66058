import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { evalSectionsQuery } from '../../api/evaluation';
import { LoadFailure, PageFrame, RefreshButton } from '../../components/admin';
import { SectionsTable } from './SectionsTable';

/**
 * 专家工作台 (issue 17): `/bidZj/KbZj` 待评项目 — the sections the caller sits on whose evaluation has not ended — and
 * `/bidZj/YsZj` 已评项目 — those that have.
 */
export default function ExpertWorkbenchPage({ done }: { done: boolean }) {
  const sections = useQuery(evalSectionsQuery);
  const title = done ? '已评项目' : '待评项目';
  const mine = (sections.data ?? []).filter((s) => s.role === 'member' && (s.status === 'done') === done);
  return (
    <PageFrame section={{ title: '专家工作台' }} title={title}>
      {sections.error ? (
        <LoadFailure error={sections.error} what={title} />
      ) : (
        <Card
          size="small"
          title={title}
          extra={<RefreshButton onClick={() => void sections.refetch()} query={sections} />}
        >
          <SectionsTable
            sections={mine}
            loading={sections.isLoading}
            emptyText={done ? '暂无已评项目' : '暂无待评项目'}
            step={done ? 'bidResult' : 'bidOverview'}
            testId={done ? 'eval-expert-done' : 'eval-expert-pending'}
          />
        </Card>
      )}
    </PageFrame>
  );
}
