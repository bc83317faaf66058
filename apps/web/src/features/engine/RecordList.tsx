import {
  AppstoreOutlined,
  DownloadOutlined,
  FilterOutlined,
  PlusOutlined,
  ReloadOutlined,
  TableOutlined,
} from '@ant-design/icons';
import type { CardStyle, FieldDef, Operation, TableColumn } from '@ks/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Result, Segmented, Skeleton, Space, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { cardStyleQuery, tableColumnsQuery } from '../../api/config';
import {
  type EngineRecord,
  exportRecords,
  type FilterDefinitionDto,
  type FilterEntryDto,
  fetchRecords,
  filterFieldsQuery,
  nodeButtonsQuery,
  nodeFieldsQuery,
  recordListQuery,
  recordsKey,
  saveBlob,
} from '../../api/engine';
import { CardList } from '../../engine/list/CardList';
import { DynamicTable } from '../../engine/list/DynamicTable';
import { FilterCard, type FilterDefinition } from '../../engine/list/FilterCard';
import { useActionLock, usePersistedPager } from '../../engine/list/hooks';
import { type LeftNode, LeftTree } from '../../engine/list/LeftTree';
import { SearchBar } from '../../engine/list/SearchBar';
import { SearchPopup } from '../../engine/list/SearchPopup';
import {
  CARD_STATUS_KEY,
  ENGINE_TEXTS,
  isSortableColumn,
  type ListView,
  listColumns,
  operationsWidth,
  popupFieldsOf,
  type RecordRow,
  readListView,
  readSearch,
  recordCard,
  recordRow,
  type SearchState,
  searchFieldsOf,
  searchFormValues,
  searchRequest,
  withMinWidths,
  writeListView,
  writeSearch,
} from '../../engine/model';
import { ENGINE_PAGES } from '../../lib/paths';
import { UnconfiguredNode } from '../shell';
import { NoNode } from './NoNode';
import { type EngineNode, nodeQuery, useEngineNode } from './useEngineNode';
import { useListFields } from './useListFields';
import { refreshAfterChange, useRecordActions } from './useRecordActions';

export type ListVariant = 'dynamic' | 'apply';

const VARIANTS = {
  dynamic: { detailPath: ENGINE_PAGES.dynamic.detail, addText: '新增', subtitle: '' },
  apply: { detailPath: ENGINE_PAGES.apply.detail, addText: '新建申请', subtitle: '我的申请' },
} as const;

/** The 序号 column of DynamicTable. */
const SERIAL_WIDTH = 64;
/** Beyond this the operations wrap onto a second line. */
const OPS_MAX_WIDTH = 240;
/** Cards load this many records at a time. */
export const CARD_PAGE_SIZE = 20;
const TREE_TYPES = new Set(['tree', 'left-tree', 'leftTree']);

/**
 * A list whose records a domain module handles itself (信用变更申请: a record is a change round, opened in the change
 * dialog): the operations in `opens` call `open` instead of the engine's own handling, those in `hides` (and 新建申请
 * when `add` is hidden) are not offered.
 */
export interface RecordListOverride {
  opens: ReadonlySet<string>;
  hides: ReadonlySet<string>;
  open: (record: EngineRecord) => void;
}

/** The page of a list node: which node comes from the URL; a different node is a fresh list. */
export function RecordListPage({
  variant,
  override,
  node: given,
}: {
  variant: ListVariant;
  override?: RecordListOverride;
  /** the node, when the caller has read it already */
  node?: EngineNode;
}) {
  const fromUrl = useEngineNode();
  const node = given ?? fromUrl;
  if (!node.gnCoding || !node.systemCoding) return <NoNode />;
  return <RecordList key={`${node.systemCoding}:${node.gnCoding}`} node={node} variant={variant} override={override} />;
}

function toLeftNodes(list: readonly FilterEntryDto[]): LeftNode[] {
  return list.map((e) => ({
    primaryKey: String(e.value ?? e.code ?? e.label ?? e.name ?? ''),
    xxGrouping: String(e.label ?? e.name ?? e.value ?? e.code ?? ''),
    badge: e.badge ?? null,
    score: e.score ?? null,
    children: e.children?.length ? toLeftNodes(e.children) : null,
  }));
}

