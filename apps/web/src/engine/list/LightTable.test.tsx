import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Key, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  estimateRowHeights,
  farColumns,
  firstFarRow,
  gridColumns,
  type LightColumn,
  LightTable,
  type LightTableProps,
  selectionState,
} from './LightTable';
import { renderUi } from './test-utils';

interface Item {
  id: string;
  name: string;
  amount: number;
  locked?: boolean;
}

const ITEMS: Item[] = [
  { id: 'a', name: '甲', amount: 1 },
  { id: 'b', name: '乙', amount: 2, locked: true },
  { id: 'c', name: '丙', amount: 3 },
];

const COLUMNS: LightColumn<Item>[] = [
  { key: 'name', dataIndex: 'name', title: '名称', width: 120 },
  { key: 'amount', dataIndex: 'amount', title: '金额', width: 80, align: 'right', sortable: true },
  { key: 'ops', title: '操作', width: 100, render: (_v, row) => <button type="button">看{row.name}</button> },
];

const rowKey = (row: Item) => row.id;

function renderTable(props: Partial<LightTableProps<Item>> = {}) {
  return renderUi(<LightTable<Item> columns={COLUMNS} data={ITEMS} rowKey={rowKey} {...props} />);
}

const rows = () => [...document.querySelectorAll<HTMLElement>('.ks-table-tbody tr.ks-table-row')];
const checkboxes = () => screen.getAllByRole('checkbox') as HTMLInputElement[];
const selectAll = () => screen.getByRole('checkbox', { name: '全选当前页' }) as HTMLInputElement;

/** A table whose selection is kept by the test, as a page would. */
function Selectable({ initial = [], onChange }: { initial?: Key[]; onChange?: (keys: Key[], rows: Item[]) => void }) {
  const [keys, setKeys] = useState<Key[]>(initial);
  return (
    <LightTable<Item>
      columns={COLUMNS}
      data={ITEMS}
      rowKey={rowKey}
      selection={{
        selectedKeys: keys,
        disabled: (row) => row.locked === true,
        onChange: (next, picked) => {
          setKeys(next);
          onChange?.(next, picked);
        },
      }}
    />
  );
}

