import { DesktopOutlined } from '@ant-design/icons';
import type { LoginDevice } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, Tag, Tooltip } from 'antd';
import { loginDevicesQuery } from '../../api/wechat';
import { formatDateTime } from '../../lib/format';

/** 用户中心 › 登录设备: the caller's live sessions (a new sign-in ends the others when single sign-in is on). */
export function LoginDevices() {
  const q = useQuery(loginDevicesQuery);
  return (
    <Card
      title={
        <span>
          <DesktopOutlined style={{ marginInlineEnd: 8 }} />
          登录设备
        </span>
      }
      data-testid="ucenter-devices"
    >
      <Table<LoginDevice>
        size="small"
        rowKey="id"
        pagination={false}
        loading={q.isPending}
        dataSource={q.data ?? []}
        locale={{ emptyText: '暂无数据' }}
        columns={[
          {
            title: '设备',
            key: 'device',
            render: (_v, d) => (
              <Tooltip title={d.userAgent || undefined}>
                <span data-testid="device-name">{d.device}</span>
                {d.current ? (
                  <Tag color="green" style={{ marginInlineStart: 8 }} data-testid="device-current">
                    当前设备
                  </Tag>
                ) : null}
              </Tooltip>
            ),
          },
          { title: '登录方式', dataIndex: 'method', key: 'method', width: 130 },
          { title: '登录地址', dataIndex: 'ip', key: 'ip', width: 150, render: (v: string) => v || '—' },
          {
            title: '登录时间',
            dataIndex: 'signedInAt',
            key: 'signedInAt',
            width: 180,
            render: (v: string) => formatDateTime(v),
          },
          {
            title: '最近活动',
            dataIndex: 'lastSeenAt',
            key: 'lastSeenAt',
            width: 180,
            render: (v: string) => formatDateTime(v),
          },
        ]}
      />
    </Card>
  );
}
