import { DEFAULT_HOME_URL } from '@ks/contracts';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { type PageAccess, whoMayOpen } from '../lib/pageAccess';

/**
 * The 403 page of a configuration or administration page the signed-in user may not open: shown inside the shell
 * (header and sidebar stay) before the page loads anything, so no refusal reaches the prompt dialog.
 */
export function ForbiddenPage({ access }: { access: PageAccess }) {
  const navigate = useNavigate();
  return (
    <Card data-testid="forbidden-page">
      <Result
        status="403"
        title="403"
        subTitle={
          <Space orientation="vertical" size={4}>
            <Typography.Text data-testid="forbidden">无权访问：{access.title}</Typography.Text>
            <Typography.Text type="secondary">{whoMayOpen(access)}，如需使用请联系平台管理员。</Typography.Text>
          </Space>
        }
        extra={
          <Button type="primary" onClick={() => navigate(DEFAULT_HOME_URL)} data-testid="forbidden-home">
            返回首页
          </Button>
        }
      />
    </Card>
  );
}
