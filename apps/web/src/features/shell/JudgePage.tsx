import { AppstoreOutlined, LoadingOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import type { SystemItem } from '@ks/contracts';
import { DEFAULT_HOME_PATH, routeForNode } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { theme as antdTheme, Badge, Button, Card, Col, Empty, Row, Skeleton, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { systemListQuery } from '../../api/platform';
import { mainMenusQuery } from '../../api/shell';
import { pressOnKey, TileIcon } from '../../components/tile';
import { firstLeaf } from '../../lib/menuTree';
import { chooseSystem, setGnCoding, useCurrentUser, useSystemCoding } from '../../lib/sessionHooks';
import { NewSystemDialog } from './NewSystemDialog';

interface SystemCardProps {
  item: SystemItem;
  current: boolean;
  entering: boolean;
  disabled: boolean;
  onEnter(): void;
}

function SystemCard({ item, current, entering, disabled, onEnter }: SystemCardProps) {
  const { token } = antdTheme.useToken();
  const onKeyDown = pressOnKey(() => {
    if (!disabled) onEnter();
  });
  return (
    <Card
      hoverable={!disabled}
      role="button"
      tabIndex={0}
      aria-busy={entering}
      aria-disabled={disabled}
      aria-label={`进入${item.systemName}`}
      data-testid={`judge-system-${item.systemCoding}`}
      data-current={current ? 'true' : 'false'}
      onClick={disabled ? undefined : onEnter}
      onKeyDown={onKeyDown}
      style={{
        height: '100%',
        cursor: disabled ? 'progress' : 'pointer',
        borderColor: current ? token.colorPrimary : undefined,
        boxShadow: current ? `0 0 0 1px ${token.colorPrimary}` : undefined,
      }}
    >
      <div style={{ display: 'flex', gap: 14, alignItems: 'flex-start' }}>
        <TileIcon background={token.colorPrimary}>{entering ? <LoadingOutlined /> : <AppstoreOutlined />}</TileIcon>
        <div style={{ minWidth: 0, flex: 1 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <span
              data-testid="judge-system-name"
              style={{
                fontSize: 16,
                fontWeight: 600,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                color: token.colorTextHeading,
              }}
            >
              {item.systemName}
            </span>
            {current ? (
              <Tag color="processing" style={{ marginInlineEnd: 0 }}>
                当前系统
              </Tag>
            ) : null}
          </div>
          <div style={{ marginTop: 4, color: token.colorTextSecondary }}>
            {item.title}
            <span style={{ marginInlineStart: 8, fontFamily: 'monospace', fontSize: 12 }}>{item.systemCoding}</span>
          </div>
          <div
            style={{
              marginTop: 10,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              color: token.colorTextSecondary,
            }}
          >
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
              待办
              <Badge
                data-testid="judge-system-todo"
                count={item.todoCount}
                overflowCount={99}
                showZero
                color={item.todoCount > 0 ? token.colorError : token.colorTextQuaternary}
              />
            </span>
            <RightOutlined style={{ fontSize: 12 }} />
          </div>
        </div>
      </div>
    </Card>
  );
}

/**
 * /judge, choosing a system (spec §2): the business systems the user may enter. Entering one stores it in the
 * session, loads its menus and opens the page of its first visible leaf (else /system/pageConfig). Developers may
 * create a system here (screen 9).
 */
export default function JudgePage() {
  const systems = useQuery(systemListQuery);
  const current = useSystemCoding();
  const { isAdmin, isDeveloper } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [entering, setEntering] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const enter = async (item: SystemItem) => {
    if (entering) return;
    setEntering(item.systemCoding);
    try {
      const menus = await queryClient.fetchQuery(mainMenusQuery(item.systemCoding));
      chooseSystem(item.systemCoding);
      const leaf = firstLeaf(menus);
      if (leaf) setGnCoding(leaf.gnCoding);
      void navigate(leaf ? routeForNode(leaf, item.systemCoding, isAdmin) : DEFAULT_HOME_PATH);
    } catch {
      // the request client has shown why; the user stays here
    } finally {
      setEntering(null);
    }
  };

  let body: ReactNode;
  if (systems.isPending) {
    body = <Skeleton active paragraph={{ rows: 4 }} data-testid="judge-loading" />;
  } else if (systems.isError) {
    body = (
      <Empty description="业务系统加载失败" image={Empty.PRESENTED_IMAGE_SIMPLE}>
        <Button type="primary" loading={systems.isFetching} onClick={() => void systems.refetch()}>
          重新加载
        </Button>
      </Empty>
    );
  } else if (systems.data.length === 0) {
    body = (
      <Empty
        data-testid="judge-empty"
        description={isDeveloper ? '暂无数据，可点击右上角“新建系统”创建' : '暂无数据'}
      />
    );
  } else {
    body = (
      <Row gutter={[16, 16]} data-testid="judge-systems">
        {systems.data.map((item) => (
          <Col key={item.systemCoding} xs={24} sm={12} lg={8} xxl={6}>
            <SystemCard
              item={item}
              current={current === item.systemCoding}
              entering={entering === item.systemCoding}
              disabled={entering !== null}
              onEnter={() => void enter(item)}
            />
          </Col>
        ))}
      </Row>
    );
  }

  return (
    <div style={{ maxWidth: 1280, margin: '0 auto' }}>
      <Card
        title="选择业务系统"
        extra={
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {systems.data?.length ? <span style={{ color: '#8a93a6' }}>共 {systems.data.length} 个</span> : null}
            {isDeveloper ? (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setCreating(true)}
                data-testid="judge-new-system"
              >
                新建系统
              </Button>
            ) : null}
          </span>
        }
      >
        {body}
      </Card>
      {isDeveloper ? <NewSystemDialog open={creating} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
