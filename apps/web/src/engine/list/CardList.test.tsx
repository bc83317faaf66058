import type { CardStyle } from '@ks/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CardFile, CardList, type CardListProps, type CardRecord } from './CardList';
import { annexLimit } from './constants';
import { mockIntersectionObserver, renderUi } from './test-utils';

const files = (n: number): CardFile[] =>
  Array.from({ length: n }, (_, i) => ({ fileName: `附件${i + 1}.pdf`, url: `/f/${i + 1}` }));

const STYLE = (width: CardStyle['width']): CardStyle => ({
  titleKey: 'xmmc',
  contents: [
    { contentKey: 'dw', label: '单位', fontSize: 13, color: '#606266', style: 'normal' },
    { contentKey: 'je', label: '金额', fontSize: 16, color: '#F56C6C', style: 'bold' },
  ],
  width,
});

const rec = (i: number, extra: Partial<CardRecord> = {}): CardRecord => ({
  id: `c${i}`,
  xmmc: `项目${i}`,
  dw: `单位${i}`,
  je: `${i}00 万元`,
  statusColor: '#67C23A',
  jjrj_audit_jjrj: '审核通过',
  fileList: files(1),
  operations: [
    { code: 'detail', name: '详情', color: '#409EFF', show: true },
    { code: 'delete', name: '删除', color: '#F56C6C', show: false },
  ],
  ...extra,
});

let io: ReturnType<typeof mockIntersectionObserver>;
beforeEach(() => {
  io = mockIntersectionObserver();
});
afterEach(() => {
  io.restore();
  vi.useRealTimers();
});

const render = (props: Partial<CardListProps> = {}) =>
  renderUi(<CardList records={[rec(1), rec(2)]} cardStyle={STYLE('33.3%')} {...props} />);

describe('CardList (screen 19)', () => {
  it('renders cards in the card style: title, status, content lines with font, colour and style, width', () => {
    render({ cardStyle: STYLE('50%') });
    const cards = screen.getAllByTestId('card-item');
    expect(cards).toHaveLength(2);
    expect(screen.getAllByTestId('card-cell')[0].style.width).toBe('50%');
    expect(within(cards[0]).getByTestId('card-title').textContent).toBe('项目1');
    expect(within(cards[0]).getByTestId('card-status').textContent).toBe('审核通过');
    const [unit, amount] = within(cards[0]).getAllByTestId('card-line');
    expect(unit.textContent).toBe('单位：单位1');
    expect(unit.style.fontSize).toBe('13px');
    expect(amount.style.color).toBe('rgb(245, 108, 108)');
    expect(amount.style.fontWeight).toBe('600');
    expect(within(cards[0]).getByTestId('op-detail')).toBeTruthy();
    expect(within(cards[0]).queryByTestId('op-delete')).toBeNull();
  });

  it('more-annex thresholds: over 2 files for 33.3%, over 3 for 50%, over 7 for 100%', () => {
    expect([annexLimit('33.3%'), annexLimit('50%'), annexLimit('100%'), annexLimit(undefined)]).toEqual([2, 3, 7, 7]);
    const cases: [CardStyle['width'], number, boolean][] = [
      ['33.3%', 2, false],
      ['33.3%', 3, true],
      ['50%', 3, false],
      ['50%', 4, true],
      ['100%', 7, false],
      ['100%', 8, true],
    ];
    for (const [width, count, more] of cases) {
      const view = render({ records: [rec(1, { fileList: files(count) })], cardStyle: STYLE(width) });
      const box = screen.getByTestId('card-files');
      expect(within(box).getAllByTestId('card-file')).toHaveLength(more ? annexLimit(width) : count);
      expect(within(box).queryByText('更多附件') !== null).toBe(more);
      view.unmount();
    }
  });

  it('更多附件 lists every file; a file previews', async () => {
    const user = userEvent.setup();
    const onPreview = vi.fn();
    render({ records: [rec(1, { fileList: files(4) })], onPreview });
    await user.click(screen.getByTestId('card-more-annex'));
    const all = await screen.findByTestId('card-all-files');
    expect(within(all).getAllByTestId('card-file')).toHaveLength(4);
    await user.click(within(all).getByText('附件4.pdf'));
    expect(onPreview).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1' }), {
      fileName: '附件4.pdf',
      url: '/f/4',
    });
  });

  it('附件预览 without attachments shows 请至详情页添加附件再查看 instead of previewing', async () => {
    const user = userEvent.setup();
    const onPreview = vi.fn();
    render({ records: [rec(1, { fileList: [] }), rec(2)], onPreview });
    const [empty, full] = screen.getAllByTestId('card-item');
    await user.click(within(empty).getByTestId('card-preview'));
    expect(onPreview).not.toHaveBeenCalled();
    expect((await screen.findByRole('tooltip')).textContent).toBe('请至详情页添加附件再查看');
    await user.click(within(full).getByTestId('card-preview'));
    expect(onPreview).toHaveBeenCalledWith(expect.objectContaining({ id: 'c2' }));
  });

  it('operation buttons report the card and lock for 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onOperation = vi.fn();
    render({ onOperation });
    const detail = within(screen.getAllByTestId('card-item')[0]).getByTestId('op-detail') as HTMLButtonElement;
    fireEvent.click(detail);
    fireEvent.click(detail);
    expect(onOperation).toHaveBeenCalledTimes(1);
    expect(onOperation).toHaveBeenCalledWith('detail', expect.objectContaining({ id: 'c1' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    fireEvent.click(detail);
    expect(onOperation).toHaveBeenCalledTimes(2);
  });

  it('asks for more when the end comes into view, debounced 500 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onLoadMore = vi.fn();
    render({ onLoadMore });
    act(() => io.intersect());
    act(() => io.intersect());
    expect(onLoadMore).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    // out of view: nothing
    act(() => io.intersect(false));
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });

  it('does not ask while loading, and the footer reads 加载中...', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onLoadMore = vi.fn();
    render({ onLoadMore, loading: true });
    expect(screen.getByTestId('card-list-footer').textContent).toBe('加载中...');
    act(() => io.intersect());
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(onLoadMore).not.toHaveBeenCalled();
  });

  it('does not ask when finished, and the footer reads 没有更多了~', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onLoadMore = vi.fn();
    render({ onLoadMore, finished: true });
    expect(screen.getByTestId('card-list-footer').textContent).toBe('没有更多了~');
    act(() => io.intersect());
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(onLoadMore).not.toHaveBeenCalled();
  });

  it('shows 暂无数据 without records', () => {
    render({ records: [], finished: true });
    expect(screen.getByTestId('card-list-empty').textContent).toContain('暂无数据');
    expect(screen.getByTestId('card-list-footer').textContent).toBe('');
  });
});
