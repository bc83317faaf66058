import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_TEXT, Empty } from './Empty';

describe('Empty placeholder (screen 2)', () => {
  it('reads 暂无数据 by default', () => {
    render(<Empty />);
    expect(EMPTY_TEXT).toBe('暂无数据');
    expect(screen.getByTestId('empty-message').textContent).toBe('暂无数据');
    expect(screen.getByRole('status')).toBeTruthy();
  });

  it('shows a given message and children', () => {
    render(
      <Empty message="暂无帮助！">
        <button type="button">刷新</button>
      </Empty>,
    );
    expect(screen.getByTestId('empty-message').textContent).toBe('暂无帮助！');
    expect(screen.getByRole('button', { name: '刷新' })).toBeTruthy();
  });
});
