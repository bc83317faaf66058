import { SettingOutlined } from '@ant-design/icons';
import type { Progress, ProgressRow } from '@ks/contracts';
import { STATS_OVERDUE_MAX_HOURS, STATS_OVERDUE_MIN_HOURS } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Col,
  InputNumber,
  Modal,
  Row,
  Segmented,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import { useState } from 'react';
import { reportApiError } from '../../api/request';
import { progressListQuery, progressQuery, STATS_KEY, saveStatsSettings } from '../../api/stats';
import { ActionLink, LoadFailure, PageFrame } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { useCurrentUser } from '../../lib/sessionHooks';
import { Figures, type Period, PeriodBar, SECTION, StatsNav, usePeriodParam } from './common';

const TITLE = '办理进度';
type LevelRow = Progress['levels'][number];

function SettingsDialog({ open, hours, onClose }: { open: boolean; hours: number; onClose: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [value, setValue] = useState<number | null>(hours);
  const [saving, setSaving] = useState(false);
  const valid =
    value != null && Number.isInteger(value) && value >= STATS_OVERDUE_MIN_HOURS && value <= STATS_OVERDUE_MAX_HOURS;
  return (
    <Modal
      title="超期时限"
      open={open}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ disabled: !valid, loading: saving, 'data-testid': 'stats-settings-save' } as ButtonProps}
      onOk={() => {
        if (!valid) return;
        setSaving(true);
        saveStatsSettings({ overdueHours: value })
          .then(() => {
            void message.success('保存成功');
            void qc.invalidateQueries({ queryKey: STATS_KEY });
            onClose();
          })
          .catch(reportApiError)
          .finally(() => setSaving(false));
      }}
      destroyOnHidden
    >
      <p>申请在一个审核级别等待超过该时长即计为超期。</p>
      <InputNumber
        min={STATS_OVERDUE_MIN_HOURS}
        max={STATS_OVERDUE_MAX_HOURS}
        precision={0}
        value={value}
        onChange={setValue}
        addonAfter="小时"
        data-testid="stats-settings-hours"
      />
    </Modal>
  );
}

/**
 * 办理进度 `/custom/viewProgress` (issue 19): the applications in review — at which level each one waits, since when,
 * and whether it is overdue (the limit is an administrator's setting, 72 hours unless changed) — and the time each
 * level took for the decisions of the period.
 */
