import { PlayCircleOutlined } from '@ant-design/icons';
import { EVAL_METHOD_LABELS, EVAL_MSG, type EvalRoom } from '@ks/contracts';
import { Alert, Button, Card, Descriptions, Space } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format';
import { BeginDialog } from '../dialogs';
import { ROLE_LABELS, StatusTag } from '../parts';

/** 开始评标: where the evaluation stands; the host begins it (an extraction's experts and the method). */
export function BeginStep({ room }: { room: EvalRoom }) {
  const [open, setOpen] = useState(false);
  return (
    <Card size="small" title="开始评标" data-testid="eval-step-begin">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'status', label: '评标状态', children: <StatusTag status={room.status} /> },
            { key: 'opening', label: '开标', children: room.openingClosed ? '已结束' : '尚未结束' },
            {
              key: 'extraction',
              label: '专家抽取',
              children: room.extraction ? room.extraction.code : '—',
            },
            {
              key: 'start',
              label: '评标时间',
              children: room.extraction ? formatDateTime(room.extraction.evaluationStartAt) : '—',
            },
            {
              key: 'method',
              label: '评标办法',
              children: room.criteria ? EVAL_METHOD_LABELS[room.criteria.method] : '—',
            },
            { key: 'members', label: '评标委员会', children: `${room.members.length} 人` },
            { key: 'role', label: '我的角色', children: ROLE_LABELS[room.role] },
          ]}
        />
        {room.status === 'none' && !room.openingClosed && <Alert type="info" showIcon title={EVAL_MSG.notClosed} />}
        {room.status === 'none' && room.openingClosed && !room.actions.begin && (
          <Alert type="info" showIcon title="开标已结束，等待招标人或招标代理开始评标" />
        )}
        {room.actions.begin && (
          <Button type="primary" icon={<PlayCircleOutlined />} onClick={() => setOpen(true)} data-testid="eval-begin">
            开始评标
          </Button>
        )}
      </Space>
      <BeginDialog room={room} open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
