import { UserOutlined, WechatOutlined } from '@ant-design/icons';
import type { WechatBinding } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Popconfirm, Table, Typography } from 'antd';
import { useState } from 'react';
import { loginModeQuery, WECHAT_LIST_KEY, wechatListQuery, wechatRemove } from '../../api/wechat';
import { formatDateTime } from '../../lib/format';
import { WechatQrDialog } from './WechatQrDialog';

/** 用户中心 › 微信绑定: the caller's bound WeChat, bind by QR, unbind with confirmation. */
export function WechatBindings() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const mode = useQuery(loginModeQuery);
  const list = useQuery(wechatListQuery);
  const [open, setOpen] = useState(false);
  const configured = mode.data?.methods.includes('wechat') ?? false;
  const rows = list.data ?? [];

  const remove = async (b: WechatBinding) => {
    await wechatRemove(b.id);
    void message.success('已解除绑定');
    await qc.invalidateQueries({ queryKey: WECHAT_LIST_KEY });
  };

  return (
    <Card
      title={
        <span>
          <WechatOutlined style={{ color: '#07c160', marginInlineEnd: 8 }} />
          微信绑定
        </span>
      }
      data-testid="ucenter-wechat"
      extra={
        configured && rows.length === 0 ? (
          <Button type="primary" onClick={() => setOpen(true)} data-testid="wechat-bind">
            绑定微信
          </Button>
        ) : null
      }
    >
      {!configured && mode.isSuccess ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: rows.length ? 12 : 0 }} data-testid="wechat-off">
          微信登录未配置，暂不能绑定微信。
        </Typography.Paragraph>
      ) : null}
      {configured || rows.length ? (
        <Table<WechatBinding>
          size="small"
          rowKey="id"
          pagination={false}
          loading={list.isPending}
          dataSource={rows}
          locale={{ emptyText: '尚未绑定微信，绑定后可使用微信扫码登录' }}
          data-testid="wechat-table"
          columns={[
            {
              title: '微信',
              key: 'nickname',
              render: (_v, b) => (
                <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                  <Avatar size="small" src={b.headimgurl || undefined} icon={<UserOutlined />} />
                  <span data-testid="wechat-nickname">{b.nickname || '微信用户'}</span>
                </span>
              ),
            },
            { title: 'OpenID', dataIndex: 'openid', key: 'openid', render: (v: string) => <code>{v}</code> },
            {
              title: '绑定时间',
              dataIndex: 'boundAt',
              key: 'boundAt',
              width: 180,
              render: (v: string) => formatDateTime(v),
            },
            {
              title: '操作',
              key: 'op',
              width: 100,
              render: (_v, b) => (
                <Popconfirm
                  title="确定解除该微信的绑定？"
                  description="解除后不能再用该微信扫码登录。"
                  okText="解除"
                  cancelText="取消"
                  onConfirm={() => remove(b)}
                >
                  <Button type="link" danger size="small" style={{ padding: 0 }} data-testid="wechat-unbind">
                    解除绑定
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      ) : null}
      <WechatQrDialog
        open={open}
        purpose="bind"
        onClose={() => setOpen(false)}
        onDone={() => {
          setOpen(false);
          void message.success('微信绑定成功');
          void qc.invalidateQueries({ queryKey: WECHAT_LIST_KEY });
        }}
      />
    </Card>
  );
}
