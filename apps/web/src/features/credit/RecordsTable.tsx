import { scoreText } from '@ks/contracts';
import { Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { ActionLink, ConfirmAction, ConfirmDelete, pagination, RowActions } from '../../components/admin';
import { ENGINE_TEXTS } from '../../engine/model';
import { type CreditRecord, deleteRecord, revokeRecord, submitRecord } from './api';
import { ConductTag, StatusTag, signedPoints } from './shared';

/** What a row's buttons open; the list refreshes through `onChanged` after a confirmed change. */
export interface RecordHandlers {
  onDetail: (r: CreditRecord) => void;
  onEdit?: (r: CreditRecord) => void;
  onAudit?: (r: CreditRecord) => void;
  /** a reviewer revokes a passed record (the dialog asks for the reason) */
  onRevoke?: (r: CreditRecord) => void;
  /**
   * 变更: a passed record of the caller's side opens the credit change dialog (features/credit-change). Without it no
   * 变更 button is shown.
   */
  onChange?: (r: CreditRecord) => void;
  onChanged: () => void;
}

const has = (r: CreditRecord, code: string) => r.operations.some((o) => o.code === code && o.show);
const opName = (r: CreditRecord, code: string, fallback: string) =>
  r.operations.find((o) => o.code === code)?.name ?? fallback;
/** The record's side (its enterprise's user) may edit it: then 变更 belongs to it as well. */
const isSide = (r: CreditRecord) =>
  has(r, 'edit') || has(r, 'submit') || (r.status === 'submitted' && has(r, 'revoke'));

/** The 操作 cell: the buttons the server's operations list allows (spec §6), each confirmed where it changes data. */
export function RecordActions({ record: r, h, sideOf }: { record: CreditRecord; h: RecordHandlers; sideOf?: boolean }) {
  const t = `record-${r.id}`;
  return (
    <RowActions wrap>
      <ActionLink onClick={() => h.onDetail(r)} testId={`${t}-detail`}>
        详情
      </ActionLink>
      {has(r, 'edit') && h.onEdit ? (
        <ActionLink onClick={() => h.onEdit?.(r)} testId={`${t}-edit`}>
          修改
        </ActionLink>
      ) : null}
      {has(r, 'submit') ? (
        <ConfirmAction
          title={ENGINE_TEXTS.confirmSubmit}
          run={() => submitRecord(r)}
          successText={ENGINE_TEXTS.submitted}
          onDone={h.onChanged}
          testId={`${t}-submit`}
        >
          提交
        </ConfirmAction>
      ) : null}
      {has(r, 'revoke') && r.status === 'submitted' ? (
        <ConfirmAction
          title={ENGINE_TEXTS.confirmRevoke}
          run={() => revokeRecord(r)}
          successText={ENGINE_TEXTS.done}
          onDone={h.onChanged}
          testId={`${t}-withdraw`}
        >
          {opName(r, 'revoke', '撤回')}
        </ConfirmAction>
      ) : null}
      {has(r, 'audit') && h.onAudit ? (
        <ActionLink onClick={() => h.onAudit?.(r)} testId={`${t}-audit`}>
          审核
        </ActionLink>
      ) : null}
      {has(r, 'revoke') && r.status === 'passed' && h.onRevoke ? (
        <ActionLink danger onClick={() => h.onRevoke?.(r)} testId={`${t}-revoke`}>
          {opName(r, 'revoke', '撤销')}
        </ActionLink>
      ) : null}
      {h.onChange && r.status === 'passed' && (sideOf ?? isSide(r)) ? (
        <ActionLink onClick={() => h.onChange?.(r)} testId={`${t}-change`}>
          变更
        </ActionLink>
      ) : null}
      {has(r, 'delete') ? (
        <ConfirmDelete name={r.title} run={() => deleteRecord(r)} onDone={h.onChanged} testId={`${t}-delete`} />
      ) : null}
    </RowActions>
  );
}

export interface RecordsView {
  records: CreditRecord[];
  total: number;
  loading: boolean;
  filters: { pageNum: number; pageSize: number };
  setFilters: (f: (prev: { pageNum: number; pageSize: number }) => { pageNum: number; pageSize: number }) => void;
}

/** A page of credit records: item, conduct, reason, points, validity, status, source, and the row's buttons. */
export function RecordsTable({
  view,
  h,
  withSubject = false,
  sideOf,
  testId,
  empty,
}: {
  view: RecordsView;
  h: RecordHandlers;
  /** the management list: whose record it is */
  withSubject?: boolean;
  /** the caller is the records' side (the enterprise's own page) */
  sideOf?: boolean;
  testId: string;
  empty?: ReactNode;
}) {
  const columns: TableColumnsType<CreditRecord> = [
    ...(withSubject
      ? [
          {
            title: '信用主体',
            key: 'subject',
            width: 220,
            render: (_: unknown, r: CreditRecord) => (
              <div>
                <div>{r.subjectName}</div>
                {r.subjectKind === 'person' ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {r.enterpriseName}
                  </Typography.Text>
                ) : null}
              </div>
            ),
          },
        ]
      : []),
    {
      title: '信用标准',
      key: 'standard',
      width: 220,
      render: (_, r) => (
        <div>
          <div>{r.standardName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.xxGrouping}
          </Typography.Text>
        </div>
      ),
    },
    { title: '类别', key: 'conduct', width: 96, render: (_, r) => <ConductTag conduct={r.conduct} /> },
    {
      title: '分值',
      key: 'score',
      width: 90,
      align: 'right',
      render: (_, r) => (
        <Tooltip title={r.score > r.highest ? `按最高分 ${scoreText(r.highest)} 计` : undefined}>
          <span style={{ color: r.conduct === 'good' ? '#389e0d' : '#d4380d' }} data-testid="record-points">
            {signedPoints(r.conduct, r.points)}
          </span>
        </Tooltip>
      ),
    },
    {
      title: '有效期',
      key: 'validity',
      width: 200,
      render: (_, r) => (
        <span>
          {r.startTime} 至 {r.endTime}
          {r.counting ? (
            <Typography.Text type="success" style={{ marginLeft: 4, fontSize: 12 }}>
              计分中
            </Typography.Text>
          ) : null}
        </span>
      ),
    },
    {
      title: '状态',
      key: 'status',
      width: 90,
      render: (_, r) => <StatusTag status={r.status} text={r.statusText} />,
    },
    { title: '来源', dataIndex: 'sourceText', key: 'source', width: 90 },
    { title: '事由', dataIndex: 'title', key: 'title', ellipsis: { showTitle: true }, width: 240 },
    {
      title: '操作',
      key: 'ops',
      fixed: 'right',
      width: 220,
      render: (_, r) => <RecordActions record={r} h={h} sideOf={sideOf} />,
    },
  ];
  return (
    <Table<CreditRecord>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={view.records}
      loading={view.loading}
      scroll={{ x: withSubject ? 1480 : 1260 }}
      locale={{ emptyText: empty ?? '暂无数据' }}
      pagination={pagination(view.filters, view.total, view.setFilters)}
      data-testid={testId}
      onRow={(r) => ({ 'data-testid': `row-${r.id}` }) as HTMLAttributes<HTMLElement>}
    />
  );
}
