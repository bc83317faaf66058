import {
  BankOutlined,
  DownOutlined,
  KeyOutlined,
  LogoutOutlined,
  SkinOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, theme as antdTheme, Dropdown, Layout, type MenuProps, Tooltip } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { currentUserQuery, logout } from '../api/auth';
import { DEFAULT_PLATFORM_NAME, platformQuery, systemListQuery } from '../api/platform';
import { headerMenusQuery } from '../api/shell';
import { iconElement } from '../components/icons';
import { PageLoading } from '../components/PageLoading';
import { PasswordAgeCheck } from '../features/account-centre';
import { HeaderServices } from '../features/feedback/HeaderServices';
import { ShellServices } from '../features/help/ShellServices';
import { MessageBell } from '../features/messages';
import { SystemNotices } from '../features/notices/SystemNotices';
import { SideMenu } from '../features/shell/SideMenu';
import { ThemeProvider, useShellTheme } from '../features/shell/theme';
import { startLive } from '../lib/live';
import { deniedPage } from '../lib/pageAccess';
import { offerPasswordChange } from '../lib/passwordChange';
import { JUDGE_PATH, systemOfUrl } from '../lib/paths';
import { clearSession, getUserInfo, setRoles, setUserInfo } from '../lib/session';
import { chooseSystem, useSystemCoding } from '../lib/sessionHooks';
import { ForbiddenPage } from './ForbiddenPage';

export const LOGOUT_TEXT = '退出登录';
export const LOGOUT_CONFIRM = '确定要退出登录吗？';
export const HEADER_HEIGHT = 56;
const HEADER_MENU_PREFIX = 'header:';
/** /judge is where a system is chosen; it shows no sidebar. */

/**
 * Signed-in layout (spec §2, §23): the header (platform name, current system with a way back to /judge, theme
 * settings, the user dropdown with the server's entries and 退出登录), the chosen system's sidebar, the page.
 * Everything inside follows the user's theme.
 */
export default function AppLayout() {
  const { data: platform } = useQuery(platformQuery);
  const platformName = platform?.platformName || DEFAULT_PLATFORM_NAME;
  // Confirms the session with the server; an ended session is handled by the request client (prompt, /login).
  const { data: current } = useQuery(currentUserQuery);

  useEffect(() => {
    document.title = platformName;
  }, [platformName]);

  useEffect(() => {
    if (!current) return;
    setUserInfo(current.userInfo);
    setRoles(current.roles);
  }, [current]);

  return (
    <ThemeProvider>
      <ShellFrame platformName={platformName} />
    </ThemeProvider>
  );
}

function ShellFrame({ platformName }: { platformName: string }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const { token } = antdTheme.useToken();
  const { theme, openSettings } = useShellTheme();
  const { data: current } = useQuery(currentUserQuery);
  const chosen = useSystemCoding();
  // a node's page opened directly (a link, a bookmark, 去办理) names its system: that system's sidebar shows
  const fromUrl = systemOfUrl(pathname, search);
  const systemCoding = fromUrl ?? chosen;
  useEffect(() => {
    if (fromUrl && fromUrl !== chosen) chooseSystem(fromUrl);
  }, [fromUrl, chosen]);
  const { data: systems } = useQuery({ ...systemListQuery, enabled: systemCoding !== null });
  const { data: headerMenus } = useQuery(headerMenusQuery);
  const [leaving, setLeaving] = useState(false);
  // the tab's one live stream (issue 14): to-dos, notices, messages and chat arrive without a reload
  useEffect(() => startLive(), []);

  const user = current?.userInfo ?? getUserInfo();
  // a configuration or administration page the user may not open: the 403 page, before the page asks for anything
  const denied = deniedPage(pathname, user?.loginRoleType);
  const system = systemCoding ? systems?.find((s) => s.systemCoding === systemCoding) : undefined;
  const showSider = systemCoding !== null && pathname !== JUDGE_PATH;
  const dark = theme.theme === 'dark';
  const navText = theme.navTextColor;

  const onLogout = async () => {
    if (leaving) return;
    setLeaving(true);
    try {
      await logout();
    } catch {
      // leave anyway: the token is dropped on this side whatever the server answered
    } finally {
      clearSession();
      queryClient.clear();
      void navigate('/', { replace: true });
    }
  };

  const entries = headerMenus ?? [];
  const items: MenuProps['items'] = [
    ...entries.map((m) => ({
      key: `${HEADER_MENU_PREFIX}${m.key}`,
      icon: iconElement(m.icon),
      label: <span data-testid={`header-menu-${m.key}`}>{m.label}</span>,
    })),
    ...(entries.length ? [{ type: 'divider' as const }] : []),
    {
      key: 'password',
      icon: <KeyOutlined />,
      label: <span data-testid="password-item">修改密码</span>,
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="logout-item">{LOGOUT_TEXT}</span>,
      disabled: leaving,
    },
  ];

  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'password') {
      offerPasswordChange();
      return;
    }
    if (key === 'logout') {
      if (leaving) return;
      modal.confirm({
        title: LOGOUT_TEXT,
        content: LOGOUT_CONFIRM,
        okText: '退出',
        cancelText: '取消',
        okButtonProps: { 'data-testid': 'logout-confirm' } as never,
        cancelButtonProps: { 'data-testid': 'logout-cancel' } as never,
        onOk: () => onLogout(),
      });
      return;
    }
    const entry = entries.find((m) => `${HEADER_MENU_PREFIX}${m.key}` === key);
    if (!entry) return;
    if (entry.path.startsWith('/') && !entry.path.startsWith('//')) void navigate(entry.path);
    else window.open(entry.path, '_blank', 'noopener,noreferrer');
  };

  const headerButton = {
    display: 'inline-flex',
    alignItems: 'center',
    gap: 8,
    height: 40,
    padding: '0 8px',
    border: 'none',
    borderRadius: 6,
    background: 'transparent',
    color: navText,
    cursor: 'pointer',
    fontSize: 14,
  } as const;

  return (
    <Layout style={{ minHeight: '100vh', background: dark ? token.colorBgLayout : '#f3f6fb' }}>
      <Layout.Header
        data-testid="app-header"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 100,
          height: HEADER_HEIGHT,
          lineHeight: `${HEADER_HEIGHT}px`,
          padding: '0 24px',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 16,
          background: theme.navBgColor,
          color: navText,
          boxShadow: '0 2px 8px rgba(0, 30, 90, 0.18)',
        }}
      >
        <div style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
          <BankOutlined style={{ fontSize: 22, color: navText }} />
          <span
            data-testid="app-platform-name"
            style={{
              color: navText,
              fontSize: 18,
              fontWeight: 600,
              letterSpacing: 1,
              whiteSpace: 'nowrap',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            }}
          >
            {platformName}
          </span>
          {systemCoding ? (
            <Tooltip title="切换业务系统">
              <Link
                to={JUDGE_PATH}
                data-testid="current-system"
                style={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: 6,
                  marginInlineStart: 8,
                  padding: '0 10px',
                  height: 28,
                  lineHeight: '28px',
                  borderRadius: 14,
                  background: 'rgba(255,255,255,0.16)',
                  color: navText,
                  whiteSpace: 'nowrap',
                  fontSize: 13,
                }}
              >
                <span data-testid="current-system-name">{system?.systemName ?? systemCoding}</span>
                <SwapOutlined />
              </Link>
            </Tooltip>
          ) : (
            <Link
              to={JUDGE_PATH}
              data-testid="choose-system"
              style={{ marginInlineStart: 8, color: navText, opacity: 0.85, whiteSpace: 'nowrap', fontSize: 13 }}
            >
              选择业务系统
            </Link>
          )}
        </div>
        <div style={{ display: 'flex', alignItems: 'center', gap: 4, flex: 'none' }}>
          <SystemNotices />
          <PasswordAgeCheck />
          <HeaderServices color={navText} />
          <ShellServices systemCoding={systemCoding} systemName={system?.systemName} buttonStyle={headerButton} />
          <MessageBell color={navText} isAdmin={user?.loginRoleType === 'M'} />
          <Tooltip title="主题设置">
            <button
              type="button"
              aria-label="主题设置"
              data-testid="theme-button"
              onClick={openSettings}
              style={{ ...headerButton, width: 40, justifyContent: 'center', fontSize: 18 }}
            >
              <SkinOutlined />
            </button>
          </Tooltip>
          <Dropdown trigger={['hover', 'click']} placement="bottomRight" menu={{ items, onClick: onMenuClick }}>
            <button type="button" data-testid="user-dropdown" style={headerButton}>
              <Avatar
                size={28}
                src={user?.photo || undefined}
                icon={<UserOutlined />}
                style={{ background: 'rgba(255,255,255,0.25)' }}
              />
              <span data-testid="user-name">{user?.userName ?? ''}</span>
              <DownOutlined style={{ fontSize: 10 }} />
            </button>
          </Dropdown>
        </div>
      </Layout.Header>
      <Layout style={{ background: 'transparent' }}>
        {showSider && systemCoding ? <SideMenu key={systemCoding} systemCoding={systemCoding} /> : null}
        <Layout.Content style={{ padding: 24, minWidth: 0 }}>
          {denied ? (
            <ForbiddenPage access={denied} />
          ) : (
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
