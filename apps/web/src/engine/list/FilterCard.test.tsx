import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterCard, type FilterDefinition, type SearchTag, toggleTag } from './FilterCard';
import { renderUi } from './test-utils';

const DEF: FilterDefinition = {
  displayCode: 'XY_LIST',
  displayList: [
    {
      name: '项目类型',
      code: 'xmlx',
      type: 'radio',
      dataList: [
        { label: '施工', value: 'SG' },
        { label: '监理', value: 'JL' },
      ],
    },
    {
      name: '地区',
      code: 'dq',
      type: 'checkbox',
      dataList: [
        { name: '太原', code: 'TY' },
        { name: '大同', code: 'DT' },
      ],
    },
  ],
};

function Harness({ initial = [], onReset }: { initial?: SearchTag[]; onReset?: () => void }) {
  const [tags, setTags] = useState<SearchTag[]>(initial);
  return (
    <>
      <FilterCard definition={DEF} tags={tags} onChange={setTags} onReset={onReset} />
      <output data-testid="tags-json">{JSON.stringify(tags)}</output>
    </>
  );
}

const tagsNow = () => JSON.parse(screen.getByTestId('tags-json').textContent ?? '[]') as SearchTag[];

afterEach(() => {
  vi.useRealTimers();
});

describe('FilterCard', () => {
  it('toggleTag keeps one choice in a single group and several in a checkbox group', () => {
    const [g1, g2] = DEF.displayList;
    let tags = toggleTag([], g1, g1.dataList[0]);
    tags = toggleTag(tags, g1, g1.dataList[1]);
    expect(tags).toEqual([{ code: 'xmlx', name: '项目类型', bianma: 'JL', val: '监理' }]);
    tags = toggleTag(tags, g2, g2.dataList[0]);
    tags = toggleTag(tags, g2, g2.dataList[1]);
    expect(tags.map((t) => t.bianma)).toEqual(['JL', 'TY', 'DT']);
    expect(toggleTag(tags, g2, g2.dataList[0]).map((t) => t.bianma)).toEqual(['JL', 'DT']);
  });

  it('chips add search tags; a tag closes; 全部 clears its group', async () => {
    const user = userEvent.setup();
    renderUi(<Harness />);
    expect(screen.getByTestId('filter-all-xmlx').className).toContain('checked');
    await user.click(screen.getByTestId('filter-chip-xmlx-SG'));
    await user.click(screen.getByTestId('filter-chip-dq-TY'));
    await user.click(screen.getByTestId('filter-chip-dq-DT'));
    expect(tagsNow()).toEqual([
      { code: 'xmlx', name: '项目类型', bianma: 'SG', val: '施工' },
      { code: 'dq', name: '地区', bianma: 'TY', val: '太原' },
      { code: 'dq', name: '地区', bianma: 'DT', val: '大同' },
    ]);
    expect(screen.getByTestId('filter-chip-xmlx-SG').className).toContain('checked');
    expect(screen.getByTestId('search-tag-dq-TY').textContent).toBe('地区：太原');

    const close = screen.getByTestId('search-tag-dq-TY').querySelector('.ant-tag-close-icon') as HTMLElement;
    await user.click(close);
    expect(tagsNow().map((t) => t.bianma)).toEqual(['SG', 'DT']);

    await user.click(screen.getByTestId('filter-all-dq'));
    expect(tagsNow().map((t) => t.bianma)).toEqual(['SG']);
  });

  it('重置 clears every tag with a 500 ms animation', async () => {
    vi.useFakeTimers();
    const onReset = vi.fn();
    renderUi(<Harness initial={[{ code: 'xmlx', name: '项目类型', bianma: 'SG', val: '施工' }]} onReset={onReset} />);
    fireEvent.click(screen.getByTestId('filter-reset'));
    // a second press during the animation does nothing
    fireEvent.click(screen.getByTestId('filter-reset'));
    expect(tagsNow()).toEqual([]);
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('filter-tags').dataset.resetting).toBe('true');
    expect(screen.getByTestId('filter-reset').querySelector('.anticon-spin')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(screen.getByTestId('filter-tags').dataset.resetting).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByTestId('filter-tags').dataset.resetting).toBeUndefined();
    expect(screen.getByTestId('filter-reset').querySelector('.anticon-spin')).toBeNull();
  });
});
