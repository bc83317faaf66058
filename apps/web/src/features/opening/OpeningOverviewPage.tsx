import type { OpeningSection } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Table } from 'antd';
import { Link } from 'react-router';
import { openingSectionsQuery } from '../../api/opening';
import { LoadFailure, PageFrame, RefreshButton } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { openingHallHref } from '../../lib/paths';
import { ROLE_LABELS, SECTION, StatusTag, TITLE } from './parts';

/**
 * 开标大厅 `/bid/overview` (issue 17; the sidebar's node of property bidTab): the sections whose opening the caller may
 * attend — as host (the project's tenderer or agency, administrators all), as bidder (a sealed bid of their enterprise)
 * or to watch — each with 进入开标大厅.
 */
export default function OpeningOverviewPage() {
  const sections = useQuery(openingSectionsQuery);
  return (
    <PageFrame section={SECTION} title={TITLE}>
      {sections.error ? (
        <LoadFailure error={sections.error} what="开标项目" />
      ) : (
        <Card
          size="small"
          title="可进入的开标项目"
          extra={<RefreshButton onClick={() => void sections.refetch()} query={sections} />}
        >
          <Table<OpeningSection>
            rowKey="id"
            size="small"
            pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (n) => `共 ${n} 个标段` }}
            loading={sections.isLoading}
            dataSource={sections.data ?? []}
            data-testid="opening-sections"
            locale={{ emptyText: '暂无可进入的开标项目' }}
            columns={[
              { title: '标段编号', dataIndex: 'code', width: 150 },
              { title: '标段名称', dataIndex: 'name', width: 200, ellipsis: true },
              { title: '项目名称', dataIndex: 'projectName', ellipsis: true },
              {
                title: '开标时间',
                dataIndex: 'bidDeadline',
                width: 150,
                render: (v: string) => formatDateTime(v),
              },
              {
                title: '状态',
                dataIndex: 'status',
                width: 150,
                render: (_, r) => <StatusTag status={r.status} testId={`opening-section-status-${r.id}`} />,
              },
              { title: '我的身份', dataIndex: 'role', width: 90, render: (_, r) => ROLE_LABELS[r.role] },
              {
                title: '操作',
                key: 'ops',
                width: 110,
                render: (_, r) => (
                  <Link to={openingHallHref(r.id)} data-testid={`opening-enter-${r.id}`}>
                    进入开标大厅
                  </Link>
                ),
              },
            ]}
          />
        </Card>
      )}
    </PageFrame>
  );
}