describe('LightTable', () => {
  it('renders headings (scope col) and cells from dataIndex or render, with column widths', () => {
    renderTable();
    const headings = [...document.querySelectorAll('thead th')];
    expect(headings.map((th) => th.textContent)).toEqual(['名称', '金额', '操作']);
    expect(headings.every((th) => th.getAttribute('scope') === 'col')).toBe(true);
    expect(rows().map((r) => r.getAttribute('data-row-key'))).toEqual(['a', 'b', 'c']);
    expect(within(rows()[1]).getByRole('button').textContent).toBe('看乙');
    expect(rows()[2].querySelectorAll('td')[1].textContent).toBe('3');
    expect(rows()[0].querySelectorAll('td')[1].className).toContain('ks-align-right');
    // each row is a grid of the column widths, sharing room left in proportion
    const table = screen.getByRole('table');
    expect(table.style.getPropertyValue('--ks-t-cols')).toBe(gridColumns([120, 80, 100]));
    expect(gridColumns([120, 80])).toBe('minmax(120px, 120fr) minmax(80px, 80fr)');
    // the table is at least as wide as its columns (it scrolls sideways in a narrower box)
    expect(table.style.minWidth).toBe('300px');
    // the scroll box holds the table and nothing else
    expect([...(table.parentElement as HTMLElement).childNodes]).toEqual([table]);
  });

  it('estimates each row’s height from its values in its columns (lines of 22 px and the padding)', () => {
    const long = { id: 'x', name: '很'.repeat(20), amount: 1 };
    // 20 characters of 14 px in 120 - 16 px: 3 lines; small rows have 8 px padding, middle 12
    expect(estimateRowHeights([ITEMS[0], long], COLUMNS, 'small')).toEqual([22 + 16 + 1, 3 * 22 + 16 + 1]);
    expect(estimateRowHeights([ITEMS[0]], COLUMNS, 'middle')).toEqual([22 + 24 + 1]);
    renderTable({ data: [long], size: 'small' });
    expect(rows()[0].style.getPropertyValue('contain-intrinsic-size')).toBe('auto 83px');
  });

  it('works out the columns beyond the window’s right edge and the first row below its bottom', () => {
    expect(farColumns([40, 500, 500, 500, 200], 1000, false)).toEqual([false, false, false, true, true]);
    // a column fixed at the right edge is always in view
    expect(farColumns([40, 500, 500, 500, 200], 1000, true)).toEqual([false, false, false, true, false]);
    // rows counted at ¾ of their estimate after the 47 px heading: 47 + 4 × 75 = 347 < 400, the 6th starts at 422
    expect(firstFarRow([100, 100, 100, 100, 100, 100, 100], 47, 400)).toBe(5);
    expect(firstFarRow([100, 100], 47, 400)).toBe(2);
  });

  it('holds back rows below the window and cells of columns beyond it until the first frame is painted', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, name: `名称${i}`, amount: i }));
    const wide: LightColumn<Item>[] = Array.from({ length: 12 }, (_, i) => ({
      key: `c${i}`,
      dataIndex: 'name',
      title: `列${i}`,
      width: 200,
    }));
    renderUi(<LightTable<Item> columns={wide} data={many} rowKey={rowKey} stickyLast />);
    const root = document.querySelector('.ks-table') as HTMLElement;
    // jsdom's window: 1024 × 768; the rows are 47 px (35 counted) after a 47 px heading
    expect(root.className).toContain('ks-table-defer-rows');
    expect(root.className).toContain('ks-table-defer-cols');
    const far = rows().map((r) => r.className.includes('ks-table-row-far'));
    expect(far.indexOf(true)).toBe(21);
    expect(far.slice(21).every(Boolean)).toBe(true);
    const cells = [...rows()[0].querySelectorAll('td')].map((td) => td.className.includes('ks-table-cell-far'));
    expect(cells).toEqual([false, false, false, false, false, false, true, true, true, true, true, false]);
    expect(document.querySelector('thead .ks-table-cell-far')).toBeNull();
    // every cell is in the DOM meanwhile
    expect(document.querySelectorAll('tbody td')).toHaveLength(40 * 12);
    await waitFor(() => expect(root.className).not.toMatch(/ks-table-defer/));
  });

  it('select-all checks every enabled row, is indeterminate for some, and clears them again', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderUi(<Selectable onChange={onChange} />);
    expect(checkboxes()).toHaveLength(4);
    expect(selectAll().checked).toBe(false);
    expect(selectAll().indeterminate).toBe(false);
    // the locked row cannot be chosen
    const rowBoxes = rows().map((r) => within(r).getByRole('checkbox') as HTMLInputElement);
    expect(rowBoxes.map((b) => b.disabled)).toEqual([false, true, false]);
    expect(rowBoxes[0].getAttribute('aria-label')).toBe('选择第 1 行');

    await user.click(rowBoxes[2]);
    expect(onChange).toHaveBeenLastCalledWith(['c'], [ITEMS[2]]);
    expect(selectAll().indeterminate).toBe(true);
    expect(selectAll().getAttribute('aria-checked')).toBe('mixed');
    expect(rows()[2].className).toContain('ks-table-row-selected');

    await user.click(selectAll());
    expect(onChange).toHaveBeenLastCalledWith(['c', 'a'], [ITEMS[2], ITEMS[0]]);
    expect(selectAll().checked).toBe(true);
    expect(selectAll().indeterminate).toBe(false);
    expect(rowBoxes[1].checked).toBe(false);

    await user.click(selectAll());
    expect(onChange).toHaveBeenLastCalledWith([], []);
    expect(selectAll().checked).toBe(false);
  });

  it('controlled: shows the keys passed in, keeps a disabled selected row through select-all, drops unknown keys', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderUi(<Selectable initial={['b', 'gone']} onChange={onChange} />);
    const rowBoxes = rows().map((r) => within(r).getByRole('checkbox') as HTMLInputElement);
    expect(rowBoxes.map((b) => b.checked)).toEqual([false, true, false]);
    // only the disabled row is chosen: none of the enabled ones, so select-all is neither checked nor mixed
    expect(selectAll().indeterminate).toBe(false);
    await user.click(selectAll());
    expect(onChange).toHaveBeenLastCalledWith(['b', 'a', 'c'], [ITEMS[1], ITEMS[0], ITEMS[2]]);
    await user.click(selectAll());
    expect(onChange).toHaveBeenLastCalledWith(['b'], [ITEMS[1]]);
  });

  it('selectionState: all / some count the enabled rows only', () => {
    const sel = (keys: Key[]) => ({ selectedKeys: keys, onChange: () => {}, disabled: (r: Item) => r.locked === true });
    expect(selectionState(ITEMS, rowKey, sel([]))).toMatchObject({ all: false, some: false, enabled: ['a', 'c'] });
    expect(selectionState(ITEMS, rowKey, sel(['a']))).toMatchObject({ all: false, some: true });
    expect(selectionState(ITEMS, rowKey, sel(['a', 'c']))).toMatchObject({ all: true, some: false });
    expect(selectionState([ITEMS[1]], rowKey, sel([]))).toMatchObject({ all: false, some: false, enabled: [] });
  });

  it('a sortable heading is a button (Enter and Space work) with aria-sort on its heading', async () => {
    const user = userEvent.setup();
    const onSort = vi.fn();
    const { rerenderUi } = renderTable({ onSort });
    const heading = () => screen.getByRole('columnheader', { name: /金额/ });
    const sorter = within(heading()).getByRole('button');
    expect(sorter.className).toContain('ks-table-column-sorters');
    expect(sorter.getAttribute('title')).toBe('点击升序');
    expect(heading().getAttribute('aria-sort')).toBeNull();
    expect(within(screen.getByRole('columnheader', { name: '名称' })).queryByRole('button')).toBeNull();

    sorter.focus();
    await user.keyboard('{Enter}');
    expect(onSort).toHaveBeenLastCalledWith('amount');
    await user.keyboard(' ');
    expect(onSort).toHaveBeenCalledTimes(2);

    const sorted = COLUMNS.map((c) => (c.key === 'amount' ? { ...c, sortOrder: 'descend' as const } : c));
    rerenderUi(<LightTable<Item> columns={sorted} data={ITEMS} rowKey={rowKey} onSort={onSort} />);
    expect(heading().getAttribute('aria-sort')).toBe('descending');
    expect(heading().querySelector('.ks-table-caret-down')?.className).toContain('ks-table-caret-on');
    expect(within(heading()).getByRole('button').getAttribute('title')).toBe('取消排序');
  });

  it('the last column sticks to the right edge when asked; the column before it drops its line', () => {
    renderTable({ stickyLast: true });
    const cells = rows()[0].querySelectorAll('td');
    expect(cells[2].className).toContain('ks-table-cell-fix-right');
    expect(cells[1].className).toContain('ks-table-cell-fix-right-prev');
    expect(document.querySelector('thead th:last-child')?.className).toContain('ks-table-cell-fix-right');
    expect(document.querySelector('.ks-table')?.className).toContain('ks-table-sticky-last');
  });

  it('a fixed last column keeps the cells it would cover out from under it when they are brought into view', () => {
    renderTable({ stickyLast: true });
    // scroll padding as wide as the fixed column: focus and scrollIntoView stop left of it
    const box = document.querySelector('.ks-table-scroll') as HTMLElement;
    expect(box.style.getPropertyValue('scroll-padding-inline-end')).toBe('100px');
    cleanup();
    renderTable();
    expect(
      (document.querySelector('.ks-table-scroll') as HTMLElement).style.getPropertyValue('scroll-padding-inline-end'),
    ).toBe('');
  });

  it('without stickyLast no column sticks', () => {
    renderTable();
    expect(document.querySelector('.ks-table-cell-fix-right')).toBeNull();
  });

  it('no rows: one cell across the columns with the empty content', () => {
    renderTable({ data: [], empty: <span data-testid="nothing">暂无数据</span>, selection: undefined });
    const cell = document.querySelector('.ks-table-placeholder td') as HTMLTableCellElement;
    expect(cell.colSpan).toBe(3);
    expect(within(cell).getByTestId('nothing').textContent).toBe('暂无数据');
    expect(rows()).toHaveLength(0);
  });

  it('loading shows the spinner over the table and marks it busy', () => {
    renderTable({ loading: true });
    expect(document.querySelector('.ant-spin-spinning')).not.toBeNull();
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('size and bordered set the look; onRow and rowClassName reach the rows', () => {
    const onClick = vi.fn();
    renderTable({
      size: 'small',
      bordered: false,
      onRow: (row) => ({ onClick: () => onClick(row.id) }),
      rowClassName: (row) => (row.locked ? 'is-locked' : ''),
    });
    const root = document.querySelector('.ks-table') as HTMLElement;
    expect(root.className).toContain('ks-table-small');
    expect(root.className).not.toContain('ks-table-bordered');
    expect(rows()[1].className).toContain('is-locked');
    fireEvent.click(rows()[2].querySelector('td') as HTMLElement);
    expect(onClick).toHaveBeenCalledWith('c');
  });

  it('scroll.x widens the table; scroll.y limits the body and fixes the header', () => {
    renderTable({ scroll: { x: 900, y: 240 } });
    expect((document.querySelector('table') as HTMLElement).style.minWidth).toBe('900px');
    expect((document.querySelector('.ks-table-scroll') as HTMLElement).style.maxHeight).toBe('240px');
    expect(document.querySelector('.ks-table')?.className).toContain('ks-table-fixed-header');
  });

  it('choosing a row re-renders that row only, and a new sort order on a heading re-renders no row', async () => {
    const user = userEvent.setup();
    const render = vi.fn((value: unknown) => String(value));
    const columns: LightColumn<Item>[] = [{ ...COLUMNS[0], render }, COLUMNS[1]];
    function Page() {
      const [keys, setKeys] = useState<Key[]>([]);
      const [order, setOrder] = useState<'ascend' | null>(null);
      const cols = columns.map((c) => (c.key === 'amount' ? { ...c, sortOrder: order } : c));
      return (
        <LightTable<Item>
          columns={cols}
          data={ITEMS}
          rowKey={rowKey}
          onSort={() => setOrder('ascend')}
          selection={{ selectedKeys: keys, onChange: (next) => setKeys(next) }}
        />
      );
    }
    renderUi(<Page />);
    expect(render).toHaveBeenCalledTimes(3);
    await user.click(within(rows()[1]).getByRole('checkbox'));
    expect(render).toHaveBeenCalledTimes(4);
    expect(render).toHaveBeenLastCalledWith('乙', ITEMS[1], 1);
    await user.click(screen.getByRole('button', { name: /金额/ }));
    expect(screen.getByRole('columnheader', { name: /金额/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(render).toHaveBeenCalledTimes(4);
  });
});
