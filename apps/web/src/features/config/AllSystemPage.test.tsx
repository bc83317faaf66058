import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { bodyOf, confirmPopover, findFieldError, queryOf, renderConfig, setupConfigServer, uuid } from './testkit';

const PATH = '/system/allSystem';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('系统管理', () => {
  it('lists every system with its code, state, menu count and a link to its menus', async () => {
    const server = setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    expect(server.callsTo('/ks/config/new/node/system-list')[0].headers.Authorization).toBe('Bearer tok-dev');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['序号', '系统名称', '简称', '系统编码', '状态', '菜单数', '创建时间', '操作']);
    const xygl = rowOf('信用管理系统');
    expect(within(xygl).getByText('XYGL')).toBeTruthy();
    expect(within(xygl).getByTestId('system-status').textContent).toBe('启用');
    expect(within(xygl).getByText('7')).toBeTruthy();
    expect(within(xygl).getByTestId('system-menus').getAttribute('href')).toBe('/system/menuSetUp?systemCoding=XYGL');
    expect(within(rowOf('招标投标系统')).getByTestId('system-status').textContent).toBe('停用');
    expect(within(rowOf('招标投标系统')).getByTestId('system-toggle').textContent).toBe('启用');
  });

  it('新建系统 opens the new-system dialog; the created system appears in the list', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({
      // the dialog also reloads the sidebar's menus
      'POST /ks/authority/manager/system-list': () => ({ data: [] }),
      'POST /ks/menu/v1/menus/main-menus': () => ({ data: [] }),
    });
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(screen.getByTestId('create-system'));
    await user.type(await screen.findByTestId('new-system-name'), '场地预约系统');
    await user.type(screen.getByTestId('new-system-title'), '场地预约');
    await user.type(screen.getByTestId('new-system-code'), 'CDYY');
    await user.click(screen.getByTestId('new-system-submit'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/structure/add')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/new/structure/add')[0])).toEqual({
      systemName: '场地预约系统',
      title: '场地预约',
      gnCoding: 'CDYY',
      levels: 0,
    });
    expect(await screen.findByText('系统已生成')).toBeTruthy();
    expect(await screen.findByText('场地预约系统')).toBeTruthy();
    expect(within(rowOf('场地预约系统')).getByText('CDYY')).toBeTruthy();
  });

  it('the keyword filters by name, short name or code', async () => {
    const user = userEvent.setup();
    setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.type(screen.getByPlaceholderText('名称 / 简称 / 编码'), 'zbtb');
    await waitFor(() => expect(screen.queryByText('信用管理系统')).toBeNull());
    expect(screen.getByText('招标投标系统')).toBeTruthy();
  });

  it('编辑 shows the code read-only, checks the short name and saves names and state', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(within(rowOf('信用管理系统')).getByTestId('system-edit'));
    const code = (await screen.findByTestId('system-code-input')) as HTMLInputElement;
    await waitFor(() => expect(code.value).toBe('XYGL'));
    expect(code.disabled).toBe(true);
    expect(screen.getByText('编码生成后不可修改')).toBeTruthy();
    const title = screen.getByTestId('system-title-input');
    await user.clear(title);
    await user.type(title, '九个字的系统简称啊');
    await user.click(screen.getByTestId('system-save'));
    await findFieldError('长度在 1 到 8 个字符');
    await user.clear(title);
    await findFieldError('请输入系统简称');
    expect(server.callsTo('/ks/config/structure/system-name')).toHaveLength(0);
    await user.type(title, '信用');
    const name = screen.getByTestId('system-name-input');
    await user.clear(name);
    await user.type(name, '信用管理平台');
    await user.click(screen.getByTestId('system-enabled-input'));
    await user.click(screen.getByTestId('system-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/structure/system-name')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/structure/system-name')[0])).toEqual({
      systemCoding: 'XYGL',
      systemName: '信用管理平台',
      title: '信用',
      enabled: false,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    await waitFor(() => expect(within(rowOf('信用管理平台')).getByTestId('system-status').textContent).toBe('停用'));
  });

  it('shows the field errors of a 400 in the edit dialog', async () => {
    const user = userEvent.setup();
    setupConfigServer({
      'PUT /ks/config/structure/system-name': () => ({
        status: 400,
        code: 400,
        message: '请输入系统全称',
        data: { fieldErrors: { systemName: ['请输入系统全称'] } },
      }),
    });
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(within(rowOf('信用管理系统')).getByTestId('system-edit'));
    await waitFor(() => expect((screen.getByTestId('system-code-input') as HTMLInputElement).value).toBe('XYGL'));
    await user.click(screen.getByTestId('system-save'));
    await findFieldError('请输入系统全称');
    expect(screen.getByTestId('system-form-error')).toBeTruthy();
    expect(currentPrompt()).toBeNull();
  });

  it('停用 / 启用 ask first and send the whole name with the new state', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(within(rowOf('信用管理系统')).getByTestId('system-toggle'));
    expect(await screen.findByText(/确认停用「信用管理系统」/)).toBeTruthy();
    await confirmPopover(user);
    await waitFor(() => expect(server.callsTo('/ks/config/structure/system-name')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/structure/system-name')[0])).toEqual({
      systemCoding: 'XYGL',
      systemName: '信用管理系统',
      title: '信用管理',
      enabled: false,
    });
    expect(await screen.findByText('操作成功')).toBeTruthy();
    await waitFor(() => expect(within(rowOf('信用管理系统')).getByTestId('system-status').textContent).toBe('停用'));
  });

  it('删除 shows the server refusal for a system with menus and removes an empty one', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(within(rowOf('信用管理系统')).getByTestId('system-delete'));
    await confirmPopover(user);
    await waitFor(() => expect(currentPrompt()?.message).toBe('请先删除该系统下的菜单'));
    expect(queryOf(server.callsTo('/ks/config/new/structure/del')[0]).get('systemCoding')).toBe('XYGL');
    expect(screen.getByText('信用管理系统')).toBeTruthy();
    act(() => resetPrompts());
    await user.click(within(rowOf('招标投标系统')).getByTestId('system-delete'));
    await confirmPopover(user);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('招标投标系统')).toBeNull());
  });

  it('展示分组 lists, adds, edits and deletes the display groups of a system', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer();
    renderConfig(PATH);
    await screen.findByText('信用管理系统');
    await user.click(within(rowOf('信用管理系统')).getByTestId('system-groups'));
    const drawer = await screen.findByTestId('groups-drawer');
    await waitFor(() => expect(within(drawer).getAllByTestId('group-item')).toHaveLength(1));
    expect(queryOf(server.callsTo('/ks/config/structure/display-groups')[0]).get('systemCoding')).toBe('XYGL');
    // add
    await user.click(within(drawer).getByTestId('group-save'));
    await findFieldError('请输入分组名称');
    await user.type(within(drawer).getByTestId('group-name'), '审核');
    await user.click(within(drawer).getByTestId('group-save'));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.method === 'POST' && c.url.includes('display-groups'))).toHaveLength(1),
    );
    const post = server.calls.find((c) => c.method === 'POST' && c.url.includes('display-groups'))!;
    expect(bodyOf(post)).toEqual({ systemCoding: 'XYGL', name: '审核', icon: null, sort: 0 });
    await waitFor(() => expect(within(drawer).getAllByTestId('group-item')).toHaveLength(2));
    // edit the first
    await user.click(within(drawer).getAllByTestId('group-edit')[0]);
    const name = within(drawer).getByTestId('group-name') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('常用'));
    await user.clear(name);
    await user.type(name, '常用功能');
    await user.click(within(drawer).getByTestId('group-save'));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.method === 'PUT' && c.url.includes('display-groups'))).toHaveLength(1),
    );
    const put = server.calls.find((c) => c.method === 'PUT' && c.url.includes('display-groups'))!;
    expect(bodyOf(put)).toEqual({ id: uuid(500), name: '常用功能', icon: 'AppstoreOutlined', sort: 0 });
    expect(await within(drawer).findByText('常用功能')).toBeTruthy();
    // delete the second
    await user.click(within(drawer).getAllByTestId('group-delete')[1]);
    await confirmPopover(user);
    await waitFor(() => expect(within(drawer).getAllByTestId('group-item')).toHaveLength(1));
    const del = server.calls.find((c) => c.method === 'DELETE' && c.url.includes('display-groups'))!;
    expect(queryOf(del).get('id')).toBe(uuid(601));
  });
});
