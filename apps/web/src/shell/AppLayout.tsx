import { BankOutlined, DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Dropdown, Layout } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { currentUserQuery, logout } from '../api/auth';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../api/platform';
import { PageLoading } from '../app/PageLoading';
import { clearSession, getUserInfo, setRoles, setUserInfo } from '../app/session';
import { PRIMARY_COLOR } from '../app/theme';

export const LOGOUT_TEXT = '退出登录';

/** Signed-in layout: blue header with the platform name and the user menu, page content below. */
export default function AppLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: platform } = useQuery(platformQuery);
  const platformName = platform?.platformName || DEFAULT_PLATFORM_NAME;
  // Confirms the session with the server; an ended session is handled by the request client (prompt, /login).
  const { data: current } = useQuery(currentUserQuery);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    document.title = platformName;
  }, [platformName]);

  useEffect(() => {
    if (!current) return;
    setUserInfo(current.userInfo);
    setRoles(current.roles);
  }, [current]);

  const user = current?.userInfo ?? getUserInfo();

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
      navigate('/', { replace: true });
    }
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        data-testid="app-header"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 100,
          height: 56,
          lineHeight: '56px',
          padding: '0 24px',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: PRIMARY_COLOR,
          boxShadow: '0 2px 8px rgba(0, 30, 90, 0.18)',
        }}
      >
        <div style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
          <BankOutlined style={{ fontSize: 22, color: '#fff' }} />
          <span
            data-testid="app-platform-name"
            style={{
              color: '#fff',
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
        </div>
        <Dropdown
          trigger={['hover', 'click']}
          placement="bottomRight"
          menu={{
            items: [
              {
                key: 'logout',
                icon: <LogoutOutlined />,
                label: <span data-testid="logout-item">{LOGOUT_TEXT}</span>,
                disabled: leaving,
              },
            ],
            onClick: ({ key }) => {
              if (key === 'logout') void onLogout();
            },
          }}
        >
          <button
            type="button"
            data-testid="user-dropdown"
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 8,
              height: 40,
              padding: '0 8px',
              border: 'none',
              background: 'transparent',
              color: '#fff',
              cursor: 'pointer',
              fontSize: 14,
            }}
          >
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
      </Layout.Header>
      <Layout.Content style={{ padding: 24, background: '#f3f6fb' }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
