import type { Page } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, Input, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, configureRequest } from '../../api/request';
import { renderRoutes } from '../../test/render';
import { currentPrompt, resetPrompts } from '../prompt';
import {
  ActionLink,
  applySaveError,
  BooleanFilter,
  ConfirmDelete,
  dateTimeColumn,
  FilterBar,
  FormDialog,
  KeywordFilter,
  ListCard,
  LoadFailure,
  orDash,
  pagination,
  RowActions,
  RowOps,
  RowsTable,
  SAVE_FAILED,
  SelectFilter,
  ServerTable,
  sortable,
  sortOf,
  uniqueInList,
  useEditDialog,
  useRowDialog,
  useServerList,
} from '.';

// a back-office page: a reported failure goes to the global prompt (on the sign-in pages it would show inline)
beforeEach(() => configureRequest({ effects: { pathname: () => '/system/kit' } }));
afterEach(() => {
  act(() => resetPrompts());
  configureRequest();
});

const fieldError = (fieldErrors: Record<string, string[] | string>, status = 400) =>
  new ApiError('response', status, status, '请求参数有误', { fieldErrors });

// ── the list: filters, paging, sorting, 操作 ─────────────────────────────────

interface Row {
  id: string;
  name: string;
}
interface Filters {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  kind?: 'a' | 'b';
  sortField?: string;
  order?: 'asc' | 'desc';
}

const ROWS: Row[] = Array.from({ length: 25 }, (_, i) => ({ id: `r${i + 1}`, name: `名称${i + 1}` }));

function fakeList() {
  const asked: Filters[] = [];
  let rows = [...ROWS];
  const query = (f: Filters) =>
    queryOptions({
      queryKey: ['kit', 'rows', f],
      queryFn: async (): Promise<Page<Row>> => {
        asked.push(f);
        let hit = rows.filter((r) => !f.keyword || r.name.includes(f.keyword));
        if (f.sortField === 'name')
          hit = [...hit].sort((a, b) => a.name.localeCompare(b.name) * (f.order === 'desc' ? -1 : 1));
        return { records: hit.slice((f.pageNum - 1) * f.pageSize, f.pageNum * f.pageSize), total: hit.length };
      },
      placeholderData: keepPreviousData,
    });
  const remove = (id: string) => {
    rows = rows.filter((r) => r.id !== id);
  };
  return { asked, query, remove };
}

function ListPage({ api, onDelete }: { api: ReturnType<typeof fakeList>; onDelete: (id: string) => Promise<unknown> }) {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: 10 } as Filters,
    query: api.query,
    refreshKey: ['kit'],
  });
  const columns: TableColumnsType<Row> = [
    { title: '名称', dataIndex: 'name', ...sortable(view.filters, 'name') },
    {
      title: '操作',
      key: 'actions',
      render: (_, row) => (
        <RowActions>
          <ActionLink testId="row-edit" disabled={row.id === 'r1'} why="不能编辑第一行">
            编辑
          </ActionLink>
          <ConfirmDelete name={row.name} run={() => onDelete(row.id)} onDone={view.refresh} testId="row-delete" />
        </RowActions>
      ),
    },
  ];
  return (
    <>
      <FilterBar>
        <KeywordFilter placeholder="名称" onSearch={(keyword) => view.setFilter({ keyword })} testId="kw" />
        <SelectFilter<'a' | 'b'>
          placeholder="全部种类"
          value={view.filters.kind}
          onChange={(kind) => view.setFilter({ kind })}
          options={[
            { value: 'a', label: '甲' },
            { value: 'b', label: '乙' },
          ]}
          testId="kind"
        />
      </FilterBar>
      <ServerTable<Row, Filters> view={view} columns={columns} sorts={['name']} testId="rows" />
    </>
  );
}

const rowNames = () =>
  within(screen.getByTestId('rows'))
    .getAllByRole('row')
    .slice(1)
    .map((tr) => tr.querySelector('td')?.textContent);