/** The filter definition split into the left tree (a group of type tree) and the filter card's chip groups. */
function splitFilters(def: FilterDefinitionDto | null | undefined) {
  const groups = def?.displayList ?? [];
  // a group of type tree, or whose choices have children (a dictionary tree), is a left tree; chips cannot nest
  const isTree = (g: FilterDefinitionDto['displayList'][number]) =>
    TREE_TYPES.has(g.type ?? '') || (g.dataList ?? []).some((e) => e.children?.length);
  const tree = groups.find(isTree) ?? null;
  const rest = groups.filter((g) => g !== tree);
  const chips: FilterDefinition | null = rest.length
    ? {
        displayCode: def?.displayCode ?? '',
        displayList: rest.map((g) => ({
          name: g.name,
          code: g.code,
          type: g.type,
          dataList: (g.dataList ?? []).map((e) => ({ ...e, label: String(e.label ?? ''), value: e.value })),
        })),
      }
    : null;
  return { tree, chips };
}

/** Opens a preview or download address of a cell, only when it is a web address. */
function openAddress(value: unknown) {
  const url = String(value ?? '')
    .split(/[;,]/)[0]
    ?.trim();
  if (url && /^(https?:\/\/|\/)/i.test(url)) window.open(url, '_blank', 'noopener,noreferrer');
}

