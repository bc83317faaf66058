import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { PAGE_SIZES, type Page, type SortOrder } from '@ks/contracts';
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useState } from 'react';

/** The paging part of a list's filters (server-paged lists: pageNum from 1, pageSize one of PAGE_SIZES). */
export interface Paged {
  pageNum: number;
  pageSize: number;
}

/** The sorting part of a list's filters: one of the server's whitelisted fields, and the order. */
export interface Sorted {
  sortField?: string;
  order?: SortOrder;
}

/**
 * A server-paged list: its filters (with paging and sorting), the query of the current page and a refresh. Setting a
 * filter goes back to page 1; the previous page stays on screen while the next loads (the query's own
 * placeholderData). `refreshKey` is what a change invalidates: the list and everything cached beside it.
 */
export function useServerList<F extends Paged, R, K extends QueryKey = QueryKey>({
  initial,
  query,
  refreshKey,
}: {
  initial: F;
  query: (filters: F) => UseQueryOptions<Page<R>, Error, Page<R>, K>;
  refreshKey: QueryKey;
}) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<F>(initial);
  const list = useQuery(query(filters));
  return {
    filters,
    setFilters,
    /** Change some filters and go back to page 1. */
    setFilter: (next: Partial<F>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 })),
    list,
    records: list.data?.records ?? [],
    total: list.data?.total ?? 0,
    refresh: () => void queryClient.invalidateQueries({ queryKey: refreshKey }),
    /** The first load failed: the page shows the failure instead of an empty table. */
    failed: list.isError && !list.data,
  };
}

export type ServerList<F extends Paged, R> = ReturnType<typeof useServerList<F, R, QueryKey>>;

/** antd pagination for a server-paged list (sizes 10/20/30/50, total, jumper); a new page size starts at page 1. */
export function pagination<F extends Paged>(
  filters: F,
  total: number,
  setFilters: (f: (prev: F) => F) => void,
  unit = '条',
) {
  return {
    current: filters.pageNum,
    pageSize: filters.pageSize,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (n: number) => `共 ${n} ${unit}`,
    onChange: (pageNum: number, pageSize: number) =>
      setFilters((f) => ({ ...f, pageNum: pageSize !== f.pageSize ? 1 : pageNum, pageSize })),
  };
}

/** A table header click → the server's whitelisted sort field and order (none: the default order). */
export function sortOf<T>(
  sorter: SorterResult<T> | SorterResult<T>[],
  allowed: readonly string[],
):
  | Required<Sorted>
  | {
      sortField: undefined;
      order: undefined;
    } {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  const field = typeof s?.field === 'string' ? s.field : undefined;
  if (!s?.order || !field || !allowed.includes(field)) return { sortField: undefined, order: undefined };
  return { sortField: field, order: s.order === 'ascend' ? 'asc' : 'desc' };
}

/** The column's sort arrow as the current filters say. */
export const sortState = (filters: Sorted, field: string) =>
  filters.sortField === field ? (filters.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

/** A column the server sorts by: spread into the column (`{ ...sortable(filters, 'name'), title, dataIndex }`). */
export const sortable = (filters: Sorted, field: string, enabled = true) => ({
  sorter: enabled,
  sortOrder: sortState(filters, field),
});

/**
 * The table of a server-paged list: its page of records, the pager, the loading state, and header sorting for the
 * fields in `sorts` (the server's whitelist).
 */
export function ServerTable<R extends object, F extends Paged & Sorted>({
  view,
  columns,
  sorts,
  scrollX,
  testId,
  emptyText = '暂无数据',
  rowKey = 'id',
  unit,
  ...rest
}: {
  view: ServerList<F, R>;
  columns: TableColumnsType<R>;
  sorts?: readonly string[];
  scrollX?: number;
  testId: string;
  emptyText?: ReactNode;
  rowKey?: TableProps<R>['rowKey'];
  /** what the total counts: 共 n 条 by default */
  unit?: string;
} & Pick<TableProps<R>, 'expandable' | 'rowSelection'>) {
  return (
    <Table<R>
      rowKey={rowKey}
      size="middle"
      columns={columns}
      dataSource={view.records}
      loading={view.list.isFetching}
      scroll={scrollX ? { x: scrollX } : undefined}
      locale={{ emptyText }}
      data-testid={testId}
      pagination={pagination(view.filters, view.total, view.setFilters, unit)}
      onChange={(_, __, sorter, extra) => {
        if (sorts && extra.action === 'sort') view.setFilter(sortOf(sorter, sorts) as Partial<F>);
      }}
      {...rest}
    />
  );
}

/** The row of filters above a list. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      {children}
    </Space>
  );
}

/** A keyword box: typing changes nothing until 搜索 (or Enter); clearing searches for everything again. */
export function KeywordFilter({
  placeholder,
  onSearch,
  width = 260,
  testId,
}: {
  placeholder: string;
  /** the trimmed keyword, undefined when empty */
  onSearch: (keyword: string | undefined) => void;
  width?: number;
  testId?: string;
}) {
  const [keyword, setKeyword] = useState('');
  return (
    <Input.Search
      allowClear
      placeholder={placeholder}
      style={{ width }}
      maxLength={50}
      value={keyword}
      onChange={(e) => setKeyword(e.target.value)}
      onSearch={(v) => onSearch(v.trim() || undefined)}
      enterButton="搜索"
      data-testid={testId}
    />
  );
}

/** A choice among fixed options that filters the list at once; clearing it shows all. */
export function SelectFilter<V extends string>({
  placeholder,
  value,
  onChange,
  options,
  width = 130,
  loading,
  testId,
}: {
  placeholder: string;
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  options: readonly { value: V; label: ReactNode }[];
  width?: number;
  loading?: boolean;
  testId?: string;
}) {
  return (
    <Select<V>
      allowClear
      placeholder={placeholder}
      style={{ width }}
      value={value}
      loading={loading}
      onChange={(v) => onChange(v)}
      options={options as { value: V; label: ReactNode }[]}
      data-testid={testId}
    />
  );
}

/** 刷新: refetches; spins while a refetch (not the first load) runs. */
export function RefreshButton({
  onClick,
  query,
}: {
  onClick: () => void;
  query: { isFetching: boolean; isPending: boolean };
}) {
  return (
    <Button icon={<ReloadOutlined />} onClick={onClick} loading={query.isFetching && !query.isPending}>
      刷新
    </Button>
  );
}

/** The page's primary 新增… button. */
export function CreateButton({
  onClick,
  testId,
  children,
}: {
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
      {children}
    </Button>
  );
}

/**
 * The card a server-paged list sits in: its title, and in the card's head 刷新 followed by the page's own buttons
 * (`actions`: 新增… where the caller may create).
 */
export function ListCard({
  title,
  view,
  actions,
  children,
  testId,
}: {
  title: ReactNode;
  view: { refresh: () => void; list: { isFetching: boolean; isPending: boolean } };
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        <Space>
          <RefreshButton onClick={view.refresh} query={view.list} />
          {actions}
        </Space>
      }
    >
      {children}
    </Card>
  );
}
