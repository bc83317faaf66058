import { EVAL_MSG, type EvalMember, type EvalPanel, type EvalRoom } from '@ks/contracts';
import { Alert, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { formatSeconds, panelLabel, panelMembers, points } from '../parts';
import { itemsOf, ScoreGrid } from './ScoreGrid';

type AllScore = EvalRoom['allScores'][number];

/** Each member of the panel: signed in, submitted. */
function Progress({ room, panel }: { room: EvalRoom; panel: EvalPanel }) {
  return (
    <Table<EvalMember>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={panelMembers(room, panel)}
      data-testid={`eval-progress-${panel}`}
      locale={{ emptyText: '该组没有成员' }}
      onRow={(m) => ({ 'data-testid': `eval-progress-${panel}-${m.id}` }) as object}
      columns={[
        {
          title: '专家',
          dataIndex: 'name',
          width: 140,
          render: (v: string, m) => (
            <Space size={4}>
              {v}
              {m.chair && <Tag color="blue">组长</Tag>}
            </Space>
          ),
        },
        {
          title: '签到',
          key: 'signin',
          render: (_, m) =>
            m.recused ? (
              <Tag color="warning">已回避</Tag>
            ) : m.signins[panel] ? (
              formatSeconds(m.signins[panel])
            ) : (
              <Typography.Text type="secondary">未签到</Typography.Text>
            ),
        },
        {
          title: '提交',
          key: 'submitted',
          render: (_, m) =>
            m.submitted[panel] ? (
              <Space size={4}>
                <Tag color="success">已提交</Tag>
                {formatSeconds(m.submitted[panel])}
              </Space>
            ) : (
              <Tag>未提交</Tag>
            ),
        },
      ]}
    />
  );
}

/** Every member's scores of the panel (once the server shows them): one row per member and bid. */
function AllScores({ room, panel }: { room: EvalRoom; panel: EvalPanel }) {
  const items = itemsOf(room, panel);
  const scores = room.allScores.filter((s) => s.panel === panel);
  if (scores.length === 0) return null;
  const byRow = new Map<string, { memberId: string; bidId: string; cells: Map<string, AllScore> }>();
  for (const s of scores) {
    const k = `${s.memberId}|${s.bidId}`;
    const row = byRow.get(k) ?? { memberId: s.memberId, bidId: s.bidId, cells: new Map() };
    row.cells.set(s.itemId, s);
    byRow.set(k, row);
  }
  const memberName = (id: string) => room.members.find((m) => m.id === id)?.name ?? '—';
  const bidName = (id: string) => room.bids.find((b) => b.bidId === id)?.enterpriseName ?? id.slice(0, 8);
  const rows = [...byRow.entries()].map(([key, r]) => ({ key, ...r }));
  const scored = panel !== 'ZS';
  return (
    <Table
      rowKey="key"
      size="small"
      bordered
      pagination={false}
      dataSource={rows}
      scroll={{ x: 300 + items.length * 120 }}
      data-testid={`eval-all-scores-${panel}`}
      columns={[
        { title: '专家', key: 'member', width: 100, fixed: 'left', render: (_, r) => memberName(r.memberId) },
        { title: '投标人', key: 'bid', width: 200, render: (_, r) => bidName(r.bidId) },
        ...items.map((it) => ({
          title: it.name,
          key: it.id,
          width: 120,
          render: (_: unknown, r: (typeof rows)[number]) => {
            const s = r.cells.get(it.id);
            if (!s) return '—';
            const value = scored ? points(s.score) : s.pass ? '合格' : s.pass === false ? '不合格' : '—';
            return (
              <span title={s.reason || undefined}>
                {value}
                {s.reason && <div className="eval-cell-reason">{s.reason}</div>}
              </span>
            );
          },
        })),
        ...(scored
          ? [
              {
                title: '合计',
                key: 'total',
                width: 80,
                align: 'right' as const,
                render: (_: unknown, r: (typeof rows)[number]) =>
                  points([...r.cells.values()].reduce((a, s) => a + (s.score ?? 0), 0)),
              },
            ]
          : []),
      ]}
    />
  );
}

/** Why the caller, a member of the panel, cannot score it now (or null when they can, or are not in it). */
function blockedReason(room: EvalRoom, panel: EvalPanel): string | null {
  const me = room.me;
  if (!me?.panels.includes(panel)) return null;
  if (me.recused) return EVAL_MSG.recused;
  if (!me.declaredAt) return EVAL_MSG.mustDeclare;
  if (!me.signins[panel]) return EVAL_MSG.notSignedIn(panel);
  if (room.status !== 'scoring') return EVAL_MSG.notScoring;
  return null;
}

/**
 * One panel's review: the member's own grid (editable while it is theirs to score, read-only once submitted), each
 * member's progress, and every member's scores once the server shows them.
 */
export function PanelReview({ room, panel }: { room: EvalRoom; panel: EvalPanel }) {
  const me = room.me;
  const items = itemsOf(room, panel);
  const editable = room.actions.score.includes(panel);
  const submittedAt = me?.submitted[panel] ?? null;
  const blocked = editable ? null : blockedReason(room, panel);
  let body: React.ReactNode;
  if (!room.criteria) body = <Empty description="评标办法尚未设置" />;
  else if (panel !== 'ZS' && room.criteria.method === 'lowest')
    body = <Alert type="info" showIcon title={`经评审的最低投标价法不设${panelLabel(panel)}打分`} />;
  else if (items.length === 0) body = <Empty description="该组没有评审因素" />;
  else if (editable || submittedAt)
    body = (
      <ScoreGrid
        // a grid sent back by the chair starts again from what the server holds
        key={`${submittedAt ?? 'open'}-${room.reopens.length}`}
        room={room}
        panel={panel}
        readOnly={!editable}
        submittedAt={submittedAt}
      />
    );
  else if (blocked) body = <Alert type="info" showIcon title={blocked} data-testid={`eval-review-blocked-${panel}`} />;
  else body = null;
  return (
    <Card size="small" title={panelLabel(panel)} data-testid={`eval-review-${panel}`}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {body}
        <Typography.Text strong>评审进度</Typography.Text>
        <Progress room={room} panel={panel} />
        <AllScores room={room} panel={panel} />
      </Space>
    </Card>
  );
}

/** 资格与技术评审 (ZS and JS) / 商务评审 (SW), and the panel views of /bidEvaluationSys/*bidEvaluation. */
export function ReviewStep({ room, panels }: { room: EvalRoom; panels: readonly EvalPanel[] }) {
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {panels.map((p) => (
        <PanelReview key={p} room={room} panel={p} />
      ))}
    </Space>
  );
}
