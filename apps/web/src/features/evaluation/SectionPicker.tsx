import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Select, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { evalSectionsQuery } from '../../api/evaluation';
import { LoadFailure } from '../../components/admin';
import { EVAL_PAGES } from '../../lib/paths';

/** Without a section (no ?sectionId= and none stored in the session): choose one of those the caller may enter. */
export function SectionPicker({ hrefOf }: { hrefOf: (sectionId: string) => string }) {
  const navigate = useNavigate();
  const sections = useQuery(evalSectionsQuery);
  if (sections.error) return <LoadFailure error={sections.error} what="评标项目" />;
  return (
    <Card size="small" title="选择评标项目">
      {sections.data && sections.data.length === 0 ? (
        <Empty description="暂无评标项目" data-testid="eval-none" />
      ) : (
        <Space wrap>
          <Select
            showSearch
            loading={sections.isLoading}
            placeholder="选择要进入的标段"
            style={{ width: 520 }}
            optionFilterProp="label"
            options={(sections.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.code} ${s.name}（${s.projectName}）`,
            }))}
            onChange={(id: string) => navigate(hrefOf(id))}
            data-testid="eval-section-select"
          />
          <Link to={EVAL_PAGES.overview}>全部评标项目</Link>
        </Space>
      )}
    </Card>
  );
}
