import { Spin } from 'antd';
import {
  type CSSProperties,
  type HTMLAttributes,
  type Key,
  type KeyboardEvent,
  memo,
  type ReactNode,
  startTransition,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import './LightTable.css';
import { lineCount, valueText } from './measure';

/**
 * A lightweight HTML table for the list pages (antd's Table costs about 0.17 ms per cell: 450 ms for 50 × 50). Plain
 * <table> markup whose rows are laid out as grids of the configured column widths (browsers keep the table's
 * semantics); a row far out of view is laid out and painted only when scrolled near (content-visibility: auto,
 * with a height estimated from its values meanwhile), while the whole table stays in the DOM (find in page, screen
 * readers, tests). The first frame of new rows lays out only what can be in view: rows below the window (by their
 * estimated heights) and cells of columns beyond its right edge (by the column widths) are held back
 * (content-visibility: hidden) until that frame is painted, and laid out in the frame after. Dense and bordered like
 * antd's small table, styled with antd's CSS variables (so it follows the light and dark themes). Only one-per-table pieces come from antd (the loading Spin, mounted while loading).
 */

export type SortOrder = 'ascend' | 'descend';
export type CellAlign = 'left' | 'right' | 'center';

export interface LightColumn<Row> {
  key: string;
  title: ReactNode;
  /** the row field shown (the value passed to render); none: render gets undefined */
  dataIndex?: string;
  width?: number;
  align?: CellAlign;
  /** on the heading and every cell of the column */
  className?: string;
  render?: (value: unknown, row: Row, index: number) => ReactNode;
  /** the heading sorts: a click (or Enter / Space) calls the table's onSort with the column key */
  sortable?: boolean;
  /** the column's current order (shown on its heading and as aria-sort) */
  sortOrder?: SortOrder | null;
  /** after the title in the heading, e.g. a search trigger; clicks on it do not sort */
  headerExtra?: ReactNode;
}

export interface LightSelection<Row> {
  /** the selected keys (controlled) */
  selectedKeys: readonly Key[];
  /** a row or the select-all checkbox changed: the keys now selected (of the rows shown) and their rows */
  onChange: (keys: Key[], rows: Row[]) => void;
  /** rows whose checkbox is disabled */
  disabled?: (row: Row) => boolean;
}

export interface LightTableProps<Row> {
  columns: readonly LightColumn<Row>[];
  data: readonly Row[];
  rowKey: (row: Row) => Key;
  /** cell padding as antd's table sizes: small 8, middle 12 × 8, large 16 (default middle) */
  size?: 'small' | 'middle' | 'large';
  /** lines between the columns too (default true) */
  bordered?: boolean;
  loading?: boolean;
  /** shown in one cell across the table when there are no rows */
  empty?: ReactNode;
  /** a checkbox column first, with select-all in its heading */
  selection?: LightSelection<Row>;
  onSort?: (key: string) => void;
  /** the last column stays at the right edge while the table scrolls sideways (e.g. the operations) */
  stickyLast?: boolean;
  /** x: the table's least width (it scrolls sideways in a narrower box); y: the body's greatest height */
  scroll?: { x?: number | string | true; y?: number | string };
  onRow?: (row: Row, index: number) => HTMLAttributes<HTMLTableRowElement>;
  rowClassName?: string | ((row: Row, index: number) => string);
  showHeader?: boolean;
  className?: string;
  style?: CSSProperties;
  /** the accessible name of the table */
  label?: string;
}

/** Cell padding (block, inline) of each size, as antd's table. */
const PADDING = { small: [8, 8], middle: [12, 8], large: [16, 16] } as const;
/** A line of 14 px text in a cell. */
const LINE_HEIGHT = 22;

/**
 * The likely height of each row from its values' lengths in their columns' widths: a row out of view takes this
 * height until it is laid out, so the table is about as tall as it will be (and the browser lays out only the rows
 * near the view).
 */
export function estimateRowHeights<Row>(
  data: readonly Row[],
  columns: readonly LightColumn<Row>[],
  size: keyof typeof PADDING,
): number[] {
  const [padY, padX] = PADDING[size];
  const measured = columns.filter((c) => c.dataIndex !== undefined);
  return data.map((row) => {
    const record = row as Record<string, unknown>;
    let lines = 1;
    for (const col of measured) {
      lines = Math.max(
        lines,
        lineCount(valueText(record[col.dataIndex as string]), (col.width ?? MIN_AUTO_WIDTH) - 2 * padX),
      );
    }
    return lines * LINE_HEIGHT + 2 * padY + 1;
  });
}

/** Width of the selection column. */
export const SELECTION_WIDTH = 40;
/** A column without a width gets at least this much before the table scrolls sideways. */
const MIN_AUTO_WIDTH = 100;

const SORT_TITLES = { none: '点击升序', ascend: '点击降序', descend: '取消排序' } as const;
const ARIA_SORT = { ascend: 'ascending', descend: 'descending' } as const;
const ALIGN_CLASS: Record<CellAlign, string> = {
  left: 'ks-align-left',
  right: 'ks-align-right',
  center: 'ks-align-center',
};

/** The selection state of the rows shown: enabled keys, selected ones, and the select-all checkbox. */
export function selectionState<Row>(data: readonly Row[], rowKey: (row: Row) => Key, selection: LightSelection<Row>) {
  const selected = new Set(selection.selectedKeys);
  const enabled: Key[] = [];
  for (const row of data) {
    if (!selection.disabled?.(row)) enabled.push(rowKey(row));
  }
  const checkedCount = enabled.filter((k) => selected.has(k)).length;
  const all = enabled.length > 0 && checkedCount === enabled.length;
  return { selected, enabled, all, some: checkedCount > 0 && !all };
}

/** The keys (and rows) selected after a change, kept to the rows shown, in the order they were chosen (as antd). */
function report<Row>(data: readonly Row[], rowKey: (row: Row) => Key, keys: Iterable<Key>, sel: LightSelection<Row>) {
  const byKey = new Map<Key, Row>();
  for (const row of data) byKey.set(rowKey(row), row);
  const outKeys: Key[] = [];
  const outRows: Row[] = [];
  for (const key of keys) {
    const row = byKey.get(key);
    if (row !== undefined) {
      outKeys.push(key);
      outRows.push(row);
    }
  }
  sel.onChange(outKeys, outRows);
}

interface BodyRowProps<Row> {
  row: Row;
  index: number;
  rowKey: Key;
  columns: readonly LightColumn<Row>[];
  /** selection column: checked, disabled; undefined without selection */
  checked?: boolean;
  checkDisabled?: boolean;
  onCheck?: (row: Row, checked: boolean) => void;
  extra?: HTMLAttributes<HTMLTableRowElement>;
  className?: string;
  /** the row's likely height (px) before it is laid out */
  estimate: number;
}

function BodyRowInner<Row>({
  row,
  index,
  rowKey,
  columns,
  checked,
  checkDisabled,
  onCheck,
  extra,
  className,
  estimate,
}: BodyRowProps<Row>) {
  const cls = `ks-table-row${checked ? ' ks-table-row-selected' : ''}${className ? ` ${className}` : ''}`;
  const record = row as Record<string, unknown>;
  return (
    <tr
      {...extra}
      className={extra?.className ? `${cls} ${extra.className}` : cls}
      style={
        { containIntrinsicSize: `auto ${estimate}px`, '--ks-row-h': `${estimate}px`, ...extra?.style } as CSSProperties
      }
      data-row-key={String(rowKey)}
    >
      {onCheck ? (
        <td className="ks-table-cell ks-table-selection-cell">
          <input
            type="checkbox"
            className="ks-table-checkbox"
            checked={checked}
            disabled={checkDisabled}
            aria-label={`选择第 ${index + 1} 行`}
            onChange={(e) => onCheck(row, e.target.checked)}
          />
        </td>
      ) : null}
      {columns.map((col) => {
        const value = col.dataIndex === undefined ? undefined : record[col.dataIndex];
        return (
          <td key={col.key} className={col.className}>
            {col.render ? col.render(value, row, index) : (value as ReactNode)}
          </td>
        );
      })}
    </tr>
  );
}

const BodyRow = memo(BodyRowInner) as typeof BodyRowInner;

function SelectAll({
  all,
  some,
  disabled,
  onChange,
}: {
  all: boolean;
  some: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="ks-table-checkbox"
      checked={all}
      disabled={disabled}
      aria-label="全选当前页"
      aria-checked={some ? 'mixed' : all}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

function SortCarets({ order }: { order: SortOrder | null | undefined }) {
  return (
    <span className="ks-table-sorter" aria-hidden>
      <span className={`ks-table-caret ks-table-caret-up${order === 'ascend' ? ' ks-table-caret-on' : ''}`} />
      <span className={`ks-table-caret ks-table-caret-down${order === 'descend' ? ' ks-table-caret-on' : ''}`} />
    </span>
  );
}

/**
 * Runs `fn` once the frame after now has been painted (a frame, then a task), unless cancelled: work that can wait
 * until the user sees the new content.
 */
export function afterNextFrame(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * Which columns start beyond the right edge of the window (the table's left edge taken at the window's, unscrolled):
 * their body cells are held back in the first frame of new rows. The last column is never held back when it is
 * fixed at the right edge.
 */
export function farColumns(widths: readonly number[], viewWidth: number, stickyLast: boolean): boolean[] {
  let left = 0;
  return widths.map((w, i) => {
    const far = left >= viewWidth && !(stickyLast && i === widths.length - 1);
    left += w;
    return far;
  });
}

/**
 * The first row that cannot be in view in a window `viewHeight` px tall from the table's top, counting each row at
 * ¾ of its estimated height (estimates can run high; a row held back by mistake would be blank for a frame).
 */
export function firstFarRow(estimates: readonly number[], headHeight: number, viewHeight: number): number {
  let top = headHeight;
  for (let i = 0; i < estimates.length; i++) {
    if (top >= viewHeight) return i;
    top += estimates[i] * 0.75;
  }
  return estimates.length;
}

/** The column classes every cell of a column carries (worked out once per column list, not per cell). */
function cellClass(col: LightColumn<unknown>, i: number, count: number, stickyLast: boolean) {
  let cls = ALIGN_CLASS[col.align ?? 'left'];
  if (col.className) cls += ` ${col.className}`;
  if (i === count - 1) cls += stickyLast ? ' ks-table-cell-last ks-table-cell-fix-right' : ' ks-table-cell-last';
  else if (stickyLast && i === count - 2) cls += ' ks-table-cell-fix-right-prev';
  return cls;
}

/** The grid tracks of the rows: each column at least its width, sharing any room left in proportion to it. */
export function gridColumns(widths: readonly number[]): string {
  return widths.map((w) => `minmax(${w}px, ${w}fr)`).join(' ');
}

const stopKeys = (e: KeyboardEvent) => e.stopPropagation();

function LightTableInner<Row>(props: LightTableProps<Row>) {
  const {
    columns,
    data,
    rowKey,
    size = 'middle',
    bordered = true,
    loading = false,
    empty,
    selection,
    onSort,
    stickyLast = false,
    scroll,
    onRow,
    rowClassName,
    showHeader = true,
    className,
    style,
    label,
  } = props;

  const hasSelection = selection !== undefined;
  const widths = useMemo(() => {
    const w = columns.map((col) => col.width ?? MIN_AUTO_WIDTH);
    if (hasSelection) w.unshift(SELECTION_WIDTH);
    return w;
  }, [columns, hasSelection]);
  // the body's columns, each with its classes worked out once: rows re-render only when these or their row change
  const viewWidth = typeof window === 'undefined' ? Number.POSITIVE_INFINITY : window.innerWidth;
  const bodyColumns = useMemo(() => {
    const far = farColumns(widths, viewWidth, stickyLast);
    const offset = widths.length - columns.length;
    return columns.map((col, i) => {
      const cls = cellClass(col as LightColumn<unknown>, i, columns.length, stickyLast);
      return {
        ...col,
        className: `ks-table-cell ${cls}${far[i + offset] ? ' ks-table-cell-far' : ''}`,
        headClass: `ks-table-cell ks-table-th ${cls}`,
      };
    });
  }, [columns, widths, stickyLast, viewWidth]);
  // keep the same body columns while only the headings changed (sort order, header extras): rows need not re-render
  const stableBody = useRef(bodyColumns);
  const sameBody =
    stableBody.current.length === bodyColumns.length &&
    stableBody.current.every((c, i) => {
      const n = bodyColumns[i];
      return c.key === n.key && c.render === n.render && c.className === n.className && c.dataIndex === n.dataIndex;
    });
  if (!sameBody) stableBody.current = bodyColumns;
  const rowColumns = stableBody.current;

  const tableStyle = useMemo(() => {
    const sum = widths.reduce((a, b) => a + b, 0);
    const minWidth = typeof scroll?.x === 'number' ? Math.max(sum, scroll.x) : sum;
    return { minWidth, '--ks-t-cols': gridColumns(widths) } as CSSProperties;
  }, [widths, scroll?.x]);
  // the fixed last column covers the scroll box's right edge: bringing a cell into view (focus, scrollIntoView) must
  // bring it left of that column, not under it
  const scrollStyle = useMemo(() => {
    const s: CSSProperties = {};
    if (scroll?.y !== undefined) s.maxHeight = scroll.y;
    if (stickyLast) s.scrollPaddingInlineEnd = widths[widths.length - 1];
    return s;
  }, [scroll?.y, stickyLast, widths]);

  // ── selection ──
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const dataRef = useRef(data);
  dataRef.current = data;
  const rowKeyRef = useRef(rowKey);
  rowKeyRef.current = rowKey;
  const state = selection ? selectionState(data, rowKey, selection) : null;
  const onCheck = useMemo(
    () =>
      hasSelection
        ? (row: Row, checked: boolean) => {
            const sel = selectionRef.current;
            if (!sel) return;
            const key = rowKeyRef.current(row);
            const keys = new Set(sel.selectedKeys);
            if (checked) keys.add(key);
            else keys.delete(key);
            report(dataRef.current, rowKeyRef.current, keys, sel);
          }
        : undefined,
    [hasSelection],
  );
  const onCheckAll = (checked: boolean) => {
    if (!selection || !state) return;
    const keys = new Set(selection.selectedKeys);
    for (const k of state.enabled) {
      if (checked) keys.add(k);
      else keys.delete(k);
    }
    report(data, rowKey, keys, selection);
  };

  const empty0 = data.length === 0;
  const estimates = useMemo(() => estimateRowHeights(data, columns, size), [data, columns, size]);

  // ── the first frame of new rows: rows below the window and columns beyond its right edge are held back until it
  //    is painted (they are in the DOM; the browser lays them out in the frame after) ──
  const rootRef = useRef<HTMLDivElement>(null);
  const scrolledX = useRef(false);
  const [settledData, setSettledData] = useState<readonly Row[] | null>(null);
  const settling = settledData !== data && !empty0;
  const farRow = useMemo(() => {
    if (typeof window === 'undefined') return data.length;
    // the table's top in the window: 0 before it is on the page (it cannot start above the window's top then)
    const top = rootRef.current ? rootRef.current.getBoundingClientRect().top : 0;
    const headHeight = showHeader ? LINE_HEIGHT + 2 * PADDING[size][0] + 1 : 0;
    return firstFarRow(estimates, headHeight, window.innerHeight - top);
  }, [estimates, data.length, showHeader, size]);
  useEffect(() => {
    if (!settling) return;
    return afterNextFrame(() => startTransition(() => setSettledData(data)));
  }, [settling, data]);
  // columns are held back only while the table is scrolled to its left edge (as the far columns were worked out)
  const deferCols = settling && !scrolledX.current;

  const rootCls = `ks-table ks-table-${size}${settling ? ' ks-table-defer-rows' : ''}${deferCols ? ' ks-table-defer-cols' : ''}${loading ? ' ks-table-loading-on' : ''}${bordered ? ' ks-table-bordered' : ''}${stickyLast ? ' ks-table-sticky-last' : ''}${scroll?.y !== undefined ? ' ks-table-fixed-header' : ''}${className ? ` ${className}` : ''}`;
  const colCount = columns.length + (selection ? 1 : 0);

  return (
    <div className={rootCls} style={style} ref={rootRef}>
      <div
        className="ks-table-scroll"
        style={scrollStyle}
        onScroll={(e) => {
          scrolledX.current = e.currentTarget.scrollLeft > 0;
        }}
      >
        <table className="ks-table-table" style={tableStyle} aria-label={label} aria-busy={loading || undefined}>
          {showHeader ? (
            <thead className="ks-table-thead">
              <tr className="ks-table-head-row">
                {selection && state ? (
                  <th scope="col" className="ks-table-cell ks-table-th ks-table-selection-cell">
                    <SelectAll
                      all={state.all}
                      some={state.some}
                      disabled={state.enabled.length === 0}
                      onChange={onCheckAll}
                    />
                  </th>
                ) : null}
                {columns.map((col, i) => {
                  const sorted = col.sortable ? (col.sortOrder ?? null) : null;
                  const cls = `${bodyColumns[i].headClass}${col.sortable ? ' ks-table-column-has-sorters' : ''}${sorted ? ' ks-table-column-sort' : ''}`;
                  const title = col.sortable ? (
                    <button
                      type="button"
                      className="ks-table-column-sorters"
                      title={SORT_TITLES[sorted ?? 'none']}
                      onClick={() => onSort?.(col.key)}
                    >
                      <span className="ks-table-column-title">{col.title}</span>
                      <SortCarets order={sorted} />
                    </button>
                  ) : (
                    <span className="ks-table-column-title">{col.title}</span>
                  );
                  return (
                    <th key={col.key} scope="col" className={cls} aria-sort={sorted ? ARIA_SORT[sorted] : undefined}>
                      {col.headerExtra ? (
                        <div className="ks-table-th-inner">
                          {title}
                          {/* biome-ignore lint/a11y/noStaticElementInteractions: keeps keys of the extra's controls from the heading */}
                          <span className="ks-table-th-extra" onKeyDown={stopKeys}>
                            {col.headerExtra}
                          </span>
                        </div>
                      ) : (
                        title
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
          ) : null}
          <tbody className="ks-table-tbody">
            {empty0 ? (
              <tr className="ks-table-placeholder">
                <td className="ks-table-cell ks-table-placeholder-cell" colSpan={colCount}>
                  <div className="ks-table-placeholder-inner">{empty}</div>
                </td>
              </tr>
            ) : (
              data.map((row, index) => {
                const key = rowKey(row);
                const cls = typeof rowClassName === 'function' ? rowClassName(row, index) : rowClassName;
                return (
                  <BodyRow<Row>
                    key={key}
                    row={row}
                    index={index}
                    rowKey={key}
                    columns={rowColumns}
                    checked={state ? state.selected.has(key) : undefined}
                    checkDisabled={selection?.disabled?.(row)}
                    onCheck={onCheck}
                    extra={onRow?.(row, index)}
                    className={index >= farRow ? (cls ? `${cls} ks-table-row-far` : 'ks-table-row-far') : cls}
                    estimate={estimates[index]}
                  />
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {/* loading: the table dimmed under antd's spinner, mounted only then (the table itself stays in place) */}
      {loading ? (
        <div className="ks-table-loading">
          <Spin />
        </div>
      ) : null}
    </div>
  );
}

export const LightTable = memo(LightTableInner) as typeof LightTableInner;
