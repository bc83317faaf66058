import type { ConfigSystem, GrantMatrixRow, MenuItem, Role, UserBrief } from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { browser } from '../../lib/browser';
import { createFakeServer, type Handler, platformInfo, systems, userInfo } from '../../test/server';

/** Test data and a fake server for the permission and audit pages (component tests only). */

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const roleRows = (): Role[] => [
  { id: uuid(1), code: 'admin', name: '管理员', builtin: true, memberCount: 1 },
  { id: uuid(2), code: 'developer', name: '开发者', builtin: true, memberCount: 1 },
  { id: uuid(3), code: 'user', name: '企业/个人', builtin: true, memberCount: 5 },
  { id: uuid(4), code: 'auditor', name: '审核员', builtin: false, memberCount: 1 },
];

export const users: UserBrief[] = [
  { id: uuid(101), account: 'user1', userName: '张企业', loginRoleType: 'U', enterpriseName: '某某建设有限公司' },
  { id: uuid(102), account: 'user2', userName: '李个人', loginRoleType: 'U', enterpriseName: null },
  { id: uuid(103), account: 'dev', userName: '王开发', loginRoleType: 'D', enterpriseName: null },
];

export const configSystems: ConfigSystem[] = [
  {
    id: uuid(201),
    systemName: '信用管理',
    title: '信用管理',
    gnCoding: 'XYGL',
    enabled: true,
    sort: 1,
    menuCount: 4,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: uuid(202),
    systemName: '招标投标',
    title: '招标投标',
    gnCoding: 'ZBTB',
    enabled: true,
    sort: 2,
    menuCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

const fn = (code: string, name: string, color: string, granted = false) => ({
  code,
  name,
  color,
  show: true,
  kind: 'table' as const,
  granted,
});

/** 信用档案 (XY_ROOT) › 企业档案 (XY_LIST, visible, 编辑 granted) + 隐藏档案 (XY_HIDDEN, itShows 否); 统计 (XY_STAT). */
export const matrixRows = (): GrantMatrixRow[] => [
  {
    id: uuid(301),
    parentId: null,
    gnCoding: 'XY_ROOT',
    title: '信用档案',
    itShows: '是',
    depth: 0,
    visible: false,
    functions: [],
  },
  {
    id: uuid(302),
    parentId: uuid(301),
    gnCoding: 'XY_LIST',
    title: '企业档案',
    itShows: '是',
    depth: 1,
    visible: true,
    functions: [fn('add', '新增', '#409EFF'), fn('edit', '编辑', '#409EFF', true), fn('delete', '删除', '#F56C6C')],
  },
  {
    id: uuid(303),
    parentId: uuid(301),
    gnCoding: 'XY_HIDDEN',
    title: '隐藏档案',
    itShows: '否',
    depth: 1,
    visible: false,
    functions: [fn('export', '导出', '#67C23A')],
  },
  {
    id: uuid(304),
    parentId: null,
    gnCoding: 'XY_STAT',
    title: '统计',
    itShows: '是',
    depth: 0,
    visible: false,
    functions: [fn('export', '导出', '#67C23A')],
  },
];

export function menuItem(n: number, gnCoding: string, title: string, children: MenuItem[] = []): MenuItem {
  return {
    id: uuid(n),
    parentId: null,
    systemCoding: 'XYGL',
    gnCoding,
    title,
    icon: null,
    itShows: '是',
    nodeProperties: 'list',
    style: 'table',
    nodeSetFlag: false,
    disabled: false,
    groupName: null,
    dataSource: 'engine',
    sort: n,
    badge: 0,
    score: null,
    children,
  };
}

export const nodeTree = (): MenuItem[] => [
  menuItem(301, 'XY_ROOT', '信用档案', [menuItem(302, 'XY_LIST', '企业档案'), menuItem(303, 'XY_HIDDEN', '隐藏档案')]),
];

/** Signs in as admin (M), points the request client at a fake server with the layout's calls and `handlers`. */
export function setupServer(path: string, handlers: Record<string, Handler>, loginRoleType: 'M' | 'D' = 'M') {
  const me = { ...userInfo, loginRoleType };
  const roles = loginRoleType === 'M' ? ['admin'] : ['user'];
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-admin');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(me));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
  // the request client reads the real location (jsdom: /, which counts as the sign-in page)
  vi.spyOn(browser, 'pathname').mockReturnValue(path);
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: me, roles } }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'GET /ks/config/new/node/system-list': () => ({ data: configSystems }),
    'GET /ks/config/new/node/node-list': () => ({ data: nodeTree() }),
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return server;
}

export const bodyOf = (req: { body?: unknown }) => JSON.parse(String(req.body));
