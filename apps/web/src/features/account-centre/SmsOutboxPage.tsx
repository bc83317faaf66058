import { MessageOutlined } from '@ant-design/icons';
import { formatIn, SmsMsg, type SmsOutboxItem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Input, Result, Table, Typography } from 'antd';
import { useState } from 'react';
import { smsOutboxQuery } from '../../api/accountCentre';
import { isApiError } from '../../api/request';

/**
 * /smsOutbox: the developers' outbox — the SMS messages the platform would have sent, while no SMS provider is
 * configured (development and demo only; the server answers 404 in production or with a provider).
 */
export default function SmsOutboxPage() {
  const [phone, setPhone] = useState('');
  const q = useQuery(smsOutboxQuery(phone));
  const unavailable = q.isError && isApiError(q.error) && q.error.status === 404;
  return (
    <div style={{ maxWidth: 1080, margin: '24px auto', padding: '0 16px' }}>
      <Card
        title={
          <span>
            <MessageOutlined /> 短信发件箱
          </span>
        }
        data-testid="sms-outbox"
      >
        {unavailable ? (
          <Result
            status="warning"
            title="生产环境不可用"
            subTitle={SmsMsg.OUTBOX_UNAVAILABLE}
            data-testid="sms-outbox-unavailable"
          />
        ) : (
          <>
            <Alert
              type="warning"
              showIcon
              title={SmsMsg.OUTBOX_NOTICE}
              style={{ marginBottom: 16 }}
              data-testid="sms-outbox-notice"
            />
            <Input.Search
              allowClear
              placeholder="按手机号筛选"
              maxLength={11}
              style={{ width: 260, marginBottom: 16 }}
              onSearch={(v) => setPhone(v.trim())}
              data-testid="sms-outbox-phone"
            />
            {q.isError ? <Alert type="error" showIcon title={q.error.message} style={{ marginBottom: 16 }} /> : null}
            <Table<SmsOutboxItem>
              size="small"
              rowKey="id"
              loading={q.isPending}
              dataSource={q.data ?? []}
              pagination={false}
              locale={{ emptyText: '暂无短信' }}
              columns={[
                {
                  title: '时间',
                  dataIndex: 'createdAt',
                  key: 'at',
                  width: 170,
                  render: (v: string) => formatIn(v, 'YYYY-MM-DD HH:mm:ss'),
                },
                { title: '手机号', dataIndex: 'phone', key: 'phone', width: 130 },
                {
                  title: '验证码',
                  key: 'code',
                  width: 100,
                  render: (_v, r) => (
                    <Typography.Text strong copyable>
                      {r.params.code ?? '—'}
                    </Typography.Text>
                  ),
                },
                { title: '短信内容', dataIndex: 'text', key: 'text' },
                { title: '模板', dataIndex: 'template', key: 'template', width: 150 },
              ]}
              data-testid="sms-outbox-table"
            />
          </>
        )}
      </Card>
    </div>
  );
}
