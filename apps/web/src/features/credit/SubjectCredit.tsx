import { CloudDownloadOutlined, DownloadOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { CREDIT_RECORD_STATUS_LABELS, type CreditRecordStatus, scoreText } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Row, Select, Skeleton, Space } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { LoadFailure } from '../../components/admin';
import { type LeftNode, LeftTree } from '../../engine/list/LeftTree';
import {
  autoRetrieve,
  CREDIT_KEY,
  type CreditRecord,
  type CreditRetrieveResult,
  type CreditTree,
  exportCredit,
  infoQuery,
  leftTreeQuery,
  type RecordListFilters,
  recordListQuery,
  type SubjectRef,
} from './api';
import { DescriptionModal, RetrieveResultModal, useRecordDialogs } from './RecordDialogs';
import { RecordFormDialog } from './RecordFormDialog';
import { RecordsTable } from './RecordsTable';
import { GradeCard } from './shared';

/** The left tree (screen 20) as the engine's LeftTree draws it: groups and items, badges and signed scores. */
export function treeNodes(tree: CreditTree | undefined): LeftNode[] {
  return (tree?.children ?? []).map((g) => ({
    primaryKey: g.primaryKey,
    xxGrouping: g.nodeName,
    badge: g.badge,
    score: g.children.length && tree?.badgeOf === 'records' ? scoreText(g.score) : null,
    children: g.children.map((l) => ({
      primaryKey: l.primaryKey,
      xxGrouping: l.nodeName,
      badge: l.badge,
      score: scoreText(l.score),
    })),
  }));
}

/** A tree node's filter: an item (standard id) or a group (conduct and grouping). */
export function treeFilter(tree: CreditTree | undefined, key: string | null): Partial<RecordListFilters> {
  if (!key || !tree) return {};
  const group = tree.children.find((g) => g.primaryKey === key);
  if (group) return { conduct: group.conduct, xxGrouping: group.xxGrouping };
  return { standardId: key };
}

const STATUS_OPTIONS = (Object.keys(CREDIT_RECORD_STATUS_LABELS) as CreditRecordStatus[]).map((s) => ({
  value: s,
  label: CREDIT_RECORD_STATUS_LABELS[s],
}));

/**
 * One subject's credit: the left tree of its records by standard item (badges: records, scores: what counts), its grade
 * card, and its records with the buttons the server allows. `side`: the enterprise's own page (declare, edit, submit,
 * withdraw, auto-retrieve); otherwise a reviewer's view (audit, revoke).
 */