describe('the administration list', () => {
  it('shows a page of records with the total, pages, searches from page 1 and sorts by whitelisted headers', async () => {
    const user = userEvent.setup();
    const api = fakeList();
    renderRoutes([{ path: '/', element: <ListPage api={api} onDelete={async () => null} /> }]);
    await waitFor(() => expect(rowNames()).toHaveLength(10));
    expect(screen.getByText('共 25 条')).toBeTruthy();

    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(rowNames()).toEqual(['名称21', '名称22', '名称23', '名称24', '名称25']));

    // a keyword applies on 搜索 only, trimmed, and goes back to page 1
    await user.type(within(screen.getByTestId('kw')).getByRole('searchbox'), ' 名称1 ');
    expect(api.asked.at(-1)?.keyword).toBeUndefined();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.asked.at(-1)).toMatchObject({ keyword: '名称1', pageNum: 1 }));

    // an empty keyword searches for everything again
    await user.clear(within(screen.getByTestId('kw')).getByRole('searchbox'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.asked.at(-1)?.keyword).toBeUndefined());

    await user.click(screen.getByText('名称', { selector: '.ant-table-column-title' }));
    await waitFor(() => expect(api.asked.at(-1)).toMatchObject({ sortField: 'name', order: 'asc', pageNum: 1 }));
    await user.click(screen.getByText('名称', { selector: '.ant-table-column-title' }));
    await waitFor(() => expect(api.asked.at(-1)).toMatchObject({ sortField: 'name', order: 'desc' }));
  });

  it('删除 asks first; confirming deletes, says so and reloads; a disabled link says why', async () => {
    const user = userEvent.setup();
    const api = fakeList();
    const onDelete = vi.fn(async (id: string) => api.remove(id));
    renderRoutes([{ path: '/', element: <ListPage api={api} onDelete={onDelete} /> }]);
    await waitFor(() => expect(rowNames()[1]).toBe('名称2'));
    expect((screen.getAllByTestId('row-edit')[0] as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getAllByTestId('row-delete')[1]!);
    expect(await screen.findByText('确认删除「名称2」？删除后不可恢复。')).toBeTruthy();
    expect(onDelete).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith('r2'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await waitFor(() => expect(rowNames()[1]).toBe('名称3'));
    expect(screen.getByText('共 24 条')).toBeTruthy();
  });

  it('a refused delete reloads the list and says nothing of success', async () => {
    const user = userEvent.setup();
    const api = fakeList();
    const onDelete = vi.fn(async () => {
      throw new ApiError('response', 409, 409, '该记录已被引用', null);
    });
    renderRoutes([{ path: '/', element: <ListPage api={api} onDelete={onDelete} /> }]);
    await waitFor(() => expect(rowNames()).toHaveLength(10));
    const before = api.asked.length;
    await user.click(screen.getAllByTestId('row-delete')[0]!);
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(api.asked.length).toBeGreaterThan(before));
    expect(screen.queryByText('删除成功')).toBeNull();
  });
});

describe('list helpers', () => {
  it('pagination starts over at page 1 when the page size changes, and counts in the given unit', () => {
    let f = { pageNum: 3, pageSize: 10 };
    const set = (fn: (p: typeof f) => typeof f) => {
      f = fn(f);
    };
    const p = pagination(f, 95, set, '项');
    expect(p.showTotal(95)).toBe('共 95 项');
    p.onChange(4, 10);
    expect(f).toEqual({ pageNum: 4, pageSize: 10 });
    p.onChange(4, 20);
    expect(f).toEqual({ pageNum: 1, pageSize: 20 });
  });

  it('sortOf keeps to the whitelist and maps antd orders', () => {
    expect(sortOf({ field: 'name', order: 'descend' }, ['name'])).toEqual({ sortField: 'name', order: 'desc' });
    expect(sortOf([{ field: 'name', order: 'ascend' }], ['name'])).toEqual({ sortField: 'name', order: 'asc' });
    expect(sortOf({ field: 'secret', order: 'ascend' }, ['name'])).toEqual({ sortField: undefined, order: undefined });
    expect(sortOf({ field: 'name', order: null }, ['name'])).toEqual({ sortField: undefined, order: undefined });
  });
});

// ── failures ─────────────────────────────────────────────────────────────────

