import { EVAL_ANOMALY_LABELS, EVAL_PANELS, type EvalAnomaly, type EvalMember, type EvalRoom } from '@ks/contracts';
import { Card, Col, Descriptions, Empty, Row, Space, Table, Tag, Timeline, Typography } from 'antd';
import { Link } from 'react-router';
import { chairOf, formatSeconds, panelLabel, ROLE_LABELS, StatusTag } from '../parts';
import { TradeProgress } from '../TradeProgress';
import { DeclaredTag } from './SignStep';

const ANOMALY_COLORS: Partial<Record<EvalAnomaly['kind'], string>> = {
  noReason: 'error',
  lateSignin: 'warning',
  reopened: 'orange',
  recused: 'default',
  latePublicity: 'warning',
};

function MembersProgress({ room }: { room: EvalRoom }) {
  return (
    <Table<EvalMember>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={room.members}
      scroll={{ x: 900 }}
      data-testid="eval-overview-members"
      locale={{ emptyText: '评标委员会尚未组建' }}
      columns={[
        {
          title: '评委',
          dataIndex: 'name',
          width: 120,
          render: (v: string, m) => (
            <Space size={4}>
              {v}
              {m.chair && <Tag color="blue">组长</Tag>}
            </Space>
          ),
        },
        { title: '回避声明', key: 'declared', width: 110, render: (_, m) => <DeclaredTag member={m} /> },
        ...EVAL_PANELS.map((p) => ({
          title: panelLabel(p),
          key: p,
          width: 150,
          render: (_: unknown, m: EvalMember) => {
            if (!m.panels.includes(p)) return <Typography.Text type="secondary">—</Typography.Text>;
            if (m.submitted[p]) return <Tag color="success">已提交</Tag>;
            if (m.signins[p]) return <Tag color="processing">已签到，评审中</Tag>;
            return <Tag>未签到</Tag>;
          },
        })),
        {
          title: '评标报告',
          key: 'report',
          width: 110,
          render: (_, m) =>
            m.reportSignedAt ? (
              <Tag color={m.dissent ? 'warning' : 'success'}>{m.dissent ? '不同意' : '已签署'}</Tag>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}

function Anomalies({ room }: { room: EvalRoom }) {
  if (room.anomalies.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="eval-anomalies">
        未发现异常
      </Typography.Text>
    );
  }
  return (
    <ul className="eval-anomalies" data-testid="eval-anomalies">
      {room.anomalies.map((a, i) => (
        <li key={`${a.kind}-${a.at ?? ''}-${a.text}`} data-testid={`eval-anomaly-${i}`}>
          <Tag color={ANOMALY_COLORS[a.kind] ?? 'warning'}>{EVAL_ANOMALY_LABELS[a.kind]}</Tag>
          <span>{a.text}</span>
          {a.at && <span className="eval-event-time"> {formatSeconds(a.at)}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The section's entries of the tamper-evident log, newest first. */
export function EventsCard({ room }: { room: EvalRoom }) {
  return (
    <Card
      size="small"
      title="开评标日志"
      extra={
        <Link to="/bid/ledger" target="_blank" rel="noopener noreferrer">
          校验日志
        </Link>
      }
    >
      <div className="eval-events" data-testid="eval-events">
        {room.events.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
        ) : (
          <Timeline
            reverse
            items={room.events.map((e) => ({
              key: e.seq,
              content: (
                <div data-testid={`eval-event-${e.seq}`}>
                  <div className="eval-event-time">
                    {formatSeconds(e.at)} · {e.actorName}
                  </div>
                  <div>{e.text}</div>
                  <Typography.Text type="secondary" className="eval-event-hash" title={e.hash}>
                    #{e.seq} {e.hash.slice(0, 12)}…
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        )}
      </div>
    </Card>
  );
}

/** 评标概览: where the evaluation stands, each member's progress, anomalies and the log. */
export function OverviewStep({ room }: { room: EvalRoom }) {
  const chair = chairOf(room);
  const active = room.members.filter((m) => !m.recused);
  const due = active.reduce((n, m) => n + m.panels.length, 0);
  const done = active.reduce((n, m) => n + m.panels.filter((p) => m.submitted[p]).length, 0);
  return (
    <Row gutter={12} data-testid="eval-step-overview">
      <Col xs={24} xl={16}>
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Card size="small" title="交易进度">
            <TradeProgress sectionId={room.section.id} />
          </Card>
          <Card size="small" title="评标概览">
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              items={[
                {
                  key: 'status',
                  label: '评标状态',
                  children: <StatusTag status={room.status} testId="eval-overview-status" />,
                },
                { key: 'role', label: '我的角色', children: ROLE_LABELS[room.role] },
                { key: 'chair', label: '组长', children: chair?.name ?? '尚未推选' },
                {
                  key: 'members',
                  label: '评委',
                  children: `${room.members.length} 人（回避 ${room.members.length - active.length} 人）`,
                },
                { key: 'progress', label: '评审提交', children: `${done}/${due}` },
                {
                  key: 'signed',
                  label: '报告签署',
                  children: `${active.filter((m) => m.reportSignedAt).length}/${active.length}`,
                },
              ]}
            />
          </Card>
          <Card size="small" title="评委进度">
            <MembersProgress room={room} />
          </Card>
          <Card size="small" title="异常提示">
            <Anomalies room={room} />
          </Card>
          {room.supervision.length ? (
            <Card size="small" title="监督意见" data-testid="eval-supervision">
              <ul className="eval-anomalies">
                {room.supervision.map((x) => (
                  <li key={x.id} data-testid="eval-supervision-item">
                    <Tag color={x.rectify ? 'error' : 'success'}>{x.verdictLabel}</Tag>
                    {x.anomalyText ? (
                      <Typography.Text type="secondary">关于「{x.anomalyText}」：</Typography.Text>
                    ) : null}
                    <span>{x.opinion}</span>
                    <span className="eval-event-time">
                      {' '}
                      {x.byName} {formatSeconds(x.publishedAt)}
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </Space>
      </Col>
      <Col xs={24} xl={8}>
        <EventsCard room={room} />
      </Col>
    </Row>
  );
}
