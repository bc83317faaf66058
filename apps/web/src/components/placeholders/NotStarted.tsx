import type { ReactNode } from 'react';
import { Empty } from './Empty';

export const NOT_STARTED_TEXTS = {
  /** state -1 */
  notStarted: '流程尚未开始',
  /** state -2 */
  noData: '暂无数据或未提交',
} as const;

/** The placeholder text of a state, or null when the state is neither -1 nor -2. */
export function notStartedText(state: number | string | null | undefined): string | null {
  const n = Number(state);
  if (n === -1) return NOT_STARTED_TEXTS.notStarted;
  if (n === -2) return NOT_STARTED_TEXTS.noData;
  return null;
}

export interface NotStartedProps {
  /** -1: the process has not started; -2: no data or not submitted (numbers or their text) */
  state: number | string | null | undefined;
  /** shown for any other state */
  children?: ReactNode;
  testId?: string;
}

/**
 * Not-started placeholder (screen 3): state -1 reads 流程尚未开始, state -2 reads 暂无数据或未提交. Any other state
 * renders the children (the content of a started process).
 */
export function NotStarted({ state, children = null, testId = 'not-started' }: NotStartedProps) {
  const text = notStartedText(state);
  if (text === null) return <>{children}</>;
  return <Empty message={text} testId={testId} />;
}
