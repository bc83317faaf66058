import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { templateSummary } from './StyleTemplatePage';
import {
  bodyOf,
  confirmPopover,
  findFieldError,
  pickOption,
  queryOf,
  renderConfig,
  sampleColumns,
  setupConfigServer,
  uuid,
} from './testkit';

const PATH = '/system/styleTemplate';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

function withTemplates() {
  const server = setupConfigServer({}, PATH);
  server.state.templates = [
    {
      id: uuid(801),
      name: '标准列表',
      kind: 'table',
      columns: sampleColumns(),
      cardStyle: null,
      createdAt: '2026-03-01T00:00:00.000Z',
    },
    {
      id: uuid(802),
      name: '项目卡片',
      kind: 'card',
      columns: null,
      cardStyle: {
        titleKey: 'projectName',
        contents: [{ contentKey: 'status', label: '状态', fontSize: 14, color: '#303133', style: 'normal' }],
        width: '50%',
      },
      createdAt: '2026-03-01T00:00:00.000Z',
    },
  ];
  return server;
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('样式模板', () => {
  it('lists the templates, each with a preview', async () => {
    withTemplates();
    renderConfig(PATH);
    await screen.findByText('标准列表');
    expect(within(rowOf('标准列表')).getByText('2 列（显示 2 列）')).toBeTruthy();
    expect(within(rowOf('项目卡片')).getByText('标题 projectName，1 项内容，宽 50%')).toBeTruthy();
    const previews = screen.getAllByTestId('template-preview');
    expect(previews).toHaveLength(2);
    expect(within(previews[0]).getByTestId('columns-strip').textContent).toContain('项目名称');
    expect(within(previews[1]).getAllByTestId('card-preview-line')[0].textContent).toBe('状态：状态示例1');
    expect(within(previews[1]).getByText('示例数据')).toBeTruthy();
  });

  it('新建模板 takes a name, a kind and the node to copy the style from', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    await screen.findByText('暂无数据');
    await user.click(screen.getByTestId('template-create'));
    await user.click(await screen.findByTestId('template-save'));
    await findFieldError('请输入模板名称');
    await findFieldError('请选择节点');
    await user.type(screen.getByTestId('template-name'), '信用列表');
    await pickOption(user, 'template-source-system', '信用管理系统（XYGL）');
    await pickOption(user, 'template-source-node', '信用子项1（A1）');
    await user.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(bodyOf(server.calls.find((c) => c.method === 'POST')!)).toEqual({
      name: '信用列表',
      kind: 'table',
      fromGnCoding: 'A1',
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(await screen.findByText('信用列表')).toBeTruthy();
  });

  it('a refused creation (node without columns) is shown', async () => {
    const user = userEvent.setup();
    setupConfigServer(
      {
        'POST /ks/config/style-templates': () => ({ status: 400, code: 400, message: '该节点还没有配置卡片样式' }),
      },
      PATH,
    );
    renderConfig(PATH);
    await user.click(await screen.findByTestId('template-create'));
    await user.type(await screen.findByTestId('template-name'), '卡片');
    await user.click(within(screen.getByTestId('template-kind')).getByLabelText('卡片样式'));
    await pickOption(user, 'template-source-system', '信用管理系统（XYGL）');
    await pickOption(user, 'template-source-node', '信用子项2（A2）');
    await user.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('该节点还没有配置卡片样式'));
    expect(screen.getByTestId('template-form-error').textContent).toContain('该节点还没有配置卡片样式');
  });

  it('应用到节点 sends the template and the chosen node; 删除 asks first', async () => {
    const user = userEvent.setup();
    const server = withTemplates();
    renderConfig(PATH);
    await screen.findByText('标准列表');
    await user.click(within(rowOf('标准列表')).getByTestId('template-apply'));
    const ok = await screen.findByTestId('template-apply-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    await pickOption(user, 'template-target-system', '信用管理系统（XYGL）');
    await pickOption(user, 'template-target-node', '评价列表（B1）');
    await waitFor(() => expect((screen.getByTestId('template-apply-ok') as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByTestId('template-apply-ok'));
    await waitFor(() => expect(server.callsTo('/ks/config/style-templates/apply')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/style-templates/apply')[0])).toEqual({ id: uuid(801), gnCoding: 'B1' });
    expect(await screen.findByText('操作成功')).toBeTruthy();

    await user.click(within(rowOf('项目卡片')).getByTestId('template-delete'));
    await confirmPopover(user);
    await waitFor(() => expect(screen.queryByText('项目卡片')).toBeNull());
    const del = server.calls.find((c) => c.method === 'DELETE')!;
    expect(queryOf(del).get('id')).toBe(uuid(802));
  });

  it('templateSummary', () => {
    expect(templateSummary({ id: 'x', name: 'n', kind: 'card', columns: null, cardStyle: null, createdAt: '' })).toBe(
      '—',
    );
  });
});
