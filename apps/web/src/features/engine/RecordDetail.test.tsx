import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { col, errorOf, findError, inputOf, pick } from '../../engine/form/test-utils';
import ApplyDetailPage from './ApplyDetailPage';
import DynamicDetailPage from './DynamicDetailPage';
import {
  confirmDialog,
  findMessage,
  lastBody,
  listRoutes,
  PATHS,
  renderEngine,
  rid,
  setupEngine,
  storedRecord,
} from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const routes: RouteObject[] = [
  { path: '/dynamicPage/dynamicDetail', element: <DynamicDetailPage /> },
  { path: '/applyDetail', element: <ApplyDetailPage /> },
  ...listRoutes,
];
const detailUrl = (id: string, extra = '') =>
  `/dynamicPage/dynamicDetail?gnCoding=ZYZC&systemCoding=XYGL&id=${id}${extra}`;
const NEW_URL = '/dynamicPage/dynamicDetail?gnCoding=ZYZC&systemCoding=XYGL&mode=edit';
const count = (calls: { url: string }[], path: string) => calls.filter((c) => c.url === path).length;

describe('record detail (/dynamicPage/dynamicDetail)', () => {
  it('shows the record read-only with its status, audit flow (level, action, reviewer, suggestion) and log', async () => {
    setupEngine({
      records: [
        storedRecord(1, {
          status: 'pending',
          auditLevel: 2,
          auditFlow: [
            {
              level: 0,
              action: 'submit',
              suggestion: null,
              userName: '申请人甲',
              round: 1,
              time: '2026-03-01T01:00:00Z',
            },
            {
              level: 1,
              action: 'pass',
              suggestion: '材料齐全',
              userName: '李审核',
              round: 1,
              time: '2026-03-02T01:00:00Z',
            },
          ],
        }),
      ],
    });
    renderEngine(detailUrl(rid(1)), routes);
    expect((await screen.findByTestId('detail-status')).textContent).toBe('审核中');
    // the form in its read-only view: labels, not stored codes
    await waitFor(() => expect(screen.getByTestId('value-zclb').textContent).toBe('一级注册建造师'));
    expect(screen.getByTestId('value-xm').textContent).toBe('申请人1');
    const steps = screen.getAllByTestId('audit-step');
    expect(steps).toHaveLength(2);
    expect(within(steps[1]).getByTestId('audit-step-level').textContent).toBe('第1级审核');
    expect(within(steps[1]).getByTestId('audit-step-action').textContent).toBe('通过');
    expect(within(steps[1]).getByTestId('audit-step-user').textContent).toBe('李审核');
    expect(within(steps[1]).getByTestId('audit-step-suggestion').textContent).toBe('审核建议：材料齐全');
    expect(screen.getByTestId('audit-pending').textContent).toBe('待第2级审核');
    // the log of the record
    expect(await screen.findByText('新增记录')).toBeTruthy();
    // a pending record: 撤回, 审核, 指派 — not 编辑 or 删除
    expect(screen.getByTestId('detail-op-audit')).toBeTruthy();
    expect(screen.getByTestId('detail-op-revoke')).toBeTruthy();
    expect(screen.queryByTestId('detail-op-edit')).toBeNull();
    expect(screen.queryByTestId('detail-op-delete')).toBeNull();
  });

  it('a draft never submitted reads 流程尚未开始; 提交 from the detail is confirmed and sent with id and version', async () => {
    const { calls } = setupEngine({ records: [storedRecord(1, { version: 6 })] });
    const user = userEvent.setup();
    renderEngine(detailUrl(rid(1)), routes);
    expect((await screen.findByTestId('not-started-message')).textContent).toBe('流程尚未开始');
    await user.click(screen.getByTestId('detail-op-submit'));
    await confirmDialog(user, '确认提交？');
    await findMessage('提交成功');
    expect(lastBody(calls, PATHS.submit)).toEqual({ gnCoding: 'ZYZC', id: rid(1), version: 6 });
    await waitFor(() => expect(screen.getByTestId('detail-status').textContent).toBe('审核中'));
  });

  it('审核 from the detail: the decision reloads the record', async () => {
    const { calls } = setupEngine({ records: [storedRecord(1, { status: 'pending', auditLevel: 1, version: 3 })] });
    const user = userEvent.setup();
    renderEngine(detailUrl(rid(1)), routes);
    await user.click(await screen.findByTestId('detail-op-audit'));
    await user.type(await screen.findByTestId('audit-suggestion'), '同意');
    await user.click(screen.getByTestId('audit-pass'));
    await confirmDialog(user, '确认通过？');
    await waitFor(() => expect(screen.getByTestId('detail-status').textContent).toBe('已通过'));
    expect(lastBody(calls, PATHS.audit)).toEqual({
      gnCoding: 'ZYZC',
      id: rid(1),
      version: 3,
      pass: true,
      suggestion: '同意',
    });
    expect(screen.getByTestId('audit-step-suggestion').textContent).toBe('审核建议：同意');
  });

  it('a record that is gone says so, with the way back', async () => {
    setupEngine({ records: [] });
    renderEngine(detailUrl(rid(9)), routes);
    expect((await screen.findByTestId('engine-detail-error')).textContent).toContain('记录不存在');
  });
});

