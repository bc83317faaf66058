import { Button, Card, Result } from 'antd';
import { useNavigate } from 'react-router';
import { ENGINE_TEXTS } from '../../engine/model';
import { JUDGE_PATH } from '../../lib/paths';

/** A list or record page opened without its node (no gnCoding or systemCoding in the URL): the way back. */
export function NoNode() {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="warning"
        title={ENGINE_TEXTS.noNode}
        extra={
          <Button type="primary" onClick={() => navigate(JUDGE_PATH)}>
            返回业务系统
          </Button>
        }
      />
    </Card>
  );
}
