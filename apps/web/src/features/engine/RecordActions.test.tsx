import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { confirmDialog, findMessage, lastBody, PATHS, renderEngine, rid, setupEngine, storedRecord } from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const rowOf = (text: string | HTMLElement) =>
  (typeof text === 'string' ? screen.getByText(text) : text).closest('tr') as HTMLElement;

describe('row operations of the dynamic list', () => {
  it('删除 / 提交 / 撤回 are confirmed, then sent with the record’s id and version', async () => {
    const { calls, state } = setupEngine({
      records: [storedRecord(1), storedRecord(2, { version: 4 }), storedRecord(3, { status: 'pending', version: 7 })],
    });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');

    await user.click(within(rowOf('申请人2')).getByTestId('op-submit'));
    await confirmDialog(user, '确认提交？');
    await findMessage('提交成功');
    expect(lastBody(calls, PATHS.submit)).toEqual({ gnCoding: 'ZYZC', id: rid(2), version: 4 });
    await waitFor(() => expect(within(rowOf('申请人2')).getByTestId('status-tag').textContent).toBe('审核中'));

    await user.click(within(rowOf('申请人3')).getByTestId('op-revoke'));
    await confirmDialog(user, '确认撤回该提交？撤回后可修改后重新提交。');
    await findMessage('操作成功');
    expect(lastBody(calls, PATHS.revoke)).toEqual({ gnCoding: 'ZYZC', id: rid(3), version: 7 });

    await user.click(within(rowOf('申请人1')).getByTestId('op-delete'));
    await confirmDialog(user, '确认删除该记录？删除后不可恢复。');
    await findMessage('删除成功');
    expect(lastBody(calls, PATHS.del)).toEqual({ gnCoding: 'ZYZC', id: rid(1) });
    await waitFor(() => expect(screen.queryByText('申请人1')).toBeNull());
    expect(state.records.map((r) => r.id)).toEqual([rid(2), rid(3)]);
  });

  it('审核: 驳回 without a suggestion says 请填写审核建议 and sends nothing; 驳回 and 通过 are confirmed', async () => {
    const { calls } = setupEngine({
      records: [
        storedRecord(1, { status: 'pending', version: 2, auditLevel: 1 }),
        storedRecord(2, { status: 'pending' }),
      ],
    });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.click(within(rowOf('申请人1')).getByTestId('op-audit'));
    await user.click(await screen.findByTestId('audit-reject'));
    expect(await screen.findByText('请填写审核建议')).toBeTruthy();
    expect(calls.filter((c) => c.url === PATHS.audit)).toHaveLength(0);
    expect(screen.getByTestId('audit-suggestion').getAttribute('rows')).toBe('5');

    await user.type(screen.getByTestId('audit-suggestion'), '材料不全');
    await act(() => new Promise((r) => setTimeout(r, 1000)));
    await user.click(screen.getByTestId('audit-reject'));
    await confirmDialog(user, '确认不通过？');
    await findMessage('操作成功');
    expect(lastBody(calls, PATHS.audit)).toEqual({
      gnCoding: 'ZYZC',
      id: rid(1),
      version: 2,
      pass: false,
      suggestion: '材料不全',
    });
    await waitFor(() => expect(within(rowOf('申请人1')).getByTestId('status-tag').textContent).toBe('已驳回'));
    // a rejected record can be resubmitted
    expect(within(rowOf('申请人1')).getByTestId('op-submit').textContent).toBe('重新提交');

    await user.click(within(rowOf('申请人2')).getByTestId('op-audit'));
    await user.click(await screen.findByTestId('audit-pass'));
    await confirmDialog(user, '确认通过？');
    await waitFor(() => expect(lastBody(calls, PATHS.audit)).toMatchObject({ id: rid(2), pass: true }));
    expect(lastBody(calls, PATHS.audit)).not.toHaveProperty('suggestion');
  }, 30_000);

  it('a 409 (someone else decided first) shows the message and reloads the list', async () => {
    const { calls, state } = setupEngine({ records: [storedRecord(1, { status: 'pending', auditLevel: 1 })] });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    // another reviewer passes it meanwhile
    state.records[0].status = 'passed';
    state.records[0].version = 5;
    const before = calls.filter((c) => c.url === PATHS.list).length;
    await user.click(within(rowOf('申请人1')).getByTestId('op-audit'));
    await user.click(await screen.findByTestId('audit-pass'));
    await confirmDialog(user, '确认通过？');
    await findMessage('记录已被处理，请刷新后重试');
    await waitFor(() => expect(calls.filter((c) => c.url === PATHS.list).length).toBeGreaterThan(before));
    await waitFor(() => expect(within(rowOf('申请人1')).getByTestId('status-tag').textContent).toBe('已通过'));
    expect(screen.queryByTestId('audit-form')).toBeNull();
  });

  it('导出 downloads the xlsx of the current filter', async () => {
    const { calls } = setupEngine();
    const user = userEvent.setup();
    const created: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      writable: true,
      value: (b: Blob) => {
        created.push(b);
        return 'blob:x';
      },
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderEngine();
      await screen.findByText('申请人1');
      await user.type(screen.getByTestId('search-field-xm'), '张');
      await user.click(screen.getByTestId('search-submit'));
      await waitFor(() => expect(lastBody(calls, PATHS.list).search).toEqual({ xm: '张' }));
      await user.click(screen.getByTestId('engine-export'));
      await findMessage('导出成功');
      expect(lastBody(calls, PATHS.exportXlsx)).toEqual({ gnCoding: 'ZYZC', search: { xm: '张' } });
      expect(created).toHaveLength(1);
      expect(click).toHaveBeenCalledTimes(1);
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('执业注册申请.xlsx');
    } finally {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });

  it('操作日志 and 指派 open their dialogs; 指派 sends the chosen person with id and version', async () => {
    const { calls } = setupEngine({ records: [storedRecord(1, { version: 3 })] });
    const user = userEvent.setup();
    renderEngine();
    await screen.findByText('申请人1');
    await user.click(within(rowOf('申请人1')).getByTestId('op-logs'));
    expect(await screen.findByText('新增记录')).toBeTruthy();
    await user.click(screen.getByTestId('logs-close'));

    await user.click(within(rowOf('申请人1')).getByTestId('op-assign'));
    await user.click(await screen.findByTestId(`assign-person-${rid(501)}`));
    await user.click(screen.getByTestId('assign-confirm'));
    await findMessage('操作成功');
    expect(lastBody(calls, PATHS.assign)).toEqual({ gnCoding: 'ZYZC', id: rid(1), version: 3, userId: rid(501) });
    expect(lastBody(calls, PATHS.assignable)).toEqual({ gnCoding: 'ZYZC', id: rid(1) });
  });
});
