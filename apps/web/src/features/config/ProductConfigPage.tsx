import { RightOutlined } from '@ant-design/icons';
import type { ConfigSystem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Descriptions, Row, Skeleton, Statistic, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { configSystemsQuery, noticeJumpsQuery, styleTemplatesQuery } from '../../api/config';
import { platformQuery } from '../../api/platform';
import { LoadError } from '../../components/admin';
import { menuSetUpHref } from '../../lib/paths';
import { CONFIG_PAGES, ConfigLayout } from './shared';

/** Counts of the configuration, from the server's lists (null while loading or failed). */
export function configCounts(systems: ConfigSystem[] | undefined) {
  if (!systems) return null;
  return {
    systems: systems.length,
    enabled: systems.filter((s) => s.enabled).length,
    nodes: systems.reduce((n, s) => n + s.menuCount, 0),
  };
}

/** 产品配置 `/configPage/productConfig`: platform information, configuration counts, and every configuration page. */
export default function ProductConfigPage() {
  const platform = useQuery(platformQuery);
  const systems = useQuery(configSystemsQuery);
  const templates = useQuery(styleTemplatesQuery);
  const jumps = useQuery(noticeJumpsQuery);
  const counts = configCounts(systems.data);

  const stat = (title: string, value: number | undefined, testId: string, loading: boolean) => (
    <Col xs={12} md={8} xl={4}>
      <Card size="small" data-testid={testId}>
        <Statistic title={title} value={value ?? '—'} loading={loading} />
      </Card>
    </Col>
  );

  const columns: TableColumnsType<ConfigSystem> = [
    { title: '系统名称', dataIndex: 'systemName' },
    { title: '简称', dataIndex: 'title', width: 120 },
    { title: '编码', dataIndex: 'gnCoding', width: 140, render: (v: string) => <code>{v}</code> },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 80,
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? '启用' : '停用'}</Tag>,
    },
    { title: '菜单/节点数', dataIndex: 'menuCount', width: 110, align: 'right' },
    {
      title: '操作',
      key: 'ops',
      width: 100,
      render: (_, s) => <Link to={menuSetUpHref(s.gnCoding)}>菜单设置</Link>,
    },
  ];

  return (
    <ConfigLayout title="产品配置">
      <Card title="平台信息" style={{ marginBottom: 16 }} data-testid="platform-info">
        {platform.isError ? (
          <LoadError error={platform.error} what="平台信息" />
        ) : platform.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2, xl: 3 }}
            items={[
              { key: 'name', label: '平台名称', children: platform.data.platformName },
              { key: 'version', label: '版本', children: platform.data.version },
              { key: 'phone', label: '服务电话', children: platform.data.phone },
              { key: 'filing', label: '备案号', children: platform.data.filingsCoding },
              { key: 'describe', label: '平台说明', children: platform.data.describe, span: 2 },
            ]}
          />
        )}
      </Card>
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {stat('业务系统', counts?.systems, 'count-systems', systems.isPending)}
        {stat('启用的系统', counts?.enabled, 'count-enabled', systems.isPending)}
        {stat('菜单/节点', counts?.nodes, 'count-nodes', systems.isPending)}
        {stat('样式模板', templates.data?.length, 'count-templates', templates.isPending)}
        {stat('消息跳转', jumps.data?.length, 'count-jumps', jumps.isPending)}
      </Row>
      <Card title="配置入口" style={{ marginBottom: 16 }}>
        <Row gutter={[16, 16]} data-testid="config-links">
          {CONFIG_PAGES.map((p) => (
            <Col key={p.path} xs={24} md={12} xl={8}>
              <Link to={p.path} data-testid="config-link" style={{ display: 'block' }}>
                <Card size="small" hoverable>
                  <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
                    <div>
                      <Typography.Text strong>{p.title}</Typography.Text>
                      <div>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {p.description}
                        </Typography.Text>
                      </div>
                    </div>
                    <RightOutlined style={{ color: '#9aa3b5' }} />
                  </div>
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      </Card>
      <Card title="业务系统">
        {systems.isError ? (
          <LoadError error={systems.error} what="系统列表" />
        ) : (
          <Table<ConfigSystem>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={systems.data ?? []}
            loading={systems.isFetching}
            locale={{ emptyText: '暂无数据' }}
            pagination={false}
            data-testid="product-systems"
          />
        )}
      </Card>
    </ConfigLayout>
  );
}
