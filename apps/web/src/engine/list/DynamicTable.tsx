import { DownOutlined, LeftOutlined, RightOutlined, SearchOutlined } from '@ant-design/icons';
import { PAGE_SIZES, type TableColumn } from '@ks/contracts';
import { Button, Input, type InputRef, Pagination, Popover, Space } from 'antd';
import { type Key, memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { type CellHandlers, cellRenderer, type TableRow } from './cells';
import { TEXTS } from './constants';
import { type PagerState, readPager, useLatest, writePager } from './hooks';
import { type LightColumn, type LightSelection, LightTable, type LightTableProps } from './LightTable';
import './DynamicTable.css';

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
  /** the table's look and row hooks (size, bordered, scroll.x / scroll.y, onRow, rowClassName …) */
  tableProps?: DynamicTableOptions<Row>;
  /** an operations column shown last stays at the right edge while the table scrolls sideways (default true) */
  stickyOperations?: boolean;
  testId?: string;
}

/** The table options DynamicTable passes on (the antd Table props the pages used, on the light table). */
export type DynamicTableOptions<Row> = Pick<
  LightTableProps<Row>,
  'size' | 'bordered' | 'scroll' | 'onRow' | 'rowClassName' | 'showHeader' | 'className' | 'style'
>;

interface HeaderSearchProps {
  code: string;
  name: string;
  value: string;
  onApply: (code: string, value: string) => void;
  close: () => void;
}

/** The search popover of a searchable column: an input with 搜索 and 重置 (Enter searches, Escape closes). */
function HeaderSearch({ code, name, value, onApply, close }: HeaderSearchProps) {
  const [text, setText] = useState(value);
  const input = useRef<InputRef>(null);
  // into the input once the popover is shown (it is placed after mounting)
  useEffect(() => {
    const t = setTimeout(() => input.current?.focus({ preventScroll: true }), 0);
    return () => clearTimeout(t);
  }, []);
  const apply = () => {
    onApply(code, text.trim());
    close();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keeps keys typed in the input away from the table
    <div
      style={{ width: 220 }}
      data-testid={`header-search-${code}`}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') close();
      }}
    >
      <Input
        ref={input}
        size="small"
        placeholder={`请输入${name}`}
        aria-label={name}
        value={text}
        allowClear
        onChange={(e) => setText(e.target.value)}
        onPressEnter={(e) => {
          // no keypress after it: focus goes back to the search button, which Enter would press again
          e.preventDefault();
          apply();
        }}
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

/**
 * The search button of a searchable column's heading (highlighted while the column is searched) and its popover. The
 * antd popover is mounted at the first click, not with the table (a page has several searchable columns).
 */
function HeaderSearchTrigger(props: Omit<HeaderSearchProps, 'close'>) {
  const { code, name, value } = props;
  const [open, setOpen] = useState(false);
  const [armed, setArmed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus({ preventScroll: true });
  }, []);
  const trigger = (
    <button
      ref={button}
      type="button"
      className={value ? 'ks-table-filter-trigger ks-table-filter-trigger-on' : 'ks-table-filter-trigger'}
      aria-label={`搜索${name}${value ? `（${value}）` : ''}`}
      aria-haspopup="dialog"
      aria-expanded={open}
      data-testid={`header-search-trigger-${code}`}
      onClick={
        armed
          ? undefined
          : () => {
              setArmed(true);
              setOpen(true);
            }
      }
    >
      <SearchOutlined />
    </button>
  );
  if (!armed) return trigger;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      arrow={false}
      destroyOnHidden
      content={<HeaderSearch {...props} close={close} />}
    >
      {trigger}
    </Popover>
  );
}

/** The 序号 column. */
const SERIAL_WIDTH = 64;
const PAGE_SIZE_OPTIONS = PAGE_SIZES.map(String);
/** The pager's total text: 共 n 条, or 共 n+ 条 when the server stopped counting at n. */
export const totalText = (total: number, capped = false) => `共 ${total}${capped ? '+' : ''} 条`;
const showTotal = (total: number) => totalText(total);
const showCappedTotal = (total: number) => totalText(total, true);