export default function ViewProgressPage() {
  const { isAdmin } = useCurrentUser();
  const initial = usePeriodParam();
  const [period, setPeriod] = useState<Period>(initial);
  const [filter, setFilter] = useState<{ gnCoding?: string; level?: number; overdue?: '1' | '0'; title: string }>({
    title: '全部',
  });
  const [page, setPage] = useState({ curPage: 1, pageSize: 10 });
  const [settings, setSettings] = useState(false);
  const stats = useQuery(progressQuery(period));
  const list = useQuery(
    progressListQuery({ ...period, gnCoding: filter.gnCoding, level: filter.level, overdue: filter.overdue, ...page }),
  );
  const d = stats.data;
  const levels = d?.levels ?? [];
  const pick = (f: typeof filter) => {
    setFilter(f);
    setPage({ ...page, curPage: 1 });
  };
  const levelName = (r: LevelRow) => `${r.nodeName} · ${r.levelName}`;
  const columns: TableColumnsType<LevelRow> = [
    { title: '业务节点', dataIndex: 'nodeName', ellipsis: true },
    { title: '审核级别', key: 'level', width: 140, render: (_, r) => `第 ${r.level} 级 ${r.levelName}` },
    {
      title: '待审',
      dataIndex: 'pending',
      width: 80,
      align: 'right',
      render: (v: number, r) =>
        v ? (
          <ActionLink
            testId={`stats-level-${r.gnCoding}-${r.level}`}
            onClick={() => pick({ gnCoding: r.gnCoding, level: r.level, title: levelName(r) })}
          >
            {v}
          </ActionLink>
        ) : (
          0
        ),
    },
    {
      title: '超期',
      dataIndex: 'overdue',
      width: 80,
      align: 'right',
      render: (v: number, r) =>
        v ? (
          <ActionLink
            danger
            testId={`stats-level-overdue-${r.gnCoding}-${r.level}`}
            onClick={() =>
              pick({ gnCoding: r.gnCoding, level: r.level, overdue: '1', title: `${levelName(r)} · 超期` })
            }
          >
            {v}
          </ActionLink>
        ) : (
          0
        ),
    },
    { title: '已审（期间内）', dataIndex: 'decided', width: 120, align: 'right' },
    {
      title: '平均用时（小时）',
      dataIndex: 'avgHours',
      width: 140,
      align: 'right',
      render: (v: number | null) => v ?? '—',
    },
    {
      title: '最长用时（小时）',
      dataIndex: 'maxHours',
      width: 140,
      align: 'right',
      render: (v: number | null) => v ?? '—',
    },
  ];
  const listColumns: TableColumnsType<ProgressRow> = [
    { title: '业务节点', dataIndex: 'nodeName', width: 140 },
    { title: '事项', dataIndex: 'businessName', ellipsis: true },
    { title: '提交人', dataIndex: 'submitterName', width: 100 },
    { title: '当前环节', key: 'level', width: 150, render: (_, r) => `第 ${r.level} 级 ${r.levelName}` },
    { title: '到达时间', dataIndex: 'since', width: 150 },
    { title: '已等待（小时）', dataIndex: 'waitingHours', width: 130, align: 'right' },
    {
      title: '状态',
      dataIndex: 'overdue',
      width: 90,
      render: (v: boolean) => (v ? <Tag color="error">超期</Tag> : <Tag color="processing">办理中</Tag>),
    },
  ];
  return (
    <PageFrame section={SECTION} title={TITLE}>
      <StatsNav current="/custom/viewProgress" />
      <PeriodBar
        value={period}
        onChange={(p) => {
          setPeriod(p);
          pick({ title: '全部' });
        }}
        extra={
          isAdmin ? (
            <Button icon={<SettingOutlined />} onClick={() => setSettings(true)} data-testid="stats-settings">
              超期时限
            </Button>
          ) : null
        }
      />
      {stats.isError ? (
        <LoadFailure error={stats.error} what={TITLE} />
      ) : (
        <>
          <Figures
            loading={stats.isLoading}
            items={[
              {
                title: '审核中的申请',
                value: d?.pending ?? 0,
                testId: 'stats-progress-pending',
                onClick: () => pick({ title: '全部' }),
              },
              {
                title: '超期',
                value: d?.overdue ?? 0,
                testId: 'stats-progress-overdue',
                color: '#f5222d',
                onClick: () => pick({ overdue: '1', title: '超期' }),
              },
              { title: '超期时限（小时）', value: d?.overdueHours ?? 0, testId: 'stats-progress-limit' },
            ]}
          />
          <Row gutter={16}>
            <Col xs={24} xl={10}>
              <Card size="small" title="各级待审与超期" style={{ marginBottom: 16 }}>
                <Chart
                  type="bar"
                  categories={levels.map(levelName)}
                  series={[
                    { name: '待审', values: levels.map((l) => l.pending) },
                    { name: '超期', values: levels.map((l) => l.overdue), color: '#f5222d' },
                  ]}
                  label="各级待审与超期"
                  testId="stats-chart-progress"
                  onClick={(i, c) => {
                    const l = levels[i];
                    if (l)
                      pick({
                        gnCoding: l.gnCoding,
                        level: l.level,
                        overdue: c.seriesName === '超期' ? '1' : undefined,
                        title: levelName(l),
                      });
                  }}
                />
              </Card>
            </Col>
            <Col xs={24} xl={14}>
              <Card size="small" title="各级用时" style={{ marginBottom: 16 }}>
                <Table<LevelRow>
                  size="small"
                  rowKey={(r) => `${r.gnCoding}:${r.level}`}
                  columns={columns}
                  dataSource={levels}
                  loading={stats.isFetching}
                  pagination={false}
                  locale={{ emptyText: '暂无数据' }}
                  data-testid="stats-level-table"
                />
              </Card>
            </Col>
          </Row>
          <Card
            size="small"
            title={<span data-testid="stats-drill-title">审核中的申请：{filter.title}</span>}
            extra={
              <Segmented
                size="small"
                value={filter.overdue ?? 'all'}
                options={[
                  { value: 'all', label: '全部' },
                  { value: '1', label: '超期' },
                  { value: '0', label: '未超期' },
                ]}
                onChange={(v) => pick({ ...filter, overdue: v === 'all' ? undefined : (v as '1' | '0') })}
                data-testid="stats-overdue-filter"
              />
            }
          >
            {list.isError ? (
              <LoadFailure error={list.error} what="审核中的申请" />
            ) : (
              <Table<ProgressRow>
                size="small"
                rowKey={(r) => `${r.gnCoding}:${r.recordId}:${r.level}`}
                columns={listColumns}
                dataSource={list.data?.records ?? []}
                loading={list.isFetching}
                locale={{ emptyText: '暂无审核中的申请' }}
                data-testid="stats-drill-table"
                scroll={{ x: 1000 }}
                pagination={{
                  current: page.curPage,
                  pageSize: page.pageSize,
                  total: list.data?.total ?? 0,
                  showSizeChanger: true,
                  pageSizeOptions: [10, 20, 30, 50],
                  showQuickJumper: true,
                  showTotal: (t) => `共 ${t} 件`,
                  onChange: (curPage, pageSize) =>
                    setPage({ curPage: pageSize === page.pageSize ? curPage : 1, pageSize }),
                }}
              />
            )}
          </Card>
          {settings ? (
            <SettingsDialog open={settings} hours={d?.overdueHours ?? 72} onClose={() => setSettings(false)} />
          ) : null}
        </>
      )}
    </PageFrame>
  );
}
