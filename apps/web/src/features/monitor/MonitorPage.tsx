import { DownloadOutlined } from '@ant-design/icons';
import {
  DEFAULT_PAGE_SIZE,
  EVAL_STATUS_LABELS,
  MONITOR_STAGE_LABELS,
  MONITOR_STAGES,
  type MonitorRow,
  type MonitorStage,
  OPENING_STATUS_LABELS,
} from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Checkbox, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { downloadMonitor, MONITOR_KEY, type MonitorFilters, monitorListQuery } from '../../api/monitor';
import { reportApiError } from '../../api/request';
import {
  ActionLink,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { useLiveEvent } from '../../lib/live';
import { evalRoomHref, openingHallHref } from '../../lib/paths';
import { useSearchParam } from '../../lib/searchParam';
import { MonitorDrawer } from './MonitorDrawer';

const TITLE = '监督台';

export const STAGE_COLORS: Record<MonitorStage, string> = {
  opening: 'blue',
  evaluating: 'orange',
  publicity: 'gold',
  awarded: 'success',
};

/** Where the section stands within its stage: the opening's state, or the evaluation's. */
export const progressOf = (r: MonitorRow) =>
  r.stage === 'opening' ? OPENING_STATUS_LABELS[r.openingStatus] : EVAL_STATUS_LABELS[r.evaluationStatus];

function Console() {
  const [open, setOpen] = useSearchParam('sectionId');
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as MonitorFilters,
    query: monitorListQuery,
    refreshKey: MONITOR_KEY,
  });
  const { filters, setFilter } = view;
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  // every step of an opening, an evaluation or the supervision itself: the console re-reads
  const reread = () => void qc.invalidateQueries({ queryKey: MONITOR_KEY });
  useLiveEvent('monitor', reread);
  useLiveEvent('evaluation', reread);
  useLiveEvent('opening', reread);
  useLiveEvent('resync', reread);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<MonitorRow> = [
    {
      title: '项目 / 标段',
      key: 'section',
      width: 340,
      ellipsis: true,
      render: (_, r) => (
        <ActionLink onClick={() => setOpen(r.sectionId)} testId={`monitor-open-${r.sectionId}`}>
          {r.projectName} {r.code} {r.name}
        </ActionLink>
      ),
    },
    { title: '项目编号', dataIndex: 'projectNo', width: 150 },
    { title: '开标时间', dataIndex: 'bidDeadline', width: 140, render: (v: string) => formatDateTime(v) },
    {
      title: '阶段',
      key: 'stage',
      width: 170,
      render: (_, r) => (
        <span data-testid={`monitor-stage-${r.sectionId}`}>
          <Tag color={STAGE_COLORS[r.stage]}>{MONITOR_STAGE_LABELS[r.stage]}</Tag>
          {progressOf(r)}
        </span>
      ),
    },
    { title: '投标文件', dataIndex: 'bids', width: 80, align: 'right' },
    {
      title: '异常',
      key: 'anomalies',
      width: 110,
      render: (_, r) =>
        r.anomalies === 0 ? (
          <span style={{ color: 'rgba(0,0,0,0.45)' }}>无</span>
        ) : (
          <Tooltip title={`共 ${r.anomalies} 项异常，${r.pendingAnomalies} 项待核查`}>
            <span data-testid={`monitor-anomalies-${r.sectionId}`}>
              <Badge status={r.pendingAnomalies ? 'error' : 'success'} />
              {r.pendingAnomalies ? `待核查 ${r.pendingAnomalies}` : '已核查'} / {r.anomalies}
            </span>
          </Tooltip>
        ),
    },
    {
      title: '监督人员',
      key: 'supervisor',
      width: 100,
      render: (_, r) =>
        r.supervisor ? (
          <span data-testid={`monitor-supervisor-${r.sectionId}`}>{r.supervisor.userName}</span>
        ) : (
          <Tag data-testid={`monitor-supervisor-${r.sectionId}`}>未指派</Tag>
        ),
    },
    {
      title: '最近动态',
      dataIndex: 'lastEventAt',
      width: 140,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: '操作',
      key: 'ops',
      width: 230,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setOpen(r.sectionId)} testId={`monitor-detail-${r.sectionId}`}>
            监督详情
          </ActionLink>
          <Link to={openingHallHref(r.sectionId)} style={{ padding: '0 7px' }}>
            开标大厅
          </Link>
          {r.evaluationStatus !== 'none' ? (
            <Link to={evalRoomHref(r.sectionId)} style={{ padding: '0 7px' }}>
              评标室
            </Link>
          ) : null}
        </RowActions>
      ),
    },
  ];

  const { pageNum: _p, pageSize: _s, ...exportFilters } = filters;
  return (
    <ListCard
      title="监督的标段"
      view={view}
      testId="monitor-card"
      actions={
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          data-testid="monitor-export"
          onClick={() => {
            setExporting(true);
            downloadMonitor(exportFilters)
              .then(() => void message.success('已导出'))
              .catch(reportApiError)
              .finally(() => setExporting(false));
          }}
        >
          导出
        </Button>
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="项目名称、项目编号或标段"
          onSearch={(keyWord) => setFilter({ keyWord })}
          testId="monitor-keyword"
        />
        <SelectFilter<MonitorStage>
          placeholder="全部阶段"
          value={filters.stage}
          onChange={(stage) => setFilter({ stage })}
          options={MONITOR_STAGES.map((s) => ({ value: s, label: MONITOR_STAGE_LABELS[s] }))}
          testId="monitor-stage"
        />
        <Checkbox
          checked={Boolean(filters.mine)}
          onChange={(e) => setFilter({ mine: e.target.checked || undefined })}
          data-testid="monitor-mine"
        >
          只看我负责的
        </Checkbox>
        <Checkbox
          checked={Boolean(filters.pending)}
          onChange={(e) => setFilter({ pending: e.target.checked || undefined })}
          data-testid="monitor-pending"
        >
          只看有待核查异常的
        </Checkbox>
      </FilterBar>
      <ServerTable<MonitorRow, MonitorFilters>
        view={view}
        columns={columns}
        rowKey="sectionId"
        scrollX={1460}
        unit="个标段"
        testId="monitor-table"
        emptyText="暂无需要监督的标段"
      />
      <MonitorDrawer sectionId={open} onClose={() => setOpen(null)} />
    </ListCard>
  );
}

/**
 * 监督台 `/bid/monitor` (issue 17; the sidebar's node of property monitor): the supervision office follows every section
 * from the week before its opening to its award — stage, anomalies pending audit, the supervisor in charge — and opens
 * one to audit its anomalies, record findings and assign or revoke its supervisor. Live: every step of an opening,
 * an evaluation or a supervision re-reads the list.
 */
export default function MonitorPage() {
  return (
    <PageFrame section={{ title: '开评标' }} title={TITLE}>
      <Console />
    </PageFrame>
  );
}