function RecordList({
  node,
  variant,
  override,
}: {
  node: EngineNode;
  variant: ListVariant;
  override?: RecordListOverride;
}) {
  const { gnCoding, systemCoding } = node;
  const v = VARIANTS[variant];
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const persistKey = `${variant}:${gnCoding}`;

  const fieldsQ = useQuery(nodeFieldsQuery(gnCoding, systemCoding));
  const columnsQ = useQuery(tableColumnsQuery(gnCoding));
  const tableButtons = useQuery(nodeButtonsQuery(gnCoding, systemCoding, 'table'));
  const formButtons = useQuery(nodeButtonsQuery(gnCoding, systemCoding, 'form'));
  const filtersQ = useQuery(filterFieldsQuery(gnCoding, systemCoding));

  const fields = useMemo<FieldDef[]>(() => fieldsQ.data?.fields ?? [], [fieldsQ.data]);
  const optionCtx = useMemo(() => ({ gnCoding, systemCoding }), [gnCoding, systemCoding]);
  // the fields with the options of dictionary / other-node fields, for labels and search choices
  const listFields = useListFields(fields, optionCtx);
  const columns = useMemo(
    () => listColumns(columnsQ.data, fields, { requireStatus: variant === 'apply' }),
    [columnsQ.data, fields, variant],
  );
  const searchFields = useMemo(() => searchFieldsOf(listFields, columns), [listFields, columns]);
  const popupFields = useMemo(() => popupFieldsOf(listFields), [listFields]);
  const { tree: treeGroup, chips } = useMemo(() => splitFilters(filtersQ.data), [filtersQ.data]);
  const treeNodes = useMemo(() => (treeGroup ? toLeftNodes(treeGroup.dataList ?? []) : []), [treeGroup]);
  const can = useMemo(
    () => new Set((tableButtons.data ?? []).filter((b) => b.show && !override?.hides.has(b.code)).map((b) => b.code)),
    [tableButtons.data, override],
  );
  const buttonName = (code: string, fallback: string) =>
    tableButtons.data?.find((b) => b.code === code)?.name || fallback;

  // ── search state (session storage searchParams) and pager (persisted by the table) ──
  const [search, setSearch] = useState<SearchState>(() => readSearch(persistKey));
  const [barKey, setBarKey] = useState(0);
  const [tableKey, setTableKey] = useState(0);
  const [popupOpen, setPopupOpen] = useState(false);
  const [pager, setPager] = usePersistedPager(persistKey);
  const applySearch = useCallback(
    (next: SearchState) => {
      setSearch(next);
      writeSearch(persistKey, next);
      setPager(1, pager.pageSize);
    },
    [persistKey, setPager, pager.pageSize],
  );
  const request = useMemo(() => searchRequest(search, fields), [search, fields]);
  const barValues = useMemo(() => searchFormValues(search.bar, searchFields), [search.bar, searchFields]);
  const popupValues = useMemo(() => searchFormValues(search.bar, popupFields), [search.bar, popupFields]);

  // table or cards: a card page (node property card) is always cards; any other node offers both once it has a card
  // style, starting from its menu style, then as it was last switched (per node, localStorage)
  const styleQ = useQuery(cardStyleQuery(gnCoding));
  const cardPage = node.menu?.nodeProperties === 'card';
  const switchable = !cardPage && (node.style === 'card' || Boolean(styleQ.data));
  const [chosenView, setChosenView] = useState<ListView | null>(() => readListView(gnCoding));
  const view: ListView = cardPage ? 'card' : chosenView && (switchable || styleQ.isPending) ? chosenView : node.style;
  const chooseView = (next: ListView) => {
    setChosenView(next);
    writeListView(gnCoding, next);
  };
  const cards = view === 'card';
  const body = { gnCoding, pageNum: pager.pageNum, pageSize: pager.pageSize, ...request };
  const configured = fields.length > 0;
  const listQ = useQuery({ ...recordListQuery(body), enabled: fieldsQ.isSuccess && configured && !cards });

  const reload = useCallback(() => refreshAfterChange(queryClient, gnCoding), [queryClient, gnCoding]);
  const actions = useRecordActions({ node, detailPath: v.detailPath, onChanged: reload });

  // a page emptied by a delete (or by others) moves back to the last page that has records
  const total = listQ.data?.total ?? 0;
  const rowsHere = listQ.data?.records.length ?? 0;
  useEffect(() => {
    if (listQ.isSuccess && !listQ.isPlaceholderData && rowsHere === 0 && total > 0 && pager.pageNum > 1) {
      setPager(Math.max(1, Math.ceil(total / pager.pageSize)), pager.pageSize);
    }
  }, [listQ.isSuccess, listQ.isPlaceholderData, rowsHere, total, pager, setPager]);

  const ctx = useMemo(
    () => ({ fields: listFields, columns, formButtons: formButtons.data }),
    [listFields, columns, formButtons.data],
  );
  const rows = useMemo<RecordRow[]>(() => {
    const labels = new Map<string, Map<string, string>>();
    return (listQ.data?.records ?? []).map((r) => {
      const row = recordRow(r, ctx, labels);
      return override ? { ...row, operations: row.operations?.filter((o) => !override.hides.has(o.code)) } : row;
    });
  }, [listQ.data, ctx, override]);

  // the operations column fits the widest row's buttons, rounded up so paging rarely changes it
  const opsWidth = useMemo(
    () => Math.min(OPS_MAX_WIDTH, Math.ceil(Math.max(0, ...rows.map((r) => operationsWidth(r.operations))) / 40) * 40),
    [rows],
  );
  const tableColumns = useMemo(() => withMinWidths(columns, fields, opsWidth, rows), [columns, fields, opsWidth, rows]);
  const sortable = useMemo(() => {
    const codes = new Set(fields.map((f) => f.code));
    return columns.filter((c) => isSortableColumn(c, codes)).map((c) => c.code);
  }, [columns, fields]);
  // the table is as wide as its columns (scrolling sideways in a narrow window) rather than squeezing them
  const tableProps = useMemo(
    () => ({
      size: 'small' as const,
      scroll: { x: tableColumns.filter((c) => c.show).reduce((w, c) => w + (c.width ?? 0), SERIAL_WIDTH) },
    }),
    [tableColumns],
  );

  const onOperation = useCallback(
    (code: string, row: RecordRow) => {
      if (override?.opens.has(code)) {
        override.open(row.__record);
        return;
      }
      const op = row.operations?.find((o) => o.code === code);
      actions.run(code, row.__record, op?.name);
    },
    [actions, override],
  );

  // ── toolbar ──
  const { locked, run: lockRun } = useActionLock();
  const exporting = useMutation({
    mutationFn: () => exportRecords({ gnCoding, ...request }),
    onSuccess: (result) => {
      saveBlob(result, `${node.title}.xlsx`);
      void message.success(ENGINE_TEXTS.exported);
    },
  });
  const create = () => lockRun('add', () => navigate(`${v.detailPath}?${nodeQuery(node, { mode: 'edit' })}`));

  if (fieldsQ.isPending) {
    return (
      <Card data-testid="engine-list-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (fieldsQ.isError) {
    return (
      <Card data-testid="engine-list-error">
        <Result
          status="warning"
          title="列表加载失败"
          subTitle={fieldsQ.error.message}
          extra={
            <Button type="primary" onClick={() => void fieldsQ.refetch()}>
              重试
            </Button>
          }
        />
      </Card>
    );
  }

  if (fieldsQ.data.version === 0) {
    // a node whose fields were never configured has no list yet: the honest "not yet available" page (with the way
    // to 字段设置 for developers), decided by the node's schema version, not by a list of nodes
    return <UnconfiguredNode gnCoding={gnCoding} systemCoding={systemCoding} nodeTitle={node.title} />;
  }
  if (!configured) {
    return (
      <Card size="small" title={node.title} data-testid="engine-list-unconfigured">
        <Result
          status="info"
          title={ENGINE_TEXTS.noFields}
          subTitle="该节点的表单字段配置完成后，即可在此新增、查询和办理记录。"
        />
      </Card>
    );
  }

  const toolbar = (
    <div
      style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', margin: '4px 0 12px' }}
      data-testid="engine-toolbar"
    >
      <Space wrap>
        {can.has('add') ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={create}
            disabled={locked.has('add')}
            data-testid="engine-add"
          >
            {variant === 'apply' ? v.addText : buttonName('add', v.addText)}
          </Button>
        ) : null}
        {can.has('export') ? (
          <Button
            icon={<DownloadOutlined />}
            loading={exporting.isPending}
            disabled={exporting.isPending || locked.has('export')}
            onClick={() => lockRun('export', () => exporting.mutate())}
            data-testid="engine-export"
          >
            {exporting.isPending ? '导出中...' : buttonName('export', '导出')}
          </Button>
        ) : null}
        {popupFields.length > 0 ? (
          <Button icon={<FilterOutlined />} onClick={() => setPopupOpen(true)} data-testid="engine-advanced">
            高级搜索
          </Button>
        ) : null}
      </Space>
      <Space>
        {switchable ? (
          <Segmented<ListView>
            value={view}
            onChange={chooseView}
            options={[
              { value: 'table', label: '表格', icon: <TableOutlined /> },
              { value: 'card', label: '卡片', icon: <AppstoreOutlined /> },
            ]}
            aria-label="显示方式"
            data-testid="engine-view"
          />
        ) : null}
        <Button
          icon={<ReloadOutlined />}
          onClick={() => lockRun('reload', reload)}
          disabled={locked.has('reload')}
          data-testid="engine-reload"
        >
          刷新
        </Button>
      </Space>
    </div>
  );

  const listError = listQ.isError ? (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      title={listQ.error.message}
      action={
        <Button size="small" onClick={() => void listQ.refetch()}>
          重试
        </Button>
      }
      data-testid="engine-list-failed"
    />
  ) : null;

  const content: ReactNode = cards ? (
    <CardView
      node={node}
      fields={listFields}
      columns={columns}
      formButtons={formButtons.data}
      request={request}
      onOperation={onOperation}
    />
  ) : (
    <DynamicTable<RecordRow>
      key={`table-${tableKey}`}
      columns={tableColumns}
      data={rows}
      loading={listQ.isFetching}
      pager={{ ...pager, total, totalCapped: listQ.data?.totalCapped === true }}
      onPage={setPager}
      persistKey={persistKey}
      headerSearch={search.header}
      onHeaderSearch={(header) => applySearch({ ...search, header })}
      sortable={sortable}
      sort={search.sort ?? null}
      onSort={(sort) => applySearch({ ...search, sort })}
      onOperation={onOperation}
      onLink={(row) => onOperation('detail', row)}
      onPreview={(row, code) => openAddress(row.__record.values[code])}
      onDownload={(row, code) => openAddress(row.__record.values[code])}
      tableProps={tableProps}
      testId="engine-table"
    />
  );

  const main = (
    <>
      {searchFields.length ? (
        <SearchBar
          key={`bar-${barKey}`}
          fields={searchFields}
          initialValues={barValues}
          loading={listQ.isFetching && !listQ.isPending}
          onSearch={(bar) => {
            // 搜索 always asks the server: with the same conditions, for what changed since
            if (JSON.stringify(bar) === JSON.stringify(search.bar)) {
              void queryClient.invalidateQueries({ queryKey: recordsKey(gnCoding) });
            } else applySearch({ ...search, bar });
          }}
          onReset={() => {
            setTableKey((k) => k + 1);
            applySearch({ ...search, bar: {}, header: {} });
          }}
        />
      ) : null}
      {chips ? (
        <FilterCard definition={chips} tags={search.tags} onChange={(tags) => applySearch({ ...search, tags })} />
      ) : null}
      {toolbar}
      {listError}
      {content}
    </>
  );

  return (
    <Card
      size="small"
      title={
        <Space size={8}>
          <span data-testid="engine-title">{node.title}</span>
          {v.subtitle ? (
            <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 13 }}>
              {v.subtitle}
            </Typography.Text>
          ) : null}
        </Space>
      }
      styles={{ body: { padding: 16 } }}
      data-testid={`engine-list-${variant}`}
    >
      {treeGroup ? (
        <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
          <div style={{ flex: '0 0 240px', border: '1px solid #f0f0f0', borderRadius: 6 }}>
            <LeftTree
              nodes={treeNodes}
              header={{ nodeName: treeGroup.name }}
              selectedKey={search.tree?.value ?? null}
              onSelect={(n) => {
                const value = String(n.primaryKey);
                const same = search.tree?.code === treeGroup.code && search.tree.value === value;
                applySearch({ ...search, tree: same ? null : { code: treeGroup.code, value } });
              }}
            />
          </div>
          <div style={{ flex: 1, minWidth: 0 }}>{main}</div>
        </div>
      ) : (
        main
      )}
      {popupOpen ? (
        // mounted only while open: its inputs would otherwise share ids and test ids with the search bar's
        <SearchPopup
          open
          title="高级搜索"
          fields={popupFields}
          initialValues={popupValues}
          onCancel={() => setPopupOpen(false)}
          onConfirm={(bar) => {
            setPopupOpen(false);
            setBarKey((k) => k + 1);
            applySearch({ ...search, bar });
          }}
        />
      ) : null}
      {actions.dialogs}
    </Card>
  );
}

