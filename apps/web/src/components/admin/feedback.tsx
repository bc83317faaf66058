import { DEFAULT_HOME_URL } from '@ks/contracts';
import { Alert, Button, Card, Result, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { isForbidden } from '../../api/request';

/** 403 for a page (or part of one) the signed-in user may not open: 无权访问：{reason}, and the way home. */
export function ForbiddenCard({ reason }: { reason: string }) {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="403"
        title="403"
        subTitle={
          <Typography.Text type="secondary" data-testid="forbidden">
            无权访问：{reason}
          </Typography.Text>
        }
        extra={
          <Button type="primary" onClick={() => navigate(DEFAULT_HOME_URL)}>
            返回首页
          </Button>
        }
      />
    </Card>
  );
}

/** A failed load, with the server's message (the request client has shown it in the prompt as well). */
export function LoadError({ error, what }: { error: Error; what: string }) {
  return <Alert type="error" showIcon title={`${what}加载失败`} description={error.message} data-testid="load-error" />;
}

/** A failed load of a page whose refusal is expected: 403 as the forbidden card, anything else as LoadError. */
export function LoadFailure({ error, what, reason }: { error: Error; what: string; reason?: string }) {
  if (isForbidden(error)) return <ForbiddenCard reason={reason ?? `您没有${what}的权限`} />;
  return <LoadError error={error} what={what} />;
}

/** The alert above a form that lists a save failure's lines (applySaveError's answer); nothing when there are none. */
export function SaveErrorAlert({ lines, testId }: { lines: readonly string[]; testId: string }) {
  if (lines.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid={testId}
      title={lines[0]}
      description={lines.length > 1 ? lines.slice(1).map((l) => <div key={l}>{l}</div>) : undefined}
    />
  );
}
