import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { toCharts } from './EchartsSettingPage';
import { bodyOf, findFieldError, pickOption, queryOf, renderConfig, setupConfigServer } from './testkit';

const PATH = '/system/echartsSetting?gnCoding=A1';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const combo = (testId: string, i = 0) =>
  within(screen.getAllByTestId(testId)[i]).queryByRole('combobox') ?? (screen.getAllByTestId(testId)[i] as HTMLElement);

describe('图表设置', () => {
  it('adds a chart previewed from the node’s real numbers, requires a measure field unless counting, and saves', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByTestId('chart-add');
    expect(queryOf(server.callsTo('/ks/config/node/charts')[0]).get('gnCoding')).toBe('A1');
    await user.click(screen.getByTestId('chart-add'));
    const preview = await screen.findByTestId('chart-preview');
    // nothing to count by yet
    expect(preview.textContent).toContain('选择维度字段');
    expect(server.callsTo('/ks/config/node/chart-data')).toHaveLength(0);

    await user.type(screen.getByTestId('chart-title'), '各状态项目数');
    await pickOption(user, 'chart-dimension', '状态（status）');
    const bar = await within(screen.getByTestId('chart-preview')).findByTestId('chart-bar', {}, { timeout: 3000 });
    expect(bar.getAttribute('aria-label')).toBe('各状态项目数预览：各状态项目数：草稿 3，已通过 5');
    expect(bar.querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('chart-records').textContent).toContain('8 条记录');
    expect(bodyOf(server.callsTo('/ks/config/node/chart-data').at(-1)!)).toEqual({
      gnCoding: 'A1',
      charts: [{ title: '各状态项目数', type: 'bar', dimension: 'status', measure: 'count', measureField: null }],
    });
    await pickOption(user, 'chart-measure', '求和');
    await user.click(screen.getByTestId('save-charts'));
    await findFieldError('求和、平均、最大、最小需要选择度量字段');
    expect(server.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.type(combo('chart-measure-field'), 'amount');
    await pickOption(user, 'chart-type', '饼图');
    await waitFor(() => expect(within(screen.getByTestId('chart-preview')).getByTestId('chart-pie')).toBeTruthy(), {
      timeout: 3000,
    });
    expect(screen.getByTestId('chart-pie').getAttribute('aria-label')).toContain('草稿 3（37.5%），已通过 5（62.5%）');
    await user.click(screen.getByTestId('save-charts'));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(bodyOf(server.calls.find((c) => c.method === 'PUT')!)).toEqual({
      gnCoding: 'A1',
      charts: [{ title: '各状态项目数', type: 'pie', dimension: 'status', measure: 'sum', measureField: 'amount' }],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('loads saved charts; a count sends no measure field; a 400 is shown on the chart', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer(
      {
        'PUT /ks/config/node/charts': () => ({
          status: 400,
          code: 400,
          message: '请选择维度字段',
          data: { fieldErrors: { 'charts.1.dimension': ['请选择维度字段'] } },
        }),
      },
      PATH,
    );
    server.state.charts.A1 = [
      { title: '趋势', type: 'line', dimension: 'projectName', measure: 'max', measureField: 'amount' },
      { title: '数量', type: 'bar', dimension: 'status', measure: 'count', measureField: null },
    ];
    renderConfig(PATH);
    await waitFor(() => expect(screen.getAllByTestId('chart-row')).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('chart-line').querySelector('svg')).toBeTruthy(), { timeout: 3000 });
    // counting: no measure field to choose
    expect((combo('chart-measure-field', 1) as HTMLInputElement).disabled).toBe(true);
    await pickOption(user, 'chart-measure', '计数');
    await user.click(screen.getByTestId('save-charts'));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const body = bodyOf<{ charts: unknown[] }>(server.calls.find((c) => c.method === 'PUT')!);
    expect(body.charts[0]).toEqual({
      title: '趋势',
      type: 'line',
      dimension: 'projectName',
      measure: 'count',
      measureField: null,
    });
    const err = await findFieldError('请选择维度字段');
    expect(err.closest('[data-testid="chart-row"]')).toBe(screen.getAllByTestId('chart-row')[1]);
    expect(currentPrompt()).toBeNull();
  });
});

describe('chart helpers', () => {
  it('toCharts trims and drops the measure field of a count', () => {
    expect(
      toCharts([
        { title: ' 标题 ', type: 'bar', dimension: ' a ', measure: 'count', measureField: 'x' },
        { title: 'b', type: 'line', dimension: 'b', measure: 'avg', measureField: ' y ' },
      ]),
    ).toEqual([
      { title: '标题', type: 'bar', dimension: 'a', measure: 'count', measureField: null },
      { title: 'b', type: 'line', dimension: 'b', measure: 'avg', measureField: 'y' },
    ]);
  });
});
