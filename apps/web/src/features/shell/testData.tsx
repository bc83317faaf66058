import type { HeaderMenu, MenuItem, SystemItem, Theme, UserInfo } from '@ks/contracts';
import { SESSION_KEYS, THEME_DEFAULTS } from '@ks/contracts';
import { type RouteObject, useLocation } from 'react-router';
import { configureRequest, type TransportRequest } from '../../api/request';
import AppLayout from '../../shell/AppLayout';
import { createFakeServer, type Handler, platformInfo, userInfo } from '../../test/server';
import JudgePage from './JudgePage';
import UserCenterPage from './UserCenterPage';

/** Fixtures for the shell's component tests. */

let seq = 0;

export function menu(over: Partial<MenuItem> & { gnCoding: string; title: string }): MenuItem {
  seq += 1;
  return {
    id: `00000000-0000-4000-9000-${String(seq).padStart(12, '0')}`,
    parentId: null,
    systemCoding: 'XYGL',
    icon: null,
    itShows: '是',
    nodeProperties: 'list',
    style: 'table',
    nodeSetFlag: false,
    disabled: false,
    groupName: null,
    dataSource: 'engine',
    sort: seq,
    badge: 0,
    score: null,
    children: [],
    ...over,
  };
}

/** 信用管理: two directories with leaves, a hidden item (which a faulty server might still send), a venue leaf. */
export function creditMenus(): MenuItem[] {
  return [
    menu({
      gnCoding: 'XY_DIR',
      title: '信用信息',
      icon: 'FolderOutlined',
      nodeProperties: 'directory',
      children: [
        menu({ gnCoding: 'XY_LIST', title: '信用记录', icon: 'FileTextOutlined', badge: 120 }),
        menu({ gnCoding: 'XY_HIDDEN', title: '隐藏菜单', itShows: '否' }),
        menu({ gnCoding: 'XY_SCORE', title: '信用评分', nodeProperties: 'analysis2', score: 92.5 }),
      ],
    }),
    menu({
      gnCoding: 'CD_DIR',
      title: '场地服务',
      nodeProperties: 'directory',
      children: [
        menu({ gnCoding: 'CD_VENUE', title: '场地预约', nodeProperties: 'venue', badge: 3 }),
        menu({ gnCoding: 'CD_OFF', title: '停用功能', disabled: true }),
      ],
    }),
    menu({ gnCoding: 'TOP_HIDDEN', title: '顶层隐藏', itShows: '否' }),
  ];
}

export const darkTheme: Theme = { ...THEME_DEFAULTS, theme: 'dark', themeColor: '#722ED1' };

export interface ShellSetup {
  /** loginRoleType of the signed-in user (default M, the admin) */
  roleType?: 'M' | 'D' | 'U';
  systemCoding?: string;
  menus?: MenuItem[];
  theme?: Theme;
  headerMenus?: HeaderMenu[];
  handlers?: Record<string, Handler>;
}

export const shellSystems: SystemItem[] = [
  { systemName: '信用管理', systemCoding: 'XYGL', title: '信用管理', todoCount: 5 },
  { systemName: '场地预约', systemCoding: 'CDYY', title: '场地预约', todoCount: 120 },
];

/** Signs a user in (session) and answers the shell's calls with a fake server; `handlers` override any of them. */
export function setupShell(opts: ShellSetup = {}) {
  const roleType = opts.roleType ?? 'M';
  const roles = roleType === 'M' ? ['admin'] : ['user'];
  const user: UserInfo = { ...userInfo, loginRoleType: roleType };
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-shell');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
  if (opts.systemCoding) sessionStorage.setItem(SESSION_KEYS.systemCoding, opts.systemCoding);
  let theme = opts.theme ?? { ...THEME_DEFAULTS };
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: user, roles } }),
    'POST /ks/authority/manager/system-list': () => ({ data: shellSystems }),
    'POST /ks/menu/v1/menus/main-menus': () => ({ data: opts.menus ?? creditMenus() }),
    'GET /ks/common/logout': () => ({ data: null }),
    'GET /ks/individual/menus': () => ({ data: opts.headerMenus ?? [] }),
    'GET /ks/individual/theme': () => ({ data: theme }),
    // the user centre's 微信绑定 and 登录设备 (issue 15)
    'POST /ks/authentication/login/login-mode': () => ({ data: { loginMode: 'ggfw', methods: ['password'] } }),
    'GET /ks/individual/wechat-list': () => ({ data: [] }),
    'GET /ks/auth/v1/authorization/login': () => ({ data: [] }),
    'PUT /ks/individual/theme': (req) => {
      theme = JSON.parse(String(req.body));
      return { data: theme };
    },
    ...opts.handlers,
  });
  // dialogs go to the global prompt (the memory router leaves jsdom's own location at /, the sign-in page)
  configureRequest({ transport: server.transport, effects: { pathname: () => '/judge' } });
  return { server, user, roles };
}

/** The body of a recorded call. */
export function bodyOf(req: TransportRequest): unknown {
  return JSON.parse(String(req.body));
}

function Probe() {
  const { pathname, search } = useLocation();
  return <div data-testid="probe">{`${pathname}${search}`}</div>;
}

/** The signed-in layout with the shell's pages; any other path renders a probe showing where we are. */
export const shellRoutes: RouteObject[] = [
  // where 退出登录 leads: outside the signed-in layout
  { index: true, element: <div data-testid="signed-out" /> },
  {
    element: <AppLayout />,
    children: [
      { path: 'judge', element: <JudgePage /> },
      { path: 'userCenter/uCenter', element: <UserCenterPage /> },
      { path: '*', element: <Probe /> },
    ],
  },
];
