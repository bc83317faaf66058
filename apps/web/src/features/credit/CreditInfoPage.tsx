import { BankOutlined, DatabaseOutlined, DownloadOutlined, SettingOutlined } from '@ant-design/icons';
import {
  CREDIT_RECORD_STATUS_LABELS,
  type CreditRecordStatus,
  type CreditSubjectKind,
  RFC_AREAS,
  RFC_SYSTEM,
  scoreText,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Drawer,
  Dropdown,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Statistic,
  Table,
  type TableColumnsType,
  Tabs,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ActionLink, FilterBar, KeywordFilter, LoadFailure, pagination, SelectFilter } from '../../components/admin';
import { LeftTree } from '../../engine/list/LeftTree';
import { useCurrentUser } from '../../lib/sessionHooks';
import { ChangeDialog } from '../credit-change';
import {
  CREDIT_KEY,
  type CreditRecord,
  type CreditSubjectRow,
  exportCredit,
  leftTreeQuery,
  type ManagementFilters,
  managementListQuery,
  personOptionsQuery,
  type SubjectListFilters,
  type SubjectRef,
  selectTypesQuery,
  subjectListQuery,
  topTitlesQuery,
} from './api';
import { LevelSettingsDialog } from './LevelSettingsDialog';
import { useRecordDialogs } from './RecordDialogs';
import { RecordsTable } from './RecordsTable';
import { SubjectCredit, treeNodes } from './SubjectCredit';
import { LevelTag } from './shared';

/** §6: administrators open the enterprise information library, others their enterprise centre (both this page). */
export const COMPANY_INFO_PATH = '/system/companyInfo';

export interface CreditRecordsWorkspaceProps {
  /**
   * 变更 of a passed record (the enterprise's side): opens the credit change dialog (features/credit-change) for the
   * record. Without it the records show no 变更 button.
   */
  onChange?: (record: CreditRecord) => void;
}

/**
 * /credit/companyInfo (信用记录, node XYGL_XYJL): administrators, reviewers and developers get the management
 * workspace (every subject's grade, the records to review, level settings); an enterprise user gets their own
 * enterprise's (or one of its persons') grade and records, and declares records.
 */
