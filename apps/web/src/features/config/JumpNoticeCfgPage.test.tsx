import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
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

const PATH = '/system/jumpNoticeCfg';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

function withJump() {
  const server = setupConfigServer({}, PATH);
  server.state.jumps = [
    {
      id: uuid(851),
      name: '信用待办',
      msgType: 'todo',
      systemCoding: 'XYGL',
      gnCoding: 'A1',
      enabled: true,
      path: '/dynamicPage/dynamicIndex?gnCoding=A1&systemCoding=XYGL',
    },
  ];
  return server;
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('消息跳转配置', () => {
  it('lists the configurations with type, system, node, state and path', async () => {
    withJump();
    renderConfig(PATH);
    await screen.findByText('信用待办');
    const row = rowOf('信用待办');
    expect(within(row).getByText('待办')).toBeTruthy();
    await waitFor(() => expect(within(row).getByText('信用管理系统')).toBeTruthy());
    expect(within(row).getByText('A1')).toBeTruthy();
    expect(within(row).getByText('启用')).toBeTruthy();
    expect(row.textContent).toContain('/dynamicPage/dynamicIndex?gnCoding=A1&systemCoding=XYGL');
  });

  it('新增 in a 300px drawer: system, then a leaf node of that system; saves without an id', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByText('暂无数据');
    await user.click(screen.getByTestId('jump-create'));
    const drawer = await screen.findByTestId('jump-drawer');
    expect((drawer.closest('.ant-drawer-content-wrapper') as HTMLElement).style.width).toBe('300px');
    await user.click(screen.getByTestId('jump-save'));
    await findFieldError('请输入配置名称');
    await findFieldError('请选择消息类型');
    await findFieldError('请选择系统');
    await findFieldError('请选择跳转节点');
    await user.type(screen.getByTestId('jump-name'), '驳回提醒');
    await pickOption(user, 'jump-msg-type', '驳回');
    await pickOption(user, 'jump-system', '信用管理系统（XYGL）');
    // a menu with children is not a target
    await pickOption(user, 'jump-node', '信用管理（A）');
    await user.click(screen.getByTestId('jump-save'));
    await findFieldError('请选择跳转节点');
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await pickOption(user, 'jump-node', '信用子项2（A2）');
    await user.click(screen.getByTestId('jump-enabled'));
    await user.click(screen.getByTestId('jump-save'));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(bodyOf(server.calls.find((c) => c.method === 'POST')!)).toEqual({
      name: '驳回提醒',
      msgType: 'rejected',
      systemCoding: 'XYGL',
      gnCoding: 'A2',
      enabled: false,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(await screen.findByText('驳回提醒')).toBeTruthy();
  });

  it('编辑 loads the record and saves it with its id; a field error of the server is shown', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const server = setupConfigServer(
      {
        'POST /ks/config/notice-jump': (req) => {
          calls += 1;
          if (calls === 1)
            return {
              status: 400,
              code: 400,
              message: '跳转节点不属于所选系统',
              data: { fieldErrors: { gnCoding: ['跳转节点不属于所选系统'] } },
            };
          return { data: { ...bodyOf<Record<string, unknown>>(req), path: '/x' }, message: '保存成功' };
        },
      },
      PATH,
    );
    server.state.jumps = [
      {
        id: uuid(851),
        name: '信用待办',
        msgType: 'todo',
        systemCoding: 'XYGL',
        gnCoding: 'A1',
        enabled: true,
        path: '/dynamicPage/dynamicIndex?gnCoding=A1&systemCoding=XYGL',
      },
    ];
    renderConfig(PATH);
    await screen.findByText('信用待办');
    await user.click(within(rowOf('信用待办')).getByTestId('jump-edit'));
    await waitFor(() => expect((screen.getByTestId('jump-name') as HTMLInputElement).value).toBe('信用待办'));
    await user.click(screen.getByTestId('jump-save'));
    await findFieldError('跳转节点不属于所选系统');
    expect(screen.getByTestId('jump-form-error')).toBeTruthy();
    await user.click(screen.getByTestId('jump-save'));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(bodyOf(server.calls.filter((c) => c.method === 'POST')[1])).toEqual({
      id: uuid(851),
      name: '信用待办',
      msgType: 'todo',
      systemCoding: 'XYGL',
      gnCoding: 'A1',
      enabled: true,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('删除 asks first and sends the id', async () => {
    const user = userEvent.setup();
    const server = withJump();
    renderConfig(PATH);
    await screen.findByText('信用待办');
    await user.click(within(rowOf('信用待办')).getByTestId('jump-delete'));
    expect(server.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await confirmPopover(user);
    await waitFor(() => expect(screen.queryByText('信用待办')).toBeNull());
    expect(queryOf(server.calls.find((c) => c.method === 'DELETE')!).get('id')).toBe(uuid(851));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });
});
