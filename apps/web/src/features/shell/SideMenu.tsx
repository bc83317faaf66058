import {
  ApartmentOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  PlusOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { MenuItem } from '@ks/contracts';
import { routeForNode } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  theme as antdTheme,
  Badge,
  Button,
  ConfigProvider,
  Empty,
  Layout,
  Menu,
  type MenuProps,
  Skeleton,
  Tag,
  Tooltip,
} from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { mainMenusQuery } from '../../api/shell';
import { iconElement } from '../../components/icons';
import { defaultActive, findBy, matchRoute, pathTo } from '../../lib/menuTree';
import { menuSetUpHref } from '../../lib/paths';
import { getGnCoding, setGnCoding, useCurrentUser } from '../../lib/sessionHooks';
import { NewSystemDialog } from './NewSystemDialog';
import { asideWidthOf, customised, useShellTheme } from './theme';

export const COLLAPSED_WIDTH = 64;
const HEADER_HEIGHT = 56;

type ItemType = NonNullable<MenuProps['items']>[number];

function ItemLabel({ node }: { node: MenuItem }) {
  return (
    <span
      data-testid={`side-item-${node.gnCoding}`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, width: '100%', minWidth: 0 }}
    >
      <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>{node.title}</span>
      {node.score != null ? (
        // compact: a nested item has about 100 px for its title and score
        <Tag
          color="gold"
          data-testid={`side-score-${node.gnCoding}`}
          style={{ marginInlineEnd: 0, paddingInline: 4, fontSize: 12, lineHeight: '18px', flex: 'none' }}
        >
          {node.score}分
        </Tag>
      ) : null}
      {node.badge > 0 ? (
        <Badge count={node.badge} overflowCount={99} size="small" data-testid={`side-badge-${node.gnCoding}`} />
      ) : null}
    </span>
  );
}

function toItem(node: MenuItem): ItemType {
  return node.children?.length
    ? {
        key: node.id,
        icon: iconElement(node.icon),
        label: <ItemLabel node={node} />,
        disabled: node.disabled,
        children: toItems(node.children),
      }
    : { key: node.id, icon: iconElement(node.icon), label: <ItemLabel node={node} />, disabled: node.disabled };
}

/**
 * Menu items in order; consecutive items of one display group (groupName) sit under that group's heading, so a
 * developer's display groups show in the sidebar as they are configured.
 */
export function toItems(nodes: readonly MenuItem[]): ItemType[] {
  const out: ItemType[] = [];
  for (const node of nodes) {
    const item = toItem(node);
    const group = node.groupName?.trim();
    const last = out.at(-1) as { type?: string; key?: unknown; children?: ItemType[] } | undefined;
    if (!group) out.push(item);
    else if (last?.type === 'group' && last.key === `group:${group}:${out.length - 1}`) last.children?.push(item);
    else
      out.push({
        type: 'group',
        key: `group:${group}:${out.length}`,
        label: <span data-testid={`side-group-${group}`}>{group}</span>,
        children: [item],
      });
  }
  return out;
}

/** Drops undefined entries, so that an unset colour leaves antd's own token in place. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The chosen system's sidebar (spec §2, §4, §6; screen 20): the menus the user may see (itShows 是 only) as an
 * inline tree with icons, badges and scores; the first menu's first child is active on load, the route's node
 * whenever the current route belongs to one; a click on a leaf opens the page of its node property. Collapsible by
 * everyone; developers also get 系统设置, 节点设置 and 新建系统.
 */
export function SideMenu({ systemCoding }: { systemCoding: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = antdTheme.useToken();
  const { theme } = useShellTheme();
  const { isAdmin, isDeveloper } = useCurrentUser();
  const [collapsed, setCollapsed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [lastOpened, setLastOpened] = useState<string | null>(() => getGnCoding());
  const menus = useQuery(mainMenusQuery(systemCoding));
  const nodes = menus.data ?? [];

  // highlighted: the node whose page is open, only (the landing page and other pages highlight nothing)
  const active = useMemo(
    () => matchRoute(nodes, location, systemCoding, isAdmin, lastOpened),
    [nodes, location, systemCoding, isAdmin, lastOpened],
  );
  // expanded: the way to the open node, else to the first menu's first child (spec §4)
  const expandTo = active ?? defaultActive(nodes);

  const [openKeys, setOpenKeys] = useState<string[]>([]);
  useEffect(() => {
    if (!expandTo) return;
    const path = pathTo(nodes, expandTo.id) ?? [];
    const toOpen = expandTo.children?.length ? path : path.slice(0, -1);
    if (toOpen.length) setOpenKeys((prev) => [...new Set([...prev, ...toOpen])]);
  }, [expandTo, nodes]);

  const items = useMemo(() => toItems(nodes), [nodes]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const node = findBy(nodes, (n) => n.id === key);
    if (!node || node.disabled || node.children?.length) return;
    setGnCoding(node.gnCoding);
    setLastOpened(node.gnCoding);
    void navigate(routeForNode(node, systemCoding, isAdmin));
  };

  const activeColor = customised(theme, 'asideActiveColor') ?? theme.themeColor;
  const background = customised(theme, 'asideBgColor') ?? token.colorBgContainer;
  const menuTokens = defined({
    itemBg: background,
    subMenuItemBg: background,
    popupBg: background,
    itemColor: customised(theme, 'asideTextColor'),
    itemHoverColor: activeColor,
    itemSelectedColor: activeColor,
    itemSelectedBg: `${activeColor}1f`,
    itemActiveBg: `${activeColor}14`,
  });

  const nodeSettings = menuSetUpHref(systemCoding);

  let body: ReactNode;
  if (menus.isPending) {
    body = (
      <div style={{ padding: 16 }} data-testid="side-loading">
        <Skeleton active title={false} paragraph={{ rows: 6 }} />
      </div>
    );
  } else if (menus.isError) {
    body = (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={collapsed ? null : '菜单加载失败'}>
        <Button size="small" loading={menus.isFetching} onClick={() => void menus.refetch()}>
          重新加载
        </Button>
      </Empty>
    );
  } else if (nodes.length === 0) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        data-testid="side-empty"
        description={
          collapsed ? null : (
            <span>
              暂无菜单
              {isDeveloper ? (
                <span style={{ display: 'block', marginTop: 4, fontSize: 12, color: token.colorTextSecondary }}>
                  可在
                  <Button
                    type="link"
                    size="small"
                    style={{ padding: '0 2px', height: 'auto', fontSize: 12 }}
                    onClick={() => navigate(nodeSettings)}
                    data-testid="side-empty-setup"
                  >
                    节点设置
                  </Button>
                  中为该系统添加菜单
                </span>
              ) : null}
            </span>
          )
        }
        style={{ marginTop: 48 }}
      />
    );
  } else {
    body = (
      <ConfigProvider theme={{ components: { Menu: menuTokens } }}>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={active ? [active.id] : []}
          {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
          onClick={onClick}
          style={{ borderInlineEnd: 'none', background }}
          data-testid="side-menu-tree"
        />
      </ConfigProvider>
    );
  }

  return (
    <Layout.Sider
      width={asideWidthOf(theme)}
      collapsedWidth={COLLAPSED_WIDTH}
      collapsed={collapsed}
      trigger={null}
      theme="light"
      data-testid="side-menu"
      data-collapsed={collapsed ? 'true' : 'false'}
      style={{
        position: 'sticky',
        top: HEADER_HEIGHT,
        height: `calc(100vh - ${HEADER_HEIGHT}px)`,
        overflow: 'auto',
        background,
        borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'space-between',
          gap: 4,
          padding: collapsed ? '8px 0' : '8px 8px 8px 12px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {isDeveloper && !collapsed ? (
          <span style={{ display: 'inline-flex', gap: 2 }} data-testid="side-dev-tools">
            <Tooltip title="系统设置">
              <Button
                type="text"
                size="small"
                icon={<SettingOutlined />}
                aria-label="系统设置"
                onClick={() => navigate('/system/allSystem')}
                data-testid="side-system-settings"
              />
            </Tooltip>
            <Tooltip title="节点设置">
              <Button
                type="text"
                size="small"
                icon={<ApartmentOutlined />}
                aria-label="节点设置"
                onClick={() => navigate(nodeSettings)}
                data-testid="side-node-settings"
              />
            </Tooltip>
            <Tooltip title="新建系统">
              <Button
                type="text"
                size="small"
                icon={<PlusOutlined />}
                aria-label="新建系统"
                onClick={() => setCreating(true)}
                data-testid="side-new-system"
              />
            </Tooltip>
          </span>
        ) : null}
        <Tooltip title={collapsed ? '展开菜单' : '收起菜单'} placement="right">
          <Button
            type="text"
            size="small"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            aria-label={collapsed ? '展开菜单' : '收起菜单'}
            aria-expanded={!collapsed}
            onClick={() => setCollapsed((c) => !c)}
            data-testid="side-collapse"
          />
        </Tooltip>
      </div>
      {body}
      {isDeveloper ? <NewSystemDialog open={creating} onClose={() => setCreating(false)} /> : null}
    </Layout.Sider>
  );
}
