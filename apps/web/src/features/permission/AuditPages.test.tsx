import type { AuditLevel } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { levelErrors } from './audit';
import { bodyOf, roleRows, setupServer, users, uuid } from './fixtures';

const LEVELS = '/ks/config/audit/levels';
const WAY = '/ks/config/audit/way';

const savedLevels = (): AuditLevel[] => [
  { level: 1, name: '初审', way: 'single', reviewerRoles: ['auditor'], reviewerUserIds: [] },
  { level: 2, name: '复审', way: 'any', reviewerRoles: [], reviewerUserIds: [uuid(101), uuid(102)] },
];

function setup(path: string, handlers: Record<string, Handler> = {}, loginRoleType: 'M' | 'D' = 'M') {
  return setupServer(
    path,
    {
      'GET /ks/authority/v1/roles': () =>
        loginRoleType === 'M' ? { data: roleRows() } : { status: 403, code: 403, message: '无权进行此操作' },
      'GET /ks/authority/v1/users': () =>
        loginRoleType === 'M'
          ? { data: { records: users, total: users.length } }
          : { status: 403, code: 403, message: '无权进行此操作' },
      'GET /ks/config/audit/levels': (req) => ({
        data: { gnCoding: queryOf(req).get('gnCoding'), levels: savedLevels() },
      }),
      'PUT /ks/config/audit/levels': (req) => ({ data: bodyOf(req), message: '保存成功' }),
      'PUT /ks/config/audit/way': (req) => {
        const b = bodyOf(req) as { gnCoding: string; ways: { level: number; way: AuditLevel['way'] }[] };
        const levels = savedLevels().map((l) => ({ ...l, way: b.ways.find((w) => w.level === l.level)?.way ?? l.way }));
        return { data: { gnCoding: b.gnCoding, levels }, message: '保存成功' };
      },
      ...handlers,
    },
    loginRoleType,
  );
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;

describe('审核级别 /system/auditLevel', () => {
  const PATH = '/system/auditLevel';
  const render = (q = '?gnCoding=XY_LIST') => renderRoutes(routes, `${PATH}${q}`, { antd: false });

  it('loads the levels of the node with reviewer role and user names', async () => {
    const server = setup(PATH);
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    expect(queryOf(server.callsTo(LEVELS)[0]).get('gnCoding')).toBe('XY_LIST');
    expect(input('level-name-1').value).toBe('初审');
    expect(input('level-name-2').value).toBe('复审');
    expect(within(screen.getByTestId('level-1')).getByText('单人审核')).toBeTruthy();
    expect(within(screen.getByTestId('level-roles-1')).getByText('审核员（auditor）')).toBeTruthy();
    // saved reviewer ids show names once the first page of users is in
    await within(screen.getByTestId('level-users-2')).findByText('张企业（user1） · 某某建设有限公司');
    expect(within(screen.getByTestId('level-users-2')).getByText('李个人（user2）')).toBeTruthy();
    expect(button('save-levels').disabled).toBe(true);
  });

  it('arriving with a node only, takes the node’s system from its configuration for the picker', async () => {
    setup(PATH, {
      'GET /ks/config/new/node/previews': () => ({ data: { node: { gnCoding: 'XY_LIST', systemCoding: 'XYGL' } } }),
    });
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    await waitFor(() => expect(screen.getByTestId('node-picker').textContent).toContain('信用管理'));
    await waitFor(() => expect(screen.getByTestId('node-picker').textContent).toContain('企业档案'));
  });

  it('shows the rules of each level and sends nothing while they fail', async () => {
    const user = userEvent.setup();
    const server = setup(PATH);
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('level-add'));
    // a single-reviewer level with two reviewers
    const users1 = within(screen.getByTestId('level-users-1')).getByRole('combobox');
    await user.click(users1);
    await user.click(await screen.findByTitle('王开发（dev）'));
    await user.click(screen.getByTestId('save-levels'));
    expect(screen.getByTestId('level-error-1').textContent).toContain('单人审核只能指定一个审核人或角色');
    expect(screen.getByTestId('level-error-3').textContent).toContain('请输入审核级别名称');
    expect(screen.getByTestId('level-error-3').textContent).toContain('每一级审核都需要指定审核角色或审核人');
    expect(screen.queryByTestId('level-error-2')).toBeNull();
    expect(server.callsTo(LEVELS).filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('saves the levels renumbered in their new order', async () => {
    const user = userEvent.setup();
    const server = setup(PATH);
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    await user.clear(input('level-name-2'));
    await user.type(input('level-name-2'), '终审');
    const roles2 = within(screen.getByTestId('level-roles-2')).getByRole('combobox');
    await user.click(roles2);
    await user.click(await screen.findByTitle('管理员（admin）'));
    await user.click(screen.getByTestId('level-up-2'));
    expect(input('level-name-1').value).toBe('终审');
    await user.click(screen.getByTestId('level-add'));
    await user.type(input('level-name-3'), '备案');
    const roles3 = within(screen.getByTestId('level-roles-3')).getByRole('combobox');
    await user.click(roles3);
    await user.click((await screen.findAllByTitle('企业/个人（user）')).at(-1)!);
    await user.click(screen.getByTestId('save-levels'));
    await waitFor(() => expect(server.callsTo(LEVELS).filter((c) => c.method === 'PUT')).toHaveLength(1));
    const put = server.callsTo(LEVELS).find((c) => c.method === 'PUT')!;
    expect(bodyOf(put)).toEqual({
      gnCoding: 'XY_LIST',
      levels: [
        { level: 1, name: '终审', way: 'any', reviewerRoles: ['admin'], reviewerUserIds: [uuid(101), uuid(102)] },
        { level: 2, name: '初审', way: 'single', reviewerRoles: ['auditor'], reviewerUserIds: [] },
        { level: 3, name: '备案', way: 'any', reviewerRoles: ['user'], reviewerUserIds: [] },
      ],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('shows the server 400 message on the page, without the prompt dialog', async () => {
    const user = userEvent.setup();
    setup(PATH, {
      'PUT /ks/config/audit/levels': () => ({
        status: 400,
        code: 400,
        message: '每一级审核都需要指定审核角色或审核人',
        data: { fieldErrors: { levels: ['每一级审核都需要指定审核角色或审核人'] } },
      }),
    });
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('level-remove-1'));
    await user.click(screen.getByTestId('save-levels'));
    expect((await screen.findByTestId('audit-save-error')).textContent).toBe('每一级审核都需要指定审核角色或审核人');
    expect(currentPrompt()).toBeNull();
  });

  it('a developer (no role list) may type role codes and is told why', async () => {
    setup(PATH, {}, 'D');
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    expect(await screen.findByTestId('roles-unavailable')).toBeTruthy();
    // the saved code is still shown
    expect(within(screen.getByTestId('level-roles-1')).getByText('auditor')).toBeTruthy();
    expect(currentPrompt()).toBeNull();
  });

  it('warns about a level nobody can review: the server’s count when saved, the roles’ members when edited', async () => {
    const user = userEvent.setup();
    setup(PATH, {
      'GET /ks/config/audit/levels': (req) => ({
        data: {
          gnCoding: queryOf(req).get('gnCoding'),
          levels: savedLevels().map((l) => ({ ...l, reviewerCount: l.level === 1 ? 0 : 2 })),
        },
      }),
      'GET /ks/authority/v1/roles': () => ({
        data: [...roleRows(), { id: uuid(5), code: 'checker', name: '复核员', builtin: false, memberCount: 0 }],
      }),
    });
    render();
    await screen.findByTestId('levels-editor', {}, { timeout: 15_000 });
    // saved: the 审核员 level has no active member (server count 0); the second has two named reviewers
    expect(screen.getByTestId('level-no-reviewer-1').textContent).toContain('该级暂无可用的审核人');
    expect(screen.queryByTestId('level-no-reviewer-2')).toBeNull();
    // a new level whose only role has no member is pointed out before saving
    await user.click(screen.getByTestId('level-add'));
    await user.type(input('level-name-3'), '备案');
    await user.click(within(screen.getByTestId('level-roles-3')).getByRole('combobox'));
    await user.click(await screen.findByTitle('复核员（checker）'));
    expect(await screen.findByTestId('level-no-reviewer-3')).toBeTruthy();
    // naming a reviewer clears it
    await user.click(within(screen.getByTestId('level-users-3')).getByRole('combobox'));
    await user.click(await screen.findByTitle('王开发（dev）'));
    await waitFor(() => expect(screen.queryByTestId('level-no-reviewer-3')).toBeNull());
  });

  it('without a node asks for one; choosing a system writes the query string', async () => {
    const user = userEvent.setup();
    const server = setup(PATH);
    const { router } = render('');
    expect(await screen.findByTestId('node-empty', {}, { timeout: 15_000 })).toBeTruthy();
    const system = within(screen.getByTestId('system-select')).getByRole('combobox');
    await user.click(system);
    await user.click(await screen.findByTitle('信用管理（XYGL）'));
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL'));
    await waitFor(() => expect(server.callsTo('/ks/config/new/node/node-list')).toHaveLength(1));
    const node = within(screen.getByTestId('node-select')).getByRole('combobox');
    await user.click(node);
    await user.click(await screen.findByTitle('企业档案（XY_LIST）'));
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL&gnCoding=XY_LIST'));
    expect(await screen.findByTestId('levels-editor')).toBeTruthy();
  });
});

describe('审核方式 /system/auditWay', () => {
  const PATH = '/system/auditWay';
  const render = (q = '?gnCoding=XY_LIST') => renderRoutes(routes, `${PATH}${q}`, { antd: false });
  const radio = (level: number, label: string) =>
    within(screen.getByTestId(`way-${level}`)).getByLabelText(label) as HTMLInputElement;

  it('shows the levels as a flow with the way of each and a one-line explanation', async () => {
    setup(PATH);
    render();
    await screen.findByTestId('ways-editor', {}, { timeout: 15_000 });
    expect(screen.getByText('第 1 级：初审')).toBeTruthy();
    expect(screen.getByText('第 2 级：复审')).toBeTruthy();
    expect(radio(1, '单人审核').checked).toBe(true);
    expect(radio(2, '或签（任一通过）').checked).toBe(true);
    expect(screen.getByTestId('way-hint-1').textContent).toContain('唯一指定的审核人');
    expect(screen.getByTestId('way-hint-2').textContent).toContain('任一审核人审核通过');
    // two reviewers: 单人审核 is not available
    expect(radio(2, '单人审核').disabled).toBe(true);
    expect(radio(1, '单人审核').disabled).toBe(false);
  });

  it('saves {gnCoding, ways} and shows 保存成功', async () => {
    const user = userEvent.setup();
    const server = setup(PATH);
    render();
    await screen.findByTestId('ways-editor', {}, { timeout: 15_000 });
    await user.click(radio(1, '会签（全部通过）'));
    expect(screen.getByTestId('way-hint-1').textContent).toContain('全部审核人都审核通过');
    await user.click(radio(2, '会签（全部通过）'));
    await user.click(screen.getByTestId('save-ways'));
    await waitFor(() => expect(server.callsTo(WAY)).toHaveLength(1));
    expect(server.callsTo(WAY)[0].method).toBe('PUT');
    expect(bodyOf(server.callsTo(WAY)[0])).toEqual({
      gnCoding: 'XY_LIST',
      ways: [
        { level: 1, way: 'all' },
        { level: 2, way: 'all' },
      ],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    await waitFor(() => expect(button('save-ways').disabled).toBe(true));
  });

  it('shows a server 400 on the page', async () => {
    const user = userEvent.setup();
    setup(PATH, {
      'PUT /ks/config/audit/way': () => ({ status: 400, code: 400, message: '单人审核只能指定一个审核人或角色' }),
    });
    render();
    await screen.findByTestId('ways-editor', {}, { timeout: 15_000 });
    await user.click(radio(1, '或签（任一通过）'));
    await user.click(screen.getByTestId('save-ways'));
    expect((await screen.findByTestId('audit-save-error')).textContent).toBe('单人审核只能指定一个审核人或角色');
    expect(currentPrompt()).toBeNull();
  });

  it('a node without levels links to the level page', async () => {
    setup(PATH, { 'GET /ks/config/audit/levels': () => ({ data: { gnCoding: 'XY_STAT', levels: [] } }) });
    render('?gnCoding=XY_STAT');
    const empty = await screen.findByTestId('ways-empty', {}, { timeout: 15_000 });
    expect(within(empty).getByText('去设置审核级别').getAttribute('href')).toBe('/system/auditLevel?gnCoding=XY_STAT');
  });
});

describe('level rules', () => {
  it('matches the server schema messages', () => {
    expect(
      levelErrors([
        { name: ' ', way: 'any', reviewerRoles: [], reviewerUserIds: [] },
        { name: 'a', way: 'single', reviewerRoles: ['x'], reviewerUserIds: [uuid(1)] },
        { name: 'b', way: 'single', reviewerRoles: ['x'], reviewerUserIds: [] },
        { name: 'x'.repeat(31), way: 'all', reviewerRoles: ['x', 'y'], reviewerUserIds: [] },
      ]),
    ).toEqual([
      ['请输入审核级别名称', '每一级审核都需要指定审核角色或审核人'],
      ['单人审核只能指定一个审核人或角色'],
      [],
      ['最多 30 个字符'],
    ]);
  });
});