export function SubjectCredit({
  subject,
  side,
  onChange,
  toolbarExtra,
}: {
  subject: SubjectRef;
  side: boolean;
  onChange?: (r: CreditRecord) => void;
  toolbarExtra?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const [status, setStatus] = useState<CreditRecordStatus | undefined>();
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 10 });
  const [editing, setEditing] = useState<{ record: CreditRecord | null } | null>(null);
  const dialogs = useRecordDialogs(() => refresh());
  const [retrieved, setRetrieved] = useState<CreditRetrieveResult | null>(null);
  const [describe, setDescribe] = useState(false);

  const info = useQuery(infoQuery(subject));
  const tree = useQuery(leftTreeQuery(subject));
  const filters: RecordListFilters = { ...subject, ...treeFilter(tree.data, selected), status, ...paging };
  const list = useQuery(recordListQuery(filters));
  const nodes = useMemo(() => treeNodes(tree.data), [tree.data]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: CREDIT_KEY });
  const retrieve = useMutation({
    mutationFn: () => autoRetrieve(subject),
    onSuccess: (r) => {
      setRetrieved(r);
      refresh();
    },
  });
  const exporting = useMutation({
    mutationFn: () =>
      exportCredit({ type: 'records', subjectKind: subject.subjectKind, subjectId: subject.subjectId, status }),
  });

  if (info.isError && !info.data) return <LoadFailure error={info.error} what="信用信息" />;

  return (
    <Row gutter={16} wrap={false} data-testid="subject-credit">
      <Col flex="280px" style={{ minWidth: 0 }}>
        <LeftTree
          nodes={nodes}
          header={tree.data ? { nodeName: tree.data.nodeName, score: tree.data.score } : null}
          selectedKey={selected}
          loading={tree.isPending}
          onSelect={(n) => {
            const key = String(n.primaryKey);
            setSelected((k) => (k === key ? null : key));
            setPaging((p) => ({ ...p, pageNum: 1 }));
          }}
          testId="credit-tree"
        />
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          {info.data ? <GradeCard info={info.data} /> : <Skeleton active />}
          <Card
            size="small"
            title="信用记录"
            extra={
              <Space wrap>
                <Select<CreditRecordStatus>
                  allowClear
                  placeholder="全部状态"
                  style={{ width: 120 }}
                  value={status}
                  options={STATUS_OPTIONS}
                  onChange={(v) => {
                    setStatus(v);
                    setPaging((p) => ({ ...p, pageNum: 1 }));
                  }}
                  data-testid="records-status"
                />
                {side ? (
                  <>
                    <Button
                      type="primary"
                      icon={<PlusOutlined />}
                      onClick={() => setEditing({ record: null })}
                      disabled={!tree.data}
                      data-testid="record-add"
                    >
                      申报信用记录
                    </Button>
                    <Button
                      icon={<CloudDownloadOutlined />}
                      loading={retrieve.isPending}
                      onClick={() => retrieve.mutate()}
                      data-testid="record-retrieve"
                    >
                      自动获取
                    </Button>
                  </>
                ) : null}
                <Button icon={<QuestionCircleOutlined />} onClick={() => setDescribe(true)} data-testid="record-rules">
                  计分说明
                </Button>
                <Button
                  icon={<DownloadOutlined />}
                  loading={exporting.isPending}
                  onClick={() => exporting.mutate()}
                  data-testid="records-export"
                >
                  导出
                </Button>
                {toolbarExtra}
              </Space>
            }
          >
            {selected ? (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 12 }}
                title={`仅显示：${nodes.flatMap((g) => [g, ...(g.children ?? [])]).find((n) => String(n.primaryKey) === selected)?.xxGrouping ?? ''}`}
                action={
                  <Button size="small" type="link" onClick={() => setSelected(null)} data-testid="tree-clear">
                    显示全部
                  </Button>
                }
              />
            ) : null}
            <RecordsTable
              view={{
                records: list.data?.records ?? [],
                total: list.data?.total ?? 0,
                loading: list.isFetching,
                filters: paging,
                setFilters: (f) => setPaging(f),
              }}
              h={{
                onDetail: dialogs.open.detail,
                onEdit: side ? (r) => setEditing({ record: r }) : undefined,
                onAudit: side ? undefined : dialogs.open.audit,
                onRevoke: side ? undefined : dialogs.open.revoke,
                onChange: side ? onChange : undefined,
                onChanged: refresh,
              }}
              sideOf={side}
              testId="records-table"
              empty={
                list.isError ? (
                  <Alert type="error" showIcon title="信用记录加载失败" description={list.error.message} />
                ) : side ? (
                  '暂无信用记录：点击「申报信用记录」申报，或「自动获取」平台已公开的认定结果'
                ) : (
                  '暂无信用记录'
                )
              }
            />
          </Card>
        </Space>
      </Col>
      {side && editing ? (
        <RecordFormDialog
          open
          subject={subject}
          subjectName={info.data?.subject.name ?? ''}
          record={editing.record}
          tree={tree.data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      {dialogs.dialogs}
      <RetrieveResultModal result={retrieved} onClose={() => setRetrieved(null)} />
      <DescriptionModal open={describe} onClose={() => setDescribe(false)} />
    </Row>
  );
}
