import { Code } from '@ks/contracts';
import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  assignableListQuery,
  assignRecord,
  auditRecord,
  deleteRecord,
  ENGINE_KEY,
  type EngineRecord,
  recordsKey,
  revokeRecord,
  submitRecord,
} from '../../api/engine';
import { type ApiError, isApiError, reportApiError } from '../../api/request';
import { MENUS_KEY } from '../../api/shell';
import { AssignDialog, type AssignPerson } from '../../engine/list/AssignDialog';
import { ENGINE_TEXTS } from '../../engine/model';
import { AuditDialog } from './AuditDialog';
import { RecordLogDialog } from './RecordLogDialog';
import { type EngineNode, nodeQuery } from './useEngineNode';

export interface RecordChange {
  code: string;
  record: EngineRecord;
  /** the record is gone (deleted) */
  deleted?: boolean;
}

export interface RecordActionsOptions {
  node: Pick<EngineNode, 'gnCoding' | 'systemCoding' | 'title'>;
  /** the detail page of this kind of list: /dynamicPage/dynamicDetail or /applyDetail */
  detailPath: string;
  /** after a change, or when the record turned out to be stale (409): reload */
  onChanged: (change: RecordChange) => void;
}

/**
 * After a record changed: its lists and details, and the sidebar badges and system to-do counts that reviews move.
 */
export function refreshAfterChange(queryClient: QueryClient, gnCoding: string): void {
  void queryClient.invalidateQueries({ queryKey: recordsKey(gnCoding) });
  void queryClient.invalidateQueries({ queryKey: [...ENGINE_KEY, 'record', gnCoding] });
  void queryClient.invalidateQueries({ queryKey: MENUS_KEY });
  void queryClient.invalidateQueries({ queryKey: ['systemList'] });
}

/** A 409: someone else changed or decided the record first. */
export const isConflict = (err: unknown): err is ApiError =>
  isApiError(err) && (err.status === Code.CONFLICT || err.code === Code.CONFLICT);

/** What the review dialog names: the node and the record's first text value (its name, as a rule). */
function auditSubject(title: string, record: EngineRecord): string {
  const first = Object.values(record.values).find((v) => typeof v === 'string' && v.trim() !== '');
  return first ? `审核「${title}」：${String(first).slice(0, 60)}` : `审核「${title}」的记录`;
}

/**
 * The actions of a record, shared by the lists and the detail page: 查看 and 编辑 open the detail page, 删除 /
 * 提交 / 撤回 are confirmed and then sent with the record's id and version, 审核 opens the review dialog, 操作日志
 * the log, 指派 the assign dialog. Returns `run(code, record)` and the dialogs to render.
 */
