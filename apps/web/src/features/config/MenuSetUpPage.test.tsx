import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import {
  bodyOf,
  confirmPopover,
  findFieldError,
  pickOption,
  queryOf,
  renderConfig,
  setupConfigServer,
  uuid,
} from './testkit';

const PATH = '/system/menuSetUp?systemCoding=XYGL';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const node = (code: string) => screen.getByTestId(`menu-node-${code}`);
/** The codes of the tree's nodes in screen order. */
const order = () =>
  Array.from(screen.getByTestId('menu-tree').querySelectorAll('[data-testid^="menu-node-"]')).map((el) =>
    el.getAttribute('data-testid')?.replace('menu-node-', ''),
  );

async function select(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.click(await screen.findByTestId(`menu-node-${code}`));
  await waitFor(() => expect((screen.getByTestId('menu-code-input') as HTMLInputElement).value).toBe(code));
}

describe('菜单设置', () => {
  it('loads the whole tree of the system, hidden and disabled items marked', async () => {
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByTestId('menu-node-A1');
    expect(queryOf(server.callsTo('/ks/config/new/node/node-list')[0]).get('systemCoding')).toBe('XYGL');
    expect(server.callsTo('/ks/config/new/node/node-list')[0].headers.Authorization).toBe('Bearer tok-dev');
    expect(order()).toEqual(['A', 'A1', 'A2', 'A3', 'B', 'B1', 'C']);
    expect(within(node('C')).getByText('隐藏')).toBeTruthy();
    expect(within(node('C')).getByText('已禁用')).toBeTruthy();
    expect(within(node('A1')).queryByText('隐藏')).toBeNull();
    expect(await screen.findByText('菜单设置 · 信用管理系统')).toBeTruthy();
  });

  it('without a system it asks for one; choosing one puts it in the query string', async () => {
    const user = userEvent.setup();
    setupConfigServer({}, '/system/menuSetUp');
    const { router } = renderConfig('/system/menuSetUp');
    expect(await screen.findByTestId('menu-no-system')).toBeTruthy();
    await pickOption(user, 'menu-system', '信用管理系统（XYGL）');
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL'));
    expect(await screen.findByTestId('menu-node-A1')).toBeTruthy();
  });

  it('edits the selected item: the code is read-only, PUT edit carries every field', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A1');
    const code = screen.getByTestId('menu-code-input') as HTMLInputElement;
    expect(code.disabled).toBe(true);
    expect(screen.getByText('编码生成后不可修改')).toBeTruthy();
    const title = screen.getByTestId('menu-title-input');
    await user.clear(title);
    await user.type(title, '信用子项改名');
    await user.click(within(screen.getByTestId('menu-itshows')).getByLabelText('否'));
    await user.click(screen.getByTestId('menu-disabled'));
    await user.click(screen.getByTestId('menu-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/edit')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/edit')[0])).toEqual({
      id: uuid(11),
      gnCoding: 'A1',
      title: '信用子项改名',
      icon: null,
      itShows: '否',
      nodeProperties: 'list',
      style: 'table',
      nodeSetFlag: false,
      disabled: true,
      groupName: null,
      dataSource: 'engine',
      score: null,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // the tree reloads and marks the item
    await waitFor(() => expect(within(node('A1')).getByText('隐藏')).toBeTruthy());
    expect(within(node('A1')).getByText('信用子项改名')).toBeTruthy();
  });

  it('a node’s score (shown in the sidebar) is set here, checked before sending', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A1');
    const score = screen.getByTestId('menu-score');
    await user.type(score, '12.345');
    await user.click(screen.getByTestId('menu-save'));
    await findFieldError('分值最多保留两位小数');
    expect(server.callsTo('/ks/config/new/structure/edit')).toHaveLength(0);
    await user.clear(score);
    await user.type(score, '88.5');
    await user.click(screen.getByTestId('menu-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/edit')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/edit')[0])).toMatchObject({ gnCoding: 'A1', score: 88.5 });
  });

  it('links each node to its other settings, 审核级别 and 审核方式 included', async () => {
    const user = userEvent.setup();
    setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A1');
    expect(screen.getByTestId('node-link-auditLevel').getAttribute('href')).toBe(
      '/system/auditLevel?systemCoding=XYGL&gnCoding=A1',
    );
    expect(screen.getByTestId('node-link-auditWay').getAttribute('href')).toBe(
      '/system/auditWay?systemCoding=XYGL&gnCoding=A1',
    );
    expect(screen.getByTestId('node-link-setUpForm').getAttribute('href')).toBe(
      '/system/setUpForm?systemCoding=XYGL&gnCoding=A1',
    );
  });

  it('新增下级 checks the code, then creates the item under the selected one', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A');
    await user.click(screen.getByTestId('add-child'));
    expect((await screen.findByTestId('menu-create-card')).textContent).toContain('新增下级 · 信用管理');
    const code = screen.getByTestId('menu-code-input') as HTMLInputElement;
    expect(code.disabled).toBe(false);
    await user.type(screen.getByTestId('menu-title-input'), '新菜单');
    await user.type(code, '1abc');
    await user.click(screen.getByTestId('menu-save'));
    await findFieldError('节点编码格式为字母开头，以及数字、下划线组成');
    await findFieldError('请选择节点属性');
    expect(server.callsTo('/ks/config/new/structure/child-menu')).toHaveLength(0);
    await user.clear(code);
    await user.type(code, 'A4');
    await pickOption(user, 'menu-property', '列表');
    await user.click(screen.getByTestId('menu-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/child-menu')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/child-menu')[0])).toEqual({
      systemCoding: 'XYGL',
      parentId: uuid(1),
      gnCoding: 'A4',
      title: '新菜单',
      icon: null,
      itShows: '是',
      nodeProperties: 'list',
      style: 'table',
      nodeSetFlag: false,
      disabled: false,
      groupName: null,
      dataSource: 'engine',
      score: null,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // the new item is in the tree and selected, its code now read-only
    await waitFor(() => expect((screen.getByTestId('menu-code-input') as HTMLInputElement).value).toBe('A4'));
    expect((screen.getByTestId('menu-code-input') as HTMLInputElement).disabled).toBe(true);
    expect(order()).toEqual(['A', 'A1', 'A2', 'A3', 'A4', 'B', 'B1', 'C']);
  });

  it('新增同级 of a top-level item sends parentId null; a duplicate code (409) shows on the field', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer(
      {
        'POST /ks/config/new/structure/child-menu': () => ({
          status: 409,
          code: 409,
          message: '编码已存在，请更换',
          data: { fieldErrors: { gnCoding: ['编码已存在，请更换'] } },
        }),
      },
      PATH,
    );
    renderConfig(PATH);
    await select(user, 'B');
    await user.click(screen.getByTestId('add-sibling'));
    expect((await screen.findByTestId('menu-create-card')).textContent).toContain('新增顶级菜单');
    await user.type(screen.getByTestId('menu-title-input'), '重复');
    await user.type(screen.getByTestId('menu-code-input'), 'A1');
    await pickOption(user, 'menu-property', '目录');
    await user.click(screen.getByTestId('menu-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/child-menu')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/child-menu')[0])).toMatchObject({
      parentId: null,
      gnCoding: 'A1',
      nodeProperties: 'directory',
    });
    await findFieldError('编码已存在，请更换');
    expect(screen.getByTestId('menu-form-error').textContent).toContain('编码已存在，请更换');
    // field errors are shown on the form, not in the global dialog
    expect(currentPrompt()).toBeNull();
  });

  it('删除 asks first; the server refuses an item with children and its message is shown', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'B');
    await user.click(screen.getByTestId('menu-delete'));
    expect(server.callsTo('/ks/config/new/structure/del')).toHaveLength(0);
    await confirmPopover(user);
    await waitFor(() => expect(currentPrompt()?.message).toBe('请先删除下级菜单'));
    expect(queryOf(server.callsTo('/ks/config/new/structure/del')[0]).get('id')).toBe(uuid(2));
    act(() => resetPrompts());
    await select(user, 'C');
    await user.click(screen.getByTestId('menu-delete'));
    await confirmPopover(user);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('menu-node-C')).toBeNull());
  });

  it('上移 / 下移 call the move endpoint and render the tree the server answers', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A2');
    await user.click(screen.getByTestId('menu-up'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/move')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/move')[0])).toEqual({
      id: uuid(12),
      parentId: uuid(1),
      index: 0,
    });
    await waitFor(() => expect(order()).toEqual(['A', 'A2', 'A1', 'A3', 'B', 'B1', 'C']));
    // now first: 上移 is disabled, 下移 moves it back
    expect((screen.getByTestId('menu-up') as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('menu-down'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/move')).toHaveLength(2));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/move')[1])).toEqual({
      id: uuid(12),
      parentId: uuid(1),
      index: 1,
    });
    await waitFor(() => expect(order()).toEqual(['A', 'A1', 'A2', 'A3', 'B', 'B1', 'C']));
    // a top-level item at the end
    await select(user, 'C');
    expect((screen.getByTestId('menu-down') as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('menu-up'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/move')).toHaveLength(3));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/move')[2])).toEqual({
      id: uuid(3),
      parentId: null,
      index: 1,
    });
  });

  it('移动到 moves the item under another one (keyboard alternative to dragging)', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'C');
    await pickOption(user, 'menu-move-to', '信用评价');
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/move')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/move')[0])).toEqual({
      id: uuid(3),
      parentId: uuid(2),
      index: 1,
    });
    await waitFor(() => expect(order()).toEqual(['A', 'A1', 'A2', 'A3', 'B', 'B1', 'C']));
    expect(await screen.findByText('操作成功')).toBeTruthy();
  });

  it("dropping an item onto another makes it that item's first child", async () => {
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByTestId('menu-node-C');
    const treeNode = (code: string) => node(code).closest('.ant-tree-treenode') as HTMLElement;
    // jsdom has no layout (every box 0×0): antd reads the drop as onto the node
    fireEvent.dragStart(treeNode('C'));
    fireEvent.dragEnter(treeNode('A1'));
    fireEvent.dragOver(treeNode('A1'));
    fireEvent.drop(treeNode('A1'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/move')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/move')[0])).toEqual({
      id: uuid(3),
      parentId: uuid(11),
      index: 0,
    });
    // A1 opens to show its new child
    await waitFor(() => expect(order()).toEqual(['A', 'A1', 'C', 'A2', 'A3', 'B', 'B1']));
  });

  it('a refused move is shown and the tree reloaded', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer(
      {
        'POST /ks/config/new/structure/move': () => ({
          status: 400,
          code: 400,
          message: '不能移动到自身或其下级菜单之下',
        }),
      },
      PATH,
    );
    renderConfig(PATH);
    await select(user, 'A3');
    const before = server.callsTo('/ks/config/new/node/node-list').length;
    await user.click(screen.getByTestId('menu-up'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('不能移动到自身或其下级菜单之下'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/node/node-list').length).toBeGreaterThan(before));
  });

  it('按钮配置 lists the node buttons, adds a custom one and saves them all', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await select(user, 'A1');
    await user.click(screen.getByRole('tab', { name: '按钮配置' }));
    await waitFor(() => expect(screen.getAllByTestId('function-code')).toHaveLength(2));
    expect(bodyOf(server.callsTo('/ks/config/new/node/function-list')[0])).toEqual({ gnCoding: 'A1' });
    // from the dictionary
    await pickOption(user, 'function-dictionary', '导出（export）');
    await waitFor(() => expect(screen.getAllByTestId('function-code')).toHaveLength(3));
    // custom, first with a duplicate code
    await user.click(screen.getByTestId('function-add-custom'));
    const codes = screen.getAllByTestId('function-code');
    const names = screen.getAllByTestId('function-name');
    await user.type(codes[3], 'add');
    await user.type(names[3], '再次新增');
    await user.click(screen.getByTestId('save-functions'));
    expect((await screen.findAllByText('按钮编码不能重复')).length).toBeGreaterThan(0);
    expect(server.callsTo('/ks/config/new/node/functions')).toHaveLength(0);
    await user.clear(codes[3]);
    await user.type(codes[3], 'sign');
    // the first button goes to the end
    await user.click(screen.getAllByTestId('function-down')[0]);
    await user.click(screen.getByTestId('save-functions'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/node/functions')).toHaveLength(1));
    const body = bodyOf<{ gnCoding: string; functions: { code: string }[] }>(
      server.callsTo('/ks/config/new/node/functions')[0],
    );
    expect(body.gnCoding).toBe('A1');
    expect(body.functions.map((f) => f.code)).toEqual(['delete', 'add', 'export', 'sign']);
    expect(body.functions[3]).toEqual({ code: 'sign', name: '再次新增', color: '#409EFF', show: true, kind: 'table' });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('刷新缓存 calls the cache refresh', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByTestId('menu-node-A');
    await user.click(screen.getByTestId('refresh-cache'));
    await waitFor(() => expect(server.callsTo('/ks/cache/refresh')).toHaveLength(1));
    expect(await screen.findByText('缓存已刷新（7 个节点）')).toBeTruthy();
  });
});
