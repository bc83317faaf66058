import { Alert, Button, Table, type TableColumnsType, Tag, Timeline } from 'antd';
import { useMemo } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { TEXTS } from './constants';

/** §3 operation log entry. */
export interface OpLogEntry {
  glName: string;
  czrClassification: string;
  czrName: string;
  logbook: string;
  failInfo?: string | null;
  czTime: string;
}

export interface OperationLogProps {
  entries: readonly OpLogEntry[] | null | undefined;
  loading?: boolean;
  /** loading failed: true, or the server's message (§8: server message or 请求失败) */
  error?: boolean | string | null;
  onRetry?: () => void;
  /** a table (default) or a timeline */
  view?: 'table' | 'timeline';
  testId?: string;
}

/** The message of a failed log fetch: the server's, else 请求失败 (§8). */
export function logErrorText(error: OperationLogProps['error']): string | null {
  if (!error) return null;
  return typeof error === 'string' && error.trim() ? error : TEXTS.requestFailed;
}

const COLUMNS: TableColumnsType<OpLogEntry & { key: number }> = [
  { title: TEXTS.serial, key: 'serial', width: 64, align: 'center', render: (_v, _r, i) => i + 1 },
  { title: '操作环节', dataIndex: 'glName', width: 140 },
  { title: '操作人类别', dataIndex: 'czrClassification', width: 120 },
  { title: '操作人', dataIndex: 'czrName', width: 120 },
  { title: '操作内容', dataIndex: 'logbook' },
  {
    title: '失败原因',
    dataIndex: 'failInfo',
    width: 180,
    render: (v: string | null | undefined) => (v ? <span style={{ color: '#F56C6C' }}>{v}</span> : '-'),
  },
  { title: '操作时间', dataIndex: 'czTime', width: 170 },
];

/** The operation log of a record (screen 25): who did what and when, as a table or a timeline. */
export function OperationLog({
  entries,
  loading = false,
  error,
  onRetry,
  view = 'table',
  testId = 'operation-log',
}: OperationLogProps) {
  const rows = useMemo(() => (entries ?? []).map((e, key) => ({ ...e, key })), [entries]);
  const failed = logErrorText(error);
  if (failed) {
    return (
      <div data-testid={testId}>
        <Alert
          type="error"
          showIcon
          title={<span data-testid={`${testId}-error`}>{failed}</span>}
          action={
            onRetry ? (
              <Button size="small" onClick={onRetry}>
                重试
              </Button>
            ) : undefined
          }
        />
      </div>
    );
  }
  if (view === 'timeline') {
    return (
      <div data-testid={testId}>
        {rows.length === 0 && !loading ? (
          <Empty compact testId={`${testId}-empty`} />
        ) : (
          <Timeline
            items={rows.map((e) => ({
              key: e.key,
              color: e.failInfo ? 'red' : 'blue',
              title: e.czTime,
              content: (
                <div data-testid={`${testId}-item`}>
                  <div>
                    <Tag>{e.glName}</Tag>
                    {e.czrName}
                    {e.czrClassification ? <span style={{ color: '#909399' }}>（{e.czrClassification}）</span> : null}
                  </div>
                  <div style={{ color: '#606266' }}>{e.logbook}</div>
                  {e.failInfo ? <div style={{ color: '#F56C6C' }}>失败原因：{e.failInfo}</div> : null}
                </div>
              ),
            }))}
          />
        )}
      </div>
    );
  }
  return (
    <div data-testid={testId}>
      <Table
        size="small"
        bordered
        columns={COLUMNS}
        dataSource={rows}
        loading={loading}
        pagination={false}
        locale={{ emptyText: <Empty compact testId={`${testId}-empty`} /> }}
      />
    </div>
  );
}
