import type { ExtractionSummary, TenderProject, TenderSection } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { EXPERTS_KEY, extractionListQuery } from '../../api/experts';
import { ActionLink, LoadFailure } from '../../components/admin';
import { useCurrentUser } from '../../lib/sessionHooks';
import { CreateExtractionDialog, ExtractionDrawer, STATUS_COLORS } from '../experts';
import { SectionSwitch } from './SectionSwitch';

/**
 * 专家抽取: the evaluation committees drawn for the project's sections. The trading centre starts an extraction from a
 * section — its names, number and opening time filled in, its tenderee, agency and registered bidders avoided by the
 * server — and carries it through in the same drawer as the extraction list (commit, draw, answers, publish).
 */
export function ExpertTab({ project }: { project: TenderProject }) {
  if (project.sections.length === 0) return <Empty description="请先在「项目信息」中划分标段，再为标段抽取评标专家" />;
  return (
    <SectionSwitch sections={project.sections} testId="expert-section">
      {(section) => <SectionExtractions key={section.id} project={project} section={section} />}
    </SectionSwitch>
  );
}

function SectionExtractions({ project, section }: { project: TenderProject; section: TenderSection }) {
  const admin = useCurrentUser().userInfo?.loginRoleType === 'M';
  const qc = useQueryClient();
  const ref = `${String(project.values.xmbh ?? '')} ${section.code}`.trim();
  const list = useQuery(extractionListQuery({ keyword: ref, pageNum: 1, pageSize: 50 }));
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  if (list.isError) return <LoadFailure error={list.error as Error} what="查看专家抽取" />;
  const rows = (list.data?.records ?? []).filter((r) => r.projectRef === ref);
  const columns: TableColumnsType<ExtractionSummary> = [
    {
      title: '抽取编号',
      dataIndex: 'code',
      width: 160,
      render: (code: string, r) => (
        <ActionLink onClick={() => setOpen(r.id)} testId="expert-tab-open">
          {code}
        </ActionLink>
      ),
    },
    { title: '开标时间', dataIndex: 'openingAt', width: 150 },
    { title: '评标开始', dataIndex: 'evaluationStartAt', width: 150 },
    { title: '委员会', key: 'size', width: 130, render: (_v, r) => `${r.committeeSize} 人（专家 ${r.expertCount}）` },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (s: string, r) => <Tag color={STATUS_COLORS[s]}>{r.statusLabel}</Tag>,
    },
  ];
  return (
    <Card
      size="small"
      title={`评标专家抽取（${rows.length}）`}
      extra={
        admin ? (
          <Button type="primary" size="small" onClick={() => setCreating(true)} data-testid="expert-tab-create">
            发起抽取
          </Button>
        ) : null
      }
    >
      {admin ? null : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="评标专家由交易中心抽取；评标开始前名单保密。"
        />
      )}
      <Table<ExtractionSummary>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        data-testid="expert-tab-table"
        locale={{ emptyText: '本标段尚未抽取评标专家' }}
      />
      {admin ? (
        <CreateExtractionDialog
          open={creating}
          preset={{
            sectionId: section.id,
            projectName: String(project.values.xmmc ?? ''),
            sectionName: `${section.code} ${section.name}`,
            projectRef: ref,
            openingAt: section.bidDeadline,
          }}
          onClose={() => setCreating(false)}
          onSaved={(d) => {
            setCreating(false);
            void qc.invalidateQueries({ queryKey: EXPERTS_KEY });
            setOpen(d.id);
          }}
        />
      ) : null}
      <ExtractionDrawer id={open} onClose={() => setOpen(null)} onChanged={() => void list.refetch()} />
    </Card>
  );
}