export function CreditRecordsWorkspace({ onChange }: CreditRecordsWorkspaceProps) {
  const { userInfo } = useCurrentUser();
  const role = userInfo?.loginRoleType;
  // an ordinary user reviews credit records when the credit node's 审核 is granted: the left tree without a subject
  // then counts what waits for review (badgeOf waiting); an enterprise user's counts their own records
  const probe = useQuery({ ...leftTreeQuery(null), enabled: role === 'U' });
  const reviewer = role === 'M' || role === 'D' || (role === 'U' && probe.data?.badgeOf === 'waiting');
  const waiting = role === 'U' && probe.isPending;
  const probeFailed = role === 'U' && probe.isError;
  const navigate = useNavigate();

  const hasEnterprise = Boolean(userInfo?.enterpriseName);
  const companyButton =
    role === 'M' ? (
      <Button icon={<DatabaseOutlined />} onClick={() => navigate(COMPANY_INFO_PATH)} data-testid="company-library">
        企业信息库
      </Button>
    ) : role === 'U' && hasEnterprise ? (
      <Button icon={<BankOutlined />} onClick={() => navigate(COMPANY_INFO_PATH)} data-testid="company-centre">
        企业中心
      </Button>
    ) : null;

  return (
    <div data-testid="credit-page" style={{ minWidth: 0 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            信用记录
          </Typography.Title>
          <Typography.Text type="secondary">
            {reviewer
              ? '企业与从业人员的信用等级、待审核的信用记录和等级设置'
              : '本企业及其从业人员的信用等级与信用记录：申报、提交审核，审核通过的记录在有效期内计分'}
          </Typography.Text>
        </div>
        {companyButton}
      </Space>
      {waiting ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : probeFailed ? (
        <LoadFailure error={probe.error as Error} what="信用管理" />
      ) : reviewer ? (
        <ReviewWorkspace admin={role === 'M'} />
      ) : (
        <EnterpriseWorkspace onChange={onChange} />
      )}
    </div>
  );
}

export default function CreditInfoPage() {
  // 变更 of a passed record opens its change rounds (screen 1); a decided round changes the record and the grade
  const [changing, setChanging] = useState<CreditRecord | null>(null);
  const queryClient = useQueryClient();
  return (
    <>
      <CreditRecordsWorkspace onChange={setChanging} />
      <ChangeDialog
        gnCoding={RFC_AREAS.creditRecord}
        systemCoding={RFC_SYSTEM}
        businessId={changing?.id ?? ''}
        open={changing !== null}
        onClose={() => setChanging(null)}
        onChanged={() => queryClient.invalidateQueries({ queryKey: CREDIT_KEY })}
      />
    </>
  );
}

// ── the enterprise's own side ───────────────────────────────────────────────

function EnterpriseWorkspace({ onChange }: { onChange?: (r: CreditRecord) => void }) {
  const [person, setPerson] = useState<string>('');
  const persons = useQuery(personOptionsQuery);
  const subject: SubjectRef = person ? { subjectKind: 'person', subjectId: person } : { subjectKind: 'enterprise' };
  const options = [
    { value: '', label: '本企业' },
    ...(persons.data ?? []).map((p) => ({ value: p.value, label: `${p.label}（${p.practiceArea}）` })),
  ];
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Typography.Text>信用主体</Typography.Text>
        <Select
          style={{ width: 260 }}
          value={person}
          options={options}
          loading={persons.isPending}
          onChange={setPerson}
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="subject-select"
        />
      </Space>
      <SubjectCredit key={person || 'enterprise'} subject={subject} side onChange={onChange} />
    </>
  );
}

// ── administrators, reviewers, developers ───────────────────────────────────

function TopTitles() {
  const q = useQuery(topTitlesQuery);
  if (!q.data) return q.isPending ? <Card loading size="small" style={{ marginBottom: 16 }} /> : null;
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }} data-testid="credit-top-titles">
      {q.data.levels.map((l) => (
        <Col key={l.title} flex="1 1 140px">
          <Card size="small">
            <Statistic
              title={`${l.title}（${scoreText(l.minScore)}${l.maxScore === null ? ' 分及以上' : `–${scoreText(l.maxScore)} 分`}）`}
              value={l.enterprises}
              suffix={<span style={{ fontSize: 13, color: '#909399' }}>家 / {l.persons} 人</span>}
            />
          </Card>
        </Col>
      ))}
      {q.data.totals.map((t) => (
        <Col key={t.key} flex="1 1 140px">
          <Card size="small" data-testid={`credit-total-${t.key}`}>
            <Statistic title={t.title} value={t.key === 'average' ? scoreText(t.value) : t.value} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

const STATUS_OPTIONS = (Object.keys(CREDIT_RECORD_STATUS_LABELS) as CreditRecordStatus[]).map((s) => ({
  value: s,
  label: CREDIT_RECORD_STATUS_LABELS[s],
}));
const KIND_OPTIONS = [
  { value: 'enterprise' as const, label: '企业' },
  { value: 'person' as const, label: '从业人员' },
];

function ReviewWorkspace({ admin }: { admin: boolean }) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<'subjects' | 'records'>('subjects');
  const [levelsOpen, setLevelsOpen] = useState(false);
  const types = useQuery(selectTypesQuery);
  const tree = useQuery(leftTreeQuery(null));
  const nodes = useMemo(() => treeNodes(tree.data), [tree.data]);
  const [records, setRecords] = useState<ManagementFilters>({ status: 'submitted', pageNum: 1, pageSize: 10 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: CREDIT_KEY });
  const exporting = useMutation({
    mutationFn: (type: 'grades-enterprise' | 'grades-person' | 'records') =>
      exportCredit(
        type === 'records'
          ? { type: 'records', subjectKind: 'enterprise', status: records.status }
          : { type: 'grades', subjectKind: type === 'grades-person' ? 'person' : 'enterprise' },
      ),
  });

  return (
    <>
      <TopTitles />
      <Row gutter={16} wrap={false}>
        <Col flex="280px" style={{ minWidth: 0 }}>
          <LeftTree
            nodes={nodes}
            header={tree.data ? { nodeName: `${tree.data.nodeName}（待审核）`, score: null } : null}
            selectedKey={records.standardId ?? null}
            loading={tree.isPending}
            onSelect={(n) => {
              const key = String(n.primaryKey);
              const leaf = !tree.data?.children.some((g) => g.primaryKey === key);
              if (!leaf) return;
              setRecords((f) => ({ ...f, standardId: f.standardId === key ? undefined : key, pageNum: 1 }));
              setTab('records');
            }}
            testId="credit-tree"
          />
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Card size="small">
            <Tabs
              activeKey={tab}
              onChange={(k) => setTab(k as 'subjects' | 'records')}
              tabBarExtraContent={
                <Space>
                  {admin ? (
                    <Button icon={<SettingOutlined />} onClick={() => setLevelsOpen(true)} data-testid="levels-open">
                      等级设置
                    </Button>
                  ) : null}
                  <Dropdown
                    menu={{
                      items: [
                        { key: 'grades-enterprise', label: '企业信用等级' },
                        { key: 'grades-person', label: '从业人员信用等级' },
                        { key: 'records', label: '信用记录（当前状态）' },
                      ],
                      onClick: ({ key }) => exporting.mutate(key as 'grades-enterprise'),
                    }}
                  >
                    <Button icon={<DownloadOutlined />} loading={exporting.isPending} data-testid="credit-export">
                      导出
                    </Button>
                  </Dropdown>
                </Space>
              }
              items={[
                {
                  key: 'subjects',
                  label: '信用主体',
                  children: <SubjectList levels={types.data?.levels ?? []} />,
                },
                {
                  key: 'records',
                  label: `信用记录审核${tree.data ? `（${tree.data.children.reduce((s, g) => s + g.badge, 0)}）` : ''}`,
                  children: (
                    <ManagementList
                      filters={records}
                      setFilters={setRecords}
                      standardName={
                        records.standardId
                          ? nodes.flatMap((g) => g.children ?? []).find((n) => n.primaryKey === records.standardId)
                              ?.xxGrouping
                          : undefined
                      }
                      onChanged={refresh}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <LevelSettingsDialog
        open={levelsOpen}
        onClose={() => setLevelsOpen(false)}
        onSaved={() => {
          setLevelsOpen(false);
          refresh();
        }}
      />
    </>
  );
}

function SubjectList({ levels }: { levels: { label: string; value: string }[] }) {
  const [f, setF] = useState<SubjectListFilters>({ subjectKind: 'enterprise', pageNum: 1, pageSize: 10 });
  const [open, setOpen] = useState<CreditSubjectRow | null>(null);
  const list = useQuery(subjectListQuery(f));
  const set = (next: Partial<SubjectListFilters>) => setF((x) => ({ ...x, ...next, pageNum: 1 }));
  const person = f.subjectKind === 'person';
  const columns: TableColumnsType<CreditSubjectRow> = [
    {
      title: person ? '姓名' : '企业名称',
      key: 'name',
      width: 240,
      render: (_, r) => (
        <div>
          <div>{r.name}</div>
          {person ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.enterpriseName}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    { title: person ? '证书编号' : '统一社会信用代码', dataIndex: 'code', key: 'code', width: 200 },
    { title: person ? '执业类别' : '企业类型', dataIndex: 'type', key: 'type', width: 120 },
    { title: '地区', dataIndex: 'region', key: 'region', width: 100, render: (v: string | null) => v ?? '—' },
    {
      title: '信用等级',
      key: 'level',
      width: 90,
      render: (_, r) => <LevelTag level={r.grade?.level} levels={levels.map((l) => ({ title: l.value }))} />,
    },
    {
      title: '信用分',
      key: 'score',
      width: 80,
      align: 'right',
      render: (_, r) => (r.grade ? scoreText(r.grade.score) : '—'),
    },
    {
      title: '有效期至',
      key: 'validUntil',
      width: 120,
      render: (_, r) => (r.grade ? (r.grade.validUntil ?? '下次评定前') : '—'),
    },
    {
      title: '待审核',
      dataIndex: 'waiting',
      key: 'waiting',
      width: 80,
      align: 'right',
      render: (n: number) => (n ? <Typography.Text type="warning">{n}</Typography.Text> : 0),
    },
    {
      title: '操作',
      key: 'ops',
      width: 110,
      fixed: 'right',
      render: (_, r) => (
        <ActionLink onClick={() => setOpen(r)} testId={`subject-${r.id}-open`}>
          信用详情
        </ActionLink>
      ),
    },
  ];
  return (
    <>
      <FilterBar>
        <Segmented<CreditSubjectKind>
          value={f.subjectKind}
          options={KIND_OPTIONS}
          onChange={(v) => set({ subjectKind: v })}
          data-testid="subjects-kind"
        />
        <KeywordFilter
          key={f.subjectKind}
          placeholder={person ? '姓名或证书编号' : '企业名称或统一社会信用代码'}
          onSearch={(keyword) => set({ keyword })}
          testId="subjects-keyword"
        />
        <SelectFilter
          placeholder="信用等级"
          value={f.level}
          options={levels}
          onChange={(level) => set({ level })}
          testId="subjects-level"
        />
      </FilterBar>
      {list.isError && !list.data ? (
        <LoadFailure error={list.error} what="信用主体" />
      ) : (
        <Table<CreditSubjectRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.records ?? []}
          loading={list.isFetching}
          scroll={{ x: 1140 }}
          locale={{ emptyText: '暂无数据' }}
          pagination={pagination(f, list.data?.total ?? 0, setF, person ? '人' : '家')}
          data-testid="subjects-table"
        />
      )}
      <Drawer
        open={Boolean(open)}
        onClose={() => setOpen(null)}
        size={1180}
        title={open ? `${open.name} · 信用信息` : ''}
        destroyOnHidden
        data-testid="subject-drawer"
      >
        {open ? <SubjectCredit subject={{ subjectKind: open.kind, subjectId: open.id }} side={false} /> : null}
      </Drawer>
    </>
  );
}

function ManagementList({
  filters: f,
  setFilters,
  standardName,
  onChanged,
}: {
  filters: ManagementFilters;
  setFilters: (fn: (f: ManagementFilters) => ManagementFilters) => void;
  standardName?: string;
  onChanged: () => void;
}) {
  const list = useQuery(managementListQuery(f));
  const dialogs = useRecordDialogs(() => onChanged());
  const set = (next: Partial<ManagementFilters>) => setFilters((x) => ({ ...x, ...next, pageNum: 1 }));
  return (
    <>
      <FilterBar>
        <SelectFilter
          placeholder="全部状态"
          value={f.status}
          options={STATUS_OPTIONS}
          onChange={(status) => set({ status })}
          testId="management-status"
        />
        <SelectFilter
          placeholder="主体类型"
          value={f.subjectKind}
          options={KIND_OPTIONS}
          onChange={(subjectKind) => set({ subjectKind })}
          testId="management-kind"
        />
        <SelectFilter
          placeholder="行为类别"
          value={f.conduct}
          options={[
            { value: 'good' as const, label: '良好行为' },
            { value: 'bad' as const, label: '不良行为' },
          ]}
          onChange={(conduct) => set({ conduct })}
          testId="management-conduct"
        />
        <KeywordFilter
          placeholder="企业名称、信用代码、姓名或事由"
          onSearch={(keyword) => set({ keyword })}
          testId="management-keyword"
        />
        {standardName ? (
          <Button onClick={() => set({ standardId: undefined })} data-testid="management-standard-clear">
            信用标准：{standardName} ✕
          </Button>
        ) : null}
      </FilterBar>
      {list.isError && !list.data ? (
        <LoadFailure error={list.error} what="信用记录" />
      ) : (
        <RecordsTable
          view={{
            records: list.data?.records ?? [],
            total: list.data?.total ?? 0,
            loading: list.isFetching,
            filters: f,
            setFilters: (fn) => setFilters((x) => ({ ...x, ...fn(x) })),
          }}
          h={{ onDetail: dialogs.open.detail, onAudit: dialogs.open.audit, onRevoke: dialogs.open.revoke, onChanged }}
          withSubject
          testId="management-table"
          empty={f.status === 'submitted' ? '暂无待审核的信用记录' : '暂无数据'}
        />
      )}
      {dialogs.dialogs}
    </>
  );
}
