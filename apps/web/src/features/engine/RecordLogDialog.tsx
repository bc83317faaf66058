import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { useMemo } from 'react';
import { type OpLogEntryDto, recordLogsQuery } from '../../api/engine';
import { OperationLog } from '../../engine/list/OperationLog';
import { formatDateTime } from '../../lib/format';

/** The operation log of a record (screen 25) in a dialog; it loads when opened. */
export function RecordLogDialog({
  gnCoding,
  recordId,
  onClose,
}: {
  gnCoding: string;
  /** the record whose log is shown; null: closed */
  recordId: string | null;
  onClose: () => void;
}) {
  const logs = useQuery({ ...recordLogsQuery(gnCoding, recordId ?? ''), enabled: Boolean(recordId) });
  return (
    <Modal
      open={Boolean(recordId)}
      title="操作日志"
      width={960}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button onClick={onClose} data-testid="logs-close">
          关闭
        </Button>
      }
    >
      <RecordLog logs={logs} />
    </Modal>
  );
}

/** The log view of a query: loading, the server's error message (§8) with 重试, or the entries. */
export function RecordLog({ logs, testId }: { logs: UseQueryResult<OpLogEntryDto[]>; testId?: string }) {
  const entries = useMemo(() => logs.data?.map((e) => ({ ...e, czTime: formatDateTime(e.czTime) })), [logs.data]);
  return (
    <OperationLog
      entries={entries}
      loading={logs.isFetching}
      error={logs.error ? logs.error.message || true : null}
      onRetry={() => void logs.refetch()}
      testId={testId}
    />
  );
}
