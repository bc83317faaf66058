import { DEFAULT_PAGE_SIZE, EXTRACTION_STATUSES, type ExtractionStatus, type ExtractionSummary } from '@ks/contracts';
import { type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { deleteExtraction, EXPERTS_KEY, type ExtractionFilters, extractionListQuery } from '../../api/experts';
import {
  ActionLink,
  ConfirmDelete,
  CreateButton,
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
import { useCurrentUser } from '../../lib/sessionHooks';
import { CreateExtractionDialog } from './CreateExtractionDialog';
import { ExtractionDrawer, STATUS_COLORS } from './ExtractionDrawer';
import { EXTRACTION_VERIFY_PATH } from './paths';

const TITLE = '抽取项目';

function ExtractList() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as ExtractionFilters,
    query: extractionListQuery,
    refreshKey: EXPERTS_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const admin = useCurrentUser().userInfo?.loginRoleType === 'M';
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<ExtractionSummary> = [
    { title: '抽取编号', dataIndex: 'code', width: 150 },
    {
      title: '项目 / 标段',
      key: 'project',
      width: 300,
      ellipsis: true,
      render: (_, r) => (
        <ActionLink onClick={() => setOpen(r.id)} testId="extraction-open">
          {r.projectName} {r.sectionName}
        </ActionLink>
      ),
    },
    { title: '开标时间', dataIndex: 'openingAt', width: 140 },
    { title: '评标开始', dataIndex: 'evaluationStartAt', width: 140 },
    {
      title: '委员会',
      key: 'committee',
      width: 110,
      render: (_, r) => `${r.committeeSize} 人（专家 ${r.expertCount}）`,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: ExtractionStatus, r) => (
        <Tag color={STATUS_COLORS[s]} data-testid="extraction-row-status">
          {r.statusLabel}
        </Tag>
      ),
    },
    {
      title: '种子承诺',
      dataIndex: 'seedHash',
      width: 150,
      render: (h: string | null) =>
        h ? (
          <Tooltip title={`SHA-256：${h}`}>
            <Typography.Text code style={{ fontSize: 12 }}>
              {h.slice(0, 12)}…
            </Typography.Text>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    { title: '创建人', dataIndex: 'createdBy', width: 100 },
    { title: '创建时间', dataIndex: 'createdAt', width: 140 },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setOpen(r.id)} testId="extraction-detail">
            {admin && r.status !== 'published' ? '办理' : '详情'}
          </ActionLink>
          {r.seedHash ? (
            <Link
              to={`${EXTRACTION_VERIFY_PATH}?id=${r.id}`}
              data-testid="extraction-row-verify"
              style={{ fontSize: 14 }}
            >
              验证
            </Link>
          ) : null}
          {admin && r.status === 'draft' && !r.seedHash ? (
            <ConfirmDelete
              name={`${r.projectName} ${r.sectionName}`}
              run={() => deleteExtraction(r.id)}
              onDone={refresh}
              testId="extraction-delete"
            />
          ) : null}
        </RowActions>
      ),
    },
  ];

  return (
    <ListCard
      title={TITLE}
      view={view}
      testId="extraction-card"
      actions={
        admin ? (
          <CreateButton onClick={() => setCreating(true)} testId="extraction-create">
            新建抽取
          </CreateButton>
        ) : undefined
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="项目、标段或抽取编号"
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <SelectFilter<ExtractionStatus>
          placeholder="全部状态"
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={EXTRACTION_STATUSES.map((s) => ({ value: s.value, label: s.label }))}
          testId="filter-status"
        />
      </FilterBar>
      <ServerTable<ExtractionSummary, ExtractionFilters>
        view={view}
        columns={columns}
        scrollX={1490}
        testId="extraction-table"
      />
      <CreateExtractionDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(d) => {
          setCreating(false);
          refresh();
          setOpen(d.id);
        }}
      />
      <ExtractionDrawer id={open} onClose={() => setOpen(null)} onChanged={refresh} />
    </ListCard>
  );
}

/**
 * 抽取项目 `/expertExtraction/extractList` (spec §2; the sidebar's ZJCQ_CQXM): extractions with their conditions, the
 * committed seed hash, the draw, the experts' answers and the verification. Changes are the extraction
 * administrator's; other readers see the records with the names hidden until evaluation starts.
 */
export default function ExtractListPage() {
  return (
    <PageFrame section={{ title: '专家抽取' }} title={TITLE}>
      <ExtractList />
    </PageFrame>
  );
}
