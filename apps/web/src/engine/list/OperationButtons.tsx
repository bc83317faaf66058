import type { Operation } from '@ks/contracts';
import { memo } from 'react';
import { useActionLock } from './hooks';
import { LinkButton } from './LinkButton';

export interface OperationButtonsProps<Row> {
  /** the server-given operations of the row or card; only `show: true` ones are rendered */
  operations: readonly Operation[] | null | undefined;
  row: Row;
  onOperation?: (code: string, row: Row) => void;
  testId?: string;
}

/** Visible operations of a list of server-given ones. */
export function visibleOperations(operations: readonly Operation[] | null | undefined): Operation[] {
  return Array.isArray(operations) ? operations.filter((op) => op?.show === true) : [];
}

/**
 * A row's or card's action buttons in their server-given colours. Each button is locked for 1 s after a click (§9):
 * it is disabled and a second press does nothing.
 */
function OperationButtonsInner<Row>({
  operations,
  row,
  onOperation,
  testId = 'operations',
}: OperationButtonsProps<Row>) {
  const { locked, run } = useActionLock();
  const shown = visibleOperations(operations);
  if (!shown.length) return null;
  return (
    <span data-testid={testId} style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      {shown.map((op) => {
        const isLocked = locked.has(op.code);
        return (
          <LinkButton
            key={op.code}
            testId={`op-${op.code}`}
            color={op.color}
            disabled={isLocked}
            onClick={() => run(op.code, () => onOperation?.(op.code, row))}
          >
            {op.name}
          </LinkButton>
        );
      })}
    </span>
  );
}

export const OperationButtons = memo(OperationButtonsInner) as typeof OperationButtonsInner;
