import { COST_DETECTION_STATUS_LABELS, type CostDirectoryRow, DEFAULT_PAGE_SIZE } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { COST_KEY, type CostFilters, costDirectoriesQuery } from '../../api/cost';
import {
  ActionLink,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { useLiveEvent } from '../../lib/live';
import { useSearchParam } from '../../lib/searchParam';
import { useCurrentUser } from '../../lib/sessionHooks';
import { CostSection } from './CostSection';
import { CostSettingsDialog } from './CostSettingsDialog';
import './cost.css';

const TITLE = '文件分析';

function Sections() {
  const [open, setOpen] = useSearchParam('sectionId');
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as CostFilters,
    query: costDirectoriesQuery,
    refreshKey: COST_KEY,
  });
  const qc = useQueryClient();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const admin = useCurrentUser().userInfo?.loginRoleType === 'M';
  useLiveEvent('cost', () => void qc.invalidateQueries({ queryKey: COST_KEY }));
  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;
  const columns: TableColumnsType<CostDirectoryRow> = [
    {
      title: '项目 / 标段',
      key: 'section',
      ellipsis: true,
      render: (_, r) => (
        <ActionLink onClick={() => setOpen(r.sectionId)} testId={`cost-open-${r.sectionId}`}>
          {r.projectName} {r.code} {r.name}
        </ActionLink>
      ),
    },
    { title: '开标时间', dataIndex: 'bidDeadline', width: 150, render: (v: string) => formatDateTime(v) },
    { title: '造价文件', dataIndex: 'files', width: 90, align: 'right' },
    {
      title: '检测',
      key: 'detection',
      width: 200,
      render: (_, r) =>
        r.detection ? (
          <span data-testid={`cost-state-${r.sectionId}`}>
            <Tag
              color={
                r.detection.status === 'done' ? 'success' : r.detection.status === 'failed' ? 'error' : 'processing'
              }
            >
              {COST_DETECTION_STATUS_LABELS[r.detection.status]}
            </Tag>
            {r.detection.finishedAt
              ? formatDateTime(r.detection.finishedAt)
              : `${r.detection.progress} / ${r.detection.total}`}
          </span>
        ) : (
          <Tag>未检测</Tag>
        ),
    },
    {
      title: '操作',
      key: 'ops',
      width: 110,
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setOpen(r.sectionId)} testId={`cost-detail-${r.sectionId}`}>
            检测详情
          </ActionLink>
        </RowActions>
      ),
    },
  ];
  const row = view.records.find((r) => r.sectionId === open);
  return (
    <ListCard
      title="投标造价文件检测"
      view={view}
      testId="cost-card"
      actions={
        <Button onClick={() => setSettingsOpen(true)} data-testid="cost-settings">
          检测参数
        </Button>
      }
    >
      <CostSettingsDialog open={settingsOpen} canEdit={admin} onClose={() => setSettingsOpen(false)} />
      <FilterBar>
        <KeywordFilter
          placeholder="标段编号或名称"
          onSearch={(keyWord) => view.setFilter({ keyWord })}
          testId="cost-keyword"
        />
      </FilterBar>
      <ServerTable<CostDirectoryRow, CostFilters>
        view={view}
        columns={columns}
        rowKey="sectionId"
        scrollX={1000}
        unit="个标段"
        testId="cost-table"
        emptyText="暂无有投标文件的标段"
      />
      <Drawer
        open={open.length > 0}
        onClose={() => setOpen(null)}
        width={1100}
        title={row ? `${row.projectName} ${row.code} ${row.name}` : '造价文件检测'}
        destroyOnHidden
      >
        {open ? <CostSection sectionId={open} /> : null}
      </Drawer>
    </ListCard>
  );
}

/**
 * 文件分析 `/fileAnalysis/index` (issue 18; the sidebar's node of property fileAnalysis): the sections with bids, each
 * with its bidders' cost files — uploaded here by the centre — and the detection over them: started with a
 * confirmation, followed with a progress bar (the page may be left and come back), its findings per bidder with their
 * evidence, and the similarity of every pair as a heat map.
 */
export default function CostIndexPage() {
  return (
    <PageFrame section={{ title: '招标投标' }} title={TITLE} wide>
      <Sections />
    </PageFrame>
  );
}