describe('failures', () => {
  it('applySaveError puts field errors on the form, lists the rest, and reports a failure without field errors', () => {
    const setFields = vi.fn();
    const form = { setFields } as never;
    const lines = applySaveError(fieldError({ name: ['名称已存在'], 'items.0.code': '编码有误' }), form, ['name']);
    expect(setFields).toHaveBeenCalledWith([{ name: ['name'], errors: ['名称已存在'] }]);
    expect(lines).toEqual(['请求参数有误', 'items.0.code：编码有误']);

    // mapped names and a test of the whole path
    setFields.mockClear();
    applySaveError(
      fieldError({ 'cardStyle.title': ['必填'] }),
      form,
      (name) => name[0] === 'title',
      (name) => name.slice(1),
    );
    expect(setFields).toHaveBeenCalledWith([{ name: ['title'], errors: ['必填'] }]);

    // no field errors: the global prompt shows the server's message
    expect(applySaveError(new ApiError('response', 409, 409, '已被他人修改', null), form, ['name'])).toEqual([
      '已被他人修改',
    ]);
    expect(currentPrompt()?.message).toBe('已被他人修改');

    expect(applySaveError(new TypeError('boom'), form)).toEqual([SAVE_FAILED]);
  });

  it('LoadFailure shows a refusal as 403 and anything else with the message', () => {
    renderRoutes([
      {
        path: '/',
        element: (
          <>
            <LoadFailure error={new ApiError('response', 403, 403, '无权限', null)} what="机构" />
            <LoadFailure error={new ApiError('response', 500, 500, '服务器内部错误', null)} what="列表" />
          </>
        ),
      },
    ]);
    expect(screen.getByTestId('forbidden').textContent).toBe('无权访问：您没有机构的权限');
    expect(screen.getByTestId('load-error').textContent).toContain('列表加载失败');
    expect(screen.getByTestId('load-error').textContent).toContain('服务器内部错误');
  });
});

// ── the form dialog ──────────────────────────────────────────────────────────

interface Values {
  name: string;
  code?: string;
}

function Editor({ submit, variant }: { submit: (v: Values) => Promise<{ id: string }>; variant?: 'modal' | 'drawer' }) {
  const [editing, setEditing] = useState<Values | null>(null);
  const [saved, setSaved] = useState<string[]>([]);
  return (
    <>
      <button type="button" onClick={() => setEditing({ name: '甲', code: 'a1' })}>
        编辑甲
      </button>
      <button type="button" onClick={() => setEditing({ name: '乙' })}>
        编辑乙
      </button>
      <span data-testid="saved">{saved.join(',')}</span>
      <FormDialog<Values, { id: string }>
        open={editing !== null}
        subject={editing}
        title={`编辑：${editing?.name ?? ''}`}
        values={() => editing ?? undefined}
        fields={['name', 'code']}
        submit={submit}
        onClose={() => setEditing(null)}
        onSaved={(r) => {
          setSaved((s) => [...s, r.id]);
          setEditing(null);
        }}
        testId="thing-save"
        variant={variant}
      >
        <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: '请输入名称' }]}>
          <Input data-testid="thing-name" />
        </Form.Item>
        <Form.Item name="code" label="编码">
          <Input data-testid="thing-code" />
        </Form.Item>
      </FormDialog>
    </>
  );
}

describe('FormDialog', () => {
  for (const variant of ['modal', 'drawer'] as const) {
    it(`(${variant}) starts from the values each time it opens, checks the fields, saves once and hands over the answer`, async () => {
      const user = userEvent.setup();
      let release: (v: { id: string }) => void = () => {};
      const submit = vi.fn(
        (_: Values) =>
          new Promise<{ id: string }>((resolve) => {
            release = resolve;
          }),
      );
      renderRoutes([{ path: '/', element: <Editor submit={submit} variant={variant} /> }]);

      await user.click(screen.getByText('编辑甲'));
      const name = (await screen.findByTestId('thing-name')) as HTMLInputElement;
      await waitFor(() => expect(name.value).toBe('甲'));
      expect((screen.getByTestId('thing-code') as HTMLInputElement).value).toBe('a1');

      // a required field is checked before anything is sent
      await user.clear(name);
      await user.click(screen.getByTestId('thing-save'));
      expect(await screen.findByText('请输入名称')).toBeTruthy();
      expect(submit).not.toHaveBeenCalled();

      await user.type(name, '丙');
      await user.click(screen.getByTestId('thing-save'));
      await user.click(screen.getByTestId('thing-save'));
      await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
      expect(submit.mock.calls[0]![0]).toEqual({ name: '丙', code: 'a1' });
      act(() => release({ id: 'x1' }));
      expect(await screen.findByText('保存成功')).toBeTruthy();
      await waitFor(() => expect(screen.getByTestId('saved').textContent).toBe('x1'));

      // another subject: the form starts afresh (no value of the previous one is left)
      await user.click(screen.getByText('编辑乙'));
      await waitFor(() => expect((screen.getByTestId('thing-name') as HTMLInputElement).value).toBe('乙'));
      expect((screen.getByTestId('thing-code') as HTMLInputElement).value).toBe('');
    });
  }

  it('a refusal puts field errors on their fields and the message above the form; the dialog stays open', async () => {
    const user = userEvent.setup();
    const submit = vi
      .fn<(v: Values) => Promise<{ id: string }>>()
      .mockRejectedValueOnce(fieldError({ code: ['编码已存在'], other: ['别的问题'] }))
      .mockRejectedValueOnce(new ApiError('response', 409, 409, '已被他人修改，请刷新后重试', null));
    renderRoutes([{ path: '/', element: <Editor submit={submit} /> }]);
    await user.click(screen.getByText('编辑甲'));
    await waitFor(() => expect((screen.getByTestId('thing-name') as HTMLInputElement).value).toBe('甲'));

    await user.click(screen.getByTestId('thing-save'));
    expect(await screen.findByText('编码已存在')).toBeTruthy();
    const alert = screen.getByTestId('thing-save-error');
    expect(alert.textContent).toContain('请求参数有误');
    expect(alert.textContent).toContain('other：别的问题');
    expect(screen.getByTestId('thing-name')).toBeTruthy();

    await user.click(screen.getByTestId('thing-save'));
    await waitFor(() => expect(screen.getByTestId('thing-save-error').textContent).toContain('已被他人修改'));
    expect(currentPrompt()?.message).toBe('已被他人修改，请刷新后重试');
    expect(screen.queryByText('保存成功')).toBeNull();
    expect(screen.getByTestId('saved').textContent).toBe('');
  });
});

