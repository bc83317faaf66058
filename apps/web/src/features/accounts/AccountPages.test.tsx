import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPrompt } from '../../components/prompt';
import {
  bodyOf,
  confirmPopover,
  findFieldError,
  OWN_ENTERPRISE,
  pickOption,
  queryOf,
  renderAccounts,
  resetAll,
  rowOf,
  SELF_ID,
  setupAccountsServer,
  uuid,
} from './testkit';

afterEach(resetAll);

const ADMINS = '/ks/authority/v1/accounts/admins';
const PERSONNEL = '/ks/authority/v1/accounts/personnel';

describe('管理员信息 /system/adminInfo', () => {
  it('is for administrators only: others see 403 and nothing is loaded', async () => {
    for (const role of ['D', 'U'] as const) {
      const server = setupAccountsServer(role, '/system/adminInfo');
      const view = renderAccounts('/system/adminInfo');
      expect((await screen.findByTestId('forbidden')).textContent).toContain('无权访问');
      expect(server.callsTo(ADMINS)).toHaveLength(0);
      view.unmount();
    }
  });

  it('lists M and D accounts with type and status, and filters by keyword and type from page 1', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('平台管理员');
    expect(within(rowOf('系统开发者')).getByText('开发者')).toBeTruthy();
    expect(within(rowOf('平台管理员')).getByTestId('account-status').textContent).toContain('正常');
    const first = queryOf(server.callsTo(ADMINS)[0]!);
    expect([first.get('pageNum'), first.get('pageSize')]).toEqual(['1', '10']);

    await user.type(screen.getByPlaceholderText('账号、姓名或手机号码'), '开发{Enter}');
    await waitFor(() => expect(queryOf(server.callsTo(ADMINS).at(-1)!).get('keyword')).toBe('开发'));
    await waitFor(() => expect(screen.queryByText('平台管理员')).toBeNull());
    await pickOption(user, 'filter-type', '开发者');
    await waitFor(() => expect(queryOf(server.callsTo(ADMINS).at(-1)!).get('loginRoleType')).toBe('D'));
  });

  it('creates an account: checks the fields first, then sends them and shows 保存成功', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('平台管理员');
    await user.click(screen.getByTestId('account-create'));
    await user.type(await screen.findByTestId('account-account'), '9ops');
    await user.type(screen.getByTestId('account-phone'), '12345');
    await user.type(screen.getByTestId('account-password'), 'password');
    await user.click(screen.getByTestId('account-save'));
    await findFieldError('账号须以字母开头，由字母、数字、下划线组成，长度 4 到 32 位');
    await findFieldError('手机号码格式有误');
    await findFieldError('密码需包含大写字母、小写字母、数字、符号中的至少三种');
    await findFieldError('请输入姓名');
    expect(server.callsTo(ADMINS).filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(screen.getByTestId('account-account'));
    await user.type(screen.getByTestId('account-account'), 'Ops_Dev');
    await user.type(screen.getByTestId('account-username'), '运维开发');
    await user.clear(screen.getByTestId('account-phone'));
    await user.type(screen.getByTestId('account-phone'), '13912345678');
    await user.click(screen.getByLabelText('开发者'));
    await user.clear(screen.getByTestId('account-password'));
    await user.type(screen.getByTestId('account-password'), 'Xin#Mima2026');
    await user.type(screen.getByTestId('account-confirm'), 'Xin#Mima2026');
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const post = server.callsTo(ADMINS).find((c) => c.method === 'POST')!;
    expect(bodyOf(post)).toEqual({
      account: 'Ops_Dev',
      userName: '运维开发',
      phone: '13912345678',
      loginRoleType: 'D',
      password: 'Xin#Mima2026',
    });
    await screen.findByText('ops_dev');
    expect(within(rowOf('ops_dev')).getByTestId('account-status').textContent).toContain('待改密');
  });

  it('a duplicate account (409) is shown on the account field and the dialog stays open', async () => {
    const user = userEvent.setup();
    setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('平台管理员');
    await user.click(screen.getByTestId('account-create'));
    await user.type(await screen.findByTestId('account-account'), 'Admin');
    await user.type(screen.getByTestId('account-username'), '重复');
    await user.type(screen.getByTestId('account-phone'), '13912345678');
    await user.type(screen.getByTestId('account-password'), 'Xin#Mima2026');
    await user.type(screen.getByTestId('account-confirm'), 'Xin#Mima2026');
    await user.click(screen.getByTestId('account-save'));
    await findFieldError('账号已存在');
    expect(screen.getByTestId('account-account')).toBeTruthy();
    expect(currentPrompt()).toBeNull();
  });

  it('停用 asks for confirmation, then sends the status; an administrator cannot disable themselves', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('平台管理员');
    expect((within(rowOf('平台管理员')).getByTestId('account-disable') as HTMLButtonElement).disabled).toBe(true);
    expect((within(rowOf('平台管理员')).getByTestId('account-reset') as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(rowOf('系统开发者')).getByTestId('account-disable'));
    expect(server.callsTo('/ks/authority/v1/accounts/status')).toHaveLength(0);
    await confirmPopover(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(bodyOf(server.callsTo('/ks/authority/v1/accounts/status')[0]!)).toEqual({ id: uuid(2), status: 'disabled' });
    await waitFor(() =>
      expect(within(rowOf('系统开发者')).getByTestId('account-status').textContent).toContain('已停用'),
    );
    expect(within(rowOf('系统开发者')).getByTestId('account-enable')).toBeTruthy();
    expect(SELF_ID).not.toBe(uuid(2));
  });

  it('重置密码 checks the rule and the confirmation, then sends the new password', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('系统开发者');
    await user.click(within(rowOf('系统开发者')).getByTestId('account-reset'));
    await user.type(await screen.findByTestId('password-new'), 'Reset@2026x');
    await user.type(screen.getByTestId('password-confirm'), 'Reset@2026y');
    await user.click(screen.getByTestId('password-save'));
    await findFieldError('两次输入的密码不一致');
    expect(server.callsTo('/ks/authority/v1/accounts/password')).toHaveLength(0);
    await user.clear(screen.getByTestId('password-confirm'));
    await user.type(screen.getByTestId('password-confirm'), 'Reset@2026x');
    await user.click(screen.getByTestId('password-save'));
    expect(await screen.findByText('密码已重置')).toBeTruthy();
    expect(bodyOf(server.callsTo('/ks/authority/v1/accounts/password')[0]!)).toEqual({
      id: uuid(2),
      password: 'Reset@2026x',
    });
  });

  it('编辑 sends the name, phone and the updatedAt it was based on', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/adminInfo');
    renderAccounts('/system/adminInfo');
    await screen.findByText('系统开发者');
    await user.click(within(rowOf('系统开发者')).getByTestId('account-edit'));
    const name = await screen.findByTestId('account-username');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('系统开发者'));
    expect(screen.queryByTestId('account-account')).toBeNull();
    await user.clear(name);
    await user.type(name, '开发者甲');
    await user.click(screen.getByTestId('account-save'));
    await waitFor(() => expect(server.callsTo('/ks/authority/v1/accounts')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/authority/v1/accounts')[0]!)).toEqual({
      id: uuid(2),
      updatedAt: '2026-03-01T02:00:00.000Z',
      userName: '开发者甲',
      phone: '13800138000',
    });
    expect(await screen.findByText('开发者甲')).toBeTruthy();
  });
});

