import type { GrantMatrixRow } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { bodyOf, matrixRows, roleRows, setupServer } from './fixtures';
import {
  clearRow,
  coverage,
  grantsFromRows,
  sameGrants,
  selectRow,
  setFunction,
  setVisible,
  subtrees,
  toSaveGrants,
} from './matrix';

const PATH = '/system/permissConfig';
const MATRIX = '/ks/authority/v1/node/matrix';
const SAVE = '/ks/authority/v1/node/save-matrix';

function setup(handlers: Record<string, Handler> = {}) {
  return setupServer(PATH, {
    'GET /ks/authority/v1/roles': () => ({ data: roleRows() }),
    'GET /ks/authority/v1/node/matrix': () => ({ data: matrixRows() }),
    'PUT /ks/authority/v1/node/save-matrix': () => ({ data: matrixRows(), message: '保存成功' }),
    ...handlers,
  });
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = (query = '?subjectType=role&subjectId=auditor&systemCoding=XYGL') =>
  renderRoutes(routes, `${PATH}${query}`, { antd: false });

const box = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
/** The open confirmation dialog (jsdom never ends the leave animation, so closed ones stay in the document). */
const visibleConfirm = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-modal-confirm')].find(
    (d) =>
      !d.className.includes('-leave') && (d.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display !== 'none',
  ) ?? null;
const confirmButton = (dialog: HTMLElement, label: string) =>
  within(dialog).getByText(label).closest('button') as HTMLButtonElement;
const isIndeterminate = (testId: string) =>
  box(testId).closest('.ant-checkbox')?.className.includes('ant-checkbox-indeterminate') ?? false;

describe('权限配置 /system/permissConfig', () => {
  it('loads the matrix of the subject and system and shows it indented, hidden nodes marked 隐藏', async () => {
    const server = setup();
    render();
    await screen.findByTestId('matrix-row-XY_LIST', {}, { timeout: 15_000 });
    const q = queryOf(server.callsTo(MATRIX)[0]);
    expect(Object.fromEntries(q)).toEqual({ systemCoding: 'XYGL', subjectType: 'role', subjectId: 'auditor' });
    expect(within(screen.getByTestId('matrix-row-XY_HIDDEN')).getByTestId('hidden-XY_HIDDEN').textContent).toBe('隐藏');
    expect(screen.queryByTestId('hidden-XY_LIST')).toBeNull();
    expect(box('visible-XY_LIST').checked).toBe(true);
    expect(box('fn-XY_LIST-edit').checked).toBe(true);
    expect(box('fn-XY_LIST-add').checked).toBe(false);
    // the parent's subtree is partly visible
    expect(box('visible-XY_ROOT').checked).toBe(false);
    expect(isIndeterminate('visible-XY_ROOT')).toBe(true);
    expect(within(screen.getByTestId('matrix-row-XY_ROOT')).getByText('无按钮')).toBeTruthy();
    // the hidden node's functions are grantable
    expect(box('fn-XY_HIDDEN-export').disabled).toBe(false);
    expect((screen.getByTestId('save-grants') as HTMLButtonElement).disabled).toBe(true);
  });

  it('checking a function checks 可见; unchecking 可见 clears the functions', async () => {
    const user = userEvent.setup();
    setup();
    render();
    await screen.findByTestId('matrix-row-XY_STAT', {}, { timeout: 15_000 });
    expect(box('visible-XY_STAT').checked).toBe(false);
    await user.click(box('fn-XY_STAT-export'));
    expect(box('fn-XY_STAT-export').checked).toBe(true);
    expect(box('visible-XY_STAT').checked).toBe(true);
    expect(screen.getByTestId('matrix-dirty')).toBeTruthy();

    await user.click(box('fn-XY_LIST-add'));
    expect(box('fn-XY_LIST-add').checked).toBe(true);
    await user.click(box('visible-XY_LIST'));
    expect(box('visible-XY_LIST').checked).toBe(false);
    expect(box('fn-XY_LIST-add').checked).toBe(false);
    expect(box('fn-XY_LIST-edit').checked).toBe(false);
  });

  it("a parent's 可见 selects and then deselects its whole subtree", async () => {
    const user = userEvent.setup();
    setup();
    render();
    await screen.findByTestId('matrix-row-XY_ROOT', {}, { timeout: 15_000 });
    await user.click(box('visible-XY_ROOT'));
    for (const code of ['XY_ROOT', 'XY_LIST', 'XY_HIDDEN']) expect(box(`visible-${code}`).checked).toBe(true);
    expect(isIndeterminate('visible-XY_ROOT')).toBe(false);
    // functions are kept when a subtree becomes visible; other top-level nodes are untouched
    expect(box('fn-XY_LIST-edit').checked).toBe(true);
    expect(box('visible-XY_STAT').checked).toBe(false);

    await user.click(box('visible-XY_ROOT'));
    for (const code of ['XY_ROOT', 'XY_LIST', 'XY_HIDDEN']) expect(box(`visible-${code}`).checked).toBe(false);
    expect(box('fn-XY_LIST-edit').checked).toBe(false);
  });

  it('全选 / 清空 act on one row', async () => {
    const user = userEvent.setup();
    setup();
    render();
    await screen.findByTestId('matrix-row-XY_LIST', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('row-all-XY_LIST'));
    for (const f of ['add', 'edit', 'delete']) expect(box(`fn-XY_LIST-${f}`).checked).toBe(true);
    await user.click(screen.getByTestId('row-clear-XY_LIST'));
    for (const f of ['add', 'edit', 'delete']) expect(box(`fn-XY_LIST-${f}`).checked).toBe(false);
    expect(box('visible-XY_LIST').checked).toBe(false);
    expect(box('visible-XY_ROOT').checked).toBe(false);
  });

  it('保存 sends one grant per node, in order, and shows 保存成功', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByTestId('matrix-row-XY_LIST', {}, { timeout: 15_000 });
    await user.click(box('fn-XY_LIST-delete'));
    await user.click(box('fn-XY_LIST-add'));
    await user.click(box('fn-XY_HIDDEN-export'));
    await user.click(screen.getByTestId('save-grants'));
    await waitFor(() => expect(server.callsTo(SAVE)).toHaveLength(1));
    const req = server.callsTo(SAVE)[0];
    expect(req.method).toBe('PUT');
    expect(bodyOf(req)).toEqual({
      subjectType: 'role',
      subjectId: 'auditor',
      systemCoding: 'XYGL',
      grants: [
        { gnCoding: 'XY_ROOT', visible: false, functionCodes: [] },
        // in the node's function order, whatever the click order
        { gnCoding: 'XY_LIST', visible: true, functionCodes: ['add', 'edit', 'delete'] },
        { gnCoding: 'XY_HIDDEN', visible: true, functionCodes: ['export'] },
        { gnCoding: 'XY_STAT', visible: false, functionCodes: [] },
      ],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // the server's answer is the new state: nothing left to save
    await waitFor(() => expect(screen.queryByTestId('matrix-dirty')).toBeNull());
  });

  it('switching the role with unsaved changes asks first; 取消 keeps the edits', async () => {
    const user = userEvent.setup();
    const server = setup();
    const { router } = render();
    await screen.findByTestId('matrix-row-XY_STAT', {}, { timeout: 15_000 });
    await user.click(box('fn-XY_STAT-export'));
    const combo = within(screen.getByTestId('subject-role')).getByRole('combobox');
    await user.click(combo);
    await user.click(await screen.findByTitle('企业/个人（user）'));
    let dialog = await waitFor(() => visibleConfirm() ?? Promise.reject(new Error('no dialog')));
    expect(dialog.textContent).toContain('权限修改尚未保存');
    await user.click(confirmButton(dialog, '取消'));
    await waitFor(() => expect(visibleConfirm()).toBeNull());
    expect(router.state.location.search).toContain('subjectId=auditor');
    expect(box('fn-XY_STAT-export').checked).toBe(true);

    await user.click(combo);
    await user.click(await screen.findByTitle('企业/个人（user）'));
    dialog = await waitFor(() => visibleConfirm() ?? Promise.reject(new Error('no dialog')));
    await user.click(confirmButton(dialog, '放弃修改'));
    await waitFor(() => expect(router.state.location.search).toContain('subjectId=user'));
    await waitFor(() => expect(server.callsTo(MATRIX).some((c) => queryOf(c).get('subjectId') === 'user')).toBe(true));
    await screen.findByTestId('matrix-row-XY_STAT', {}, { timeout: 15_000 });
    expect(box('fn-XY_STAT-export').checked).toBe(false);
  });

  it('leaving for another page with unsaved changes asks first', async () => {
    const user = userEvent.setup();
    setup();
    const { router } = render();
    await screen.findByTestId('matrix-row-XY_STAT', {}, { timeout: 15_000 });
    await user.click(box('fn-XY_STAT-export'));
    act(() => void router.navigate('/system/pageConfig'));
    const dialog = await waitFor(() => visibleConfirm() ?? Promise.reject(new Error('no dialog')));
    expect(dialog.textContent).toContain('离开后本次修改将丢失');
    await user.click(confirmButton(dialog, '留下'));
    await waitFor(() => expect(visibleConfirm()).toBeNull());
    expect(router.state.location.pathname).toBe(PATH);
    expect(box('fn-XY_STAT-export').checked).toBe(true);
  });

  it('without a subject shows a prompt to choose one and picks the first system', async () => {
    const server = setup();
    const { router } = render('');
    expect(await screen.findByText('请选择授权对象（角色或用户）', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?systemCoding=XYGL'));
    expect(server.callsTo(MATRIX)).toHaveLength(0);
  });
});

describe('matrix rules', () => {
  const rows = matrixRows();
  const [root, list, , stat] = rows;

  it('collects subtrees by parentId', () => {
    const t = subtrees(rows);
    expect(t.get('XY_ROOT')).toEqual(['XY_ROOT', 'XY_LIST', 'XY_HIDDEN']);
    expect(t.get('XY_LIST')).toEqual(['XY_LIST']);
    expect(t.get('XY_STAT')).toEqual(['XY_STAT']);
  });

  it('a function implies visible; clearing visible clears functions; coverage of a subtree', () => {
    const g0 = grantsFromRows(rows);
    expect(g0.XY_LIST).toEqual({ visible: true, codes: ['edit'] });
    const g1 = setFunction(g0, stat, 'export', true);
    expect(g1.XY_STAT).toEqual({ visible: true, codes: ['export'] });
    const g2 = setFunction(g1, list, 'add', true);
    expect(g2.XY_LIST.codes).toEqual(['add', 'edit']);
    const g3 = setVisible(g2, ['XY_LIST'], false);
    expect(g3.XY_LIST).toEqual({ visible: false, codes: [] });
    expect(coverage(g0, subtrees(rows).get('XY_ROOT')!)).toBe('some');
    expect(coverage(setVisible(g0, ['XY_ROOT', 'XY_LIST', 'XY_HIDDEN'], true), ['XY_ROOT', 'XY_LIST'])).toBe('all');
    expect(selectRow(g0, list).XY_LIST.codes).toEqual(['add', 'edit', 'delete']);
    expect(clearRow(g0, list).XY_LIST).toEqual({ visible: false, codes: [] });
    expect(sameGrants(g0, grantsFromRows(rows))).toBe(true);
    expect(sameGrants(g0, g1)).toBe(false);
    expect(toSaveGrants([root], g0)).toEqual([{ gnCoding: 'XY_ROOT', visible: false, functionCodes: [] }]);
  });

  it('a row granted functions but marked invisible by the server counts as visible', () => {
    const odd: GrantMatrixRow[] = [{ ...list, visible: false }];
    expect(grantsFromRows(odd).XY_LIST.visible).toBe(true);
  });
});
