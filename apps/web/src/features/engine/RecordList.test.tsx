import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { mockIntersectionObserver } from '../../engine/list/test-utils';
import { LIST_VIEW_STORAGE_KEY } from '../../engine/model';
import { userInfo } from '../../test/server';
import { pickOption } from '../config/testkit';
import { LIST_URL, lastBody, PATHS, renderEngine, rid, setupEngine, storedRecord } from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const rowOf = (text: string | HTMLElement) =>
  (typeof text === 'string' ? screen.getByText(text) : text).closest('tr') as HTMLElement;

describe('dynamic list (/dynamicPage/dynamicIndex)', () => {
  it('loads the node’s columns and records: option labels, status tags, row operations, 新增 / 导出', async () => {
    const { calls } = setupEngine();
    renderEngine();
    const row = rowOf(await screen.findByText('申请人1'));
    expect(screen.getByTestId('engine-title').textContent).toBe('执业注册申请');
    const headers = Array.from(document.querySelectorAll('thead th')).map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['序号', '姓名', '注册类别', '发证日期', '状态', '操作']));
    // labels instead of stored codes, the record state as a tag
    expect(within(row).getByText('一级注册建造师')).toBeTruthy();
    expect(within(row).getByTestId('status-tag').textContent).toBe('草稿');
    expect(within(rowOf('申请人2')).getByTestId('status-tag').textContent).toBe('审核中');
    // the server's operations for a draft, plus 提交 (a form button of the node) and 操作日志
    const names = within(row)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(['编辑', '提交', '详情', '删除', '指派', '操作日志']);
    expect(within(rowOf('申请人2')).queryByTestId('op-edit')).toBeNull();
    expect(within(rowOf('申请人2')).getByTestId('op-audit')).toBeTruthy();
    expect(screen.getByTestId('engine-add').textContent).toContain('新增');
    expect(screen.getByTestId('engine-export')).toBeTruthy();
    expect(lastBody(calls, PATHS.list)).toEqual({ gnCoding: 'ZYZC', pageNum: 1, pageSize: 10 });
  });

  it('shows the node’s configured charts (图表设置) above the list, drawn from the server’s numbers', async () => {
    setupEngine({
      chartData: [
        {
          title: '各注册类别人数',
          type: 'bar',
          dimension: 'zclb',
          measure: 'count',
          measureField: null,
          categories: ['一级注册建造师', '二级注册建造师'],
          values: [4, 9],
          records: 13,
          problem: null,
        },
        {
          title: '金额',
          type: 'pie',
          dimension: 'gone',
          measure: 'sum',
          measureField: 'je',
          categories: [],
          values: [],
          records: 13,
          problem: '维度字段「gone」已不存在，请在图表设置中重新选择',
        },
      ],
    });
    renderEngine();
    await screen.findByText('申请人1');
    const panel = await screen.findByTestId('node-charts', {}, { timeout: 5000 });
    const chart = within(panel).getByTestId('node-chart');
    expect(chart.getAttribute('aria-label')).toBe('各注册类别人数：各注册类别人数：一级注册建造师 4，二级注册建造师 9');
    expect(chart.querySelector('svg')).not.toBeNull();
    expect(panel.textContent).toContain('维度字段「gone」已不存在');
  });

  it('搜索 sends the normalised search (empty dropped), 重置 clears it; the search is kept in searchParams', async () => {
    const { calls } = setupEngine();
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.type(screen.getByTestId('search-field-xm'), '  张三 ');
    await pickOption(user, 'search-field-zclb', '二级注册建造师');
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() =>
      expect(lastBody(calls, PATHS.list)).toEqual({
        gnCoding: 'ZYZC',
        pageNum: 1,
        pageSize: 10,
        search: { xm: '张三', zclb: 'jzs2' },
      }),
    );
    const saved = JSON.parse(sessionStorage.getItem(SESSION_KEYS.searchParams) ?? '{}');
    expect(saved['dynamic:ZYZC'].bar).toEqual({ xm: '张三', zclb: 'jzs2' });

    // the same search again asks the server again (for what others changed meanwhile)
    const asked = calls.filter((c) => c.url === PATHS.list).length;
    await new Promise((r) => setTimeout(r, 1000)); // 搜索 is throttled to one press a second
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(calls.filter((c) => c.url === PATHS.list).length).toBe(asked + 1));
    expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 1, search: { xm: '张三', zclb: 'jzs2' } });

    await user.click(screen.getByTestId('search-reset'));
    await waitFor(() => expect(lastBody(calls, PATHS.list)).toEqual({ gnCoding: 'ZYZC', pageNum: 1, pageSize: 10 }));
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.searchParams) ?? '{}')['dynamic:ZYZC'].bar).toEqual({});
  }, 40_000);

  it('a kept search comes back: a date range is joined with a comma and shown in the range picker', async () => {
    sessionStorage.setItem(
      SESSION_KEYS.searchParams,
      JSON.stringify({
        'dynamic:ZYZC': { bar: { fzrq: '2025-01-01,2025-01-31', bogus: 'x' }, header: {}, tags: [], tree: null },
      }),
    );
    const { calls } = setupEngine();
    renderEngine();
    await screen.findByText('申请人1');
    // unknown codes are never sent
    expect(lastBody(calls, PATHS.list).search).toEqual({ fzrq: '2025-01-01,2025-01-31' });
    const inputs = screen.getByTestId('search-col-fzrq').querySelectorAll('input');
    expect(Array.from(inputs).map((i) => i.value)).toEqual(['2025-01-01', '2025-01-31']);
  });

  it('the pager changes the request and is remembered; a new search goes back to page 1', async () => {
    const { calls } = setupEngine({ records: Array.from({ length: 25 }, (_, i) => storedRecord(i + 1)) });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    expect(screen.getByText('共 25 条')).toBeTruthy();
    await user.click(screen.getByTitle('3'));
    await screen.findByText('申请人21');
    expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 3, pageSize: 10 });
    expect(JSON.parse(sessionStorage.getItem('pager') ?? '{}')['dynamic:ZYZC']).toEqual({ pageNum: 3, pageSize: 10 });
    // the serial number continues across pages
    expect(within(rowOf('申请人21')).getAllByRole('cell')[0].textContent).toBe('21');

    await user.type(screen.getByTestId('search-field-xm'), '申请人');
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 1, search: { xm: '申请人' } }));
  });

  it('header searches go with the search; filter tags and the left tree go as whereStr', async () => {
    const { calls } = setupEngine({
      filters: {
        displayCode: 'ZYZC',
        displayList: [
          {
            name: '注册类别',
            code: 'zclb',
            type: 'checkbox',
            dataList: [
              { label: '一级注册建造师', value: 'jzs1' },
              { label: '二级注册建造师', value: 'jzs2' },
            ],
          },
          {
            name: '性别',
            code: 'xb',
            type: 'tree',
            dataList: [
              { label: '男', value: '男', badge: 3 },
              { label: '女', value: '女' },
            ],
          },
        ],
      },
    });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.click(await screen.findByTestId('filter-chip-zclb-jzs1'));
    await waitFor(() =>
      expect(JSON.parse(String(lastBody(calls, PATHS.list).whereStr))).toEqual([
        { field: 'zclb', op: 'eq', value: 'jzs1' },
      ]),
    );
    await user.click(screen.getByTestId('filter-chip-zclb-jzs2'));
    await waitFor(() =>
      expect(JSON.parse(String(lastBody(calls, PATHS.list).whereStr))).toEqual([
        { field: 'zclb', op: 'in', value: ['jzs1', 'jzs2'] },
      ]),
    );
    expect(screen.getByTestId('search-tag-zclb-jzs2').textContent).toContain('注册类别：二级注册建造师');

    await user.click(screen.getByTestId('left-node-女'));
    await waitFor(() =>
      expect(JSON.parse(String(lastBody(calls, PATHS.list).whereStr))).toEqual([
        { field: 'zclb', op: 'in', value: ['jzs1', 'jzs2'] },
        { field: 'xb', op: 'eq', value: '女' },
      ]),
    );

    await user.click(screen.getByTestId('header-search-trigger-xm'));
    await user.type(await screen.findByTestId('header-search-input-xm'), '王{Enter}');
    await waitFor(() => expect(lastBody(calls, PATHS.list).search).toEqual({ xm: '王' }));
  });

  it('a node whose fields were never configured is not available yet: it names the area and asks for no records', async () => {
    const { calls } = setupEngine({}, { 'POST /ks/common/array/fields': () => ({ data: { fields: [], version: 0 } }) });
    renderEngine();
    expect(await screen.findByText('「执业注册申请」暂未开放')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('pending-area').textContent).toBe(
        '信用管理系统 · 执业注册申请：该业务的办理功能正在建设中，当前版本暂不能办理。',
      ),
    );
    expect(screen.queryByText('该节点尚未配置字段')).toBeNull();
    // only developers configure fields
    expect(screen.queryByTestId('pending-configure')).toBeNull();
    expect(calls.filter((c) => c.url === PATHS.list)).toHaveLength(0);
    expect(currentPrompt()?.message ?? null).toBeNull();
  });

  it('a developer gets the way to 字段设置 of that node', async () => {
    setupEngine({}, { 'POST /ks/common/array/fields': () => ({ data: { fields: [], version: 0 } }) });
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: 'D' }));
    sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['user']));
    const user = userEvent.setup();
    const { router } = renderEngine();
    await user.click(await screen.findByTestId('pending-configure'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/setUpForm'));
    // the node and its system (in the order every node-page link uses: lib/paths nodePageHref)
    expect(router.state.location.search).toBe('?systemCoding=XYGL&gnCoding=ZYZC');
  });

  it('shows 暂无数据 when nothing matches', async () => {
    setupEngine({ records: [] });
    renderEngine();
    expect((await screen.findByTestId('engine-table-empty')).textContent).toContain('暂无数据');
  });

  it('新增 and 编辑 open the form page; 详情 the detail page', async () => {
    setupEngine();
    const user = userEvent.setup();
    const { router } = renderEngine();
    await screen.findByText('申请人1');
    await user.click(screen.getByTestId('engine-add'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dynamicPage/dynamicDetail'));
    expect(router.state.location.search).toBe('?gnCoding=ZYZC&systemCoding=XYGL&mode=edit');
    await act(() => router.navigate(LIST_URL));
    await user.click(within(rowOf(await screen.findByText('申请人1'))).getByTestId('op-detail'));
    await waitFor(() => expect(router.state.location.search).toBe(`?gnCoding=ZYZC&systemCoding=XYGL&id=${rid(1)}`));
  });

  it('a card node lists cards and loads the next page at the end', async () => {
    const io = mockIntersectionObserver();
    try {
      const { calls } = setupEngine({ records: Array.from({ length: 25 }, (_, i) => storedRecord(i + 1)) });
      renderEngine('/dynamicPage/dynamicIndex?gnCoding=ZJK&systemCoding=XYGL');
      const cards = await screen.findAllByTestId('card-item');
      expect(cards).toHaveLength(20);
      expect(within(cards[0]).getByTestId('card-title').textContent).toBe('申请人1');
      expect(within(cards[0]).getByTestId('card-status').textContent).toBe('草稿');
      expect(cards[0].closest('[data-width]')?.getAttribute('data-width')).toBe('50%');
      expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 1, pageSize: 20 });
      act(() => io.intersect());
      await waitFor(() => expect(screen.getAllByTestId('card-item')).toHaveLength(25), { timeout: 3000 });
      expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 2, pageSize: 20 });
      expect(screen.getByTestId('card-list-footer').textContent).toBe('没有更多了~');
      // a card page is always cards: nothing to switch
      expect(screen.queryByTestId('engine-view')).toBeNull();
    } finally {
      io.restore();
    }
  });

  it('a node with a card style switches between 表格 and 卡片, remembered per node', async () => {
    const io = mockIntersectionObserver();
    try {
      setupEngine({ records: Array.from({ length: 3 }, (_, i) => storedRecord(i + 1)) });
      const user = userEvent.setup();
      const first = renderEngine();
      await screen.findByText('申请人1');
      const view = screen.getByTestId('engine-view');
      expect(screen.getByTestId('engine-table')).toBeTruthy();
      expect(screen.queryByTestId('engine-cards')).toBeNull();
      await user.click(within(view).getByText('卡片'));
      const cards = await screen.findAllByTestId('card-item');
      expect(cards.map((c) => within(c).getByTestId('card-title').textContent)).toEqual([
        '申请人1',
        '申请人2',
        '申请人3',
      ]);
      expect(screen.queryByTestId('engine-table')).toBeNull();
      expect(JSON.parse(localStorage.getItem(LIST_VIEW_STORAGE_KEY) ?? '{}')).toEqual({ ZYZC: 'card' });
      // the next visit opens in cards
      first.unmount();
      const second = renderEngine();
      expect(await screen.findAllByTestId('card-item')).toHaveLength(3);
      await user.click(within(screen.getByTestId('engine-view')).getByText('表格'));
      await screen.findByText('申请人1');
      expect(screen.getByTestId('engine-table')).toBeTruthy();
      expect(JSON.parse(localStorage.getItem(LIST_VIEW_STORAGE_KEY) ?? '{}')).toEqual({ ZYZC: 'table' });
      second.unmount();
    } finally {
      io.restore();
    }
  }, 40_000);

  it('a node without a card style has no switch, whatever was remembered', async () => {
    localStorage.setItem(LIST_VIEW_STORAGE_KEY, JSON.stringify({ ZYZC: 'card' }));
    setupEngine({}, { 'POST /ks/config/card-setting/info': () => ({ data: null }) });
    renderEngine();
    await screen.findByText('申请人1');
    expect(screen.getByTestId('engine-table')).toBeTruthy();
    expect(screen.queryByTestId('engine-view')).toBeNull();
  });

  it('sorting a column asks the server for that order from page 1, kept with the search; 导出 uses it too', async () => {
    const { calls } = setupEngine({ records: Array.from({ length: 25 }, (_, i) => storedRecord(i + 1)) });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastBody(calls, PATHS.list)).toMatchObject({ pageNum: 2 }));
    const heading = (name: string) =>
      [...document.querySelectorAll<HTMLElement>('thead th')].find((th) =>
        th.textContent?.includes(name),
      ) as HTMLElement;
    // fields and times sort; the status and operations columns do not
    expect(heading('状态').querySelector('.ks-table-column-sorters')).toBeNull();
    expect(heading('操作').querySelector('.ks-table-column-sorters')).toBeNull();
    await user.click(heading('发证日期').querySelector('.ks-table-column-sorters') as HTMLElement);
    await waitFor(() =>
      expect(lastBody(calls, PATHS.list)).toEqual({
        gnCoding: 'ZYZC',
        pageNum: 1,
        pageSize: 10,
        sortField: 'fzrq',
        order: 'asc',
      }),
    );
    await user.click(heading('发证日期').querySelector('.ks-table-column-sorters') as HTMLElement);
    await waitFor(() => expect(lastBody(calls, PATHS.list)).toMatchObject({ sortField: 'fzrq', order: 'desc' }));
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.searchParams) ?? '{}')['dynamic:ZYZC'].sort).toEqual({
      field: 'fzrq',
      order: 'descend',
    });
    await waitFor(() => expect(heading('发证日期').getAttribute('aria-sort')).toBe('descending'));
    await user.click(screen.getByTestId('engine-export'));
    await waitFor(() =>
      expect(lastBody(calls, PATHS.exportXlsx)).toEqual({ gnCoding: 'ZYZC', sortField: 'fzrq', order: 'desc' }),
    );
    // a third click goes back to the server's default order
    await user.click(heading('发证日期').querySelector('.ks-table-column-sorters') as HTMLElement);
    await waitFor(() => expect(lastBody(calls, PATHS.list)).toEqual({ gnCoding: 'ZYZC', pageNum: 1, pageSize: 10 }));
  }, 40_000);

  it('高级搜索 searches every searchable field and fills the search bar', async () => {
    const { calls } = setupEngine();
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.click(screen.getByTestId('engine-advanced'));
    const popup = await screen.findByTestId('search-popup');
    await user.type(within(popup).getByTestId('search-field-bz'), '加急');
    await user.type(within(popup).getByTestId('search-field-xm'), '李');
    await user.click(screen.getByTestId('search-popup-confirm'));
    await waitFor(() => expect(lastBody(calls, PATHS.list).search).toEqual({ xm: '李', bz: '加急' }));
    // the popup is gone and the search bar shows what it searched
    await waitFor(() => expect(screen.queryByTestId('search-popup')).toBeNull());
    expect((screen.getByTestId('search-field-xm') as HTMLInputElement).value).toBe('李');
  });
});

describe('apply list (/applyIndex)', () => {
  it('is the applicant’s list: 新建申请 opens the application form; a status column is always there', async () => {
    setupEngine({ columns: [], records: [storedRecord(1, { status: 'rejected' })] });
    const user = userEvent.setup();
    const { router } = renderEngine('/applyIndex?gnCoding=ZYZC&systemCoding=XYGL');
    const row = rowOf(await screen.findByText('申请人1'));
    expect(screen.getByText('我的申请')).toBeTruthy();
    expect(within(row).getByTestId('status-tag').textContent).toBe('已驳回');
    expect(within(row).getByTestId('op-submit').textContent).toBe('重新提交');
    expect(screen.getByTestId('engine-add').textContent).toContain('新建申请');
    await user.click(screen.getByTestId('engine-add'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/applyDetail'));
  });
});