/** The page numbers antd's Pagination shows (5 around the current, the first and last, ••• between). */
export function pagerItems(current: number, pages: number): (number | 'prev5' | 'next5')[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  let left = Math.max(1, current - 2);
  let right = Math.min(current + 2, pages);
  if (current - 1 <= 2) right = 5;
  if (pages - current <= 2) left = pages - 4;
  const jumpPrev = current - 1 >= 4 && current !== 3;
  const jumpNext = pages - current >= 4 && current !== pages - 2;
  if (jumpPrev && right !== pages) left += 1;
  if (jumpNext && left !== 1) right -= 1;
  const out: (number | 'prev5' | 'next5')[] = [];
  for (let i = left; i <= right; i++) out.push(i);
  if (jumpPrev) out.unshift('prev5');
  if (jumpNext) out.push('next5');
  if (left !== 1) out.unshift(1);
  if (right !== pages) out.push(pages);
  return out;
}

/** antd's size select, opened and focused: the pager became antd's by a click or key on the light copy's select. */
const SIZES_OPEN = { defaultOpen: true, autoFocus: true } as const;

/**
 * The pager as plain markup, laid out and styled like antd's Pagination (total, prev, pages, next, size, jumper),
 * until the size select is used: antd's Pagination (its styles made the first time were the most costly part of a
 * cold table) replaces it then, with the select open. Pages, prev, next, ••• (a click on an item — its title is the
 * page, as antd's — or Enter on its button) and the jumper (Enter or leaving it, as antd's) work here.
 */
