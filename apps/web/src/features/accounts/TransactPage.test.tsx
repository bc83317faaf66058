import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPrompt } from '../../components/prompt';
import { timeLimitText } from './TransactPage';
import {
  bodyOf,
  confirmPopover,
  findFieldError,
  pickOption,
  queryOf,
  renderAccounts,
  resetAll,
  rowOf,
  setupAccountsServer,
  uuid,
} from './testkit';

afterEach(resetAll);

const ITEMS = '/ks/config/v1/service-items';

const cardOf = (name: string) => screen.getByText(name).closest('[data-testid="service-item"]') as HTMLElement;

describe('办理事项 /system/transact', () => {
  it('a U user reads the published items with materials and time limit; 去办理 opens the node the item names', async () => {
    const user = userEvent.setup();
    setupAccountsServer('U', '/system/transact');
    const { router } = renderAccounts('/system/transact');
    await screen.findByText('信用信息变更申请');
    expect(screen.queryByText('未发布的事项')).toBeNull();
    expect(screen.queryByTestId('service-admin')).toBeNull();
    expect(screen.queryByTestId('item-create')).toBeNull();
    const card = cardOf('信用信息变更申请');
    expect(within(card).getByText('信用管理系统 › 信用变更申请')).toBeTruthy();
    // the item names its node: 去办理 opens that node's page (as the sidebar would), not the system chooser
    expect(within(card).getByTestId('service-item-go').getAttribute('href')).toBe(
      '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL',
    );
    expect(within(card).getByText('5 个工作日')).toBeTruthy();
    expect(within(card).getByTestId('service-item-materials').textContent).toContain('信用信息变更申请表');
    expect(within(cardOf('投标保函在线办理')).getByText('即时办结')).toBeTruthy();
    const go = within(cardOf('投标保函在线办理')).getByTestId('service-item-go');
    expect(go.getAttribute('href')).toBe('/judge?systemCoding=DZBH');
    await user.click(go);
    await screen.findByTestId('judge-page');
    expect(router.state.location.pathname).toBe('/judge');
    expect(router.state.location.search).toBe('?systemCoding=DZBH');
  });

  it('the guide searches by keyword', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('D', '/system/transact');
    renderAccounts('/system/transact');
    await screen.findByText('信用信息变更申请');
    await user.type(screen.getByPlaceholderText('事项名称或说明'), '保函{Enter}');
    await waitFor(() => expect(queryOf(server.callsTo(ITEMS).at(-1)!).get('keyword')).toBe('保函'));
    await waitFor(() => expect(screen.queryByText('信用信息变更申请')).toBeNull());
  });

  it('an administrator manages every item, published or not', async () => {
    setupAccountsServer('M', '/system/transact');
    renderAccounts('/system/transact');
    await screen.findByTestId('service-admin');
    await screen.findByText('未发布的事项');
    expect(within(rowOf('未发布的事项')).getByTestId('item-status').textContent).toBe('未发布');
    expect(within(rowOf('信用信息变更申请')).getByTestId('item-status').textContent).toBe('已发布');
  });

  it('creates an item with its materials; the required fields are checked first', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/transact');
    renderAccounts('/system/transact');
    await screen.findByText('未发布的事项');
    await user.click(screen.getByTestId('item-create'));
    await user.click(await screen.findByTestId('item-save'));
    await findFieldError('请输入事项名称');
    await findFieldError('请选择所属业务系统');
    expect(server.callsTo(ITEMS).filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByTestId('item-name'), '中标通知书领取');
    await pickOption(user, 'item-system', '招标投标交易系统（ZBTB）');
    // the node is one of the chosen system's; a directory cannot be chosen
    await user.click(screen.getByTestId('item-node'));
    const option = await screen.findByText('招标公告（ZBTB_ZBGG）');
    await user.click(option);
    await user.type(screen.getByTestId('item-description'), '公示期满后在线领取。');
    const [first] = screen.getAllByTestId('item-material');
    await user.type(first!, '中标人授权委托书');
    await user.click(screen.getByTestId('item-material-add'));
    await user.type(screen.getAllByTestId('item-material')[1]!, '法定代表人身份证明');
    await user.click(screen.getByTestId('item-material-add'));
    const days = screen.getByTestId('item-days');
    await user.clear(days);
    await user.type(days, '2');
    await user.click(screen.getByTestId('item-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodyOf(server.callsTo(ITEMS).find((c) => c.method === 'POST')!)).toEqual({
      name: '中标通知书领取',
      systemCoding: 'ZBTB',
      gnCoding: 'ZBTB_ZBGG',
      description: '公示期满后在线领取。',
      // the empty third row is dropped
      materials: ['中标人授权委托书', '法定代表人身份证明'],
      timeLimitDays: 2,
      sort: 0,
      enabled: true,
    });
    expect(await screen.findByText('中标通知书领取')).toBeTruthy();
  });

  it('编辑 sends the version; a 400 field error from the server lands on its field', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/transact', {
      'PUT /ks/config/v1/service-items': () => ({
        status: 400,
        code: 400,
        message: '业务系统不存在',
        data: { fieldErrors: { systemCoding: ['业务系统不存在'] } },
      }),
    });
    renderAccounts('/system/transact');
    await screen.findByText('信用信息变更申请');
    await user.click(within(rowOf('信用信息变更申请')).getByTestId('item-edit'));
    const name = await screen.findByTestId('item-name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('信用信息变更申请'));
    await user.click(screen.getByTestId('item-save'));
    await findFieldError('业务系统不存在');
    expect(currentPrompt()).toBeNull();
    expect(bodyOf(server.callsTo(ITEMS).find((c) => c.method === 'PUT')!)).toMatchObject({
      id: uuid(401),
      version: 1,
      materials: ['信用信息变更申请表', '营业执照副本扫描件'],
      timeLimitDays: 5,
    });
  });

  it('删除 asks for confirmation first', async () => {
    const user = userEvent.setup();
    const server = setupAccountsServer('M', '/system/transact');
    renderAccounts('/system/transact');
    await screen.findByText('未发布的事项');
    await user.click(within(rowOf('未发布的事项')).getByTestId('item-delete'));
    expect(server.callsTo(ITEMS).filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await confirmPopover(user);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(queryOf(server.callsTo(ITEMS).find((c) => c.method === 'DELETE')!).get('id')).toBe(uuid(403));
    await waitFor(() => expect(screen.queryByText('未发布的事项')).toBeNull());
  });

  it('words the time limit', () => {
    expect(timeLimitText(0)).toBe('即时办结');
    expect(timeLimitText(3)).toBe('3 个工作日');
  });
});
