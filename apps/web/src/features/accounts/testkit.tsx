import type {
  AccountRow,
  ConfigSystem,
  EnterpriseChange,
  EnterpriseInfo,
  LoginRoleType,
  MenuItem,
  Organization,
  ServiceItem,
} from '@ks/contracts';
import { ENTERPRISE_FIELD_LABELS, ENTERPRISE_MESSAGES, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, platformInfo, userInfo } from '../../test/server';
import AdminInfoPage from './AdminInfoPage';
import CompanyInfoPage from './CompanyInfoPage';
import ManagementInfoPage from './ManagementInfoPage';
import PersonnelInfoPage from './PersonnelInfoPage';
import TransactPage from './TransactPage';

/** Fixtures and a stateful fake server for the administration pages (test-only module). */

export type User = ReturnType<typeof userEvent.setup>;

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const SELF_ID = userInfo.id;
export const OWN_ENTERPRISE = uuid(100);

export function accountRow(n: number, over: Partial<AccountRow> = {}): AccountRow {
  return {
    id: uuid(n),
    account: `user${n}`,
    userName: `用户${n}`,
    phone: '13800138000',
    loginRoleType: 'U',
    status: 'active',
    mustChangePassword: false,
    loginLocks: [],
    enterpriseId: OWN_ENTERPRISE,
    enterpriseName: '示例建设工程有限公司',
    roles: [],
    createdAt: '2026-03-01T02:00:00.000Z',
    updatedAt: '2026-03-01T02:00:00.000Z',
    ...over,
  };
}

export function organization(n: number, over: Partial<Organization> = {}): Organization {
  return {
    id: uuid(300 + n),
    name: `机构${n}`,
    orgType: '交易中心',
    region: '太原市',
    creditCode: null,
    contact: '王志强',
    phone: '0351-5218800',
    address: '太原市小店区龙城大街 99 号',
    enabled: true,
    version: 1,
    createdAt: '2026-03-01T02:00:00.000Z',
    updatedAt: '2026-03-01T02:00:00.000Z',
    ...over,
  };
}

export function enterpriseInfo(over: Partial<EnterpriseInfo> = {}): EnterpriseInfo {
  return {
    id: OWN_ENTERPRISE,
    name: '示例建设工程有限公司',
    creditCode: '91140100MA0K8G2J7X',
    enterpriseType: '施工企业',
    legalPerson: '李明华',
    region: '太原市',
    address: '太原市小店区长治路 227 号',
    registeredCapital: '80000000.00',
    establishedAt: '2008-06-18',
    creditGrade: 'AA',
    staffCount: 2,
    updatedAt: '2026-03-01T02:00:00.000Z',
    missing: [],
    change: null,
    ...over,
  };
}

export function enterpriseChange(n: number, over: Partial<EnterpriseChange> = {}): EnterpriseChange {
  return {
    id: uuid(700 + n),
    enterpriseId: OWN_ENTERPRISE,
    enterpriseName: '示例建设工程有限公司',
    creditCode: '91140100MA0K8G2J7X',
    status: 'pending',
    items: [
      {
        field: 'address',
        label: '注册地址',
        oldValue: '太原市小店区长治路 227 号',
        newValue: '太原市迎泽区新建路 1 号',
      },
    ],
    submittedBy: '张建国',
    submittedAt: '2026-03-05T01:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    version: 1,
    ...over,
  };
}

export function serviceItem(n: number, over: Partial<ServiceItem> = {}): ServiceItem {
  return {
    id: uuid(400 + n),
    name: `事项${n}`,
    systemCoding: 'XYGL',
    systemName: '信用管理系统',
    description: `事项${n}的说明`,
    materials: ['营业执照副本扫描件'],
    timeLimitDays: 1,
    enabled: true,
    sort: n * 10,
    version: 1,
    updatedAt: '2026-03-01T02:00:00.000Z',
    gnCoding: null,
    nodeTitle: null,
    link: '/judge?systemCoding=XYGL',
    ...over,
  };
}

export const bodyOf = <T = Record<string, unknown>>(req: TransportRequest): T => JSON.parse(String(req.body)) as T;
export const queryOf = (req: TransportRequest) => new URLSearchParams(req.url.split('?')[1] ?? '');

export interface AccountsState {
  admins: AccountRow[];
  personnel: AccountRow[];
  roles: { id: string; code: string; name: string }[];
  userRoles: Record<string, string[]>;
  organizations: Organization[];
  enterprises: EnterpriseInfo[];
  /** enterprises' information changes (as the server keeps them) */
  changes: EnterpriseChange[];
  items: ServiceItem[];
  systems: ConfigSystem[];
}

const page = <T,>(rows: T[], q: URLSearchParams) => {
  const pageNum = Number(q.get('pageNum') ?? 1);
  const pageSize = Number(q.get('pageSize') ?? 10);
  return { records: rows.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: rows.length };
};

const matches = (kw: string | null, ...values: (string | null)[]) => !kw || values.some((v) => (v ?? '').includes(kw));

export function signIn(role: LoginRoleType) {
  sessionStorage.setItem(SESSION_KEYS.token, `tok-${role}`);
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: role }));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(role === 'M' ? ['admin'] : ['user']));
}

/** A stateful fake of the administration endpoints, signed in with `role`; `handlers` replace or add endpoints. */
const menuNode = (gnCoding: string, title: string, nodeProperties: string, children: MenuItem[] = []): MenuItem => ({
  id: `node-${gnCoding}`,
  parentId: null,
  systemCoding: 'ZBTB',
  gnCoding,
  title,
  icon: null,
  itShows: '是',
  nodeProperties,
  style: 'table',
  nodeSetFlag: false,
  disabled: false,
  groupName: null,
  dataSource: 'engine',
  sort: 0,
  badge: 0,
  score: null,
  children,
});
/** The menu tree of ZBTB as the node picker of 办理事项 reads it. */
export const ZBTB_NODES: MenuItem[] = [
  menuNode('ZBTB_XMDJ', '项目进场登记', 'fiveInOne'),
  menuNode('ZBTB_ZBGL', '招标管理', 'directory', [menuNode('ZBTB_ZBGG', '招标公告', 'list')]),
];

