import type { EvalSection } from '@ks/contracts';
import { Input, Progress, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { evalRoomHref } from '../../lib/paths';
import { ROLE_LABELS, StatusTag } from './parts';

/** 已公示 / 已定标 (or — before the publicity). */
function OutcomeTags({ section }: { section: EvalSection }) {
  if (!section.published && !section.awarded) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={4} data-testid={`eval-section-outcome-${section.id}`}>
      {section.published && <Tag color="processing">已公示</Tag>}
      {section.awarded && <Tag color="success">已定标</Tag>}
    </Space>
  );
}

/**
 * The evaluation sections (评审概览 and the experts' workbench): project, section, status, the caller's role, how many
 * members submitted, the first candidate, 已公示 / 已定标; paged in the browser (the list is the caller's own),
 * filtered by a keyword, each row leading into its room.
 */
export function SectionsTable({
  sections,
  loading,
  emptyText,
  step = 'bidOverview',
  testId = 'eval-sections',
}: {
  sections: EvalSection[];
  loading: boolean;
  emptyText: string;
  /** the room's step a row opens */
  step?: string;
  testId?: string;
}) {
  const [keyword, setKeyword] = useState('');
  const rows = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    if (!k) return sections;
    return sections.filter((s) => `${s.projectName} ${s.code} ${s.name}`.toLowerCase().includes(k));
  }, [sections, keyword]);
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      <Input.Search
        allowClear
        placeholder="项目名称、标段编号或名称"
        style={{ width: 320 }}
        onSearch={setKeyword}
        onChange={(e) => {
          if (!e.target.value) setKeyword('');
        }}
        data-testid={`${testId}-search`}
      />
      <Table<EvalSection>
        rowKey="id"
        size="small"
        bordered
        loading={loading}
        dataSource={rows}
        scroll={{ x: 1230 }}
        data-testid={testId}
        locale={{ emptyText }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 30, 50],
          showSizeChanger: true,
          showQuickJumper: true,
          hideOnSinglePage: false,
          showTotal: (n) => `共 ${n} 个标段`,
        }}
        onRow={(r) => ({ 'data-testid': `eval-section-row-${r.id}` }) as object}
        columns={[
          { title: '项目名称', dataIndex: 'projectName', ellipsis: true },
          { title: '标段编号', dataIndex: 'code', width: 140 },
          { title: '标段名称', dataIndex: 'name', width: 180, ellipsis: true },
          {
            title: '评标状态',
            dataIndex: 'status',
            width: 160,
            render: (_, r) => <StatusTag status={r.status} testId={`eval-section-status-${r.id}`} />,
          },
          { title: '我的角色', dataIndex: 'role', width: 80, render: (_, r) => ROLE_LABELS[r.role] },
          {
            title: '提交进度',
            key: 'progress',
            width: 150,
            render: (_, r) => (
              <Space size={6}>
                <Progress
                  type="line"
                  size="small"
                  showInfo={false}
                  style={{ width: 60, margin: 0 }}
                  percent={r.members ? Math.round((r.submitted / r.members) * 100) : 0}
                />
                <span data-testid={`eval-section-progress-${r.id}`}>
                  {r.submitted}/{r.members}
                </span>
              </Space>
            ),
          },
          {
            title: '第一中标候选人',
            dataIndex: 'winner',
            width: 200,
            ellipsis: true,
            render: (v: string | null) => v ?? <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: '公示与定标',
            key: 'outcome',
            width: 130,
            render: (_, r) => <OutcomeTags section={r} />,
          },
          {
            title: '操作',
            key: 'ops',
            width: 100,
            fixed: 'right',
            render: (_, r) => (
              <Link to={evalRoomHref(r.id, step)} data-testid={`eval-enter-${r.id}`}>
                进入评标室
              </Link>
            ),
          },
        ]}
      />
    </Space>
  );
}