describe('人员信息 /system/personnelInfo', () => {
  it('developers get 403 without a request', async () => {
    const server = setupAccountsServer('D', '/system/personnelInfo');
    renderAccounts('/system/personnelInfo');
    expect(await screen.findByTestId('forbidden')).toBeTruthy();
    expect(server.callsTo(PERSONNEL)).toHaveLength(0);
  });

  it('a U user sees the staff of their own enterprise, read-only', async () => {
    setupAccountsServer('U', '/system/personnelInfo');
    renderAccounts('/system/personnelInfo');
    await screen.findByText('张建国');
    expect(screen.getByText('本企业人员')).toBeTruthy();
    expect(screen.getByTestId('own-enterprise-hint')).toBeTruthy();
    expect(screen.queryByText('赵六')).toBeNull();
    expect(screen.queryByTestId('account-create')).toBeNull();
    expect(screen.queryByTestId('account-disable')).toBeNull();
    expect(screen.queryByTestId('account-assign-roles')).toBeNull();
    expect(screen.queryByText('所属企业')).toBeNull();
  });

  it('an administrator sees everyone with their enterprise and creates a U account for an enterprise', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/personnelInfo');
    renderAccounts('/system/personnelInfo');
    await screen.findByText('张建国');
    expect(within(rowOf('赵六')).getByText('汾河路桥建设有限公司')).toBeTruthy();

    await user.click(screen.getByTestId('account-create'));
    await user.type(await screen.findByTestId('account-account'), 'staff_a');
    await user.type(screen.getByTestId('account-username'), '李晓东');
    await user.type(screen.getByTestId('account-phone'), '13611112222');
    await user.type(screen.getByTestId('account-password'), 'Xin#Mima2026');
    await user.type(screen.getByTestId('account-confirm'), 'Xin#Mima2026');
    await user.click(screen.getByTestId('account-save'));
    await findFieldError('请选择所属企业');
    await pickOption(user, 'account-enterprise', '示例建设工程有限公司');
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodyOf(server.callsTo(PERSONNEL).find((c) => c.method === 'POST')!)).toEqual({
      account: 'staff_a',
      userName: '李晓东',
      phone: '13611112222',
      password: 'Xin#Mima2026',
      enterpriseId: OWN_ENTERPRISE,
    });
    expect(await screen.findByText('李晓东')).toBeTruthy();
  });

  it('filters by enterprise', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/personnelInfo');
    renderAccounts('/system/personnelInfo');
    await screen.findByText('赵六');
    await pickOption(user, 'filter-enterprise', '汾河路桥建设有限公司');
    await waitFor(() => expect(queryOf(server.callsTo(PERSONNEL).at(-1)!).get('enterpriseId')).toBe(uuid(101)));
    await waitFor(() => expect(screen.queryByText('张建国')).toBeNull());
  });

  it('分配角色 shows the custom roles, saves the checked ones and lists them on the row', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/personnelInfo');
    renderAccounts('/system/personnelInfo');
    await screen.findByText('张建国');
    await user.click(within(rowOf('张建国')).getByTestId('account-assign-roles'));
    await user.click(await screen.findByLabelText('审核员（auditor）'));
    await user.click(screen.getByTestId('roles-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodyOf(server.callsTo('/ks/authority/v1/accounts/roles').find((c) => c.method === 'PUT')!)).toEqual({
      id: uuid(11),
      roleIds: [uuid(501)],
    });
    await waitFor(() => expect(within(rowOf('张建国')).getByTestId('account-roles').textContent).toContain('审核员'));
  });
});

describe('the bar linking the administration pages', () => {
  it('offers the pages the role may open and navigates between them', async () => {
    const user = userEvent.setup();
    setupAccountsServer('U', '/system/personnelInfo');
    const { router } = renderAccounts('/system/personnelInfo');
    const nav = await screen.findByTestId('accounts-nav');
    expect(Array.from(nav.querySelectorAll('.ant-segmented-item-label')).map((e) => e.textContent)).toEqual([
      '人员信息',
      '企业信息',
      '办理事项',
    ]);
    await user.click(within(nav).getByText('办理事项'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/transact'));
    expect(await screen.findByTestId('service-guide')).toBeTruthy();
  });
});