/** A default card style for a node without one: its first field as the title, the next four as lines. */
function defaultCardStyle(fields: readonly FieldDef[]): Partial<CardStyle> {
  const shown = fields.filter((f) => f.show !== false && f.type !== 'editor');
  const [first, ...rest] = shown;
  return {
    titleKey: first?.code,
    contents: rest.slice(0, 4).map((f) => ({
      contentKey: f.code,
      label: f.name,
      fontSize: 13,
      color: '#606266',
      style: 'normal' as const,
    })),
    width: '33.3%',
  };
}

/** The node's records as cards (screen 19), loaded page by page as the list scrolls. */
function CardView({
  node,
  fields,
  columns,
  formButtons,
  request,
  onOperation,
}: {
  node: EngineNode;
  fields: FieldDef[];
  columns: TableColumn[];
  formButtons: Operation[] | undefined;
  request: ReturnType<typeof searchRequest>;
  onOperation: (code: string, row: RecordRow) => void;
}) {
  const { gnCoding } = node;
  const styleQ = useQuery(cardStyleQuery(gnCoding));
  const pages = useInfiniteQuery({
    queryKey: [...recordsKey(gnCoding), 'cards', request],
    queryFn: ({ pageParam }) => fetchRecords({ gnCoding, pageNum: pageParam, pageSize: CARD_PAGE_SIZE, ...request }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.records.length, 0);
      return loaded < last.total && last.records.length > 0 ? all.length + 1 : undefined;
    },
  });
  const ctx = useMemo(() => ({ fields, columns, formButtons }), [fields, columns, formButtons]);
  const records = useMemo(() => {
    const seen = new Set<string>();
    const out: EngineRecord[] = [];
    for (const p of pages.data?.pages ?? []) {
      for (const r of p.records) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          out.push(r);
        }
      }
    }
    const cache = new Map<string, Map<string, string>>();
    return out.map((r) => recordCard(r, ctx, cache));
  }, [pages.data, ctx]);
  const cardStyle = styleQ.data ?? (styleQ.isPending ? null : defaultCardStyle(fields));
  const canView = (row: RecordRow) => row.operations?.some((o) => o.code === 'detail');

  return (
    <div data-testid="engine-cards">
      {pages.isError ? <Alert type="error" showIcon title={pages.error.message} style={{ marginBottom: 12 }} /> : null}
      <CardList<RecordRow>
        records={records}
        cardStyle={cardStyle}
        loading={pages.isFetching}
        finished={!pages.hasNextPage}
        onLoadMore={() => void pages.fetchNextPage()}
        onOperation={onOperation}
        onCardClick={(row) => (canView(row) ? onOperation('detail', row) : undefined)}
        statusKey={CARD_STATUS_KEY}
      />
    </div>
  );
}
