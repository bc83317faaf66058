import { formatIn, type LogHistoryItem } from '@ks/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { logHistoryQuery } from '../../api/accountCentre';
import { messageOf } from './shared';

/** 登录记录: the caller's sign-in attempts, newest first, 10 a page. */
export function LoginHistorySection() {
  const [page, setPage] = useState(1);
  const q = useQuery({ ...logHistoryQuery(page), placeholderData: keepPreviousData });
  return (
    <Card title="登录记录" data-testid="ucenter-log-history">
      {q.isError ? <Alert type="error" showIcon title={messageOf(q.error)} style={{ marginBottom: 16 }} /> : null}
      <Table<LogHistoryItem>
        size="small"
        rowKey={(r) => `${r.at}-${r.ip}-${String(r.success)}`}
        loading={q.isFetching}
        dataSource={q.data?.records ?? []}
        locale={{ emptyText: '暂无登录记录' }}
        pagination={{
          current: page,
          pageSize: 10,
          total: q.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPage,
        }}
        columns={[
          {
            title: '登录时间',
            dataIndex: 'at',
            key: 'at',
            width: 180,
            render: (v: string) => formatIn(v, 'YYYY-MM-DD HH:mm:ss'),
          },
          { title: 'IP 地址', dataIndex: 'ip', key: 'ip', width: 160 },
          { title: '设备', dataIndex: 'device', key: 'device' },
          {
            title: '结果',
            dataIndex: 'success',
            key: 'success',
            width: 100,
            render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? '成功' : '失败'}</Tag>,
          },
        ]}
        data-testid="ucenter-log-table"
      />
    </Card>
  );
}
