import type { TableColumn } from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableRow } from './cells';
import { PAGER_SESSION_KEY } from './constants';
import { alignOf, DynamicTable, type DynamicTableProps, pagerItems, serialOf, type TableSort } from './DynamicTable';
import { readPager, writePager } from './hooks';
import { renderUi } from './test-utils';

/** antd's Pagination, once it has replaced the light copy (its size select was used). */
const livePager = () =>
  waitFor(() => {
    const pager = screen.getByTestId('dynamic-table-pager');
    expect(pager.className).toContain('ant-pagination');
    return pager;
  });

const col = (code: string, name: string, extra: Partial<TableColumn> = {}): TableColumn => ({
  code,
  name,
  type: 'text',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: null,
  ...extra,
});

const ops = [
  { code: 'edit', name: '编辑', color: '#409EFF', show: true },
  { code: 'delete', name: '删除', color: '#F56C6C', show: true },
  { code: 'audit', name: '审核', color: '#E6A23C', show: false },
];

const COLUMNS: TableColumn[] = [
  col('name', '名称', { isSearch: true, listAlignment: '左对齐', width: 160 }),
  col('amount', '金额', { listAlignment: '右对齐' }),
  col('hidden', '隐藏列', { show: false }),
  col('status', '状态', { type: 'status' }),
  col('icon', '图标状态', { type: 'statusIcon' }),
  col('file', '附件', { type: 'preview' }),
  col('doc', '文档', { type: 'download' }),
  col('flow', '审核流程', { type: 'auditFlow' }),
  col('change', '变更状态', { type: 'changeStatus' }),
  col('ok', '是否', { type: 'dui' }),
  col('enabled', '启用', { type: 'switch' }),
  col('title', '标题', { type: 'link' }),
  col('audit', '审核状态', { type: 'state' }),
  col('operations', '操作', { type: 'operations' }),
];

const row = (i: number, extra: Partial<TableRow> = {}): TableRow => ({
  id: `r${i}`,
  name: `项目${i}`,
  amount: i * 100,
  hidden: 'secret',
  status: '待审核',
  statusColor: '#E6A23C',
  icon: '已通过',
  file: 'https://files.example/a.pdf',
  doc: 'https://files.example/b.pdf',
  flow: [
    { level: 1, name: '初审', result: '通过', suggestion: '同意', time: '2024-03-01 10:00', userName: '张三' },
    { level: 2, name: '复审', result: '驳回', suggestion: '材料不全', time: '2024-03-02 11:00', userName: '李四' },
  ],
  change: '1',
  ok: i % 2 === 0 ? '1' : '0',
  enabled: '1',
  title: `标题${i}`,
  audit: '审核中',
  auditColor: 'rgb(1, 2, 3)',
  operations: ops,
  ...extra,
});

const rows = (n: number, from = 1) => Array.from({ length: n }, (_, i) => row(from + i));

function renderTable(props: Partial<DynamicTableProps> = {}) {
  return renderUi(<DynamicTable columns={COLUMNS} data={rows(2)} {...props} />);
}

const bodyRows = () => [...document.querySelectorAll<HTMLElement>('.ks-table-tbody tr.ks-table-row')];
const searchTrigger = (code: string) => screen.getByTestId(`header-search-trigger-${code}`);
const headerTexts = () =>
  [...document.querySelectorAll<HTMLElement>('.ks-table-thead th')].map((th) => th.textContent?.trim());

afterEach(() => {
  vi.useRealTimers();
});

