import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { logErrorText, OperationLog, type OpLogEntry } from './OperationLog';
import { renderUi } from './test-utils';

const ENTRIES: OpLogEntry[] = [
  {
    glName: '提交',
    czrClassification: '企业',
    czrName: '张三',
    logbook: '提交了申请',
    failInfo: null,
    czTime: '2024-03-01 10:00:00',
  },
  {
    glName: '审核',
    czrClassification: '管理员',
    czrName: '李四',
    logbook: '审核不通过',
    failInfo: '材料不全',
    czTime: '2024-03-02 11:00:00',
  },
];

describe('OperationLog (screen 25)', () => {
  it('lists the entries in a table', () => {
    renderUi(<OperationLog entries={ENTRIES} />);
    const rows = document.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('张三');
    expect(rows[0].textContent).toContain('提交了申请');
    expect(rows[1].textContent).toContain('材料不全');
    expect(rows[1].textContent).toContain('2024-03-02 11:00:00');
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((h) => h.textContent);
    expect(headers).toEqual(['序号', '操作环节', '操作人类别', '操作人', '操作内容', '失败原因', '操作时间']);
  });

  it('lists the entries as a timeline', () => {
    renderUi(<OperationLog entries={ENTRIES} view="timeline" />);
    const items = screen.getAllByTestId('operation-log-item');
    expect(items).toHaveLength(2);
    expect(items[1].textContent).toContain('失败原因：材料不全');
    expect(screen.getByText('2024-03-01 10:00:00')).toBeTruthy();
  });

  it('shows 请求失败 when loading fails, or the server message, and retries', async () => {
    expect(logErrorText(true)).toBe('请求失败');
    expect(logErrorText('')).toBeNull();
    expect(logErrorText('无权查看')).toBe('无权查看');
    const user = userEvent.setup();
    const onRetry = vi.fn();
    const view = renderUi(<OperationLog entries={null} error onRetry={onRetry} />);
    expect(screen.getByTestId('operation-log-error').textContent).toBe('请求失败');
    await user.click(within(screen.getByTestId('operation-log')).getByText('重试'));
    expect(onRetry).toHaveBeenCalledTimes(1);
    view.rerenderUi(<OperationLog entries={null} error="记录不存在" />);
    expect(screen.getByTestId('operation-log-error').textContent).toBe('记录不存在');
  });

  it('shows 暂无数据 without entries', () => {
    renderUi(<OperationLog entries={[]} />);
    expect(screen.getByTestId('operation-log-empty').textContent).toContain('暂无数据');
  });
});
