import { AppstoreOutlined, RightOutlined } from '@ant-design/icons';
import { DEFAULT_HOME_PATH, type MenuItem, routeForNode, type SystemItem } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Col, Descriptions, Empty, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { systemListQuery } from '../../api/platform';
import { mainMenusQuery } from '../../api/shell';
import { LoadFailure, PageFrame, RefreshButton } from '../../components/admin';
import { firstLeaf } from '../../lib/menuTree';
import { chooseSystem, setGnCoding, useCurrentUser, useSystemCoding } from '../../lib/sessionHooks';
import { PRODUCT_SECTION } from './parts';

/** Menus and pages (leaves) of a visible menu tree. */
export function countMenus(items: readonly MenuItem[]): { menus: number; pages: number } {
  let menus = 0;
  let pages = 0;
  const walk = (list: readonly MenuItem[]) => {
    for (const m of list) {
      menus++;
      if (m.children?.length) walk(m.children);
      else pages++;
    }
  };
  walk(items);
  return { menus, pages };
}

function SystemCard({
  item,
  current,
  entering,
  onEnter,
}: {
  item: SystemItem;
  current: boolean;
  entering: boolean;
  onEnter: () => void;
}) {
  const menus = useQuery(mainMenusQuery(item.systemCoding));
  const counts = menus.data ? countMenus(menus.data) : null;
  const top = (menus.data ?? []).slice(0, 6).map((m) => m.title);
  return (
    <Card
      data-testid={`platform-system-${item.systemCoding}`}
      title={
        <Space>
          <AppstoreOutlined style={{ color: '#1362fc' }} />
          <span data-testid="platform-system-name">{item.systemName}</span>
          {current ? <Tag color="blue">当前系统</Tag> : null}
        </Space>
      }
      extra={
        <Button type="link" loading={entering} onClick={onEnter} data-testid="platform-enter">
          进入系统 <RightOutlined />
        </Button>
      }
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'title', label: '系统简称', children: item.title },
          {
            key: 'code',
            label: '系统编码',
            children: <Typography.Text code>{item.systemCoding}</Typography.Text>,
          },
          {
            key: 'menus',
            label: '功能菜单',
            children: menus.isError
              ? '菜单加载失败'
              : counts
                ? `${counts.menus} 个菜单，${counts.pages} 个功能页面`
                : '加载中…',
          },
          {
            key: 'todo',
            label: '待办事项',
            children: (
              <Badge count={item.todoCount} showZero overflowCount={99} color={item.todoCount ? 'red' : 'gray'} />
            ),
          },
          {
            key: 'top',
            label: '主要功能',
            children: top.length ? (
              <Space size={[4, 4]} wrap>
                {top.map((t) => (
                  <Tag key={t}>{t}</Tag>
                ))}
              </Space>
            ) : (
              '—'
            ),
          },
        ]}
      />
    </Card>
  );
}

/**
 * 系统平台 `/productCenter/systemPlatform` (node property systemPlatform): the platform's business systems from the
 * live system list the shell serves (the systems the caller may enter), each with its name, code, menus and to-dos,
 * and 进入系统 as /judge enters one (its first page).
 */
export default function SystemPlatformPage() {
  const systems = useQuery(systemListQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { isAdmin } = useCurrentUser();
  const current = useSystemCoding();
  const [entering, setEntering] = useState<string | null>(null);

  const enter = async (item: SystemItem) => {
    if (entering) return;
    setEntering(item.systemCoding);
    try {
      const menus = await queryClient.fetchQuery(mainMenusQuery(item.systemCoding));
      chooseSystem(item.systemCoding);
      const leaf = firstLeaf(menus);
      if (leaf) setGnCoding(leaf.gnCoding);
      void navigate(leaf ? routeForNode(leaf, item.systemCoding, isAdmin) : DEFAULT_HOME_PATH);
    } catch (e) {
      void message.error((e as Error).message || '进入系统失败');
    } finally {
      setEntering(null);
    }
  };

  return (
    <PageFrame section={PRODUCT_SECTION} title="系统平台">
      <Card
        title="平台业务系统"
        extra={<RefreshButton onClick={() => void systems.refetch()} query={systems} />}
        data-testid="platform-systems"
      >
        <Typography.Paragraph type="secondary">
          公共资源交易与信用管理平台由以下业务系统组成，列表随系统配置实时更新；点击“进入系统”打开该系统的第一个功能页面。
        </Typography.Paragraph>
        {systems.isPending ? (
          <Skeleton active />
        ) : systems.isError ? (
          <LoadFailure error={systems.error} what="业务系统" />
        ) : systems.data.length === 0 ? (
          <Empty description="暂无数据" />
        ) : (
          <Row gutter={[16, 16]}>
            {systems.data.map((s) => (
              <Col key={s.systemCoding} xs={24} lg={12} xxl={8}>
                <SystemCard
                  item={s}
                  current={current === s.systemCoding}
                  entering={entering === s.systemCoding}
                  onEnter={() => void enter(s)}
                />
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </PageFrame>
  );
}
