import { LoginOutlined } from '@ant-design/icons';
import { EVAL_MSG, type EvalMember, type EvalPanel, type EvalRoom } from '@ks/contracts';
import { Alert, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { evalSignIn } from '../../../api/evaluation';
import { formatSeconds, panelLabel, panelMembers, useRoomAction } from '../parts';
import { DeclarationCard } from './Declaration';

/** Whether a member declared, and how. */
export function DeclaredTag({ member }: { member: EvalMember }) {
  if (!member.declaredAt) return <Tag>未声明</Tag>;
  return member.recused ? <Tag color="warning">已回避</Tag> : <Tag color="success">无回避情形</Tag>;
}

/**
 * 资格组 / 技术组 / 商务组签到: the panel's members with their sign-in times; the caller first signs the avoidance
 * declaration, then signs in to the panel.
 */
export function SignStep({ room, panel }: { room: EvalRoom; panel: EvalPanel }) {
  const members = panelMembers(room, panel);
  const me = room.me;
  const signIn = useRoomAction(room.section.id, (p: EvalPanel) => evalSignIn(room.section.id, p), '签到成功');
  const mine = me?.panels.includes(panel) ?? false;
  const canSignIn = room.actions.signIn.includes(panel);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid={`eval-step-sign-${panel}`}>
      {me && <DeclarationCard room={room} />}
      {me && !mine && <Alert type="info" showIcon title={`您不在${panelLabel(panel)}组，无需在此签到`} />}
      {me && mine && !me.recused && (
        <Card size="small" title={`${panelLabel(panel)}组签到`}>
          {me.signins[panel] ? (
            <Typography.Text type="success" data-testid={`eval-signed-${panel}`}>
              您已于 {formatSeconds(me.signins[panel])} 签到
            </Typography.Text>
          ) : canSignIn ? (
            <Button
              type="primary"
              icon={<LoginOutlined />}
              loading={signIn.isPending}
              onClick={() => signIn.mutate(panel)}
              data-testid={`eval-signin-${panel}`}
            >
              签到
            </Button>
          ) : (
            <Typography.Text type="secondary" data-testid={`eval-signin-wait-${panel}`}>
              {me.declaredAt ? '当前不能签到' : EVAL_MSG.mustDeclare}
            </Typography.Text>
          )}
        </Card>
      )}
      <Card size="small" title={`${panelLabel(panel)}组成员`}>
        <Table<EvalMember>
          rowKey="id"
          size="small"
          bordered
          pagination={false}
          dataSource={members}
          locale={{ emptyText: room.status === 'none' ? '评标尚未开始' : '该组没有成员' }}
          data-testid={`eval-sign-table-${panel}`}
          columns={[
            {
              title: '姓名',
              dataIndex: 'name',
              width: 120,
              render: (v: string, m) => (
                <Space size={4}>
                  {v}
                  {m.chair && <Tag color="blue">组长</Tag>}
                </Space>
              ),
            },
            { title: '评标专业', dataIndex: 'specialty', width: 160 },
            { title: '工作单位', dataIndex: 'employer', ellipsis: true },
            { title: '回避声明', key: 'declared', width: 110, render: (_, m) => <DeclaredTag member={m} /> },
            {
              title: '签到时间',
              key: 'signin',
              width: 170,
              render: (_, m) =>
                m.signins[panel] ? (
                  formatSeconds(m.signins[panel])
                ) : (
                  <Typography.Text type="secondary">未签到</Typography.Text>
                ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
