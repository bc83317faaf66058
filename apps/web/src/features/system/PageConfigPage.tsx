import {
  AppstoreOutlined,
  CheckCircleFilled,
  NotificationOutlined,
  RightOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { LOGIN_ROLE_LABELS, type LoginRoleType, type SystemItem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Badge, Button, Card, Col, Empty, Row, Skeleton, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { currentUserQuery } from '../../api/auth';
import { systemListQuery } from '../../api/platform';
import { pressOnKey, TileIcon } from '../../components/tile';
import { getSystemCoding, getUserInfo } from '../../lib/session';
import { chooseSystem } from '../../lib/sessionHooks';
import { PRIMARY_COLOR } from '../../lib/theme';
import { useIsAdmin } from './admin';

export function roleLabel(loginRoleType: string | undefined): string {
  return LOGIN_ROLE_LABELS[(loginRoleType ?? 'U') as LoginRoleType] ?? LOGIN_ROLE_LABELS.U;
}

function UserCard() {
  const { data } = useQuery(currentUserQuery);
  const user = data?.userInfo ?? getUserInfo();
  return (
    <Card data-testid="user-card" style={{ marginBottom: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
        <Avatar
          size={64}
          src={user?.photo || undefined}
          icon={<UserOutlined />}
          style={{ background: PRIMARY_COLOR, flex: 'none' }}
        />
        <div style={{ minWidth: 0 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 10, flexWrap: 'wrap' }}>
            <span data-testid="user-card-name" style={{ fontSize: 20, fontWeight: 600, color: '#1f2a44' }}>
              {user?.userName ?? ''}
            </span>
            <Tag color="blue" data-testid="user-card-role" style={{ marginInlineEnd: 0 }}>
              {roleLabel(user?.loginRoleType)}
            </Tag>
          </div>
          {user?.enterpriseName ? (
            <div data-testid="user-card-enterprise" style={{ marginTop: 6, color: '#6b7385' }}>
              {user.enterpriseName}
            </div>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

function SystemCard({ item, selected, onSelect }: { item: SystemItem; selected: boolean; onSelect: () => void }) {
  const onKeyDown = pressOnKey(onSelect);
  return (
    <Card
      hoverable
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      data-testid={`system-card-${item.systemCoding}`}
      data-selected={selected ? 'true' : 'false'}
      onClick={onSelect}
      onKeyDown={onKeyDown}
      style={{
        height: '100%',
        borderColor: selected ? PRIMARY_COLOR : undefined,
        boxShadow: selected ? `0 0 0 1px ${PRIMARY_COLOR}, 0 6px 18px rgba(19, 98, 252, 0.16)` : undefined,
        background: selected ? '#f0f5ff' : undefined,
      }}
    >
      <div style={{ display: 'flex', gap: 14, alignItems: 'flex-start' }}>
        <TileIcon background={`linear-gradient(135deg, ${PRIMARY_COLOR}, #4d8bff)`}>
          <AppstoreOutlined />
        </TileIcon>
        <div style={{ minWidth: 0, flex: 1 }}>
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
            <span
              data-testid="system-name"
              style={{ fontSize: 16, fontWeight: 600, color: '#1f2a44', overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {item.systemName}
            </span>
            {selected ? <CheckCircleFilled style={{ color: PRIMARY_COLOR, fontSize: 18 }} aria-label="已选择" /> : null}
          </div>
          <div style={{ marginTop: 4, color: '#6b7385' }}>{item.title}</div>
          <div style={{ marginTop: 10, display: 'flex', alignItems: 'center', gap: 8, color: '#4a5466' }}>
            待办
            <Badge
              data-testid="system-todo"
              count={item.todoCount}
              overflowCount={99}
              showZero
              color={item.todoCount > 0 ? '#ff4d4f' : '#bfc6d4'}
            />
          </div>
        </div>
      </div>
    </Card>
  );
}

/** Administration entries, shown to administrators only. */
function AdminTools() {
  const navigate = useNavigate();
  return (
    <Card title="平台管理" style={{ marginBottom: 16 }} data-testid="admin-tools">
      <Button
        size="large"
        icon={<NotificationOutlined />}
        onClick={() => navigate('/system/portalNotices')}
        data-testid="portal-notices-entry"
        style={{ display: 'inline-flex', alignItems: 'center' }}
      >
        门户公告管理
        <RightOutlined style={{ fontSize: 12, color: '#8a93a6' }} />
      </Button>
    </Card>
  );
}

/** The signed-in landing page: who is signed in, the business systems they can enter, and admin tools. */
export default function PageConfigPage() {
  const { data, isPending, isError, refetch, isFetching } = useQuery(systemListQuery);
  const [selected, setSelected] = useState<string | null>(() => getSystemCoding());
  const isAdmin = useIsAdmin();

  const select = (item: SystemItem) => {
    // the shell's sidebar follows at once
    chooseSystem(item.systemCoding);
    setSelected(item.systemCoding);
  };

  let body: ReactNode;
  if (isPending) {
    body = <Skeleton active paragraph={{ rows: 4 }} data-testid="systems-loading" />;
  } else if (isError) {
    body = (
      <Empty description="业务系统加载失败" image={Empty.PRESENTED_IMAGE_SIMPLE}>
        <Button type="primary" loading={isFetching} onClick={() => void refetch()}>
          重新加载
        </Button>
      </Empty>
    );
  } else if (data.length === 0) {
    body = <Empty description="暂无数据" data-testid="systems-empty" />;
  } else {
    body = (
      <Row gutter={[16, 16]} data-testid="systems-grid">
        {data.map((item) => (
          <Col key={item.systemCoding} xs={24} sm={12} lg={8} xxl={6}>
            <SystemCard item={item} selected={selected === item.systemCoding} onSelect={() => select(item)} />
          </Col>
        ))}
      </Row>
    );
  }

  return (
    <div style={{ maxWidth: 1280, margin: '0 auto' }}>
      <UserCard />
      {isAdmin ? <AdminTools /> : null}
      <Card
        title="业务系统"
        extra={data && data.length > 0 ? <span style={{ color: '#8a93a6' }}>共 {data.length} 个</span> : null}
      >
        {body}
      </Card>
    </div>
  );
}
