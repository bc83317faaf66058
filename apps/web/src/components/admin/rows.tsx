import { DeleteOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Empty, type FormListFieldData, type FormRule, Popconfirm, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { MoveButtons } from './MoveButtons';

/**
 * An editable list of rows inside a form (Form.List shown as a table): a node's columns, buttons, attachment types…
 * Each cell is a Form.Item of the row; the last column moves and removes rows.
 */

/** The table of a Form.List's rows (no pager; an empty list says 暂无数据). */
export function RowsTable({
  fields,
  columns,
  scrollX,
  testId,
}: {
  fields: FormListFieldData[];
  columns: ColumnsType<FormListFieldData>;
  scrollX: number;
  testId: string;
}) {
  return (
    <Table
      rowKey="key"
      size="small"
      pagination={false}
      columns={columns}
      dataSource={fields}
      scroll={{ x: scrollX }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> }}
      data-testid={testId}
    />
  );
}

/**
 * 上移 / 下移 and the remove button of one row (test ids `${testId}-up`, `-down`, `-remove`); with `confirm` the
 * removal asks first.
 */
export function RowOps({
  index,
  count,
  move,
  onRemove,
  testId,
  removeLabel = '删除',
  confirm,
}: {
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  onRemove: () => void;
  testId: string;
  removeLabel?: string;
  confirm?: { title: ReactNode; description?: ReactNode };
}) {
  const remove = (
    <Button
      type="text"
      size="small"
      danger
      icon={<DeleteOutlined />}
      aria-label={removeLabel}
      onClick={confirm ? undefined : onRemove}
      data-testid={`${testId}-remove`}
    />
  );
  return (
    <Space size={0}>
      <MoveButtons index={index} count={count} move={move} testId={testId} />
      {confirm ? (
        <Popconfirm
          title={confirm.title}
          description={confirm.description}
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
          onConfirm={onRemove}
        >
          {remove}
        </Popconfirm>
      ) : (
        remove
      )}
    </Space>
  );
}

/**
 * A value that must not repeat within the list (a code): the rule fails on every row holding it. Values are
 * compared trimmed; an empty one is left to the `required` rule.
 */
export const uniqueInList =
  (list: string, key: string, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) => {
      const v = typeof value === 'string' ? value.trim() : value;
      if (v === '' || v === undefined || v === null) return Promise.resolve();
      const rows = (getFieldValue(list) ?? []) as Record<string, unknown>[];
      const same = rows.filter((r) => {
        const other = r?.[key];
        return (typeof other === 'string' ? other.trim() : other) === v;
      });
      return same.length > 1 ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });
