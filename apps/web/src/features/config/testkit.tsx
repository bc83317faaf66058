import type {
  CardStyle,
  Chart,
  ConfigSystem,
  MenuItem,
  NodeFunction,
  NoticeJump,
  StyleTemplate,
  TableColumn,
} from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { DisplayGroup } from '../../api/config';
import { configureRequest, type TransportRequest } from '../../api/request';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, platformInfo, userInfo } from '../../test/server';
import AllSystemPage from './AllSystemPage';
import EchartsSettingPage from './EchartsSettingPage';
import JumpNoticeCfgPage from './JumpNoticeCfgPage';
import MenuSetUpPage from './MenuSetUpPage';
import ProductConfigPage from './ProductConfigPage';
import SetTypeCardPage from './SetTypeCardPage';
import SetUpFormPage from './SetUpFormPage';
import SetUpListPage from './SetUpListPage';
import StyleTemplatePage from './StyleTemplatePage';

/** Test fixtures and a stateful fake server for the configuration pages (test-only module). */

export type User = ReturnType<typeof userEvent.setup>;

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function menuItem(n: number, over: Partial<MenuItem> = {}): MenuItem {
  return {
    id: uuid(n),
    parentId: null,
    systemCoding: 'XYGL',
    gnCoding: `N${n}`,
    title: `菜单${n}`,
    icon: null,
    itShows: '是',
    nodeProperties: 'list',
    style: 'table',
    nodeSetFlag: false,
    disabled: false,
    groupName: null,
    dataSource: 'engine',
    sort: 0,
    badge: 0,
    score: null,
    children: [],
    ...over,
  };
}

/**
 * XYGL's tree: A (A1, A2, A3), B (B1), C (hidden and disabled).
 * ids: A 1, A1 11, A2 12, A3 13, B 2, B1 21, C 3.
 */
export function sampleTree(): MenuItem[] {
  const A = menuItem(1, { gnCoding: 'A', title: '信用管理', nodeProperties: 'directory', icon: 'FolderOutlined' });
  A.children = [11, 12, 13].map((n, i) =>
    menuItem(n, { gnCoding: `A${i + 1}`, title: `信用子项${i + 1}`, parentId: A.id, sort: i }),
  );
  const B = menuItem(2, { gnCoding: 'B', title: '信用评价', nodeProperties: 'directory', sort: 1 });
  B.children = [menuItem(21, { gnCoding: 'B1', title: '评价列表', parentId: B.id })];
  const C = menuItem(3, { gnCoding: 'C', title: '隐藏菜单', itShows: '否', disabled: true, sort: 2 });
  return [A, B, C];
}

export function configSystem(n: number, over: Partial<ConfigSystem> = {}): ConfigSystem {
  return {
    id: uuid(900 + n),
    systemName: `系统${n}`,
    title: `简称${n}`,
    gnCoding: `SYS${n}`,
    enabled: true,
    sort: n,
    menuCount: 0,
    createdAt: '2026-03-01T02:00:00.000Z',
    ...over,
  };
}

export const sampleSystems = (): ConfigSystem[] => [
  configSystem(1, { systemName: '信用管理系统', title: '信用管理', gnCoding: 'XYGL', menuCount: 7 }),
  configSystem(2, { systemName: '招标投标系统', title: '招标投标', gnCoding: 'ZBTB', menuCount: 0, enabled: false }),
];

export const sampleColumns = (): TableColumn[] => [
  {
    code: 'projectName',
    name: '项目名称',
    type: 'text',
    show: true,
    isSearch: true,
    isStatus: false,
    listAlignment: '左对齐',
    width: 240,
  },
  {
    code: 'status',
    name: '状态',
    type: 'status',
    show: true,
    isSearch: false,
    isStatus: true,
    listAlignment: '居中',
    width: null,
  },
];

export interface ConfigState {
  systems: ConfigSystem[];
  trees: Record<string, MenuItem[]>;
  groups: DisplayGroup[];
  functions: Record<string, NodeFunction[]>;
  columns: Record<string, TableColumn[]>;
  cardStyles: Record<string, CardStyle | null>;
  charts: Record<string, Chart[]>;
  templates: StyleTemplate[];
  jumps: NoticeJump[];
  /** the nodes' configured fields (code and name are what configuration pages read) */
  nodeFields: Record<string, { code: string; name: string; type: string }[]>;
}

export const bodyOf = <T = Record<string, unknown>>(req: TransportRequest): T => JSON.parse(String(req.body)) as T;
export const queryOf = (req: TransportRequest) => new URLSearchParams(req.url.split('?')[1] ?? '');

function findIn(tree: MenuItem[], pred: (m: MenuItem) => boolean): MenuItem | null {
  for (const it of tree) {
    if (pred(it)) return it;
    const hit = findIn(it.children, pred);
    if (hit) return hit;
  }
  return null;
}

/** The fake server's move: take the item out, insert it at `index` among the new siblings (as the server does). */
export function applyMove(tree: MenuItem[], body: { id: string; parentId: string | null; index: number }) {
  const copy: MenuItem[] = structuredClone(tree);
  let moved: MenuItem | null = null;
  const take = (list: MenuItem[]) => {
    const i = list.findIndex((x) => x.id === body.id);
    if (i >= 0) [moved] = list.splice(i, 1);
    else for (const x of list) take(x.children);
  };
  take(copy);
  if (!moved) return copy;
  const m = moved as MenuItem;
  m.parentId = body.parentId;
  const siblings = body.parentId ? (findIn(copy, (x) => x.id === body.parentId)?.children ?? []) : copy;
  siblings.splice(Math.min(body.index, siblings.length), 0, m);
  return copy;
}

export function signInAsDeveloper() {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-dev');
  sessionStorage.setItem(
    SESSION_KEYS.userInfo,
    JSON.stringify({ ...userInfo, loginRoleType: 'D', userName: '开发者' }),
  );
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['user']));
}

/** A stateful fake of the configuration endpoints; `handlers` replace or add endpoints. */
export function setupConfigServer(handlers: Record<string, Handler> = {}, path = '/system/allSystem') {
  signInAsDeveloper();
  // the request client reads the real location (jsdom: /, which counts as the sign-in page)
  vi.spyOn(browser, 'pathname').mockReturnValue(path.split('?')[0]);
  const state: ConfigState = {
    systems: sampleSystems(),
    trees: { XYGL: sampleTree(), ZBTB: [] },
    groups: [{ id: uuid(500), systemCoding: 'XYGL', name: '常用', icon: 'AppstoreOutlined', sort: 0 }],
    functions: {
      A1: [
        { code: 'add', name: '新增', color: '#409EFF', show: true, kind: 'table' },
        { code: 'delete', name: '删除', color: '#F56C6C', show: true, kind: 'table' },
      ],
    },
    columns: { A1: sampleColumns() },
    cardStyles: {},
    charts: {},
    templates: [],
    jumps: [],
    nodeFields: {
      A1: [
        { code: 'projectName', name: '项目名称', type: 'text' },
        { code: 'tenderer', name: '招标人', type: 'text' },
      ],
    },
  };
  const gn = (req: TransportRequest) =>
    req.method === 'GET' ? (queryOf(req).get('gnCoding') ?? '') : String(bodyOf(req).gnCoding ?? '');
  const nodeOf = (gnCoding: string) => {
    for (const [sc, tree] of Object.entries(state.trees)) {
      const hit = findIn(tree, (x) => x.gnCoding === gnCoding);
      if (hit) return { node: hit, systemCoding: sc };
    }
    return null;
  };
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/config/new/node/system-list': () => ({ data: state.systems }),
    'GET /ks/config/new/node/node-list': (req) => ({ data: state.trees[queryOf(req).get('systemCoding') ?? ''] ?? [] }),
    'GET /ks/config/new/node/node-logos': () => ({ data: ['AppstoreOutlined', 'FolderOutlined', 'UserOutlined'] }),
    'POST /ks/config/group/group-icons': () => ({ data: ['AppstoreOutlined', 'FolderOutlined'] }),
    'GET /ks/config/new/node/pull-down': () => ({
      data: [
        { label: '列表', value: 'list' },
        { label: '目录', value: 'directory' },
      ],
    }),
    'GET /ks/config/new/node/db-list': () => ({
      data: [{ value: 'engine', label: '节点数据表（由字段配置生成）', kind: 'engine' }],
    }),
    'POST /ks/base/dictionary/config/button/pull-down': () => ({
      data: [
        { code: 'add', name: '新增', color: '#409EFF', show: true, kind: 'table' },
        { code: 'export', name: '导出', color: '#67C23A', show: true, kind: 'table' },
      ],
    }),
    'GET /ks/config/structure/display-groups': (req) => ({
      data: state.groups.filter((g) => g.systemCoding === queryOf(req).get('systemCoding')),
    }),
    'POST /ks/config/structure/display-groups': (req) => {
      const g = { id: uuid(600 + state.groups.length), ...bodyOf<Omit<DisplayGroup, 'id'>>(req) };
      state.groups.push(g);
      return { data: g, message: '保存成功' };
    },
    'PUT /ks/config/structure/display-groups': (req) => {
      const b = bodyOf<DisplayGroup>(req);
      state.groups = state.groups.map((g) => (g.id === b.id ? { ...g, ...b } : g));
      return { data: state.groups.find((g) => g.id === b.id), message: '保存成功' };
    },
    'DELETE /ks/config/structure/display-groups': (req) => {
      state.groups = state.groups.filter((g) => g.id !== queryOf(req).get('id'));
      return { data: null, message: '删除成功' };
    },
    'POST /ks/config/new/structure/add': (req) => {
      const b = bodyOf<{ systemName: string; title: string; gnCoding: string }>(req);
      if (state.systems.some((x) => x.gnCoding.toLowerCase() === b.gnCoding.toLowerCase()))
        return {
          status: 409,
          code: 409,
          message: '编码已存在，请更换',
          data: { fieldErrors: { gnCoding: ['编码已存在，请更换'] } },
        };
      state.systems.push(configSystem(state.systems.length + 1, { ...b, menuCount: 0 }));
      return { data: { gnName: b.systemName, gnCoding: b.gnCoding }, message: '系统已生成' };
    },
    'PUT /ks/config/structure/system-name': (req) => {
      const b = bodyOf<{ systemCoding: string; systemName: string; title: string; enabled: boolean }>(req);
      state.systems = state.systems.map((s) =>
        s.gnCoding === b.systemCoding ? { ...s, systemName: b.systemName, title: b.title, enabled: b.enabled } : s,
      );
      return { data: state.systems.find((s) => s.gnCoding === b.systemCoding), message: '保存成功' };
    },
    'DELETE /ks/config/new/structure/del': (req) => {
      const q = queryOf(req);
      const sc = q.get('systemCoding');
      if (sc) {
        const s = state.systems.find((x) => x.gnCoding === sc);
        if (s && s.menuCount > 0) return { status: 409, code: 409, message: '请先删除该系统下的菜单' };
        state.systems = state.systems.filter((x) => x.gnCoding !== sc);
        return { data: null, message: '删除成功' };
      }
      const id = q.get('id');
      for (const [k, tree] of Object.entries(state.trees)) {
        const hit = findIn(tree, (x) => x.id === id);
        if (hit?.children.length) return { status: 409, code: 409, message: '请先删除下级菜单' };
        if (hit) {
          const drop = (list: MenuItem[]): MenuItem[] =>
            list.filter((x) => x.id !== id).map((x) => ({ ...x, children: drop(x.children) }));
          state.trees[k] = drop(tree);
        }
      }
      return { data: null, message: '删除成功' };
    },
    'POST /ks/config/new/structure/child-menu': (req) => {
      const b = bodyOf<MenuItem & { systemCoding: string }>(req);
      const item = menuItem(700, { ...b, id: uuid(700), children: [] });
      const tree = state.trees[b.systemCoding];
      const parent = b.parentId ? findIn(tree, (x) => x.id === b.parentId) : null;
      (parent ? parent.children : tree).push(item);
      return { data: item, message: '保存成功' };
    },
    'PUT /ks/config/new/structure/edit': (req) => {
      const b = bodyOf<MenuItem>(req);
      for (const tree of Object.values(state.trees)) {
        const hit = findIn(tree, (x) => x.id === b.id);
        if (hit) Object.assign(hit, { ...b, children: hit.children });
        if (hit) return { data: hit, message: '保存成功' };
      }
      return { status: 404, code: 404, message: '菜单不存在' };
    },
    'POST /ks/config/new/structure/move': (req) => {
      const b = bodyOf<{ id: string; parentId: string | null; index: number }>(req);
      state.trees.XYGL = applyMove(state.trees.XYGL, b);
      return { data: state.trees.XYGL, message: '操作成功' };
    },
    'GET /ks/cache/refresh': () => ({ data: { nodes: 7, clearedAt: '2026-03-01T00:00:00.000Z' } }),
    'POST /ks/config/new/node/function-list': (req) => ({ data: state.functions[gn(req)] ?? [] }),
    'PUT /ks/config/new/node/functions': (req) => {
      const b = bodyOf<{ gnCoding: string; functions: NodeFunction[] }>(req);
      state.functions[b.gnCoding] = b.functions;
      return { data: b.functions, message: '保存成功' };
    },
    'GET /ks/config/new/node/previews': (req) => {
      const hit = nodeOf(gn(req));
      if (!hit) return { status: 404, code: 404, message: '节点不存在' };
      const sys = state.systems.find((s) => s.gnCoding === hit.systemCoding);
      return {
        data: {
          node: { ...hit.node, systemCoding: hit.systemCoding },
          systemName: sys?.systemName ?? '',
          functions: state.functions[hit.node.gnCoding] ?? [],
          columns: state.columns[hit.node.gnCoding] ?? [],
          cardStyle: state.cardStyles[hit.node.gnCoding] ?? null,
          charts: state.charts[hit.node.gnCoding] ?? [],
        },
      };
    },
    'POST /ks/common/common/table/columns': (req) => ({ data: state.columns[gn(req)] ?? [] }),
    'POST /ks/common/array/fields': (req) => {
      const fields = state.nodeFields[gn(req)] ?? [];
      return { data: { fields, version: fields.length ? 1 : 0 } };
    },
    'PUT /ks/config/node/columns': (req) => {
      const b = bodyOf<{ gnCoding: string; columns: TableColumn[] }>(req);
      state.columns[b.gnCoding] = b.columns;
      return { data: b.columns, message: '保存成功' };
    },
    'POST /ks/config/card-setting/info': (req) => ({ data: state.cardStyles[gn(req)] ?? null }),
    'PUT /ks/config/card-setting/info': (req) => {
      const b = bodyOf<{ gnCoding: string; cardStyle: CardStyle }>(req);
      state.cardStyles[b.gnCoding] = b.cardStyle;
      return { data: b.cardStyle, message: '保存成功' };
    },
    'GET /ks/config/node/charts': (req) => ({ data: state.charts[gn(req)] ?? [] }),
    'PUT /ks/config/node/charts': (req) => {
      const b = bodyOf<{ gnCoding: string; charts: Chart[] }>(req);
      state.charts[b.gnCoding] = b.charts;
      return { data: b.charts, message: '保存成功' };
    },
    // the node's records, as the server would group them: by status 草稿 3, 已通过 5 (a dimension 'gone' was removed)
    'POST /ks/config/node/chart-data': (req) => {
      const b = bodyOf<{ gnCoding: string; charts?: Chart[] }>(req);
      return {
        data: (b.charts ?? state.charts[b.gnCoding] ?? []).map((c) =>
          c.dimension === 'gone'
            ? {
                ...c,
                categories: [],
                values: [],
                records: 8,
                problem: `维度字段「gone」已不存在，请在图表设置中重新选择`,
              }
            : { ...c, categories: ['草稿', '已通过'], values: [3, 5], records: 8, problem: null },
        ),
      };
    },
    'GET /ks/config/style-templates': () => ({ data: state.templates }),
    'POST /ks/config/style-templates': (req) => {
      const b = bodyOf<{ name: string; kind: 'table' | 'card'; fromGnCoding: string }>(req);
      const t: StyleTemplate = {
        id: uuid(800 + state.templates.length),
        name: b.name,
        kind: b.kind,
        columns: b.kind === 'table' ? (state.columns[b.fromGnCoding] ?? []) : null,
        cardStyle: b.kind === 'card' ? (state.cardStyles[b.fromGnCoding] ?? null) : null,
        createdAt: '2026-03-02T00:00:00.000Z',
      };
      state.templates.push(t);
      return { data: t, message: '保存成功' };
    },
    'DELETE /ks/config/style-templates': (req) => {
      state.templates = state.templates.filter((t) => t.id !== queryOf(req).get('id'));
      return { data: null, message: '删除成功' };
    },
    'POST /ks/config/style-templates/apply': () => ({ data: null, message: '操作成功' }),
    'GET /ks/config/notice-jump': () => ({ data: state.jumps }),
    'POST /ks/config/notice-jump': (req) => {
      const b = bodyOf<Omit<NoticeJump, 'id' | 'path'> & { id?: string }>(req);
      const j: NoticeJump = {
        ...b,
        id: b.id ?? uuid(850 + state.jumps.length),
        path: `/dynamicPage/dynamicIndex?gnCoding=${b.gnCoding}&systemCoding=${b.systemCoding}`,
      };
      state.jumps = b.id ? state.jumps.map((x) => (x.id === b.id ? j : x)) : [...state.jumps, j];
      return { data: j, message: '保存成功' };
    },
    'DELETE /ks/config/notice-jump': (req) => {
      state.jumps = state.jumps.filter((j) => j.id !== queryOf(req).get('id'));
      return { data: null, message: '删除成功' };
    },
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return { ...server, state };
}

/** Every configuration page, rendered directly (the app's lazy routes and layout are not under test here). */
export const configRoutes: RouteObject[] = [
  { path: '/system/allSystem', element: <AllSystemPage /> },
  { path: '/system/menuSetUp', element: <MenuSetUpPage /> },
  { path: '/system/setUpList', element: <SetUpListPage /> },
  { path: '/system/setUpForm', element: <SetUpFormPage /> },
  { path: '/system/setTypeCard', element: <SetTypeCardPage /> },
  { path: '/system/styleTemplate', element: <StyleTemplatePage /> },
  { path: '/system/echartsSetting', element: <EchartsSettingPage /> },
  { path: '/system/jumpNoticeCfg', element: <JumpNoticeCfgPage /> },
  { path: '/configPage/productConfig', element: <ProductConfigPage /> },
];

export const renderConfig = (path: string) => renderRoutes(configRoutes, path);

/** Opens an antd Select / TreeSelect (by the test id on its root, the `index`th of them) and picks the option with this text. */
export async function pickOption(user: User, testId: string, text: string | RegExp, index = 0) {
  const root = screen.getAllByTestId(testId)[index];
  const input = within(root).queryByRole('combobox') ?? root;
  await user.click(input);
  const matches = async () => {
    const all = Array.from(
      document.querySelectorAll<HTMLElement>(
        '.ant-select-item-option, .ant-select-tree-node-content-wrapper, .ant-select-tree-title',
      ),
    );
    const hit = all.find((el) =>
      typeof text === 'string' ? el.textContent?.trim() === text : text.test(el.textContent ?? ''),
    );
    if (!hit) throw new Error(`option ${String(text)} not found among ${all.map((e) => e.textContent).join(' | ')}`);
    return hit;
  };
  const option = await waitFor(matches);
  await user.click(option);
}

/** Waits for a form field's error message (not a placeholder or option with the same text). */
export function findFieldError(text: string) {
  return waitFor(() => {
    const hit = Array.from(document.querySelectorAll('.ant-form-item-explain-error')).find(
      (e) => e.textContent === text,
    );
    if (!hit) throw new Error(`no field error「${text}」`);
    return hit as HTMLElement;
  });
}

/** Confirms the open Popconfirm. */
export async function confirmPopover(user: User) {
  const buttons = await screen.findAllByTestId('confirm-ok');
  await user.click(buttons[buttons.length - 1]);
}
