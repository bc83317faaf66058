import { SearchOutlined } from '@ant-design/icons';
import { PAGE_SIZES, type TableColumn } from '@ks/contracts';
import { Button, Input, Pagination, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import { type Key, memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { type CellHandlers, cellRenderer, type TableRow } from './cells';
import { TEXTS } from './constants';
import { type PagerState, readPager, useLatest, writePager } from './hooks';

export type { AuditStep, TableRow } from './cells';
export type { PagerState } from './hooks';

/** §3 listAlignment: 左对齐 left, 右对齐 right, anything else centred. */
export function alignOf(listAlignment: string | null | undefined): 'left' | 'right' | 'center' {
  if (listAlignment === '左对齐') return 'left';
  if (listAlignment === '右对齐') return 'right';
  return 'center';
}

/** The serial number of the index-th row of a page: it continues across pages. */
export function serialOf(pageNum: number, pageSize: number, index: number): number {
  return (Math.max(1, pageNum) - 1) * pageSize + index + 1;
}

export interface TablePager extends PagerState {
  total: number;
  /** the server stopped counting at `total` (more match): the pager says 共 1000+ 条 */
  totalCapped?: boolean;
}

/** A column sort (antd's orders): the column's code and the direction. */
export interface TableSort {
  field: string;
  order: 'ascend' | 'descend';
}

export interface DynamicTableProps<Row extends TableRow = TableRow> extends CellHandlers<Row> {
  /** the node's columns; only `show: true` ones are rendered, in order */
  columns: readonly TableColumn[];
  /** the rows of the current page */
  data: readonly Row[];
  /** a row's key: its field of that name (default `id`) or a function */
  rowKey?: string | ((row: Row) => Key);
  loading?: boolean;
  /** the controlled pager; without it no pager is shown and serial numbers start at 1 */
  pager?: TablePager;
  /** a page or page size was chosen (a new size goes back to page 1); also called once to restore a saved pager */
  onPage?: (pageNum: number, pageSize: number) => void;
  /** remember the pager in sessionStorage (`pager`) under this key, and restore it on mount */
  persistKey?: string;
  /** show the 序号 column (default true) */
  serial?: boolean;
  /** row selection checkboxes, controlled when selectedRowKeys is given */
  rowSelection?: {
    selectedRowKeys?: Key[];
    onChange: (keys: Key[], rows: Row[]) => void;
    disabled?: (row: Row) => boolean;
  };
  /**
   * a header search of an isSearch column was applied or reset: all current header searches `{code: value}`
   * (empty ones dropped) and the column that changed
   */
  onHeaderSearch?: (values: Record<string, string>, code: string) => void;
  /** header search values to start from (e.g. restored from the page's search state) */
  headerSearch?: Record<string, string>;
  /** codes of the columns that sort (a sorter in their heading); the sort itself is controlled by `sort` / `onSort` */
  sortable?: readonly string[];
  /** the current sort (controlled): the list is sorted by this column; null: the server's default order */
  sort?: TableSort | null;
  /** a heading's sorter was clicked: ascending, descending, then off (null) */
  onSort?: (sort: TableSort | null) => void;
  emptyText?: ReactNode;
  /** extra antd Table props (size, scroll, onRow …) */
  tableProps?: Omit<TableProps<Row>, 'columns' | 'dataSource' | 'rowKey' | 'loading' | 'pagination' | 'rowSelection'>;
  testId?: string;
}

interface HeaderSearchProps {
  code: string;
  name: string;
  value: string;
  onApply: (code: string, value: string) => void;
  close: () => void;
}

/** The filter dropdown of a searchable column: an input with 搜索 and 重置. */
function HeaderSearch({ code, name, value, onApply, close }: HeaderSearchProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    onApply(code, text.trim());
    close();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keeps keys typed in the input away from the table
    <div
      style={{ padding: 8, width: 220 }}
      data-testid={`header-search-${code}`}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <Input
        size="small"
        placeholder={`请输入${name}`}
        value={text}
        allowClear
        onChange={(e) => setText(e.target.value)}
        onPressEnter={apply}
        data-testid={`header-search-input-${code}`}
        style={{ marginBottom: 8 }}
      />
      <Space>
        <Button type="primary" size="small" icon={<SearchOutlined />} onClick={apply}>
          {TEXTS.search}
        </Button>
        <Button
          size="small"
          onClick={() => {
            setText('');
            onApply(code, '');
            close();
          }}
        >
          {TEXTS.reset}
        </Button>
      </Space>
    </div>
  );
}

const ALIGN_CLASS = { left: 'ks-align-left', right: 'ks-align-right', center: 'ks-align-center' } as const;
const PAGE_SIZE_OPTIONS = PAGE_SIZES.map(String);
/** The pager's total text: 共 n 条, or 共 n+ 条 when the server stopped counting at n. */
export const totalText = (total: number, capped = false) => `共 ${total}${capped ? '+' : ''} 条`;
const showTotal = (total: number) => totalText(total);
const showCappedTotal = (total: number) => totalText(total, true);

/**
 * The data table of a node (screen 18): its configured columns with a renderer per column type, a 序号 column that
 * continues across pages, optional selection, header search popovers on isSearch columns, and a pager (sizes 10 /
 * 20 / 30 / 50, total, sizes, prev, pager, next, jumper) whose state is kept in sessionStorage. Props only: the page
 * loads the rows.
 */
function DynamicTableInner<Row extends TableRow = TableRow>(props: DynamicTableProps<Row>) {
  const {
    columns,
    data,
    rowKey = 'id',
    loading = false,
    pager,
    onPage,
    persistKey,
    serial = true,
    rowSelection,
    onHeaderSearch,
    headerSearch: initialHeaderSearch,
    sortable,
    sort = null,
    emptyText,
    tableProps,
    testId = 'dynamic-table',
  } = props;

  const handlers = useLatest<CellHandlers<Row>>({
    onPreview: props.onPreview,
    onDownload: props.onDownload,
    onLink: props.onLink,
    onOperation: props.onOperation,
  });
  const onPageRef = useLatest(onPage);
  const onHeaderSearchRef = useLatest(onHeaderSearch);
  const onSortRef = useLatest(props.onSort);
  const tableOnChange = useLatest(tableProps?.onChange);

  const [headerSearch, setHeaderSearch] = useState<Record<string, string>>(() => ({ ...initialHeaderSearch }));
  const headerSearchRef = useLatest(headerSearch);
  const applyHeaderSearch = useCallback(
    (code: string, value: string) => {
      const next = { ...headerSearchRef.current };
      if (value) next[code] = value;
      else delete next[code];
      setHeaderSearch(next);
      onHeaderSearchRef.current?.(next, code);
    },
    [headerSearchRef, onHeaderSearchRef],
  );

  const pageNum = pager?.pageNum ?? 1;
  const pageSize = pager?.pageSize ?? data.length;

  // ── pager persistence: restore once on mount, then save what is shown ──
  const restoring = useRef<PagerState | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: restores once per persistKey, from the props of that moment
  useEffect(() => {
    if (!persistKey || !pager) return;
    const saved = readPager(persistKey);
    if (saved && (saved.pageNum !== pager.pageNum || saved.pageSize !== pager.pageSize)) {
      restoring.current = saved;
      onPageRef.current?.(saved.pageNum, saved.pageSize);
    }
  }, [persistKey]);
  const hasPager = pager !== undefined;
  useEffect(() => {
    if (!persistKey || !hasPager) return;
    const pending = restoring.current;
    if (pending) {
      if (pending.pageNum !== pageNum || pending.pageSize !== pageSize) return;
      restoring.current = null;
    }
    writePager(persistKey, { pageNum, pageSize });
  }, [persistKey, hasPager, pageNum, pageSize]);

  const changePage = useCallback(
    (page: number, size: number) => {
      restoring.current = null;
      onPageRef.current?.(size !== pageSize ? 1 : page, size);
    },
    [onPageRef, pageSize],
  );

  // ── columns: rebuilt only when the column list, the page or the header searches change ──
  const tableColumns = useMemo<TableColumnsType<Row>>(() => {
    const out: TableColumnsType<Row> = [];
    if (serial) {
      out.push({
        key: '__serial',
        title: TEXTS.serial,
        width: 64,
        align: 'center',
        className: ALIGN_CLASS.center,
        render: (_v, _row, index) => serialOf(pageNum, pageSize, index),
      });
    }
    const sorts = new Set(sortable ?? []);
    for (const col of columns) {
      if (!col.show) continue;
      const align = alignOf(col.listAlignment);
      const searched = headerSearch[col.code];
      const sorted = sorts.has(col.code) && col.type !== 'operations';
      out.push({
        key: col.code,
        dataIndex: col.code,
        title: col.name,
        width: col.width ?? undefined,
        align,
        className: ALIGN_CLASS[align],
        render: cellRenderer<Row>(col, handlers),
        ...(sorted
          ? {
              sorter: true,
              sortDirections: ['ascend', 'descend'] as ('ascend' | 'descend')[],
              sortOrder: sort?.field === col.code ? sort.order : null,
            }
          : {}),
        ...(col.isSearch && col.type !== 'operations'
          ? {
              filtered: Boolean(searched),
              filterIcon: (filtered: boolean) => (
                <SearchOutlined
                  data-testid={`header-search-trigger-${col.code}`}
                  style={{ color: filtered ? '#1677ff' : undefined }}
                />
              ),
              filterDropdown: ({ close }: { close: () => void }) => (
                <HeaderSearch
                  code={col.code}
                  name={col.name}
                  value={searched ?? ''}
                  onApply={applyHeaderSearch}
                  close={close}
                />
              ),
            }
          : {}),
      });
    }
    return out;
  }, [columns, serial, pageNum, pageSize, headerSearch, handlers, applyHeaderSearch, sortable, sort]);

  // a click on a sorter: ascending → descending → off (antd cycles sortDirections, then clears)
  const onChange = useCallback<NonNullable<TableProps<Row>['onChange']>>(
    (pagination, filters, sorter, extra) => {
      tableOnChange.current?.(pagination, filters, sorter, extra);
      if (extra.action !== 'sort') return;
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = s?.columnKey === undefined ? '' : String(s.columnKey);
      onSortRef.current?.(s?.order && field ? { field, order: s.order } : null);
    },
    [tableOnChange, onSortRef],
  );

  const getRowKey = useMemo(() => (typeof rowKey === 'function' ? rowKey : (row: Row) => row[rowKey] as Key), [rowKey]);

  const selection = useMemo<TableProps<Row>['rowSelection']>(
    () =>
      rowSelection
        ? {
            selectedRowKeys: rowSelection.selectedRowKeys,
            onChange: (keys, rows) => rowSelection.onChange(keys, rows),
            getCheckboxProps: rowSelection.disabled
              ? (row) => ({ disabled: rowSelection.disabled?.(row) ?? false })
              : undefined,
          }
        : undefined,
    [rowSelection],
  );

  const locale = useMemo(
    () => ({ emptyText: <Empty compact message={emptyText ?? TEXTS.empty} testId={`${testId}-empty`} /> }),
    [emptyText, testId],
  );

  return (
    <div data-testid={testId}>
      {/* a wide table scrolls in this box: antd's scroll.x costs a measuring pass per render (pass tableProps.scroll
          for a fixed header or fixed columns, or tableProps.virtual for very long pages) */}
      <div style={{ overflowX: 'auto', maxWidth: '100%' }}>
        <Table<Row>
          size="middle"
          bordered
          {...tableProps}
          columns={tableColumns}
          dataSource={data as Row[]}
          rowKey={getRowKey}
          loading={loading}
          pagination={false}
          rowSelection={selection}
          locale={locale}
          onChange={onChange}
        />
      </div>
      {pager ? (
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
          <Pagination
            data-testid={`${testId}-pager`}
            current={pager.pageNum}
            pageSize={pager.pageSize}
            total={pager.total}
            pageSizeOptions={PAGE_SIZE_OPTIONS}
            showSizeChanger
            showQuickJumper
            showTotal={pager.totalCapped ? showCappedTotal : showTotal}
            onChange={changePage}
          />
        </div>
      ) : null}
    </div>
  );
}

export const DynamicTable = memo(DynamicTableInner) as typeof DynamicTableInner;
