import { NODE_PROPERTIES } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { mainMenusQuery } from '../../api/shell';
import { findBy } from './menuTree';
import { useSystemCoding } from './session';

/**
 * Shown inside the shell (header and sidebar stay) when a node's page belongs to a business area that this release
 * does not include yet: it says so plainly, names the node, and offers the way back — never a fake page.
 */
export default function PendingPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const chosen = useSystemCoding();
  const systemCoding = params.get('systemCoding') ?? chosen;
  const gnCoding = params.get('gnCoding');
  const menus = useQuery({ ...mainMenusQuery(systemCoding ?? ''), enabled: Boolean(systemCoding) });
  const node = gnCoding && menus.data ? findBy(menus.data, (m) => m.gnCoding === gnCoding) : null;
  const kind = NODE_PROPERTIES.find(
    (p) => pathname.startsWith(p.path) || ('adminPath' in p && pathname === p.adminPath),
  );
  return (
    <Card data-testid="pending-page">
      <Result
        status="info"
        title="该功能页面尚未开放"
        subTitle={
          <Space direction="vertical" size={4}>
            <Typography.Text type="secondary">
              {node ? `「${node.title}」` : '该节点'}
              {kind ? `（${kind.label}）` : ''}的业务页面将在后续版本中提供，当前版本暂不能办理。
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              页面地址：{pathname}
              {gnCoding ? `，节点编码：${gnCoding}` : ''}
            </Typography.Text>
          </Space>
        }
        extra={
          <Space>
            <Button type="primary" onClick={() => navigate('/judge')}>
              返回业务系统
            </Button>
            <Button onClick={() => navigate('/system/pageConfig')}>返回首页</Button>
          </Space>
        }
      />
    </Card>
  );
}