// ── editable rows ────────────────────────────────────────────────────────────

function CodesEditor({
  confirm,
  onSubmit,
}: {
  confirm?: boolean;
  onSubmit: (v: { rows: { code: string }[] }) => void;
}) {
  const [form] = Form.useForm<{ rows: { code: string }[] }>();
  return (
    <Form form={form} initialValues={{ rows: [{ code: 'a' }, { code: 'b' }, { code: 'c' }] }} onFinish={onSubmit}>
      <Form.List name="rows">
        {(fields, { remove, move }) => (
          <RowsTable
            fields={fields}
            scrollX={400}
            testId="codes"
            columns={[
              {
                title: '编码',
                key: 'code',
                render: (_, f) => (
                  <Form.Item name={[f.name, 'code']} rules={[uniqueInList('rows', 'code', '编码不能重复')]}>
                    <Input data-testid="code" />
                  </Form.Item>
                ),
              },
              {
                title: '操作',
                key: 'ops',
                render: (_, f, i) => (
                  <RowOps
                    index={i}
                    count={fields.length}
                    move={move}
                    onRemove={() => remove(f.name)}
                    testId="code"
                    confirm={confirm ? { title: '确认删除该行？' } : undefined}
                  />
                ),
              },
            ]}
          />
        )}
      </Form.List>
      <button type="submit">提交</button>
    </Form>
  );
}

describe('editable rows', () => {
  const codes = () => screen.getAllByTestId('code').map((i) => (i as HTMLInputElement).value);

  it('moves rows up and down (the ends cannot), removes one, and refuses a repeated code', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderRoutes([{ path: '/', element: <CodesEditor onSubmit={onSubmit} /> }]);
    expect(codes()).toEqual(['a', 'b', 'c']);
    expect((screen.getAllByTestId('code-up')[0] as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getAllByTestId('code-down')[2] as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getAllByTestId('code-down')[0]!);
    expect(codes()).toEqual(['b', 'a', 'c']);
    await user.click(screen.getAllByTestId('code-remove')[2]!);
    expect(codes()).toEqual(['b', 'a']);

    await user.clear(screen.getAllByTestId('code')[1]!);
    await user.type(screen.getAllByTestId('code')[1]!, ' b ');
    await user.click(screen.getByText('提交'));
    expect((await screen.findAllByText('编码不能重复')).length).toBeGreaterThan(0);
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(screen.getAllByTestId('code')[1]!);
    await user.type(screen.getAllByTestId('code')[1]!, 'd');
    await user.click(screen.getByText('提交'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ rows: [{ code: 'b' }, { code: 'd' }] }));
  });

  it('with confirm, removing asks first', async () => {
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <CodesEditor confirm onSubmit={() => {}} /> }]);
    await user.click(screen.getAllByTestId('code-remove')[0]!);
    expect(await screen.findByText('确认删除该行？')).toBeTruthy();
    expect(codes()).toEqual(['a', 'b', 'c']);
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(codes()).toEqual(['b', 'c']));
  });
});

