import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchBar, type SearchField } from './SearchBar';
import { renderUi } from './test-utils';

const FIELDS: SearchField[] = [
  { code: 'name', name: '项目名称', type: 'text' },
  {
    code: 'kind',
    name: '项目类型',
    type: 'select',
    options: {
      list: [
        { dm: 'A', mc: '施工' },
        { dm: 'B', mc: '监理' },
      ],
      labelKey: 'mc',
      valueKey: 'dm',
    },
  },
  { code: 'range', name: '申报日期', type: 'daterange' },
  {
    code: 'region',
    name: '所属地区',
    type: 'cascader',
    options: {
      list: [
        {
          label: '山西',
          value: 'sx',
          children: [{ label: '太原', value: 'ty', children: [{ label: '小店', value: 'xd' }] }],
        },
      ],
    },
  },
  { code: 'day', name: '截止日期', type: 'date' },
];

const cols = () => [...document.querySelectorAll<HTMLElement>('[data-testid^="search-col-"]')];

afterEach(() => {
  vi.useRealTimers();
});

describe('SearchBar (screen 21)', () => {
  it('shows the first 3 fields 8 wide; 更多... shows all 6 wide; 收起 hides them again', async () => {
    const user = userEvent.setup();
    renderUi(<SearchBar fields={FIELDS} onSearch={vi.fn()} />);
    expect(cols().map((c) => c.dataset.testid)).toEqual(['search-col-name', 'search-col-kind', 'search-col-range']);
    for (const c of cols()) expect(c.className).toContain('ant-col-8');
    const toggle = screen.getByTestId('search-toggle');
    expect(toggle.textContent).toBe('更多...');

    await user.click(toggle);
    expect(cols()).toHaveLength(5);
    for (const c of cols()) expect(c.className).toContain('ant-col-6');
    expect(screen.getByTestId('search-toggle').textContent).toBe('收起');

    await user.click(screen.getByTestId('search-toggle'));
    expect(cols()).toHaveLength(3);
    expect(screen.getByTestId('search-toggle').textContent).toBe('更多...');
  });

  it('has no toggle with 3 fields or fewer', () => {
    renderUi(<SearchBar fields={FIELDS.slice(0, 3)} onSearch={vi.fn()} />);
    expect(screen.queryByTestId('search-toggle')).toBeNull();
    expect(screen.getByTestId('search-submit').textContent).toBe('搜索');
    expect(screen.getByTestId('search-reset').textContent).toBe('重置');
  });

  it('搜索 sends the normalised values: empty dropped, ranges joined with a comma, a cascader path its last item', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    renderUi(
      <SearchBar
        fields={FIELDS}
        onSearch={onSearch}
        initialValues={{
          range: [dayjs('2024-01-01'), dayjs('2024-01-31')],
          region: ['sx', 'ty', 'xd'],
          day: null,
        }}
      />,
    );
    await user.type(screen.getByTestId('search-field-name'), '  桥梁 ');
    await user.click(screen.getByRole('combobox', { name: '项目类型' }));
    await user.click(await screen.findByTitle('监理'));
    await user.click(screen.getByTestId('search-submit'));
    expect(onSearch).toHaveBeenCalledWith({
      name: '桥梁',
      kind: 'B',
      range: '2024-01-01,2024-01-31',
      region: 'xd',
    });
  });

  it('搜索 and 重置 are each throttled to one press a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onSearch = vi.fn();
    const onReset = vi.fn();
    renderUi(<SearchBar fields={FIELDS} onSearch={onSearch} onReset={onReset} initialValues={{ name: '桥梁' }} />);
    await user.click(screen.getByTestId('search-submit'));
    await user.click(screen.getByTestId('search-submit'));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenLastCalledWith({ name: '桥梁' });

    await user.click(screen.getByTestId('search-reset'));
    await user.click(screen.getByTestId('search-reset'));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('search-field-name') as HTMLInputElement).value).toBe('');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    await user.click(screen.getByTestId('search-submit'));
    expect(onSearch).toHaveBeenCalledTimes(2);
    expect(onSearch).toHaveBeenLastCalledWith({});
  });

  it('without onReset, 重置 clears the form and searches with no conditions', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    renderUi(<SearchBar fields={FIELDS} onSearch={onSearch} initialValues={{ name: '桥梁' }} />);
    await user.click(screen.getByTestId('search-reset'));
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({}));
  });

  it('keeps the values of fields hidden by 收起', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    renderUi(<SearchBar fields={FIELDS} onSearch={onSearch} defaultExpanded initialValues={{ region: ['sx'] }} />);
    await user.click(screen.getByTestId('search-toggle'));
    expect(cols()).toHaveLength(3);
    await user.click(screen.getByTestId('search-submit'));
    expect(onSearch).toHaveBeenCalledWith({ region: 'sx' });
  });
});
