import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterCard, type FilterDefinition, type SearchTag, toggleTag } from './FilterCard';
import { labelWidth, textWidth } from './searchFields';
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

  it('group names sit on one line in a column as wide as the longest; a too long one ends in … with its title', () => {
    const long: FilterDefinition = {
      displayCode: 'BH',
      displayList: [
        { name: '是否委托担保机构', code: 'sfdb', dataList: [{ label: '是', value: '1' }] },
        { name: '担保机构类型', code: 'dbjglx', dataList: [{ label: '银行', value: 'yh' }] },
        { name: '一个名称非常非常非常长的筛选分组', code: 'cc', dataList: [{ label: '甲', value: 'a' }] },
      ],
    };
    renderUi(<FilterCard definition={long} tags={[]} onChange={vi.fn()} />);
    const labels = ['sfdb', 'dbjglx', 'cc'].map((c) => screen.getByTestId(`filter-label-${c}`));
    // every label one line, all equally wide (the 已选条件 label too), capped at 160 px
    for (const l of labels) {
      expect(l.style.whiteSpace).toBe('nowrap');
      expect(l.style.textOverflow).toBe('ellipsis');
      expect(l.style.width).toBe('160px');
    }
    expect(labels.map((l) => l.title)).toEqual([
      '是否委托担保机构',
      '担保机构类型',
      '一个名称非常非常非常长的筛选分组',
    ]);
    const tagsLabel = screen.getByText('已选条件：');
    expect(tagsLabel.style.width).toBe('160px');
    expect(tagsLabel.style.whiteSpace).toBe('nowrap');
  });

  it('short group names get a narrower label column that still fits 已选条件：', () => {
    renderUi(<Harness />);
    // 已选条件： is five full-width characters: 70 px of text plus the gap
    expect(screen.getByTestId('filter-label-xmlx').style.width).toBe('94px');
    expect(labelWidth(['地区：', '已选条件：'], { max: 160 })).toBe(94);
    expect(labelWidth(['是否委托担保机构：'], { max: 160 })).toBe(150);
    expect(textWidth('保函金额（元）')).toBe(98);
    expect(textWidth('ID号')).toBe(30);
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
