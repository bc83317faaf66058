import type { Role, UserBrief } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { bodyOf, roleRows, setupServer, users, uuid } from './fixtures';

const PATH = '/system/permissionsSet';

let roles: Role[];
let members: UserBrief[];

function setup(handlers: Record<string, Handler> = {}) {
  roles = roleRows();
  members = [users[0]];
  return setupServer(PATH, {
    'GET /ks/authority/v1/roles': () => ({ data: roles }),
    'POST /ks/authority/v1/roles': (req) => {
      const b = bodyOf(req) as { code: string; name: string };
      const r: Role = { id: uuid(9), code: b.code, name: b.name, builtin: false, memberCount: 0 };
      roles = [...roles, r];
      return { data: r, message: '保存成功' };
    },
    'PUT /ks/authority/v1/roles': (req) => {
      const b = bodyOf(req) as { id: string; name: string };
      roles = roles.map((r) => (r.id === b.id ? { ...r, name: b.name } : r));
      return { data: roles.find((r) => r.id === b.id) };
    },
    'DELETE /ks/authority/v1/roles': (req) => {
      const id = queryOf(req).get('id');
      roles = roles.filter((r) => r.id !== id);
      return { data: null, message: '删除成功' };
    },
    'GET /ks/authority/v1/roles/members': () => ({ data: members }),
    'PUT /ks/authority/v1/roles/members': (req) => {
      const b = bodyOf(req) as { userIds: string[] };
      members = users.filter((u) => b.userIds.includes(u.id));
      return { data: members };
    },
    'GET /ks/authority/v1/users': (req) => {
      const kw = queryOf(req).get('keyword') ?? '';
      const rows = users.filter((u) => !kw || u.account.includes(kw) || u.userName.includes(kw));
      return { data: { records: rows, total: rows.length } };
    },
    ...handlers,
  });
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = () => renderRoutes(routes, PATH, { antd: false });
const row = (code: string) => screen.getByTestId(`role-row-${code}`);

describe('角色权限 /system/permissionsSet', () => {
  it('lists the roles; built-in roles cannot be renamed or deleted; each links to its permission matrix', async () => {
    setup();
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    expect(screen.getAllByTestId('role-name').map((n) => n.textContent)).toEqual([
      '管理员',
      '开发者',
      '企业/个人',
      '审核员',
    ]);
    for (const code of ['admin', 'developer', 'user']) {
      expect((within(row(code)).getByTestId('role-delete') as HTMLButtonElement).disabled).toBe(true);
      expect((within(row(code)).getByTestId('role-rename') as HTMLButtonElement).disabled).toBe(true);
    }
    expect(within(row('user')).getByTestId('role-members-count').textContent).toBe('全部企业/个人用户（5 人）');
    expect(within(row('auditor')).getByTestId('role-members-count').textContent).toBe('1 人');
    expect((within(row('auditor')).getByTestId('role-delete') as HTMLButtonElement).disabled).toBe(false);
    expect(within(row('auditor')).getByTestId('role-permission').getAttribute('href')).toBe(
      '/system/permissConfig?subjectType=role&subjectId=auditor',
    );
  });

  it('新建角色 validates the code, posts {code, name} and shows the new role', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('role-create'));
    await user.type(await screen.findByTestId('role-code-input'), '1bad');
    await user.click(screen.getByTestId('role-form-save'));
    expect(await screen.findByText('角色编码须以字母开头，由字母、数字、下划线组成')).toBeTruthy();
    expect(await screen.findByText('请输入角色名称')).toBeTruthy();
    expect(server.callsTo('/ks/authority/v1/roles').filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(screen.getByTestId('role-code-input'));
    await user.type(screen.getByTestId('role-code-input'), 'reviewer');
    await user.type(screen.getByTestId('role-name-input'), '复核员');
    await user.click(screen.getByTestId('role-form-save'));
    await waitFor(() => expect(server.callsTo('/ks/authority/v1/roles').some((c) => c.method === 'POST')).toBe(true));
    const post = server.callsTo('/ks/authority/v1/roles').find((c) => c.method === 'POST')!;
    expect(bodyOf(post)).toEqual({ code: 'reviewer', name: '复核员' });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(await screen.findByTestId('role-row-reviewer')).toBeTruthy();
  });

  it('a duplicate code (409) is shown on the code field', async () => {
    const user = userEvent.setup();
    setup({ 'POST /ks/authority/v1/roles': () => ({ status: 409, code: 409, message: '角色编码已存在' }) });
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('role-create'));
    await user.type(await screen.findByTestId('role-code-input'), 'auditor');
    await user.type(screen.getByTestId('role-name-input'), '审核员2');
    await user.click(screen.getByTestId('role-form-save'));
    expect((await screen.findByTestId('role-form-error')).textContent).toContain('角色编码已存在');
    expect(currentPrompt()).toBeNull();
  });

  it('重命名 sends PUT {id, name} with the code fixed', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    await user.click(within(row('auditor')).getByTestId('role-rename'));
    const code = (await screen.findByTestId('role-code-input')) as HTMLInputElement;
    await waitFor(() => expect(code.value).toBe('auditor'));
    expect(code.disabled).toBe(true);
    const name = screen.getByTestId('role-name-input') as HTMLInputElement;
    await user.clear(name);
    await user.type(name, '终审员');
    await user.click(screen.getByTestId('role-form-save'));
    await waitFor(() => expect(server.callsTo('/ks/authority/v1/roles').some((c) => c.method === 'PUT')).toBe(true));
    const put = server.callsTo('/ks/authority/v1/roles').find((c) => c.method === 'PUT')!;
    expect(bodyOf(put)).toEqual({ id: uuid(4), name: '终审员' });
    await waitFor(() => expect(within(row('auditor')).getByTestId('role-name').textContent).toBe('终审员'));
  });

  it('删除 asks first, then sends DELETE ?id= and removes the row', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    await user.click(within(row('auditor')).getByTestId('role-delete'));
    expect(server.callsTo('/ks/authority/v1/roles').filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('role-row-auditor')).toBeNull());
    const del = server.callsTo('/ks/authority/v1/roles').find((c) => c.method === 'DELETE')!;
    expect(queryOf(del).get('id')).toBe(uuid(4));
    expect(del.body).toBeUndefined();
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });

  it('a built-in role shows 全部企业/个人用户 instead of a member editor', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('role-row-user', {}, { timeout: 15_000 });
    await user.click(within(row('user')).getByTestId('role-members'));
    expect((await screen.findByTestId('members-builtin')).textContent).toBe('全部企业/个人用户');
    expect(screen.queryByTestId('members-editor')).toBeNull();
    expect(server.callsTo('/ks/authority/v1/roles/members')).toHaveLength(0);
  });

  it('成员: adds a user found by search, removes one, and saves {roleId, userIds}', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('role-row-auditor', {}, { timeout: 15_000 });
    await user.click(within(row('auditor')).getByTestId('role-members'));
    const table = await screen.findByTestId('member-table');
    await within(table).findByText('user1');
    expect(queryOf(server.callsTo('/ks/authority/v1/roles/members')[0]).get('roleId')).toBe(uuid(4));
    expect((screen.getByTestId('members-save') as HTMLButtonElement).disabled).toBe(true);

    const search = within(screen.getByTestId('member-search')).getByRole('combobox');
    await user.click(search);
    await user.type(search, '李');
    const option = await screen.findByTitle('李个人（user2）');
    await user.click(option);
    await within(table).findByText('user2');
    await waitFor(() =>
      expect(server.callsTo('/ks/authority/v1/users').some((c) => queryOf(c).get('keyword') === '李')).toBe(true),
    );

    await user.click(within(table).getByTestId('member-remove-user1'));
    expect(within(table).queryByText('user1')).toBeNull();
    await user.click(screen.getByTestId('members-save'));
    await waitFor(() =>
      expect(server.callsTo('/ks/authority/v1/roles/members').some((c) => c.method === 'PUT')).toBe(true),
    );
    const put = server.callsTo('/ks/authority/v1/roles/members').find((c) => c.method === 'PUT')!;
    expect(bodyOf(put)).toEqual({ roleId: uuid(4), userIds: [uuid(102)] });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('a non-administrator (403 on the roles) sees 无权访问', async () => {
    setup({ 'GET /ks/authority/v1/roles': () => ({ status: 403, code: 403, message: '无权进行此操作' }) });
    render();
    expect((await screen.findByTestId('forbidden', {}, { timeout: 15_000 })).textContent).toContain('无权访问');
  });
});
