import { EVAL_MSG, EVAL_PANELS, type EvalMember, type EvalRoom } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { evalPrincipal, evalVote, setRoom } from '../../../api/evaluation';
import { FormDialog } from '../../../components/admin';
import { ConfirmButton, chairOf, formatSeconds, panelLabel, useRoomAction } from '../parts';
import { DeclaredTag } from './SignStep';

/** Each of a member's panels with a time (sign-in or submission), or 未 for none. */
function PanelTimes({ member, of, none }: { member: EvalMember; of: 'signins' | 'submitted'; none: string }) {
  return (
    <Space orientation="vertical" size={0}>
      {EVAL_PANELS.filter((p) => member.panels.includes(p)).map((p) => (
        <span key={p} style={{ fontSize: 12 }}>
          {panelLabel(p)}：
          {member[of][p] ? (
            formatSeconds(member[of][p])
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {none}
            </Typography.Text>
          )}
        </span>
      ))}
    </Space>
  );
}

const signedIn = (m: EvalMember) => Boolean(m.signins.ZS || m.signins.JS || m.signins.SW);

/**
 * 确定 / 更换组长 (update-principal): the host names a signed-in member the committee's chair, or replaces the chair,
 * with a reason that goes into the log.
 */
function PrincipalDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const chair = chairOf(room);
  const options = room.members
    .filter((m) => !m.recused && signedIn(m) && !m.chair)
    .map((m) => ({ value: m.id, label: `${m.name}（${m.specialty}）` }));
  return (
    <FormDialog<{ memberId: string; reason: string }, EvalRoom>
      open={open}
      title={chair ? '更换评标委员会组长' : '确定评标委员会组长'}
      okText={chair ? '更换组长' : '确定组长'}
      successText={chair ? '组长已更换' : '组长已确定'}
      testId="eval-principal-ok"
      fields={['memberId', 'reason']}
      submit={(v) => evalPrincipal({ sectionId: room.section.id, memberId: v.memberId, reason: v.reason })}
      onClose={onClose}
      onSaved={(next) => {
        setRoom(qc, next);
        onClose();
      }}
      intro={
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={
            chair
              ? `现任组长 ${chair.name}。更换记入开评标日志，已提交的评审结果不受影响。`
              : '评标委员会负责人可由成员推举，也可由招标人确定；确定后即进入评审打分，记入开评标日志。'
          }
        />
      }
    >
      <Form.Item name="memberId" label="组长人选" rules={[{ required: true, message: '请选择已签到的评委' }]}>
        <Select options={options} placeholder="已签到、未回避的评委" data-testid="eval-principal-member" />
      </Form.Item>
      <Form.Item
        name="reason"
        label="理由"
        rules={[
          { required: true, whitespace: true, message: '请填写理由' },
          { min: 4, message: '理由至少 4 个字' },
        ]}
      >
        <Input.TextArea rows={3} maxLength={500} showCount data-testid="eval-principal-reason" />
      </Form.Item>
    </FormDialog>
  );
}

/** 评委信息与组长推选: the committee, and the members' votes for a chair (a majority elects, or the host names one). */
export function CommitteeStep({ room }: { room: EvalRoom }) {
  const chair = chairOf(room);
  const vote = useRoomAction(room.section.id, (id: string) => evalVote(room.section.id, id), '已投票');
  const [naming, setNaming] = useState(false);
  return (
    <Card
      size="small"
      title="评委信息与组长推选"
      data-testid="eval-step-committee"
      extra={
        room.actions.principal ? (
          <Button size="small" onClick={() => setNaming(true)} data-testid="eval-principal">
            {chair ? '更换组长' : '确定组长'}
          </Button>
        ) : null
      }
    >
      <PrincipalDialog room={room} open={naming} onClose={() => setNaming(false)} />
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {chair ? (
          <Alert type="success" showIcon title={`评标委员会组长：${chair.name}`} data-testid="eval-chair" />
        ) : (
          <Alert
            type="info"
            showIcon
            title={room.actions.vote ? '请推选评标委员会组长（得票过半数者当选）' : EVAL_MSG.noChair}
          />
        )}
        <Table<EvalMember>
          rowKey="id"
          size="small"
          bordered
          pagination={false}
          dataSource={room.members}
          scroll={{ x: 1200 }}
          locale={{ emptyText: '评标委员会尚未组建' }}
          data-testid="eval-committee"
          onRow={(m) => ({ 'data-testid': `eval-member-row-${m.id}` }) as object}
          columns={[
            {
              title: '姓名',
              dataIndex: 'name',
              width: 120,
              fixed: 'left',
              render: (v: string, m) => (
                <Space size={4}>
                  {v}
                  {m.chair && <Tag color="blue">组长</Tag>}
                  {room.me?.id === m.id && <Tag>本人</Tag>}
                </Space>
              ),
            },
            { title: '评标专业', dataIndex: 'specialty', width: 140 },
            { title: '工作单位', dataIndex: 'employer', width: 180, ellipsis: true },
            {
              title: '评审组',
              key: 'panels',
              width: 150,
              render: (_, m) => m.panels.map((p) => <Tag key={p}>{panelLabel(p)}</Tag>),
            },
            {
              title: '回避声明',
              key: 'declared',
              width: 120,
              render: (_, m) => (
                <Space orientation="vertical" size={0}>
                  <DeclaredTag member={m} />
                  {m.conflict && (
                    <Typography.Text type="warning" style={{ fontSize: 12 }}>
                      {m.conflict}
                    </Typography.Text>
                  )}
                  {!m.hasAccount && (
                    <Tooltip title={EVAL_MSG.noAccount(m.name)}>
                      <Tag color="error">无平台账号</Tag>
                    </Tooltip>
                  )}
                </Space>
              ),
            },
            {
              title: '签到',
              key: 'signins',
              width: 230,
              render: (_, m) => <PanelTimes member={m} of="signins" none="未签到" />,
            },
            {
              title: '提交',
              key: 'submitted',
              width: 230,
              render: (_, m) => <PanelTimes member={m} of="submitted" none="未提交" />,
            },
            { title: '得票', dataIndex: 'votes', width: 60, align: 'right' },
            ...(room.actions.vote
              ? [
                  {
                    title: '推选',
                    key: 'vote',
                    width: 90,
                    fixed: 'right' as const,
                    render: (_: unknown, m: EvalMember) =>
                      m.recused ? null : (
                        <ConfirmButton
                          type="link"
                          size="small"
                          title={`确定推选 ${m.name} 为评标委员会组长？投票后不能更改。`}
                          onConfirm={() => vote.mutateAsync(m.id)}
                          loading={vote.isPending && vote.variables === m.id}
                          testId={`eval-vote-${m.id}`}
                        >
                          投票
                        </ConfirmButton>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Space>
    </Card>
  );
}