export function setupAccountsServer(role: LoginRoleType, path: string, handlers: Record<string, Handler> = {}) {
  signIn(role);
  // the request client reads the real location (jsdom: /, which counts as the sign-in page)
  vi.spyOn(browser, 'pathname').mockReturnValue(path.split('?')[0]!);
  const state: AccountsState = {
    admins: [
      accountRow(1, {
        id: SELF_ID,
        account: 'admin',
        userName: '平台管理员',
        loginRoleType: 'M',
        enterpriseId: null,
        enterpriseName: null,
      }),
      accountRow(2, {
        account: 'dev',
        userName: '系统开发者',
        loginRoleType: 'D',
        enterpriseId: null,
        enterpriseName: null,
      }),
    ],
    personnel: [
      accountRow(11, { account: 'user1', userName: '张建国' }),
      accountRow(12, {
        account: 'staff_b',
        userName: '赵六',
        enterpriseId: uuid(101),
        enterpriseName: '汾河路桥建设有限公司',
      }),
    ],
    roles: [
      { id: uuid(501), code: 'auditor', name: '审核员' },
      { id: uuid(502), code: 'finance', name: '财务' },
    ],
    userRoles: {},
    organizations: [
      organization(1, { name: '山西省公共资源交易中心', region: '省本级' }),
      organization(2, { name: '山西省住房和城乡建设厅', orgType: '行业主管部门', region: '省本级' }),
    ],
    enterprises: [
      enterpriseInfo(),
      enterpriseInfo({
        id: uuid(101),
        name: '汾河路桥建设有限公司',
        creditCode: '91140100MA0K8G2J8X',
        legalPerson: null,
        missing: ['legalPerson'],
        staffCount: 1,
      }),
    ],
    changes: [],
    items: [
      serviceItem(1, {
        name: '信用信息变更申请',
        materials: ['信用信息变更申请表', '营业执照副本扫描件'],
        timeLimitDays: 5,
        gnCoding: 'XYGL_BGSQ',
        nodeTitle: '信用变更申请',
        link: '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL',
      }),
      serviceItem(2, {
        name: '投标保函在线办理',
        systemCoding: 'DZBH',
        systemName: '电子保函系统',
        timeLimitDays: 0,
        link: '/judge?systemCoding=DZBH',
      }),
      serviceItem(3, { name: '未发布的事项', enabled: false }),
    ],
    systems: [
      {
        id: uuid(601),
        systemName: '信用管理系统',
        title: '信用管理',
        gnCoding: 'XYGL',
        enabled: true,
        sort: 1,
        menuCount: 3,
        createdAt: '2026-03-01T02:00:00.000Z',
      },
      {
        id: uuid(602),
        systemName: '招标投标交易系统',
        title: '招标投标',
        gnCoding: 'ZBTB',
        enabled: true,
        sort: 2,
        menuCount: 3,
        createdAt: '2026-03-01T02:00:00.000Z',
      },
    ],
  };
  const withRoles = (a: AccountRow): AccountRow => ({
    ...a,
    roles: (state.userRoles[a.id] ?? []).map((id) => state.roles.find((r) => r.id === id)!),
  });
  const allAccounts = () => [...state.admins, ...state.personnel];
  const forbidden = { status: 403, code: 403, message: '无权进行此操作' };
  const only =
    (roles: LoginRoleType[], h: Handler): Handler =>
    (req) =>
      roles.includes(role) ? h(req) : forbidden;

  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: { userInfo: { ...userInfo, loginRoleType: role }, roles: role === 'M' ? ['admin'] : ['user'] },
    }),
    'GET /ks/authority/v1/accounts/admins': only(['M'], (req) => {
      const q = queryOf(req);
      const rows = state.admins.filter(
        (a) =>
          matches(q.get('keyword'), a.account, a.userName, a.phone) &&
          (!q.get('loginRoleType') || a.loginRoleType === q.get('loginRoleType')) &&
          (!q.get('status') || a.status === q.get('status')),
      );
      return { data: page(rows, q) };
    }),
    'POST /ks/authority/v1/accounts/admins': only(['M'], (req) => {
      const b = bodyOf<AccountRow>(req);
      if (allAccounts().some((a) => a.account === b.account.toLowerCase())) {
        return { status: 409, code: 409, message: '账号已存在', data: { fieldErrors: { account: ['账号已存在'] } } };
      }
      const row = accountRow(20 + state.admins.length, {
        account: b.account.toLowerCase(),
        userName: b.userName,
        phone: b.phone,
        loginRoleType: b.loginRoleType,
        enterpriseId: null,
        enterpriseName: null,
        mustChangePassword: true,
      });
      state.admins.push(row);
      return { data: row, message: '保存成功' };
    }),
    'GET /ks/authority/v1/accounts/personnel': only(['M', 'U'], (req) => {
      const q = queryOf(req);
      const enterpriseId = role === 'U' ? OWN_ENTERPRISE : q.get('enterpriseId');
      const rows = state.personnel.filter(
        (a) =>
          (!enterpriseId || a.enterpriseId === enterpriseId) &&
          matches(q.get('keyword'), a.account, a.userName, a.phone) &&
          (!q.get('status') || a.status === q.get('status')),
      );
      return { data: page(rows.map(withRoles), q) };
    }),
    'POST /ks/authority/v1/accounts/personnel': only(['M'], (req) => {
      const b = bodyOf<AccountRow>(req);
      const ent = state.enterprises.find((e) => e.id === b.enterpriseId);
      const row = accountRow(30 + state.personnel.length, {
        account: b.account.toLowerCase(),
        userName: b.userName,
        phone: b.phone,
        enterpriseId: b.enterpriseId,
        enterpriseName: ent?.name ?? null,
        mustChangePassword: true,
      });
      state.personnel.push(row);
      return { data: row, message: '保存成功' };
    }),
    'PUT /ks/authority/v1/accounts': only(['M'], (req) => {
      const b = bodyOf<AccountRow>(req);
      const row = allAccounts().find((a) => a.id === b.id)!;
      Object.assign(row, { userName: b.userName, phone: b.phone, updatedAt: '2026-03-02T00:00:00.000Z' });
      return { data: withRoles(row), message: '保存成功' };
    }),
    'PUT /ks/authority/v1/accounts/status': only(['M'], (req) => {
      const b = bodyOf<{ id: string; status: AccountRow['status'] }>(req);
      const row = allAccounts().find((a) => a.id === b.id)!;
      row.status = b.status;
      return { data: withRoles(row), message: '操作成功' };
    }),
    'PUT /ks/authority/v1/accounts/password': only(['M'], (req) => {
      const b = bodyOf<{ id: string }>(req);
      const row = allAccounts().find((a) => a.id === b.id)!;
      row.mustChangePassword = true;
      return { data: withRoles(row), message: '密码已重置' };
    }),
    'GET /ks/authority/v1/accounts/roles': only(['M'], (req) => {
      const id = queryOf(req).get('id')!;
      return { data: { roles: state.roles, roleIds: state.userRoles[id] ?? [] } };
    }),
    'PUT /ks/authority/v1/accounts/roles': only(['M'], (req) => {
      const b = bodyOf<{ id: string; roleIds: string[] }>(req);
      state.userRoles[b.id] = b.roleIds;
      return { data: { roles: state.roles, roleIds: b.roleIds }, message: '保存成功' };
    }),
    'GET /ks/basic/v1/organizations': only(['M', 'D'], (req) => {
      const q = queryOf(req);
      const rows = state.organizations.filter(
        (o) =>
          matches(q.get('keyword'), o.name, o.contact, o.creditCode) &&
          (!q.get('orgType') || o.orgType === q.get('orgType')) &&
          (!q.get('enabled') || String(o.enabled) === q.get('enabled')),
      );
      return { data: page(rows, q) };
    }),
    'POST /ks/basic/v1/organizations': only(['M'], (req) => {
      const b = bodyOf<Organization>(req);
      const row = organization(10 + state.organizations.length, { ...b });
      state.organizations.push(row);
      return { data: row, message: '保存成功' };
    }),
    'PUT /ks/basic/v1/organizations': only(['M'], (req) => {
      const b = bodyOf<Organization>(req);
      const row = state.organizations.find((o) => o.id === b.id)!;
      if (row.version !== b.version) return { status: 409, code: 409, message: '该机构已被他人修改，请刷新后重试' };
      Object.assign(row, { ...b, version: row.version + 1 });
      return { data: row, message: '保存成功' };
    }),
    'DELETE /ks/basic/v1/organizations': only(['M'], (req) => {
      state.organizations = state.organizations.filter((o) => o.id !== queryOf(req).get('id'));
      return { data: null, message: '删除成功' };
    }),
    'GET /ks/basic/v1/enterprise/info': only(['M', 'U'], (req) => {
      const id = queryOf(req).get('id') ?? OWN_ENTERPRISE;
      if (role === 'U' && id !== OWN_ENTERPRISE) return forbidden;
      return { data: state.enterprises.find((e) => e.id === id) };
    }),
    'PUT /ks/basic/v1/enterprise/info': only(['M', 'U'], (req) => {
      const b = bodyOf<EnterpriseInfo>(req);
      const e = state.enterprises.find((x) => x.id === b.id)!;
      if (e.updatedAt !== b.updatedAt) {
        return { status: 409, code: 409, message: '企业信息已被他人修改，请刷新后重试' };
      }
      if (role === 'M') {
        Object.assign(e, { ...b, updatedAt: '2026-03-05T00:00:00.000Z', missing: [] });
        return { data: e, message: '保存成功' };
      }
      // an enterprise's edit: a pending change, the enterprise itself unchanged
      const fields = ['legalPerson', 'region', 'address', 'registeredCapital', 'establishedAt'] as const;
      const items = fields
        .filter((f) => String(e[f] ?? '') !== String(b[f] ?? ''))
        .map((f) => ({ field: f, label: ENTERPRISE_FIELD_LABELS[f], oldValue: e[f], newValue: b[f] }));
      const pending = state.changes.find((c) => c.enterpriseId === e.id && c.status === 'pending');
      const change: EnterpriseChange = pending
        ? Object.assign(pending, { items, version: pending.version + 1 })
        : enterpriseChange(state.changes.length + 1, { enterpriseId: e.id, enterpriseName: e.name, items });
      if (!pending) state.changes.push(change);
      e.change = change;
      return { data: e, message: ENTERPRISE_MESSAGES.submitted };
    }),
    'GET /ks/basic/v1/enterprise/changes': only(['M'], (req) => {
      const q = queryOf(req);
      const rows = state.changes.filter((c) => c.status === (q.get('status') ?? 'pending'));
      return { data: page(rows, q) };
    }),
    'POST /ks/basic/v1/enterprise/changes/audit': only(['M'], (req) => {
      const b = bodyOf<{ id: string; version: number; pass: boolean; reason: string | null }>(req);
      const c = state.changes.find((x) => x.id === b.id)!;
      if (c.status !== 'pending' || c.version !== b.version) {
        return { status: 409, code: 409, message: ENTERPRISE_MESSAGES.changeStale };
      }
      Object.assign(c, {
        status: b.pass ? 'approved' : 'rejected',
        reason: b.reason,
        decidedBy: '平台管理员',
        decidedAt: '2026-03-06T02:00:00.000Z',
      });
      const e = state.enterprises.find((x) => x.id === c.enterpriseId)!;
      if (b.pass) for (const i of c.items) Object.assign(e, { [i.field]: i.newValue });
      return { data: c };
    }),
    'GET /ks/basic/v1/enterprise/info/list': only(['M'], (req) => {
      const q = queryOf(req);
      const rows = state.enterprises.filter((e) => matches(q.get('keyword'), e.name, e.creditCode));
      return { data: page(rows, q) };
    }),
    'GET /ks/portal/v1/common/enterprise-types': () => ({
      data: [
        { label: '施工企业', value: '施工企业' },
        { label: '招标代理机构', value: '招标代理机构' },
      ],
    }),
    'GET /ks/config/v1/service-items': (req) => {
      const q = queryOf(req);
      const rows = state.items.filter(
        (i) =>
          (role === 'M' ? !q.get('enabled') || String(i.enabled) === q.get('enabled') : i.enabled) &&
          matches(q.get('keyword'), i.name, i.description),
      );
      return { data: page(rows, q) };
    },
    'POST /ks/config/v1/service-items': only(['M'], (req) => {
      const b = bodyOf<ServiceItem>(req);
      const sys = state.systems.find((s) => s.gnCoding === b.systemCoding);
      const row = serviceItem(10 + state.items.length, {
        ...b,
        systemName: sys?.systemName ?? null,
        link: `/judge?systemCoding=${b.systemCoding}`,
      });
      state.items.push(row);
      return { data: row, message: '保存成功' };
    }),
    'PUT /ks/config/v1/service-items': only(['M'], (req) => {
      const b = bodyOf<ServiceItem>(req);
      const row = state.items.find((i) => i.id === b.id)!;
      if (row.version !== b.version) return { status: 409, code: 409, message: '该事项已被他人修改，请刷新后重试' };
      Object.assign(row, { ...b, version: row.version + 1 });
      return { data: row, message: '保存成功' };
    }),
    'DELETE /ks/config/v1/service-items': only(['M'], (req) => {
      state.items = state.items.filter((i) => i.id !== queryOf(req).get('id'));
      return { data: null, message: '删除成功' };
    }),
    'GET /ks/config/new/node/system-list': only(['M', 'D'], () => ({ data: state.systems })),
    'GET /ks/config/new/node/node-list': only(['M', 'D'], (req) => ({
      data: queryOf(req).get('systemCoding') === 'ZBTB' ? ZBTB_NODES : [],
    })),
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return { ...server, state };
}

