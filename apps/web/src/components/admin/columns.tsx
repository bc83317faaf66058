import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format';
import { SelectFilter, type Sorted, sortable } from './list';

// Column and filter presets: what the back-office lists show the same way everywhere.

/** An empty value shows as a dash. */
export const orDash = (v: ReactNode | null | undefined): ReactNode => v ?? '—';

/**
 * A date-and-time column (创建时间, 更新时间 …) in the platform's zone; sortable on the server when `filters` are given
 * (and `sortableIf` holds); an empty value shows as a dash.
 */
export function dateTimeColumn(title: string, dataIndex: string, filters?: Sorted, sortableIf = true) {
  return {
    title,
    dataIndex,
    width: 170,
    ...(filters ? sortable(filters, dataIndex, sortableIf) : {}),
    render: (v: string | null) => (v ? formatDateTime(v) : '—'),
  };
}

/**
 * A yes / no filter of a list (启用 / 停用, 已发布 / 未发布): the server's filter takes 'true' or 'false' as text;
 * clearing it shows all.
 */
export function BooleanFilter({
  labels,
  value,
  onChange,
  placeholder = '全部状态',
  width = 120,
  testId,
}: {
  /** the labels of true and of false */
  labels: readonly [string, string];
  value: 'true' | 'false' | undefined;
  onChange: (value: 'true' | 'false' | undefined) => void;
  placeholder?: string;
  width?: number;
  testId?: string;
}) {
  return (
    <SelectFilter<'true' | 'false'>
      placeholder={placeholder}
      width={width}
      value={value}
      onChange={onChange}
      options={[
        { value: 'true', label: labels[0] },
        { value: 'false', label: labels[1] },
      ]}
      testId={testId}
    />
  );
}