describe('DynamicTable (screen 18)', () => {
  it('shows the 序号 column and only the show=true columns, in order', () => {
    renderTable();
    const headers = headerTexts();
    expect(headers[0]).toBe('序号');
    expect(headers).toContain('名称');
    expect(headers).not.toContain('隐藏列');
    expect(screen.queryByText('secret')).toBeNull();
    expect(bodyRows()).toHaveLength(2);
  });

  it('aligns columns by listAlignment: 左对齐 left, 右对齐 right, otherwise centred', () => {
    expect(alignOf('左对齐')).toBe('left');
    expect(alignOf('右对齐')).toBe('right');
    expect(alignOf('居中')).toBe('center');
    expect(alignOf(undefined)).toBe('center');
    renderTable();
    const [first] = bodyRows();
    const cells = first.querySelectorAll('td');
    // 序号, 名称, 金额, 状态
    expect(cells[1].className).toContain('ks-align-left');
    expect(cells[2].className).toContain('ks-align-right');
    expect(cells[3].className).toContain('ks-align-center');
    const th = [...document.querySelectorAll('.ks-table-thead th')].find((h) => h.textContent?.includes('金额'));
    expect(th?.className).toContain('ks-align-right');
  });

  it('renders each column type', async () => {
    const user = userEvent.setup();
    const onPreview = vi.fn();
    const onDownload = vi.fn();
    const onLink = vi.fn();
    renderTable({ onPreview, onDownload, onLink, data: [row(1), row(2, { change: '2' }), row(3, { change: '-1' })] });
    const [r1, r2, r3] = bodyRows();

    const status = within(r1).getByTestId('status-tag');
    expect(status.textContent).toBe('待审核');
    // a light tag (no antd component per cell) in the row's colour
    expect(status.className).toContain('ks-tag');
    expect(status.style.getPropertyValue('--ks-tag-color')).toBe('#E6A23C');

    expect(within(r1).getByTestId('status-icon').textContent).toBe('已通过');

    await user.click(within(r1).getByTestId('preview-file'));
    expect(onPreview).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1' }), 'file');
    await user.click(within(r2).getByTestId('download-doc'));
    expect(onDownload).toHaveBeenCalledWith(expect.objectContaining({ id: 'r2' }), 'doc');
    await user.click(within(r1).getByTestId('link-title'));
    expect(onLink).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1' }), 'title');

    expect(within(r1).getByTestId('change-status').textContent).toBe('正在变更');
    expect(within(r2).getByTestId('change-status').textContent).toBe('变更通过');
    expect(within(r3).getByTestId('change-status').textContent).toBe('变更驳回');

    expect(within(r1).getByTestId('dui-no').textContent).toBe('✗');
    expect(within(r2).getByTestId('dui-yes').textContent).toBe('✓');

    const sw = within(r1).getByRole('switch');
    expect(sw.getAttribute('aria-checked')).toBe('true');
    expect((sw as HTMLButtonElement).disabled).toBe(true);

    expect((within(r1).getByTestId('state-text') as HTMLElement).style.color).toBe('rgb(1, 2, 3)');

    const flow = within(r1).getByTestId('audit-flow');
    expect(flow.textContent).toBe('复审 驳回');
    await user.hover(flow);
    const steps = await screen.findByTestId('audit-flow-steps');
    expect(steps.textContent).toContain('初审 通过');
    expect(steps.textContent).toContain('张三');
    expect(steps.textContent).toContain('审核建议：材料不全');
  });

  it('shows a dash for an empty preview, and 暂无数据 without rows', () => {
    const { unmount } = renderTable({ data: [row(1, { file: '' })] });
    expect(within(bodyRows()[0]).queryByTestId('preview-file')).toBeNull();
    unmount();
    renderTable({ data: [] });
    expect(screen.getByTestId('dynamic-table-empty').textContent).toContain('暂无数据');
  });

  it('shows the loading state', () => {
    renderTable({ loading: true });
    expect(document.querySelector('.ant-spin-spinning')).not.toBeNull();
  });

  it('operations: only show=true buttons, in their colours; onOperation(code, row)', async () => {
    const user = userEvent.setup();
    const onOperation = vi.fn();
    renderTable({ onOperation, data: [row(1)] });
    const r = bodyRows()[0];
    expect(within(r).getByTestId('op-edit').textContent).toBe('编辑');
    expect(within(r).getByTestId('op-delete').style.color).toBe('rgb(245, 108, 108)');
    expect(within(r).queryByTestId('op-audit')).toBeNull();
    await user.click(within(r).getByTestId('op-edit'));
    expect(onOperation).toHaveBeenCalledWith('edit', expect.objectContaining({ id: 'r1' }));
  });

  it('an operation button is locked for 1 s after a click', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onOperation = vi.fn();
    renderTable({ onOperation, data: [row(1)] });
    const edit = () => screen.getByTestId('op-edit') as HTMLButtonElement;
    await user.click(edit());
    expect(onOperation).toHaveBeenCalledTimes(1);
    expect(edit().disabled).toBe(true);
    fireEvent.click(edit());
    expect(onOperation).toHaveBeenCalledTimes(1);
    // the other button is not locked
    await user.click(screen.getByTestId('op-delete'));
    expect(onOperation).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(edit().disabled).toBe(false);
    await user.click(edit());
    expect(onOperation).toHaveBeenCalledTimes(3);
  });

  it('serial numbers continue across pages', () => {
    expect(serialOf(3, 10, 0)).toBe(21);
    renderTable({ data: rows(3, 21), pager: { pageNum: 3, pageSize: 10, total: 45 }, onPage: vi.fn() });
    expect(bodyRows().map((r) => r.querySelector('td')?.textContent)).toEqual(['21', '22', '23']);
  });

  it('the light pager numbers pages as antd does', () => {
    expect(pagerItems(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerItems(1, 10)).toEqual([1, 2, 3, 4, 5, 'next5', 10]);
    expect(pagerItems(5, 10)).toEqual([1, 'prev5', 4, 5, 6, 'next5', 10]);
    expect(pagerItems(10, 10)).toEqual([1, 'prev5', 6, 7, 8, 9, 10]);
    expect(pagerItems(3, 10)).toEqual([1, 2, 3, 4, 5, 'next5', 10]);
  });

  it('a total the server stopped counting at reads 共 n+ 条', () => {
    renderTable({
      data: rows(10),
      pager: { pageNum: 1, pageSize: 10, total: 1000, totalCapped: true },
      onPage: vi.fn(),
    });
    expect(screen.getByTestId('dynamic-table-pager').textContent).toContain('共 1000+ 条');
  });

  it('the pager shows the total, sizes 10/20/30/50 and a jumper', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    renderTable({ data: rows(10), pager: { pageNum: 1, pageSize: 10, total: 95 }, onPage });
    // a light copy of antd's pager: its pages, prev, next, ••• and jumper work
    const copy = screen.getByTestId('dynamic-table-pager');
    expect(copy.className).toBe('ks-pager');
    expect(copy.textContent).toContain('共 95 条');
    expect(copy.textContent).toContain('10 条/页');
    await user.click(within(copy).getByTitle('3').querySelector('button') as HTMLElement);
    expect(onPage).toHaveBeenLastCalledWith(3, 10);
    await user.click(within(copy).getByTitle('向后 5 页'));
    expect(onPage).toHaveBeenLastCalledWith(6, 10);
    expect((within(copy).getByTitle('上一页').querySelector('button') as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(copy).getByTitle('上一页'));
    await user.click(within(copy).getByTitle('1'));
    await user.click(within(copy).getByTitle('下一页'));
    expect(onPage).toHaveBeenLastCalledWith(2, 10);
    expect(onPage).toHaveBeenCalledTimes(3);
    const copyJumper = within(copy).getByRole('textbox', { name: '页' }) as HTMLInputElement;
    await user.type(copyJumper, '70{Enter}');
    // past the last page: the last page, and the jumper is emptied (as antd's)
    expect(onPage).toHaveBeenLastCalledWith(10, 10);
    expect(copyJumper.value).toBe('');
    await user.type(copyJumper, '4');
    await user.tab();
    expect(onPage).toHaveBeenLastCalledWith(4, 10);
    onPage.mockClear();

    // the size select makes it antd's Pagination, with the select open
    await user.click(within(copy).getByRole('combobox', { name: '页码' }));
    const pager = await livePager();
    expect(pager.textContent).toContain('共 95 条');
    const options = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')];
      expect(found.length).toBe(4);
      return found;
    });
    expect(options.map((o) => o.textContent)).toEqual(['10 条/页', '20 条/页', '30 条/页', '50 条/页']);
    await user.click(options[1]);
    // a new size goes back to page 1
    expect(onPage).toHaveBeenLastCalledWith(1, 20);

    await user.click(pager.querySelector('.ant-pagination-item-2') as HTMLElement);
    expect(onPage).toHaveBeenLastCalledWith(2, 10);
    const jumper = pager.querySelector('.ant-pagination-options-quick-jumper input') as HTMLInputElement;
    expect(pager.querySelector('.ant-pagination-options-quick-jumper')?.textContent).toContain('跳至');
    await user.type(jumper, '7');
    fireEvent.keyUp(jumper, { key: 'Enter', keyCode: 13 });
    expect(onPage).toHaveBeenLastCalledWith(7, 10);
  });

  it('the light pager’s size select opens antd’s from the keyboard too', async () => {
    const user = userEvent.setup();
    renderTable({ data: rows(10), pager: { pageNum: 1, pageSize: 10, total: 95 }, onPage: vi.fn() });
    within(screen.getByTestId('dynamic-table-pager')).getByRole('combobox', { name: '页码' }).focus();
    await user.keyboard('{Enter}');
    await livePager();
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(4));
  });

  it('persists the pager under its key and restores it on the next mount', async () => {
    const user = userEvent.setup();
    const onPageSpy = vi.fn();
    function Page() {
      const [pager, setPager] = useState({ pageNum: 1, pageSize: 10 });
      return (
        <DynamicTable
          columns={COLUMNS}
          data={rows(2, serialOf(pager.pageNum, pager.pageSize, 0))}
          persistKey="XY_LIST"
          pager={{ ...pager, total: 95 }}
          onPage={(pageNum, pageSize) => {
            onPageSpy(pageNum, pageSize);
            setPager({ pageNum, pageSize });
          }}
        />
      );
    }
    const first = renderUi(<Page />);
    expect(onPageSpy).not.toHaveBeenCalled();
    await user.click(screen.getByTitle('3'));
    expect(JSON.parse(sessionStorage.getItem(PAGER_SESSION_KEY) ?? '{}')).toEqual({
      XY_LIST: { pageNum: 3, pageSize: 10 },
    });
    expect(PAGER_SESSION_KEY).toBe('pager');
    first.unmount();

    onPageSpy.mockClear();
    renderUi(<Page />);
    expect(onPageSpy).toHaveBeenCalledWith(3, 10);
    await waitFor(() => expect(document.querySelector('.ks-pager-active')?.textContent).toBe('3'));
    expect(bodyRows()[0].querySelector('td')?.textContent).toBe('21');
    expect(readPager('XY_LIST')).toEqual({ pageNum: 3, pageSize: 10 });
  });

  it('ignores a saved pager with a size outside 10/20/30/50 or a bad page', () => {
    writePager('A', { pageNum: 2, pageSize: 15 });
    expect(readPager('A')).toEqual({ pageNum: 2, pageSize: 10 });
    writePager('B', { pageNum: 0, pageSize: 20 });
    expect(readPager('B')).toBeNull();
    sessionStorage.setItem(PAGER_SESSION_KEY, 'not json');
    expect(readPager('A')).toBeNull();
  });

  it('header search popovers on isSearch columns report {code: value}; 重置 clears it', async () => {
    const user = userEvent.setup();
    const onHeaderSearch = vi.fn();
    renderTable({ onHeaderSearch });
    expect(screen.queryByTestId('header-search-trigger-amount')).toBeNull();
    await user.click(searchTrigger('name'));
    const input = await screen.findByTestId('header-search-input-name');
    await user.type(input, ' 桥梁 ');
    await user.click(within(screen.getByTestId('header-search-name')).getByText('搜索').closest('button')!);
    expect(onHeaderSearch).toHaveBeenLastCalledWith({ name: '桥梁' }, 'name');

    await user.click(searchTrigger('name'));
    await user.click(within(screen.getByTestId('header-search-name')).getByText('重置').closest('button')!);
    expect(onHeaderSearch).toHaveBeenLastCalledWith({}, 'name');
  });

  it('sortable columns sort under control: ascending, descending, off; the order is the one passed in', async () => {
    const user = userEvent.setup();
    const seen: (TableSort | null)[] = [];
    function Sorted() {
      const [sort, setSort] = useState<TableSort | null>(null);
      return (
        <DynamicTable
          columns={COLUMNS}
          data={rows(3)}
          sortable={['name', 'amount', 'operations']}
          sort={sort}
          onSort={(next) => {
            seen.push(next);
            setSort(next);
          }}
        />
      );
    }
    renderUi(<Sorted />);
    const heading = (name: string) =>
      [...document.querySelectorAll<HTMLElement>('thead th')].find((th) => th.textContent?.includes(name))!;
    // only the sortable columns have a sorter (never the operations column)
    expect(heading('名称').querySelector('.ks-table-column-sorters')).not.toBeNull();
    expect(heading('金额').querySelector('.ks-table-column-sorters')).not.toBeNull();
    expect(heading('状态').querySelector('.ks-table-column-sorters')).toBeNull();
    expect(heading('操作').querySelector('.ks-table-column-sorters')).toBeNull();

    await user.click(heading('金额').querySelector('.ks-table-column-sorters')!);
    expect(seen.at(-1)).toEqual({ field: 'amount', order: 'ascend' });
    await waitFor(() => expect(heading('金额').getAttribute('aria-sort')).toBe('ascending'));
    // the rows are not reordered here: the page asks the server for the sorted page
    expect(bodyRows().map((r) => r.getAttribute('data-row-key'))).toEqual(['r1', 'r2', 'r3']);
    await user.click(heading('金额').querySelector('.ks-table-column-sorters')!);
    expect(seen.at(-1)).toEqual({ field: 'amount', order: 'descend' });
    await waitFor(() => expect(heading('金额').getAttribute('aria-sort')).toBe('descending'));
    await user.click(heading('金额').querySelector('.ks-table-column-sorters')!);
    expect(seen.at(-1)).toBeNull();
    await waitFor(() => expect(heading('金额').getAttribute('aria-sort')).toBeNull());
    // another column takes the sort over
    await user.click(heading('名称').querySelector('.ks-table-column-sorters')!);
    expect(seen.at(-1)).toEqual({ field: 'name', order: 'ascend' });
  });

  it('shows a sort passed in on its heading (aria-sort)', () => {
    renderTable({ sortable: ['name'], sort: { field: 'name', order: 'descend' } });
    const th = [...document.querySelectorAll<HTMLElement>('thead th')].find((x) => x.textContent?.includes('名称'))!;
    expect(th.getAttribute('aria-sort')).toBe('descending');
  });

  it('a sorter heading works from the keyboard: Enter and Space cycle ascending, descending, off', async () => {
    const user = userEvent.setup();
    const seen: (TableSort | null)[] = [];
    function Sorted() {
      const [sort, setSort] = useState<TableSort | null>(null);
      return (
        <DynamicTable
          columns={COLUMNS}
          data={rows(2)}
          sortable={['amount']}
          sort={sort}
          onSort={(next) => {
            seen.push(next);
            setSort(next);
          }}
        />
      );
    }
    renderUi(<Sorted />);
    const heading = screen.getByRole('columnheader', { name: /金额/ });
    const sorter = within(heading).getByRole('button');
    // in the tab order: from the name column's search button, Tab reaches the sorter
    searchTrigger('name').focus();
    await user.tab();
    expect(document.activeElement).toBe(sorter);
    await user.keyboard('{Enter}');
    expect(seen.at(-1)).toEqual({ field: 'amount', order: 'ascend' });
    expect(heading.getAttribute('aria-sort')).toBe('ascending');
    await user.keyboard(' ');
    expect(seen.at(-1)).toEqual({ field: 'amount', order: 'descend' });
    await user.keyboard('{Enter}');
    expect(seen.at(-1)).toBeNull();
    expect(heading.getAttribute('aria-sort')).toBeNull();
  });

  it('a searched column shows its search button highlighted; Escape closes the popover', async () => {
    const user = userEvent.setup();
    renderTable({ headerSearch: { name: '桥梁' } });
    // (the button is mounted again inside antd's popover at its first click: look it up each time)
    const trigger = () => searchTrigger('name');
    expect(trigger().className).toContain('ks-table-filter-trigger-on');
    expect(trigger().getAttribute('aria-label')).toBe('搜索名称（桥梁）');
    // no popover is mounted before the first click
    expect(document.querySelector('.ant-popover')).toBeNull();
    await user.click(trigger());
    const input = (await screen.findByTestId('header-search-input-name')) as HTMLInputElement;
    // the popover starts from the current search, its input focused
    expect(input.value).toBe('桥梁');
    await waitFor(() => expect(document.activeElement).toBe(input));
    await user.clear(input);
    await user.type(input, '隧道{Enter}');
    // applied and closed: the focus is back on the search button
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
    expect(trigger().getAttribute('aria-label')).toBe('搜索名称（隧道）');
    await user.click(trigger());
    await screen.findByTestId('header-search-input-name');
    expect(trigger().getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(trigger().getAttribute('aria-expanded')).toBe('false'));
    await user.click(trigger());
    await user.click(
      within(await screen.findByTestId('header-search-name'))
        .getByText('重置')
        .closest('button')!,
    );
    expect(trigger().className).not.toContain('ks-table-filter-trigger-on');
  });

  it('the operations column, when last, stays at the right edge (sticky); not when asked not to', () => {
    const { unmount } = renderTable();
    const last = () => bodyRows()[0].querySelector('td:last-child') as HTMLElement;
    expect(last().className).toContain('ks-table-cell-fix-right');
    expect(within(last()).getByTestId('op-edit')).toBeTruthy();
    unmount();
    renderTable({ stickyOperations: false });
    expect(last().className).not.toContain('ks-table-cell-fix-right');
    unmount();
  });

  it('an operations column that is not last does not stick', () => {
    const moved = [
      ...COLUMNS.filter((c) => c.type === 'operations'),
      ...COLUMNS.filter((c) => c.type !== 'operations'),
    ];
    renderTable({ columns: moved });
    expect(document.querySelector('.ks-table-cell-fix-right')).toBeNull();
  });

  it('select-all (indeterminate for some) with disabled rows; uncontrolled it keeps the choice itself', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderTable({ data: rows(3), rowSelection: { onChange, disabled: (r) => r.id === 'r2' } });
    const all = screen.getByRole('checkbox', { name: '全选当前页' }) as HTMLInputElement;
    const box = (i: number) => within(bodyRows()[i]).getByRole('checkbox') as HTMLInputElement;
    expect(box(1).disabled).toBe(true);
    await user.click(box(0));
    expect(box(0).checked).toBe(true);
    expect(all.indeterminate).toBe(true);
    await user.click(all);
    expect(onChange).toHaveBeenLastCalledWith(
      ['r1', 'r3'],
      [expect.objectContaining({ id: 'r1' }), expect.objectContaining({ id: 'r3' })],
    );
    expect(all.checked).toBe(true);
    expect(box(1).checked).toBe(false);
    await user.click(all);
    expect(onChange).toHaveBeenLastCalledWith([], []);
    expect(box(0).checked).toBe(false);
  });

  it('controlled selection shows selectedRowKeys and changes only through them', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderTable({ data: rows(3), rowSelection: { selectedRowKeys: ['r3'], onChange } });
    const box = (i: number) => within(bodyRows()[i]).getByRole('checkbox') as HTMLInputElement;
    expect([0, 1, 2].map((i) => box(i).checked)).toEqual([false, false, true]);
    await user.click(box(0));
    expect(onChange).toHaveBeenLastCalledWith(['r3', 'r1'], expect.any(Array));
    // the page did not pass the new keys back: nothing changes
    expect(box(0).checked).toBe(false);
  });

  it('row selection reports the chosen keys and rows', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderTable({ rowSelection: { onChange } });
    const boxes = within(bodyRows()[1]).getAllByRole('checkbox');
    await user.click(boxes[0]);
    expect(onChange).toHaveBeenLastCalledWith(['r2'], [expect.objectContaining({ id: 'r2' })]);
  });
});