describe('create and edit form', () => {
  it('new: fields from formDetails; 提交 needs a saved record (请先保存！); required fields are checked; 保存 shows the record read-only', async () => {
    const { calls, state } = setupEngine({ records: [] });
    const user = userEvent.setup();
    const { router } = renderEngine(NEW_URL, routes);
    await screen.findByTestId('dynamic-form');
    expect(lastBody(calls, PATHS.formDetails)).toEqual({ gnCoding: 'ZYZC', systemCoding: 'XYGL' });

    await user.click(screen.getByTestId('form-submit'));
    await findMessage('请先保存！');
    expect(count(calls, PATHS.submit)).toBe(0);

    await user.click(screen.getByTestId('form-save'));
    await findError('xm', '姓名必填');
    expect(count(calls, PATHS.save)).toBe(0);

    fireEvent.change(inputOf('xm'), { target: { value: '王五' } });
    await user.click(within(col('xb')).getByText('女'));
    await pick('zclb', '二级注册建造师');
    expect(screen.getByTestId('form-dirty')).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 1000)));
    await user.click(screen.getByTestId('form-save'));
    await findMessage('保存成功');
    expect(lastBody(calls, PATHS.save)).toMatchObject({
      gnCoding: 'ZYZC',
      values: { xm: '王五', xb: '女', zclb: 'jzs2' },
    });
    expect(lastBody(calls, PATHS.save)).not.toHaveProperty('id');
    // §4: saving ends editing; the saved record is shown
    const id = state.records[0].id;
    await waitFor(() => expect(router.state.location.search).toBe(`?gnCoding=ZYZC&systemCoding=XYGL&id=${id}`));
    await waitFor(() => expect(screen.getByTestId('value-xm').textContent).toBe('王五'));
    expect(screen.getByTestId('detail-op-edit')).toBeTruthy();
  }, 30_000);

  it('edit: unsaved edits block 提交 (请先保存！); a stale version (409) says so and reloads what is stored', async () => {
    const { calls, state } = setupEngine({ records: [storedRecord(1, { version: 2 })] });
    const user = userEvent.setup();
    renderEngine(detailUrl(rid(1), '&mode=edit'), routes);
    await screen.findByTestId('dynamic-form');
    await waitFor(() => expect(inputOf('xm').value).toBe('申请人1'));
    fireEvent.change(inputOf('xm'), { target: { value: '申请人一' } });
    await waitFor(() => expect(screen.getByTestId('form-dirty')).toBeTruthy());
    await user.click(screen.getByTestId('form-submit'));
    await findMessage('请先保存！');
    expect(count(calls, PATHS.submit)).toBe(0);

    // someone else saved meanwhile
    state.records[0].values = { ...state.records[0].values, xm: '别人改的' };
    state.records[0].version = 3;
    await user.click(screen.getByTestId('form-save'));
    await findMessage('该记录已被他人修改或处理，已为您重新加载最新数据');
    expect(lastBody(calls, PATHS.save)).toMatchObject({ id: rid(1), version: 2 });
    await waitFor(() => expect(inputOf('xm').value).toBe('别人改的'));
    expect(screen.queryByTestId('form-dirty')).toBeNull();
    expect(errorOf('xm')).toBeNull();
  }, 30_000);

  it('edit then 提交 without changes: confirmed, sent with the version, then shown read-only', async () => {
    const { calls } = setupEngine({ records: [storedRecord(1, { status: 'rejected', version: 4 })] });
    const user = userEvent.setup();
    const { router } = renderEngine(detailUrl(rid(1), '&mode=edit'), routes);
    await screen.findByTestId('dynamic-form');
    await waitFor(() => expect(inputOf('xm').value).toBe('申请人1'));
    await user.click(screen.getByTestId('form-submit'));
    await confirmDialog(user, '确认提交？');
    await findMessage('提交成功');
    expect(lastBody(calls, PATHS.submit)).toEqual({ gnCoding: 'ZYZC', id: rid(1), version: 4 });
    await waitFor(() => expect(router.state.location.search).not.toContain('mode=edit'));
    expect((await screen.findByTestId('detail-status')).textContent).toBe('审核中');
  });

  it('a record under review cannot be edited', async () => {
    setupEngine({ records: [storedRecord(1, { status: 'pending' })] });
    renderEngine(detailUrl(rid(1), '&mode=edit'), routes);
    expect((await screen.findByTestId('form-not-editable')).textContent).toContain('审核中');
    expect(screen.queryByTestId('form-save')).toBeNull();
    expect(screen.queryByTestId('form-submit')).toBeNull();
  });

  it('applyDetail: 新建申请 is the same form for the applicant', async () => {
    setupEngine({ records: [] });
    renderEngine('/applyDetail?gnCoding=ZYZC&systemCoding=XYGL', routes);
    expect(await screen.findByText('新建申请')).toBeTruthy();
    expect(screen.getByTestId('engine-form-apply')).toBeTruthy();
    expect(screen.getByTestId('form-save')).toBeTruthy();
  });
});
