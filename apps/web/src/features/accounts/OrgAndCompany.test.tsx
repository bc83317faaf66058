import { COMPANY_INFO_PROMPT } from '@ks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPrompt } from '../../components/prompt';
import type { Handler } from '../../test/server';
import { storedRound, TYPES } from '../credit-change/testkit';
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
const ROUNDS = '/ks/rfc/change-records';
/** The change dialog's calls: an enterprise information round as the server gives it. */
const RFC_HANDLERS: Record<string, Handler> = {
  [`POST ${ROUNDS}`]: (req) => {
    const b = bodyOf<{ businessId: string }>(req);
    return {
      data: [
        {
          ...storedRound(1, { gnCoding: 'XYGL_QYXX', businessId: b.businessId, submitted: true }),
          managerPermission: true,
        },
      ],
    };
  },
  'POST /ks/rfc/change-types': () => ({ data: TYPES }),
};

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
    const server = setupAccountsServer('U', '/system/companyInfo', RFC_HANDLERS);
    server.state.enterprises[0]!.legalPerson = null;
    server.state.enterprises[0]!.missing = ['legalPerson'];
    renderAccounts('/system/companyInfo?type=1');
    const alert = await screen.findByTestId('company-info-prompt');
    expect(alert.textContent).toContain(COMPANY_INFO_PROMPT);
    expect(alert.textContent).toContain('法定代表人');
    expect(alert.textContent).toContain('信息变更');
    // the prompt sits above the information
    const info = screen.getByTestId('company-public');
    expect(alert.compareDocumentPosition(info) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(queryOf(server.callsTo(INFO)[0]!).get('id')).toBeNull();
  });

  it('without type=1 there is no prompt; name and credit code are read-only', async () => {
    setupAccountsServer('U', '/system/companyInfo', RFC_HANDLERS);
    renderAccounts('/system/companyInfo');
    await screen.findByTestId('company-editor');
    expect(screen.queryByTestId('company-info-prompt')).toBeNull();
    expect(screen.getByTestId('company-credit-code').textContent).toBe('91140100MA0K8G2J7X');
    expect(screen.queryByDisplayValue('示例建设工程有限公司')).toBeNull();
  });

  it('the enterprise sees its public information read-only; 信息变更 opens a change round on it, never a direct edit', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('U', '/system/companyInfo', RFC_HANDLERS);
    renderAccounts('/system/companyInfo');
    expect((await screen.findByTestId('company-address-text')).textContent).toBe('太原市小店区长治路 227 号');
    expect(screen.getByTestId('company-review-note').textContent).toContain('须通过「信息变更」办理');
    expect(screen.queryByTestId('company-save')).toBeNull();
    expect(screen.queryByTestId('company-address')).toBeNull();

    await user.click(screen.getByTestId('company-change'));
    await screen.findByTestId('rfc-round-1');
    expect(bodyOf(server.callsTo(ROUNDS).at(-1)!)).toEqual({
      change: true,
      businessId: OWN_ENTERPRISE,
      gnCoding: 'XYGL_QYXX',
      systemCoding: 'XYGL',
    });
    await user.click(screen.getByTestId('rfc-close'));
    await waitFor(() => expect(screen.queryByTestId('rfc-round-1')).toBeNull());

    // 联系人变更: the same dialog in its contact-person mode
    await user.click(screen.getByTestId('company-contact-change'));
    expect((await screen.findByTestId('rfc-dialog')).textContent).toContain('联系人变更');
    expect(server.callsTo(INFO).filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('a pending round says the public values hold until it passes; a rejected one shows why', async () => {
    const server = setupAccountsServer('U', '/system/companyInfo', RFC_HANDLERS);
    server.state.enterprises[0]!.change = enterpriseChange(1);
    const view = renderAccounts('/system/companyInfo');
    const pending = await screen.findByTestId('company-change-pending');
    expect(pending.textContent).toContain('信息变更办理中');
    expect(pending.textContent).toContain('太原市迎泽区新建路 1 号');
    // the public value stays until the round passes
    expect(screen.getByTestId('company-address-text').textContent).toBe('太原市小店区长治路 227 号');
    view.unmount();

    server.state.enterprises[0]!.change = enterpriseChange(1, {
      status: 'rejected',
      reason: '注册地址与营业执照不一致',
      decidedBy: '平台管理员',
      decidedAt: '2026-03-06T02:00:00.000Z',
    });
    renderAccounts('/system/companyInfo');
    const rejected = await screen.findByTestId('company-change-rejected');
    expect(rejected.textContent).toContain('信息变更已被驳回');
    expect(screen.getByTestId('company-change-reason').textContent).toBe('审核建议：注册地址与营业执照不一致');
  });

  it('an administrator’s stale save (409) is reported and the newer version is loaded', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/companyInfo');
    renderAccounts('/system/companyInfo');
    await screen.findByText('示例建设工程有限公司');
    await user.click(within(rowOf('示例建设工程有限公司')).getByTestId('enterprise-open'));
    const drawer = await screen.findByTestId('company-editor');
    const address = await within(drawer).findByTestId('company-address');
    await waitFor(() => expect((address as HTMLInputElement).value).not.toBe(''));
    Object.assign(server.state.enterprises[0]!, { updatedAt: '2026-03-04T00:00:00.000Z', address: '别人改的地址' });
    await user.type(address, '（补充）');
    await user.click(within(drawer).getByTestId('company-save'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('企业信息已被他人修改，请刷新后重试'));
    await waitFor(() => expect((address as HTMLInputElement).value).toBe('别人改的地址'));
  });

  it('an administrator reviews the rounds: sees old → new, and 审核 opens the round in the change dialog', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/companyInfo', RFC_HANDLERS);
    server.state.changes.push(
      enterpriseChange(1),
      enterpriseChange(2, {
        enterpriseId: uuid(101),
        enterpriseName: '汾河路桥建设有限公司',
        items: [{ field: 'legalPerson', label: '法定代表人', oldValue: null, newValue: '周红' }],
      }),
    );
    renderAccounts('/system/companyInfo');
    // with rounds open, the review tab opens first and counts them
    await screen.findByTestId('change-table');
    expect(screen.getByTestId('change-review-tab').textContent).toContain('2');
    await screen.findByText('示例建设工程有限公司');
    const first = rowOf('示例建设工程有限公司');
    expect(within(first).getByTestId('change-row-items').textContent).toBe(
      '注册地址：太原市小店区长治路 227 号 → 太原市迎泽区新建路 1 号',
    );
    await user.click(within(rowOf('汾河路桥建设有限公司')).getByTestId('change-open'));
    await screen.findByTestId('rfc-round-1');
    expect(bodyOf(server.callsTo(ROUNDS).at(-1)!)).toEqual({
      change: false,
      businessId: uuid(101),
      gnCoding: 'XYGL_QYXX',
      systemCoding: 'XYGL',
    });
    // the old inline decision is gone: decisions are made in the dialog
    expect(screen.queryByTestId('change-pass')).toBeNull();
    expect(server.callsTo(AUDIT)).toHaveLength(0);
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
