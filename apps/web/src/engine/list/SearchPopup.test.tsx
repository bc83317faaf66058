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

  it('labels stay on one line in a column fitted to the longest; a too long one ends in … with its title', async () => {
    const fields: SearchField[] = [
      ...FIELDS,
      { code: 'bhje', name: '保函金额（元）', type: 'text' },
      { code: 'sfdb', name: '是否委托担保机构', type: 'text' },
    ];
    const { unmount } = renderUi(<SearchPopup open fields={fields} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    const form = await screen.findByTestId('search-popup');
    const cols = [...form.querySelectorAll<HTMLElement>('.ant-form-item-label')];
    expect(cols).toHaveLength(fields.length);
    // 是否委托担保机构: 8 × 14 px + 24 px; every label column as wide, none wrapping
    for (const c of cols) {
      expect(c.style.flex).toBe('0 0 136px');
      expect(c.className).not.toContain('ant-form-item-label-wrap');
    }
    const label = screen.getByTitle('是否委托担保机构');
    expect(label.style.whiteSpace).toBe('nowrap');
    expect(label.style.textOverflow).toBe('ellipsis');
    unmount();
    renderUi(
      <SearchPopup
        open
        fields={[{ code: 'x', name: '一个名称非常非常非常非常长的查询条件', type: 'text' }]}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    // capped at 144 px; the whole name is its title
    expect(
      (await screen.findByTestId('search-popup')).querySelector<HTMLElement>('.ant-form-item-label')?.style.flex,
    ).toBe('0 0 144px');
    expect(screen.getByTitle('一个名称非常非常非常非常长的查询条件').textContent).toBe(
      '一个名称非常非常非常非常长的查询条件',
    );
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
