import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { bodyOf, findFieldError, pickOption, renderConfig, setupConfigServer } from './testkit';

const PATH = '/system/setTypeCard?gnCoding=A1';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const input = (testId: string, i = 0) =>
  within(screen.getAllByTestId(testId)[i]).queryByRole('combobox') ?? (screen.getAllByTestId(testId)[i] as HTMLElement);

describe('卡片样式', () => {
  it('a node without a card style says so; the form builds a live preview and saves the style', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({}, PATH);
    renderConfig(PATH);
    expect(await screen.findByTestId('card-not-set')).toBeTruthy();
    expect(bodyOf(server.callsTo('/ks/config/card-setting/info')[0])).toEqual({ gnCoding: 'A1' });
    // the title field is chosen among the node's fields and columns, by name
    await pickOption(user, 'card-title-key', '项目名称（projectName）');
    // the preview names the sample after the field, never its code
    await waitFor(() => expect(screen.getAllByTestId('card-preview-title')[0].textContent).toBe('项目名称示例1'));
    expect(screen.getByTestId('card-preview').textContent).toContain('示例数据');
    expect(screen.getAllByTestId('card-preview-item')[0].style.width).toBe('33.3%');
    // a content line, typed freely (not among the columns)
    await user.click(screen.getByTestId('card-content-add'));
    await user.type(input('card-content-key'), 'tenderer');
    await user.type(screen.getByTestId('card-content-label'), '招标人');
    const size = screen.getByTestId('card-content-size');
    await user.clear(size);
    await user.type(size, '16');
    await pickOption(user, 'card-content-style', '加粗');
    await user.click(within(screen.getByTestId('card-width')).getByLabelText('50%（每行 2 张）'));
    await waitFor(() => expect(screen.getAllByTestId('card-preview-line')[0].textContent).toBe('招标人：招标人示例1'));
    const line = screen.getAllByTestId('card-preview-line')[0];
    expect(line.style.fontSize).toBe('16px');
    expect(line.style.fontWeight).toBe('600');
    expect(screen.getAllByTestId('card-preview-item')[0].style.width).toBe('50%');
    await user.click(screen.getByTestId('save-card'));
    await waitFor(() =>
      expect(server.callsTo('/ks/config/card-setting/info').filter((c) => c.method === 'PUT')).toHaveLength(1),
    );
    const put = server.callsTo('/ks/config/card-setting/info').find((c) => c.method === 'PUT')!;
    expect(bodyOf(put)).toEqual({
      gnCoding: 'A1',
      cardStyle: {
        titleKey: 'projectName',
        contents: [{ contentKey: 'tenderer', label: '招标人', fontSize: 16, color: '#303133', style: 'bold' }],
        width: '50%',
      },
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('loads a saved style into the form and the preview', async () => {
    const server = setupConfigServer({}, PATH);
    server.state.cardStyles.A1 = {
      titleKey: 'projectName',
      contents: [{ contentKey: 'status', label: '状态', fontSize: 12, color: '#F56C6C', style: 'italic' }],
      width: '100%',
    };
    renderConfig(PATH);
    await waitFor(() => expect(screen.getAllByTestId('card-preview-line')[0].textContent).toBe('状态：状态示例1'));
    const line = screen.getAllByTestId('card-preview-line')[0];
    expect(line.style.fontStyle).toBe('italic');
    expect(line.style.color).toBe('rgb(245, 108, 108)');
    expect(screen.getAllByTestId('card-preview-item')[0].style.width).toBe('100%');
    expect(screen.queryByTestId('card-not-set')).toBeNull();
  });

  it('needs a title field and content fields; server field errors land on the content rows', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer(
      {
        'PUT /ks/config/card-setting/info': () => ({
          status: 400,
          code: 400,
          message: '请选择内容字段',
          data: { fieldErrors: { 'cardStyle.contents.0.contentKey': ['字段不存在'] } },
        }),
      },
      PATH,
    );
    renderConfig(PATH);
    await screen.findByTestId('card-not-set');
    await user.click(screen.getByTestId('card-content-add'));
    await user.click(screen.getByTestId('save-card'));
    await findFieldError('请选择标题字段');
    await findFieldError('请选择内容字段');
    expect(server.callsTo('/ks/config/card-setting/info').filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.type(input('card-title-key'), 'projectName');
    await user.type(input('card-content-key'), 'nope');
    await user.click(screen.getByTestId('save-card'));
    await findFieldError('字段不存在');
    expect(screen.getByTestId('card-error').textContent).toContain('请选择内容字段');
    expect(currentPrompt()).toBeNull();
  });
});