export function useRecordActions({ node, detailPath, onChanged }: RecordActionsOptions) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [auditing, setAuditing] = useState<EngineRecord | null>(null);
  const [logsOf, setLogsOf] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<EngineRecord | null>(null);
  const { gnCoding } = node;

  const changed = useCallback(
    (code: string, record: EngineRecord, deleted = false) => onChanged({ code, record, deleted }),
    [onChanged],
  );

  /** A failed step: 409 → its message (someone else was first); anything else the usual prompt. Then reload. */
  const failedStep = useCallback(
    (err: unknown, reload: () => void) => {
      if (isConflict(err)) void message.warning(err.message || ENGINE_TEXTS.stale);
      else if (isApiError(err)) reportApiError(err);
      reload();
    },
    [message],
  );

  const confirmThen = useCallback(
    (content: string, send: () => Promise<unknown>, done: string, after: () => void, failed: () => void) => {
      modal.confirm({
        title: '提示',
        content,
        okText: '确定',
        cancelText: '取消',
        onOk: async () => {
          try {
            await send();
            void message.success(done);
            after();
          } catch (err) {
            failedStep(err, failed);
          }
        },
      });
    },
    [modal, message, failedStep],
  );

  const run = useCallback(
    (code: string, record: EngineRecord, name?: string) => {
      const step = { gnCoding, id: record.id, version: record.version };
      const reload = () => changed(code, record);
      switch (code) {
        case 'detail':
        case 'view':
          void navigate(`${detailPath}?${nodeQuery(node, { id: record.id })}`);
          return;
        case 'edit':
          void navigate(`${detailPath}?${nodeQuery(node, { id: record.id, mode: 'edit' })}`);
          return;
        case 'delete':
          confirmThen(
            ENGINE_TEXTS.confirmDelete,
            () => deleteRecord({ gnCoding, id: record.id }),
            ENGINE_TEXTS.deleted,
            () => changed(code, record, true),
            reload,
          );
          return;
        case 'submit':
          confirmThen(ENGINE_TEXTS.confirmSubmit, () => submitRecord(step), ENGINE_TEXTS.submitted, reload, reload);
          return;
        case 'revoke':
          confirmThen(ENGINE_TEXTS.confirmRevoke, () => revokeRecord(step), ENGINE_TEXTS.done, reload, reload);
          return;
        case 'audit':
          setAuditing(record);
          return;
        case 'logs':
          setLogsOf(record.id);
          return;
        case 'assign':
          setAssigning(record);
          return;
        default:
          void message.info(`「${name ?? code}」不在此页面办理`);
      }
    },
    [gnCoding, node, detailPath, navigate, confirmThen, changed, message],
  );

  const onAuditFailed = useCallback(
    (record: EngineRecord) => (err: unknown) => {
      if (isConflict(err)) {
        // someone else decided first: say so, close, and show the record as it is now
        void message.warning(err.message || ENGINE_TEXTS.stale);
        setAuditing(null);
        changed('audit', record);
        return;
      }
      if (isApiError(err)) reportApiError(err);
      throw err;
    },
    [message, changed],
  );

  const decide = useCallback(
    async (pass: boolean, suggestion: string) => {
      const record = auditing;
      if (!record) return;
      try {
        await auditRecord({
          gnCoding,
          id: record.id,
          version: record.version,
          pass,
          ...(suggestion ? { suggestion } : {}),
        });
      } catch (err) {
        onAuditFailed(record)(err);
        return;
      }
      void message.success(ENGINE_TEXTS.done);
      setAuditing(null);
      changed('audit', record);
    },
    [auditing, gnCoding, message, changed, onAuditFailed],
  );

  const dialogs: ReactNode = (
    <>
      <AuditDialog
        open={Boolean(auditing)}
        subject={auditing ? auditSubject(node.title, auditing) : undefined}
        onClose={() => setAuditing(null)}
        onDecide={decide}
      />
      <RecordLogDialog gnCoding={gnCoding} recordId={logsOf} onClose={() => setLogsOf(null)} />
      <AssignRecordDialog
        gnCoding={gnCoding}
        record={assigning}
        onClose={() => setAssigning(null)}
        onAssigned={(record) => {
          setAssigning(null);
          changed('assign', record);
        }}
      />
    </>
  );

  return { run, dialogs };
}

function AssignRecordDialog({
  gnCoding,
  record,
  onClose,
  onAssigned,
}: {
  gnCoding: string;
  record: EngineRecord | null;
  onClose: () => void;
  onAssigned: (record: EngineRecord) => void;
}) {
  const { message } = App.useApp();
  const people = useQuery({ ...assignableListQuery(gnCoding, record?.id ?? ''), enabled: Boolean(record) });
  const list = useMemo<AssignPerson[]>(
    () => (people.data ?? []).map((p) => ({ id: p.id, userName: p.userName, enterpriseName: p.orgName ?? null })),
    [people.data],
  );
  const assign = useMutation({
    mutationFn: (userId: string) =>
      assignRecord({ gnCoding, id: record?.id ?? '', version: record?.version ?? 0, userId }),
    onSuccess: () => {
      void message.success(ENGINE_TEXTS.done);
      if (record) onAssigned(record);
    },
    onError: (err) => {
      if (isConflict(err)) {
        void message.warning(err.message || ENGINE_TEXTS.stale);
        if (record) onAssigned(record);
      } else if (isApiError(err)) reportApiError(err);
    },
  });
  return (
    <AssignDialog
      open={Boolean(record)}
      people={list}
      loading={people.isFetching}
      confirmLoading={assign.isPending}
      onClose={onClose}
      onConfirm={(ids) => ids[0] && assign.mutate(ids[0])}
    />
  );
}
