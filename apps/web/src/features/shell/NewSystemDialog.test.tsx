import { NEW_SYSTEM_MESSAGES } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { newSystemFieldErrors } from './NewSystemDialog';
import { bodyOf, setupShell, shellRoutes, shellSystems } from './testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

async function openDialog() {
  const user = userEvent.setup();
  const view = renderRoutes(shellRoutes, '/judge');
  await user.click(await screen.findByTestId('judge-new-system'));
  const form = await screen.findByTestId('new-system-form');
  return { user, form, ...view };
}

function errorsOf(form: HTMLElement): string[] {
  return Array.from(form.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent ?? '');
}

describe('新建系统 dialog (spec §2 screen 9, §5)', () => {
  it('shows the §5 messages for empty fields and sends nothing', async () => {
    const { server } = setupShell({ roleType: 'D' });
    const { user, form } = await openDialog();
    expect(within(form).getByText('系统全称')).toBeTruthy();
    expect(within(form).getByText('系统简称')).toBeTruthy();
    expect(within(form).getByText('系统编码')).toBeTruthy();
    expect(within(form).getByTestId('new-system-cancel').textContent).toBe('取消');
    expect(within(form).getByTestId('new-system-submit').textContent).toBe('生成系统');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() =>
      expect(errorsOf(form)).toEqual([
        NEW_SYSTEM_MESSAGES.systemNameRequired,
        NEW_SYSTEM_MESSAGES.titleRequired,
        NEW_SYSTEM_MESSAGES.gnCodingFormat,
      ]),
    );
    expect(errorsOf(form)).toEqual([
      '请输入系统全称',
      '请输入系统简称',
      '系统编码格式为字母开头，以及数字、下划线组成',
    ]);
    expect(server.callsTo('/ks/config/new/structure/add')).toHaveLength(0);
  });

  it('refuses a title over 8 characters and a code that does not start with a letter', async () => {
    const { server } = setupShell({ roleType: 'D' });
    const { user, form } = await openDialog();
    await user.type(within(form).getByTestId('new-system-name'), '测试系统');
    await user.type(within(form).getByTestId('new-system-title'), '一二三四五六七八九');
    await user.type(within(form).getByTestId('new-system-code'), '1abc');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() => expect(errorsOf(form)).toEqual(['长度在 1 到 8 个字符', NEW_SYSTEM_MESSAGES.gnCodingFormat]));
    // a code with other characters is refused too; 8 characters are fine
    await user.clear(within(form).getByTestId('new-system-title'));
    await user.type(within(form).getByTestId('new-system-title'), '一二三四五六七八');
    await user.clear(within(form).getByTestId('new-system-code'));
    await user.type(within(form).getByTestId('new-system-code'), 'ab-c');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() => expect(errorsOf(form)).toEqual([NEW_SYSTEM_MESSAGES.gnCodingFormat]));
    expect(server.callsTo('/ks/config/new/structure/add')).toHaveLength(0);
  });

  it('generates the system: sends levels 0, closes, resets, reloads systems and menus, announces 系统已生成', async () => {
    const { server } = setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/config/new/structure/add': () => ({ data: { gnName: '测试系统', gnCoding: 'CSXT' } }),
      },
    });
    const { user, form, queryClient } = await openDialog();
    queryClient.setQueryData(['shell', 'menus', 'XYGL'], []);
    await user.type(within(form).getByTestId('new-system-name'), ' 测试系统 ');
    await user.type(within(form).getByTestId('new-system-title'), '测试');
    await user.type(within(form).getByTestId('new-system-code'), 'CSXT_1');
    await user.click(within(form).getByTestId('new-system-submit'));

    expect(await screen.findByText('系统已生成')).toBeTruthy();
    const calls = server.callsTo('/ks/config/new/structure/add');
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe('POST');
    expect(bodyOf(calls[0])).toEqual({ systemName: '测试系统', title: '测试', gnCoding: 'CSXT_1', levels: 0 });
    // the system list is fetched again, the menus are marked stale
    await waitFor(() => expect(server.callsTo('/ks/authority/manager/system-list')).toHaveLength(2));
    expect(queryClient.getQueryState(['shell', 'menus', 'XYGL'])?.isInvalidated).toBe(true);
    // closed and reset: opening it again shows an empty form
    expect(form.getAttribute('data-open')).toBe('false');
    await user.click(screen.getByTestId('judge-new-system'));
    expect((screen.getByTestId('new-system-name') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('new-system-code') as HTMLInputElement).value).toBe('');
  });

  it('shows a duplicate code (409) on the code field and stays open, without a dialog', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/config/new/structure/add': () => ({ status: 409, code: 409, message: '编码已存在，请更换' }),
      },
    });
    const { user, form } = await openDialog();
    await user.type(within(form).getByTestId('new-system-name'), '信用管理二');
    await user.type(within(form).getByTestId('new-system-title'), '信用');
    await user.type(within(form).getByTestId('new-system-code'), 'XYGL');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() => expect(errorsOf(form)).toEqual(['编码已存在，请更换']));
    expect(screen.getByTestId('new-system-code').closest('.ant-form-item')?.textContent).toContain('编码已存在');
    expect(currentPrompt()).toBeNull();
    expect(screen.queryByText('系统已生成')).toBeNull();
    expect(form.getAttribute('data-open')).toBe('true');
  });

  it('shows server field errors (400) on their fields', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/config/new/structure/add': () => ({
          status: 400,
          code: 400,
          message: '长度在 1 到 8 个字符',
          data: { fieldErrors: { title: ['长度在 1 到 8 个字符'], systemName: '系统全称已被使用' } },
        }),
      },
    });
    const { user, form } = await openDialog();
    await user.type(within(form).getByTestId('new-system-name'), '信用管理');
    await user.type(within(form).getByTestId('new-system-title'), '信用');
    await user.type(within(form).getByTestId('new-system-code'), 'XY2');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() => expect(errorsOf(form)).toEqual(['系统全称已被使用', '长度在 1 到 8 个字符']));
    expect(currentPrompt()).toBeNull();
  });

  it('leaves other failures (403) to the usual error dialog', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/config/new/structure/add': () => ({ status: 403, code: 403, message: '无权限' }),
      },
    });
    const { user, form } = await openDialog();
    await user.type(within(form).getByTestId('new-system-name'), '信用管理');
    await user.type(within(form).getByTestId('new-system-title'), '信用');
    await user.type(within(form).getByTestId('new-system-code'), 'XY2');
    await user.click(within(form).getByTestId('new-system-submit'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('无权限'));
    expect(errorsOf(form)).toEqual([]);
  });

  it('取消 closes and clears the form', async () => {
    setupShell({ roleType: 'D' });
    const { user, form } = await openDialog();
    await user.type(within(form).getByTestId('new-system-name'), '半途');
    await user.click(within(form).getByTestId('new-system-cancel'));
    expect(form.getAttribute('data-open')).toBe('false');
    await user.click(screen.getByTestId('judge-new-system'));
    expect((screen.getByTestId('new-system-name') as HTMLInputElement).value).toBe('');
  });

  it('is offered to developers only', async () => {
    for (const roleType of ['M', 'U'] as const) {
      setupShell({ roleType });
      const { unmount } = renderRoutes(shellRoutes, '/judge');
      await screen.findByTestId(`judge-system-${shellSystems[0].systemCoding}`);
      expect(screen.queryByTestId('judge-new-system')).toBeNull();
      unmount();
    }
  });

  it('maps field errors, and a bare 409 to the code field', () => {
    const e400 = { status: 400, message: 'x', data: { fieldErrors: { gnCoding: ['a'], other: ['b'] } } };
    expect(newSystemFieldErrors(e400 as never)).toEqual([{ name: 'gnCoding', errors: ['a'] }]);
    const e409 = { status: 409, message: '编码已存在，请更换', data: null };
    expect(newSystemFieldErrors(e409 as never)).toEqual([{ name: 'gnCoding', errors: ['编码已存在，请更换'] }]);
  });
});
