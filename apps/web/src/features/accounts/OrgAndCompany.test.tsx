import { COMPANY_INFO_PROMPT, ENTERPRISE_MESSAGES } from '@ks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPrompt } from '../../components/prompt';
import {
  bodyOf,
  confirmPopover,
  enterpriseChange,
  findFieldError,
  OWN_ENTERPRISE,
  pickOption,
  queryOf,
  renderAccounts,
  resetAll,
  rowOf,
  setupAccountsServer,
  uuid,
} from './testkit';

afterEach(resetAll);

const ORGS = '/ks/basic/v1/organizations';
const INFO = '/ks/basic/v1/enterprise/info';
const AUDIT = '/ks/basic/v1/enterprise/changes/audit';

describe('管理机构 /system/managementInfo', () => {
  it('U users get 403 without a request', async () => {
    const server = setupAccountsServer('U', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    expect(await screen.findByTestId('forbidden')).toBeTruthy();
    expect(server.callsTo(ORGS)).toHaveLength(0);
  });

  it('developers read the list without any edit control', async () => {
    setupAccountsServer('D', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    await screen.findByText('山西省公共资源交易中心');
    expect(screen.queryByTestId('org-create')).toBeNull();
    expect(screen.queryByTestId('org-edit')).toBeNull();
    expect(screen.queryByTestId('org-delete')).toBeNull();
  });

  it('filters by type and status', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    await screen.findByText('山西省公共资源交易中心');
    await pickOption(user, 'filter-org-type', '行业主管部门');
    await waitFor(() => expect(queryOf(server.callsTo(ORGS).at(-1)!).get('orgType')).toBe('行业主管部门'));
    await waitFor(() => expect(screen.queryByText('山西省公共资源交易中心')).toBeNull());
    await pickOption(user, 'filter-enabled', '停用');
    await waitFor(() => expect(queryOf(server.callsTo(ORGS).at(-1)!).get('enabled')).toBe('false'));
  });

  it('creates an organisation: checks the credit code and phone first, blank optional fields are sent as null', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    await screen.findByText('山西省公共资源交易中心');
    await user.click(screen.getByTestId('org-create'));
    await user.type(await screen.findByTestId('org-name'), '晋中市公共资源交易中心');
    await user.type(screen.getByTestId('org-credit-code'), '91140100MA0K8G2J70');
    await user.type(screen.getByTestId('org-phone'), '12345');
    await user.click(screen.getByTestId('org-save'));
    await findFieldError('统一社会信用代码有误');
    await findFieldError('联系电话格式有误（手机号或带区号的固定电话）');
    await findFieldError('请选择机构类型');
    await findFieldError('请选择所属地区');
    expect(server.callsTo(ORGS).filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(screen.getByTestId('org-credit-code'));
    await user.clear(screen.getByTestId('org-phone'));
    await user.type(screen.getByTestId('org-phone'), '0354-3028866');
    await pickOption(user, 'org-type', '交易中心');
    await pickOption(user, 'org-region', '晋中市');
    await user.click(screen.getByTestId('org-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodyOf(server.callsTo(ORGS).find((c) => c.method === 'POST')!)).toEqual({
      name: '晋中市公共资源交易中心',
      orgType: '交易中心',
      region: '晋中市',
      creditCode: null,
      contact: null,
      phone: '0354-3028866',
      address: null,
      enabled: true,
    });
    expect(await screen.findByText('晋中市公共资源交易中心')).toBeTruthy();
  });

  it('edits with the version; a stale version (409) is reported in the prompt and the dialog stays open', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    await screen.findByText('山西省公共资源交易中心');
    await user.click(within(rowOf('山西省公共资源交易中心')).getByTestId('org-edit'));
    const contact = await screen.findByTestId('org-contact');
    await waitFor(() => expect((contact as HTMLInputElement).value).toBe('王志强'));
    await user.clear(contact);
    await user.type(contact, '王志刚');
    // someone else saved first
    server.state.organizations[0]!.version = 2;
    await user.click(screen.getByTestId('org-save'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('该机构已被他人修改，请刷新后重试'));
    const put = server.callsTo(ORGS).find((c) => c.method === 'PUT')!;
    expect(bodyOf(put)).toMatchObject({ id: uuid(301), version: 1, contact: '王志刚' });
    expect(screen.getByTestId('org-form-error').textContent).toContain('已被他人修改');
  });

  it('删除 asks for confirmation first', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/managementInfo');
    renderAccounts('/system/managementInfo');
    await screen.findByText('山西省住房和城乡建设厅');
    await user.click(within(rowOf('山西省住房和城乡建设厅')).getByTestId('org-delete'));
    expect(server.callsTo(ORGS).filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await confirmPopover(user);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(queryOf(server.callsTo(ORGS).find((c) => c.method === 'DELETE')!).get('id')).toBe(uuid(302));
    await waitFor(() => expect(screen.queryByText('山西省住房和城乡建设厅')).toBeNull());
  });
});

describe('企业信息 /system/companyInfo', () => {
  it('developers get 403 without a request', async () => {
    const server = setupAccountsServer('D', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    expect(await screen.findByTestId('forbidden')).toBeTruthy();
    expect(server.callsTo(INFO)).toHaveLength(0);
  });

  it('with type=1 (sent by the 418 prompt) a U user is asked to complete the information first', async () => {
    const server = setupAccountsServer('U', '/system/companyInfo');
    server.state.enterprises[0]!.legalPerson = null;
    server.state.enterprises[0]!.missing = ['legalPerson'];
    renderAccounts('/system/companyInfo?type=1');
    const alert = await screen.findByTestId('company-info-prompt');
    expect(alert.textContent).toContain(COMPANY_INFO_PROMPT);
    expect(alert.textContent).toContain('法定代表人');
    // the prompt sits above the form
    const form = screen.getByTestId('company-legal-person');
    expect(alert.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(queryOf(server.callsTo(INFO)[0]!).get('id')).toBeNull();
  });

  it('without type=1 there is no prompt; name and credit code are read-only', async () => {
    setupAccountsServer('U', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    await screen.findByTestId('company-editor');
    expect(screen.queryByTestId('company-info-prompt')).toBeNull();
    expect(screen.getByTestId('company-credit-code').textContent).toBe('91140100MA0K8G2J7X');
    expect(screen.queryByDisplayValue('示例建设工程有限公司')).toBeNull();
  });

  it('submits a change of the own enterprise for review, with the updatedAt it was based on', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('U', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    const address = await screen.findByTestId('company-address');
    await waitFor(() => expect((address as HTMLInputElement).value).toBe('太原市小店区长治路 227 号'));
    expect((screen.getByTestId('company-capital') as HTMLInputElement).value).toBe('80000000');
    expect(screen.getByTestId('company-review-note').textContent).toContain('须经管理员审核通过');
    expect(screen.getByTestId('company-save').textContent).toBe('提交审核');
    await user.clear(address);
    await user.type(address, '太原市小店区长治路 227 号 8 层');
    await user.clear(screen.getByTestId('company-capital'));
    await user.type(screen.getByTestId('company-capital'), '12.345');
    await user.click(screen.getByTestId('company-save'));
    await findFieldError('注册资本格式有误（元，最多两位小数）');
    expect(server.callsTo(INFO).filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.clear(screen.getByTestId('company-capital'));
    await user.type(screen.getByTestId('company-capital'), '90000000.5');
    await user.click(screen.getByTestId('company-save'));
    expect(await screen.findByText(ENTERPRISE_MESSAGES.submitted)).toBeTruthy();
    expect(bodyOf(server.callsTo(INFO).find((c) => c.method === 'PUT')!)).toEqual({
      id: OWN_ENTERPRISE,
      updatedAt: '2026-03-01T02:00:00.000Z',
      legalPerson: '李明华',
      region: '太原市',
      address: '太原市小店区长治路 227 号 8 层',
      registeredCapital: '90000000.5',
      establishedAt: '2008-06-18',
    });
    // the page says it waits for review, with what changes; the form keeps the proposed values to revise them
    const pending = await screen.findByTestId('company-change-pending');
    expect(pending.textContent).toContain('变更申请审核中');
    const rows = within(pending)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows.some((r) => r?.includes('注册地址') && r.includes('太原市小店区长治路 227 号 8 层'))).toBe(true);
    expect((address as HTMLInputElement).value).toBe('太原市小店区长治路 227 号 8 层');
    expect(screen.getByTestId('company-save').textContent).toBe('修改并重新提交');
  });

  it('a rejected change shows why, and the form is back at the public values', async () => {
    const server = setupAccountsServer('U', '/system/companyInfo');
    server.state.enterprises[0]!.change = enterpriseChange(1, {
      status: 'rejected',
      reason: '注册地址与营业执照不一致',
      decidedBy: '平台管理员',
      decidedAt: '2026-03-06T02:00:00.000Z',
    });
    renderAccounts('/system/companyInfo');
    const rejected = await screen.findByTestId('company-change-rejected');
    expect(rejected.textContent).toContain('变更申请已被驳回');
    expect(screen.getByTestId('company-change-reason').textContent).toBe('审核建议：注册地址与营业执照不一致');
    await waitFor(() =>
      expect((screen.getByTestId('company-address') as HTMLInputElement).value).toBe('太原市小店区长治路 227 号'),
    );
  });

  it('a stale save (409) is reported and the newer version is loaded', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('U', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    const address = await screen.findByTestId('company-address');
    await waitFor(() => expect((address as HTMLInputElement).value).not.toBe(''));
    Object.assign(server.state.enterprises[0]!, { updatedAt: '2026-03-04T00:00:00.000Z', address: '别人改的地址' });
    await user.type(address, '（补充）');
    await user.click(screen.getByTestId('company-save'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('企业信息已被他人修改，请刷新后重试'));
    await waitFor(() => expect((address as HTMLInputElement).value).toBe('别人改的地址'));
  });

  it('an administrator reviews changes: sees old → new, passes one, and rejects another only with a reason', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/companyInfo');
    server.state.changes.push(
      enterpriseChange(1),
      enterpriseChange(2, {
        enterpriseId: uuid(101),
        enterpriseName: '汾河路桥建设有限公司',
        items: [{ field: 'legalPerson', label: '法定代表人', oldValue: null, newValue: '周红' }],
      }),
    );
    renderAccounts('/system/companyInfo');
    // with changes waiting, the review tab opens first and counts them
    const table = await screen.findByTestId('change-table');
    expect(screen.getByTestId('change-review-tab').textContent).toContain('2');
    await screen.findByText('示例建设工程有限公司');
    const first = rowOf('示例建设工程有限公司');
    expect(within(first).getByTestId('change-row-items').textContent).toBe(
      '注册地址：太原市小店区长治路 227 号 → 太原市迎泽区新建路 1 号',
    );
    await user.click(within(first).getByTestId('change-pass'));
    await confirmPopover(user);
    await waitFor(() =>
      expect(bodyOf(server.callsTo(AUDIT)[0]!)).toEqual({ id: uuid(701), version: 1, pass: true, reason: null }),
    );
    expect(await screen.findByText('已通过，门户已更新')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('示例建设工程有限公司')).toBeNull());

    await user.click(within(rowOf('汾河路桥建设有限公司')).getByTestId('change-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('reject-items').textContent).toContain('未填写');
    await user.click(within(dialog).getByTestId('change-reject-ok'));
    expect(await within(dialog).findByText('请填写审核建议')).toBeTruthy();
    expect(server.callsTo(AUDIT)).toHaveLength(1);
    await user.type(within(dialog).getByTestId('change-reason'), '请上传法定代表人身份证明');
    await user.click(within(dialog).getByTestId('change-reject-ok'));
    await waitFor(() =>
      expect(bodyOf(server.callsTo(AUDIT)[1]!)).toEqual({
        id: uuid(702),
        version: 1,
        pass: false,
        reason: '请上传法定代表人身份证明',
      }),
    );
    // decided ones are listed with the reason
    await user.click(within(screen.getByTestId('change-status')).getByText('已驳回'));
    expect(await screen.findByText('审核建议：请上传法定代表人身份证明')).toBeTruthy();
  });

  it('an administrator pages through enterprises and edits one in a drawer', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    await screen.findByText('汾河路桥建设有限公司');
    expect(within(rowOf('汾河路桥建设有限公司')).getByText('待完善 1 项')).toBeTruthy();
    expect(within(rowOf('示例建设工程有限公司')).getByText('完整')).toBeTruthy();
    await user.click(within(rowOf('汾河路桥建设有限公司')).getByTestId('enterprise-open'));
    const drawer = await screen.findByTestId('company-editor');
    await waitFor(() => expect(queryOf(server.callsTo(INFO).at(-1)!).get('id')).toBe(uuid(101)));
    expect(within(drawer).getByTestId('company-info-missing').textContent).toContain('法定代表人');
    await user.type(within(drawer).getByTestId('company-legal-person'), '周红');
    await user.click(within(drawer).getByTestId('company-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodyOf(server.callsTo(INFO).find((c) => c.method === 'PUT')!)).toMatchObject({
      id: uuid(101),
      legalPerson: '周红',
    });
  });
});
