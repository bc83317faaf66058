import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { SearchPopup } from './SearchPopup';
import type { SearchField } from './searchFields';
import { renderUi } from './test-utils';

const FIELDS: SearchField[] = [
  { code: 'title', name: '公告标题', type: 'text' },
  { code: 'url', name: '链接', type: 'link' },
  {
    code: 'kind',
    name: '公告类型',
    type: 'radio',
    options: {
      list: [
        { label: '招标公告', value: '1' },
        { label: '中标公示', value: '2' },
      ],
    },
  },
  { code: 'period', name: '发布时间', type: 'daterange' },
  {
    code: 'area',
    name: '地区',
    type: 'cascader',
    options: { list: [{ label: '山西', value: 'sx', children: [{ label: '太原', value: 'ty' }] }] },
  },
];

describe('SearchPopup (screen 4)', () => {
  it('shows text, link, radio, date range and cascader inputs with 重置 and 确定', async () => {
    renderUi(<SearchPopup open fields={FIELDS} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    await screen.findByTestId('search-popup');
    expect(screen.getByTestId('search-field-title').tagName).toBe('INPUT');
    expect(screen.getByTestId('search-field-url').tagName).toBe('INPUT');
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    expect(document.querySelector('.ant-picker-range')).not.toBeNull();
    expect(document.querySelector('.ant-cascader')).not.toBeNull();
    expect(screen.getByTestId('search-popup-reset').textContent).toBe('重置');
    expect(screen.getByTestId('search-popup-confirm').textContent).toBe('确定');
  });

  it('确定 confirms the normalised values', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderUi(
      <SearchPopup
        open
        fields={FIELDS}
        initialValues={{ period: [dayjs('2024-05-01'), dayjs('2024-05-31')], area: ['sx', 'ty'] }}
        onConfirm={onConfirm}
        onCancel={vi.fn()}
      />,
    );
    await user.type(await screen.findByTestId('search-field-title'), '改扩建');
    await user.click(screen.getByLabelText('中标公示'));
    await user.click(screen.getByTestId('search-popup-confirm'));
    await waitFor(() =>
      expect(onConfirm).toHaveBeenCalledWith({
        title: '改扩建',
        kind: '2',
        period: '2024-05-01,2024-05-31',
        area: 'ty',
      }),
    );
  });

  it('重置 clears the inputs and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onReset = vi.fn();
    renderUi(
      <SearchPopup
        open
        fields={FIELDS}
        initialValues={{ title: '旧条件', kind: '1' }}
        onConfirm={onConfirm}
        onCancel={vi.fn()}
        onReset={onReset}
      />,
    );
    expect(((await screen.findByTestId('search-field-title')) as HTMLInputElement).value).toBe('旧条件');
    await user.click(screen.getByTestId('search-popup-reset'));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('search-field-title') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByTestId('search-popup-confirm'));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith({}));
  });

  it('the close button cancels', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    renderUi(<SearchPopup open fields={FIELDS} onConfirm={vi.fn()} onCancel={onCancel} />);
    await screen.findByTestId('search-popup');
    await user.click(document.querySelector('.ant-modal-close') as HTMLElement);
    expect(onCancel).toHaveBeenCalled();
  });
});
