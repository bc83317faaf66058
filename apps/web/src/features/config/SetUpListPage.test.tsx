import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { bodyOf, findFieldError, pickOption, renderConfig, setupConfigServer } from './testkit';

const PATH = '/system/setUpList?gnCoding=A1';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const codes = () => screen.getAllByTestId('column-code') as HTMLInputElement[];

describe('列表列设置', () => {
  it('loads the columns of the node named in the query, with the node and its system', async () => {
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await waitFor(() => expect(codes().map((c) => c.value)).toEqual(['projectName', 'status']));
    expect(bodyOf(server.callsTo('/ks/common/common/table/columns')[0])).toEqual({ gnCoding: 'A1' });
    expect((screen.getAllByTestId('column-name') as HTMLInputElement[]).map((c) => c.value)).toEqual([
      '项目名称',
      '状态',
    ]);
    expect((await screen.findByTestId('node-target-name')).textContent).toBe('当前节点：信用子项1（A1）· 信用管理系统');
    // the selector shows the node's system, found through the node's preview
    expect(within(screen.getByTestId('node-selector-system')).getByText('信用管理系统（XYGL）')).toBeTruthy();
    // the preview shows the columns the list really shows: the list adds 操作 when none is configured
    const preview = screen.getByTestId('columns-preview');
    expect(
      within(preview)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['序号', '项目名称', '状态', '操作']);
    expect(screen.getByTestId('columns-count').textContent).toBe(
      '已配置 2 列（最多 60 列）；列表实际显示 3 列；含自动补充的「操作」列',
    );
  });

  it('counts what the list shows: hidden columns do not count; without columns the list shows the node’s fields', async () => {
    const user = userEvent.setup();
    setupConfigServer({}, PATH);
    renderConfig(PATH);
    await waitFor(() => expect(codes().map((c) => c.value)).toEqual(['projectName', 'status']));
    // hide 状态: configured 2, shown 项目名称 + 操作
    await user.click(screen.getAllByTestId('column-show')[1]!);
    await waitFor(() =>
      expect(screen.getByTestId('columns-count').textContent).toBe(
        '已配置 2 列（最多 60 列）；列表实际显示 2 列；含自动补充的「操作」列',
      ),
    );
    // no columns at all: the list shows the node's fields, the status, the last change and the operations
    for (const remove of screen.getAllByTestId('column-remove').reverse()) await user.click(remove);
    await waitFor(() => expect(screen.getByTestId('columns-count').textContent).toContain('已配置 0 列'));
    expect(screen.getByTestId('columns-count').textContent).toContain('未配置列时按节点字段显示');
    const heads = within(screen.getByTestId('columns-preview'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(heads).toEqual(expect.arrayContaining(['项目名称', '招标人', '状态', '操作']));
    expect(screen.getByTestId('columns-count').textContent).toContain(`列表实际显示 ${heads.length - 1} 列`);
  });

  it('adds, reorders and removes columns and saves them in order', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await waitFor(() => expect(codes()).toHaveLength(2));
    await user.click(screen.getByTestId('column-add'));
    await user.type(codes()[2], 'amount');
    await user.type(screen.getAllByTestId('column-name')[2], '金额');
    await user.type(screen.getAllByTestId('column-width')[2], '120');
    await user.click(screen.getAllByTestId('column-isSearch')[2]);
    // amount moves above status, then status goes
    await user.click(screen.getAllByTestId('column-up')[2]);
    await user.click(screen.getAllByTestId('column-remove')[2]);
    await waitFor(() => expect(codes().map((c) => c.value)).toEqual(['projectName', 'amount']));
    await user.click(screen.getByTestId('save-columns'));
    await waitFor(() => expect(server.callsTo('/ks/config/node/columns')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/node/columns')[0])).toEqual({
      gnCoding: 'A1',
      columns: [
        {
          code: 'projectName',
          name: '项目名称',
          type: 'text',
          show: true,
          isSearch: true,
          isStatus: false,
          listAlignment: '左对齐',
          width: 240,
        },
        {
          code: 'amount',
          name: '金额',
          type: 'text',
          show: true,
          isSearch: true,
          isStatus: false,
          listAlignment: '居中',
          width: 120,
        },
      ],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // typing-heavy: each keystroke re-renders the form and its preview
  }, 60_000);

  it('checks codes and names before saving', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await waitFor(() => expect(codes()).toHaveLength(2));
    await user.click(screen.getByTestId('column-add'));
    await user.type(codes()[2], 'status');
    await user.click(screen.getByTestId('save-columns'));
    await findFieldError('列编码不能重复');
    await findFieldError('请输入列名');
    await user.clear(codes()[2]);
    await user.type(codes()[2], '9x');
    await findFieldError('字段编码须以字母开头，由字母、数字、下划线组成');
    expect(server.callsTo('/ks/config/node/columns')).toHaveLength(0);
  });

  it('shows the field errors of a 400 on the rows they name (columns.1.code)', async () => {
    const user = userEvent.setup();
    setupConfigServer(
      {
        'PUT /ks/config/node/columns': () => ({
          status: 400,
          code: 400,
          message: '列编码与系统字段冲突',
          data: { fieldErrors: { 'columns.1.code': ['列编码与系统字段冲突'], columns: ['最多 60 列'] } },
        }),
      },
      PATH,
    );
    renderConfig(PATH);
    await waitFor(() => expect(codes()).toHaveLength(2));
    await user.click(screen.getByTestId('save-columns'));
    const err = await findFieldError('列编码与系统字段冲突');
    // on the second row's code cell
    expect(err.closest('tr')?.querySelector('[data-testid="column-code"]')).toBe(codes()[1]);
    // a list-level error has no field: it goes to the alert
    expect(screen.getByTestId('columns-error').textContent).toContain('最多 60 列');
    expect(currentPrompt()).toBeNull();
  });

  it('without a node it offers the system and node selectors, and the choice goes to the query string', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, '/system/setUpList');
    const { router } = renderConfig('/system/setUpList');
    expect(await screen.findByTestId('no-node')).toBeTruthy();
    await pickOption(user, 'node-selector-system', '信用管理系统（XYGL）');
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL'));
    await pickOption(user, 'node-selector-node', '信用子项1（A1）');
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL&gnCoding=A1'));
    await waitFor(() => expect(codes()).toHaveLength(2));
    expect(server.callsTo('/ks/config/new/node/node-list')).toHaveLength(1);
  });
});
