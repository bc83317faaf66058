import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { evalSectionsQuery } from '../../api/evaluation';
import { LoadFailure, PageFrame } from '../../components/admin';
import { EVAL_PAGES } from '../../lib/paths';
import { SECTION } from './parts';
import { RoomView } from './Room';
import { SectionsTable } from './SectionsTable';

/**
 * `/bidEvaluationSys/reviewProcess/:bianma` (issue 17): the section with that code among the caller's evaluation
 * sections, as the room's overview; several sections of that code (different projects) are listed to choose from.
 */
export default function ReviewProcessPage() {
  const { bianma = '' } = useParams();
  const sections = useQuery(evalSectionsQuery);
  const navigate = useNavigate();
  const frame = (children: React.ReactNode) => (
    <PageFrame section={{ ...SECTION, to: EVAL_PAGES.overview }} title={`评审过程 ${bianma}`} wide>
      {children}
    </PageFrame>
  );
  if (sections.error) return frame(<LoadFailure error={sections.error} what="评标项目" />);
  if (!sections.data) return frame(<Card loading />);
  const code = bianma.trim().toLowerCase();
  const found = sections.data.filter((s) => s.code.toLowerCase() === code);
  if (found.length === 0) {
    return frame(
      <Card>
        <Result
          status="404"
          title="未找到该标段"
          subTitle={`没有标段编号为「${bianma}」的评标项目，或您不能查看该标段的评标`}
          extra={
            <Button type="primary" onClick={() => navigate(EVAL_PAGES.overview)}>
              返回评审概览
            </Button>
          }
          data-testid="eval-code-missing"
        />
      </Card>,
    );
  }
  if (found.length > 1) {
    return frame(
      <Card size="small" title={`标段编号为「${bianma}」的评标项目`}>
        <SectionsTable sections={found} loading={false} emptyText="暂无评标项目" />
      </Card>,
    );
  }
  return frame(<RoomView key={found[0].id} sectionId={found[0].id} step="bidOverview" />);
}