// ── presets: dialogs over a list, columns, filters, the list's card ────────

describe('presets', () => {
  it('useEditDialog opens for a new record or a row, keeps the record while closing, and refreshes after a save', async () => {
    const refresh = vi.fn();
    function Page() {
      const d = useEditDialog<Row>(refresh);
      return (
        <>
          <button type="button" onClick={d.create}>
            新增
          </button>
          <button type="button" onClick={() => d.edit(ROWS[1]!)}>
            编辑
          </button>
          <output data-testid="state">{`${d.props.open ? 'open' : 'closed'}:${d.props.record?.name ?? 'new'}`}</output>
          <button type="button" onClick={d.props.onClose}>
            取消
          </button>
          <button type="button" onClick={d.props.onSaved}>
            保存
          </button>
        </>
      );
    }
    renderRoutes([{ path: '/', element: <Page /> }]);
    const state = () => screen.getByTestId('state').textContent;
    expect(state()).toBe('closed:new');
    await userEvent.click(screen.getByText('编辑'));
    expect(state()).toBe('open:名称2');
    await userEvent.click(screen.getByText('取消'));
    expect(state()).toBe('closed:名称2');
    expect(refresh).not.toHaveBeenCalled();
    await userEvent.click(screen.getByText('新增'));
    expect(state()).toBe('open:new');
    await userEvent.click(screen.getByText('保存'));
    expect(state()).toBe('closed:new');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('useRowDialog is open for one row; closing forgets it, a save also refreshes', async () => {
    const refresh = vi.fn();
    function Page() {
      const d = useRowDialog<Row>(refresh);
      return (
        <>
          <button type="button" onClick={() => d.open(ROWS[2]!)}>
            重置
          </button>
          <output data-testid="row">{d.props.row?.name ?? 'none'}</output>
          <button type="button" onClick={d.close}>
            取消
          </button>
          <button type="button" onClick={d.saved}>
            保存
          </button>
        </>
      );
    }
    renderRoutes([{ path: '/', element: <Page /> }]);
    await userEvent.click(screen.getByText('重置'));
    expect(screen.getByTestId('row').textContent).toBe('名称3');
    await userEvent.click(screen.getByText('取消'));
    expect(screen.getByTestId('row').textContent).toBe('none');
    expect(refresh).not.toHaveBeenCalled();
    await userEvent.click(screen.getByText('重置'));
    await userEvent.click(screen.getByText('保存'));
    expect(screen.getByTestId('row').textContent).toBe('none');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('dateTimeColumn shows the platform zone’s time and sorts only where asked; orDash fills an empty cell', () => {
    const col = dateTimeColumn('创建时间', 'createdAt', { sortField: 'createdAt', order: 'asc' });
    expect(col).toMatchObject({ title: '创建时间', dataIndex: 'createdAt', sorter: true, sortOrder: 'ascend' });
    expect(col.render('2026-11-25T16:30:00.000Z')).toBe('2026-11-26 00:30');
    expect(col.render(null)).toBe('—');
    expect(dateTimeColumn('更新时间', 'updatedAt', {}, false)).toMatchObject({ sorter: false, sortOrder: null });
    expect('sorter' in dateTimeColumn('时间', 't')).toBe(false);
    expect(orDash(null)).toBe('—');
    expect(orDash('太原')).toBe('太原');
  });

  it('BooleanFilter offers the two labels and answers true or false as text; ListCard refreshes', async () => {
    const changed = vi.fn();
    const refresh = vi.fn();
    renderRoutes([
      {
        path: '/',
        element: (
          <ListCard
            title="机构"
            view={{ refresh, list: { isFetching: false, isPending: false } }}
            actions={<button type="button">新增机构</button>}
          >
            <BooleanFilter labels={['启用', '停用']} value={undefined} onChange={changed} testId="enabled" />
          </ListCard>
        ),
      },
    ]);
    expect(screen.getByText('机构')).toBeTruthy();
    expect(screen.getByText('新增机构')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /刷\s*新/ }));
    expect(refresh).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('combobox'));
    await userEvent.click(await screen.findByText('停用'));
    expect(changed).toHaveBeenCalledWith('false');
  });
});