/** The administration pages, rendered directly (the app's lazy routes and layout are not under test here). */
export const accountRoutes: RouteObject[] = [
  { path: '/system/adminInfo', element: <AdminInfoPage /> },
  { path: '/system/personnelInfo', element: <PersonnelInfoPage /> },
  { path: '/system/managementInfo', element: <ManagementInfoPage /> },
  { path: '/system/companyInfo', element: <CompanyInfoPage /> },
  { path: '/system/transact', element: <TransactPage /> },
  { path: '/judge', element: <div data-testid="judge-page">选择系统</div> },
];

export const renderAccounts = (path: string) => renderRoutes(accountRoutes, path);

export function resetAll() {
  configureRequest();
  act(() => resetPrompts());
}

export const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

/** Opens an antd Select (by the test id on its root or its input) and picks the option with this text. */
export async function pickOption(user: User, testId: string, text: string) {
  const root = screen.getByTestId(testId);
  const input = within(root.closest('.ant-select') ?? root).queryByRole('combobox') ?? root;
  await user.click(input);
  const option = await waitFor(() => {
    const all = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option'));
    const hit = all.find((el) => el.textContent?.trim() === text);
    if (!hit) throw new Error(`option ${text} not found among ${all.map((e) => e.textContent).join(' | ')}`);
    return hit;
  });
  await user.click(option);
}

/** Waits for a form field's error message. */
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
  await user.click(buttons[buttons.length - 1]!);
}
