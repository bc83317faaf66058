import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOT_STARTED_TEXTS, NotStarted, notStartedText } from './NotStarted';

describe('NotStarted placeholder (screen 3)', () => {
  it('state -1 reads 流程尚未开始', () => {
    render(<NotStarted state={-1} />);
    expect(screen.getByTestId('not-started-message').textContent).toBe('流程尚未开始');
  });

  it('state -2 reads 暂无数据或未提交, given as a number or as text', () => {
    const { unmount } = render(<NotStarted state={-2} />);
    expect(screen.getByTestId('not-started-message').textContent).toBe('暂无数据或未提交');
    unmount();
    render(<NotStarted state="-2" />);
    expect(screen.getByTestId('not-started-message').textContent).toBe(NOT_STARTED_TEXTS.noData);
  });

  it('any other state renders the content', () => {
    expect(notStartedText(1)).toBeNull();
    expect(notStartedText(null)).toBeNull();
    render(
      <NotStarted state={1}>
        <p>流程内容</p>
      </NotStarted>,
    );
    expect(screen.queryByTestId('not-started')).toBeNull();
    expect(screen.getByText('流程内容')).toBeTruthy();
  });
});
