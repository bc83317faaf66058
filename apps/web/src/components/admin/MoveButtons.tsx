import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/**
 * 上移 / 下移 of one row of an editable list (fields, columns, functions, card items, charts, attachment types):
 * `move(from, to)` gets the row's index and its neighbour's; the ends are disabled. Test ids `${testId}-up` / `-down`.
 */
export function MoveButtons({
  index,
  count,
  move,
  disabled = false,
  testId,
}: {
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <>
      <Button
        type="text"
        size="small"
        icon={<ArrowUpOutlined />}
        aria-label="上移"
        disabled={disabled || index === 0}
        onClick={() => move(index, index - 1)}
        data-testid={testId ? `${testId}-up` : undefined}
      />
      <Button
        type="text"
        size="small"
        icon={<ArrowDownOutlined />}
        aria-label="下移"
        disabled={disabled || index === count - 1}
        onClick={() => move(index, index + 1)}
        data-testid={testId ? `${testId}-down` : undefined}
      />
    </>
  );
}
