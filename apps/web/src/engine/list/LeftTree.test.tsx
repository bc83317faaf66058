import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type LeftNode, LeftTree } from './LeftTree';
import { renderUi } from './test-utils';

const NODES: LeftNode[] = [
  {
    primaryKey: 'g1',
    xxGrouping: '良好行为',
    score: 20,
    badge: 3,
    children: [
      { primaryKey: 'g1-1', xxGrouping: '获奖情况', score: 10, badge: 120 },
      { primaryKey: 'g1-2', xxGrouping: '表彰', score: 10, badge: 0 },
    ],
  },
  { primaryKey: 7, xxGrouping: '不良行为', score: null, badge: null },
];

describe('LeftTree (screen 20)', () => {
  it('shows the header name and score, and nodes with scores and badges (capped at 99)', () => {
    renderUi(<LeftTree header={{ nodeName: '信用评价', score: 100 }} nodes={NODES} />);
    const header = screen.getByTestId('left-tree-header');
    expect(header.textContent).toContain('信用评价');
    expect(within(header).getByTestId('left-tree-header-score').textContent).toBe('100分');

    const parent = screen.getByTestId('left-node-g1');
    expect(parent.textContent).toContain('良好行为');
    expect(within(parent).getByTestId('left-node-score').textContent).toBe('20分');
    expect(parent.querySelector('.ant-badge')?.textContent).toBe('3');
    // children are expanded
    const child = screen.getByTestId('left-node-g1-1');
    expect(child.querySelector('.ant-badge')?.textContent).toBe('99+');
    expect(screen.getByTestId('left-node-g1-2').querySelector('.ant-badge')).toBeNull();
    const plain = screen.getByTestId('left-node-7');
    expect(within(plain).queryByTestId('left-node-score')).toBeNull();
  });

  it('reports the clicked node and marks the selected one', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderUi(<LeftTree nodes={NODES} selectedKey={7} onSelect={onSelect} />);
    expect(screen.getByTestId('left-node-7').closest('.ant-tree-treenode')?.className).toContain('selected');
    await user.click(screen.getByText('获奖情况'));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ primaryKey: 'g1-1', xxGrouping: '获奖情况' }));
  });

  it('shows 暂无数据 without nodes', () => {
    renderUi(<LeftTree nodes={[]} />);
    expect(screen.getByTestId('left-tree-empty').textContent).toContain('暂无数据');
  });
});