function PagerPreview({
  pager,
  testId,
  onChange,
  onSizes,
}: {
  pager: TablePager;
  testId: string;
  onChange: (page: number, size: number) => void;
  /** the size select was pressed: show antd's pager with it open */
  onSizes: () => void;
}) {
  const { pageNum, pageSize, total } = pager;
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  const current = Math.min(Math.max(1, pageNum), pages);
  const [jump, setJump] = useState('');
  const jumpTo = () => {
    if (jump === '') return;
    setJump('');
    const n = Number(jump);
    if (!Number.isInteger(n)) return;
    const page = Math.min(Math.max(1, n), pages);
    if (page !== current) onChange(page, pageSize);
  };
  const item = (page: number, cls: string, title: string, content: ReactNode, label?: string) => {
    const off = page === current || page < 1 || page > pages;
    return (
      <li key={title} className={cls} title={title} data-page={off ? undefined : page}>
        <button
          type="button"
          aria-label={label}
          aria-current={cls.includes('active') ? 'page' : undefined}
          disabled={off && !cls.includes('active')}
        >
          {content}
        </button>
      </li>
    );
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the items' buttons take the keys (their clicks reach the list)
    <ul
      className="ks-pager"
      data-testid={testId}
      onClick={(e) => {
        const page = (e.target as HTMLElement).closest<HTMLElement>('[data-page]')?.dataset.page;
        if (page) onChange(Number(page), pageSize);
      }}
    >
      <li className="ks-pager-total">{totalText(total, pager.totalCapped)}</li>
      {item(
        current - 1,
        `ks-pager-item ks-pager-arrow${current <= 1 ? ' ks-pager-disabled' : ''}`,
        '上一页',
        <LeftOutlined />,
        'prev page',
      )}
      {pagerItems(current, pages).map((p) =>
        typeof p === 'number'
          ? item(p, `ks-pager-item${p === current ? ' ks-pager-active' : ''}`, String(p), p)
          : p === 'prev5'
            ? item(Math.max(1, current - 5), 'ks-pager-item ks-pager-jump', '向前 5 页', '•••')
            : item(Math.min(pages, current + 5), 'ks-pager-item ks-pager-jump', '向后 5 页', '•••'),
      )}
      {item(
        current + 1,
        `ks-pager-item ks-pager-arrow${current >= pages ? ' ks-pager-disabled' : ''}`,
        '下一页',
        <RightOutlined />,
        'next page',
      )}
      <li className="ks-pager-options">
        <span
          role="combobox"
          tabIndex={0}
          aria-label="页码"
          aria-expanded={false}
          aria-haspopup="listbox"
          className="ks-pager-select"
          onMouseDown={(e) => {
            e.preventDefault();
            onSizes();
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
            e.preventDefault();
            onSizes();
          }}
        >
          {pageSize} 条/页
          <DownOutlined />
        </span>
        {total > pageSize ? (
          <span className="ks-pager-jumper">
            跳至
            <input
              type="text"
              className="ks-pager-input"
              aria-label="页"
              value={jump}
              onChange={(e) => setJump(e.target.value)}
              onKeyUp={(e) => {
                if (e.key === 'Enter') jumpTo();
              }}
              onBlur={jumpTo}
            />
            页
          </span>
        ) : null}
      </li>
    </ul>
  );
}

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
    stickyOperations = true,
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
  const sortRef = useLatest(sort);

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

  // ── columns: the cell renderers are made once per column list (the rows re-render only when they change);
  //    the headings follow the sort and the header searches ──
  const shown = useMemo(() => columns.filter((c) => c.show), [columns]);
  const renderers = useMemo(() => shown.map((col) => cellRenderer<Row>(col, handlers)), [shown, handlers]);
  const serialRender = useCallback(
    (_v: unknown, _row: Row, index: number) => serialOf(pageNum, pageSize, index),
    [pageNum, pageSize],
  );
  const tableColumns = useMemo<LightColumn<Row>[]>(() => {
    const out: LightColumn<Row>[] = [];
    if (serial) {
      out.push({
        key: '__serial',
        title: TEXTS.serial,
        width: SERIAL_WIDTH,
        align: 'center',
        render: serialRender,
      });
    }
    const sorts = new Set(sortable ?? []);
    shown.forEach((col, i) => {
      const align = alignOf(col.listAlignment);
      const searchable = col.isSearch && col.type !== 'operations';
      const sorted = sorts.has(col.code) && col.type !== 'operations';
      out.push({
        key: col.code,
        dataIndex: col.code,
        title: col.name,
        width: col.width ?? undefined,
        align,
        render: renderers[i],
        sortable: sorted,
        sortOrder: sorted && sort?.field === col.code ? sort.order : null,
        headerExtra: searchable ? (
          <HeaderSearchTrigger
            code={col.code}
            name={col.name}
            value={headerSearch[col.code] ?? ''}
            onApply={applyHeaderSearch}
          />
        ) : undefined,
      });
    });
    return out;
  }, [shown, renderers, serial, serialRender, headerSearch, applyHeaderSearch, sortable, sort]);

  // a click on a sorter: ascending → descending → off; another column starts ascending
  const onSort = useCallback(
    (field: string) => {
      const current = sortRef.current;
      let next: TableSort | null = { field, order: 'ascend' };
      if (current?.field === field) next = current.order === 'ascend' ? { field, order: 'descend' } : null;
      onSortRef.current?.(next);
    },
    [sortRef, onSortRef],
  );

  const getRowKey = useMemo(() => (typeof rowKey === 'function' ? rowKey : (row: Row) => row[rowKey] as Key), [rowKey]);

  // selection: controlled by selectedRowKeys, else kept here
  const [ownKeys, setOwnKeys] = useState<Key[]>([]);
  const selection = useMemo<LightSelection<Row> | undefined>(() => {
    if (!rowSelection) return undefined;
    const controlled = rowSelection.selectedRowKeys !== undefined;
    return {
      selectedKeys: rowSelection.selectedRowKeys ?? ownKeys,
      onChange: (keys, rows) => {
        if (!controlled) setOwnKeys(keys);
        rowSelection.onChange(keys, rows);
      },
      disabled: rowSelection.disabled,
    };
  }, [rowSelection, ownKeys]);

  const empty = useMemo(
    () => <Empty compact message={emptyText ?? TEXTS.empty} testId={`${testId}-empty`} />,
    [emptyText, testId],
  );
  const stickyLast = stickyOperations && shown[shown.length - 1]?.type === 'operations';

  // antd's Pagination once its size select is used (a light copy until then)
  const [pagerLive, setPagerLive] = useState(false);
  const wakePager = useCallback(() => setPagerLive(true), []);

  return (
    <div data-testid={testId}>
      <LightTable<Row>
        {...tableProps}
        columns={tableColumns}
        data={data}
        rowKey={getRowKey}
        loading={loading}
        selection={selection}
        onSort={onSort}
        stickyLast={stickyLast}
        empty={empty}
      />
      {pager && !pagerLive ? (
        <div className="ks-pager-row">
          <PagerPreview pager={pager} testId={`${testId}-pager`} onChange={changePage} onSizes={wakePager} />
        </div>
      ) : null}
      {pager && pagerLive ? (
        <div className="ks-pager-row">
          <Pagination
            data-testid={`${testId}-pager`}
            current={pager.pageNum}
            pageSize={pager.pageSize}
            total={pager.total}
            pageSizeOptions={PAGE_SIZE_OPTIONS}
            showSizeChanger={SIZES_OPEN}
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
