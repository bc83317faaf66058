import type { ChartData, FieldDef, MenuItem, Operation, TableColumn } from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { type RouteObject, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { AuditFlowStep, EngineRecord, FilterDefinitionDto, OpLogEntryDto, RecordDetail } from '../../api/engine';
import { configureRequest, type Transport, type TransportRequest } from '../../api/request';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, jsonResponse, platformInfo, userInfo } from '../../test/server';
import ApplyIndexPage from './ApplyIndexPage';
import DynamicIndexPage from './DynamicIndexPage';

/** Fixtures and a stateful fake of the engine endpoints for the engine pages' tests (test-only module). */

export type User = ReturnType<typeof userEvent.setup>;

export const rid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export const FIELDS: FieldDef[] = [
  { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
  { code: 'xb', name: '性别', type: 'sex', required: 1 },
  {
    code: 'zclb',
    name: '注册类别',
    type: 'select',
    required: 1,
    options: {
      list: [
        { label: '一级注册建造师', value: 'jzs1' },
        { label: '二级注册建造师', value: 'jzs2' },
      ],
    },
  },
  { code: 'fzrq', name: '发证日期', type: 'date' },
  { code: 'bz', name: '备注', type: 'textarea', length: 200 },
];

const col = (code: string, name: string, extra: Partial<TableColumn> = {}): TableColumn => ({
  code,
  name,
  type: 'text',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: null,
  ...extra,
});

export const COLUMNS: TableColumn[] = [
  col('xm', '姓名', { isSearch: true, listAlignment: '左对齐' }),
  col('zclb', '注册类别', { isSearch: true }),
  col('fzrq', '发证日期', { isSearch: true }),
  col('zt', '状态', { type: 'status', isStatus: true }),
  col('cz', '操作', { type: 'operations' }),
];

const btn = (code: string, name: string, color = '#409EFF'): Operation => ({ code, name, color, show: true });
export const TABLE_BUTTONS: Operation[] = [
  btn('add', '新增'),
  btn('edit', '编辑'),
  btn('detail', '详情'),
  btn('delete', '删除', '#F56C6C'),
  btn('revoke', '撤回', '#909399'),
  btn('audit', '审核', '#E6A23C'),
  btn('assign', '指派', '#E6A23C'),
  btn('export', '导出', '#67C23A'),
];
export const FORM_BUTTONS: Operation[] = [btn('submit', '提交'), btn('save', '保存')];

export function menuOf(gnCoding: string, title: string, over: Partial<MenuItem> = {}): MenuItem {
  return {
    id: rid(9000 + gnCoding.length),
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
    sort: 0,
    badge: 0,
    score: null,
    children: [],
    ...over,
  };
}

/** What the fake server's rules allow on a record (as records.service does). */
function operationsOf(status: string, buttons: Operation[]): Operation[] {
  return buttons.filter((op) => {
    if (op.code === 'edit') return status === 'draft' || status === 'rejected';
    if (op.code === 'delete') return status === 'draft';
    if (op.code === 'revoke' || op.code === 'audit') return status === 'pending';
    return !['add', 'export', 'import'].includes(op.code);
  });
}

export interface StoredRecord {
  id: string;
  status: string;
  version: number;
  values: Record<string, unknown>;
  auditLevel: number;
  auditFlow: AuditFlowStep[];
}

export function storedRecord(n: number, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: rid(n),
    status: 'draft',
    version: 1,
    values: { xm: `申请人${n}`, xb: '男', zclb: n % 2 ? 'jzs1' : 'jzs2', fzrq: `2025-01-0${(n % 9) + 1}`, bz: null },
    auditLevel: 0,
    auditFlow: [],
    ...over,
  };
}

export interface EngineState {
  records: StoredRecord[];
  columns: TableColumn[];
  tableButtons: Operation[];
  formButtons: Operation[];
  filters: FilterDefinitionDto | null;
  menus: MenuItem[];
  logs: OpLogEntryDto[];
  /** the numbers of the node's charts (图表设置) */
  chartData?: ChartData[];
}

export const bodyOf = <T = Record<string, unknown>>(req: TransportRequest): T => JSON.parse(String(req.body)) as T;

export const PATHS = {
  list: '/ks/engine/v1/records/list',
  detail: '/ks/engine/v1/records/detail',
  save: '/ks/engine/v1/records/save',
  del: '/ks/engine/v1/records/delete',
  submit: '/ks/engine/v1/records/submit',
  audit: '/ks/engine/v1/records/audit',
  revoke: '/ks/engine/v1/records/revoke',
  logs: '/ks/engine/v1/records/logs',
  exportXlsx: '/ks/engine/v1/records/export',
  assign: '/ks/engine/v1/records/assign',
  assignable: '/ks/authority/manager/assignable-list',
  formDetails: '/ks/info/v1/form/details',
  filters: '/ks/array/filter/directory/filter-fields',
} as const;

/**
 * A stateful fake of the engine endpoints for node ZYZC (执业注册申请, system XYGL) signed in as an administrator.
 * `handlers` replace or add endpoints; `state` can be changed by the test.
 */
export function setupEngine(init: Partial<EngineState> = {}, handlers: Record<string, Handler> = {}) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-engine');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['admin']));
  sessionStorage.setItem(SESSION_KEYS.systemCoding, 'XYGL');
  // the request client reads the real location (jsdom: /, which counts as the sign-in page)
  vi.spyOn(browser, 'pathname').mockReturnValue('/dynamicPage/dynamicIndex');
  const state: EngineState = {
    records: [storedRecord(1), storedRecord(2, { status: 'pending', auditLevel: 1 })],
    columns: COLUMNS,
    tableButtons: TABLE_BUTTONS,
    formButtons: FORM_BUTTONS,
    filters: null,
    menus: [menuOf('ZYZC', '执业注册申请'), menuOf('ZJK', '专家库', { style: 'card', nodeProperties: 'card' })],
    logs: [
      {
        glName: '执业注册申请',
        czrClassification: '管理员',
        czrName: '张三',
        logbook: '新增记录',
        failInfo: null,
        czTime: '2026-03-01T02:00:00.000Z',
      },
    ],
    ...init,
  };
  const toRecord = (r: StoredRecord): EngineRecord => ({
    id: r.id,
    status: r.status,
    version: r.version,
    ownerId: userInfo.id,
    createdAt: '2026-03-01T02:00:00.000Z',
    updatedAt: '2026-03-02T03:30:00.000Z',
    auditLevel: r.auditLevel,
    values: r.values,
    operations: operationsOf(r.status, state.tableButtons),
  });
  const toDetail = (r: StoredRecord): RecordDetail => ({
    ...toRecord(r),
    auditLevel: r.auditLevel,
    auditFlow: r.auditFlow,
  });
  const find = (req: TransportRequest) => state.records.find((r) => r.id === bodyOf(req).id);
  const stale = { status: 409, code: 409, message: '记录已被处理，请刷新后重试' };
  const step = (req: TransportRequest, from: string[], apply: (r: StoredRecord) => void, message = '操作成功') => {
    const r = find(req);
    if (!r) return { status: 404, code: 404, message: '记录不存在' };
    if (!from.includes(r.status) || bodyOf(req).version !== r.version) return stale;
    apply(r);
    r.version += 1;
    return { data: toDetail(r), message };
  };
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'POST /ks/menu/v1/menus/main-menus': () => ({ data: state.menus }),
    // who is signed in: as the session says (a test may sign in someone else)
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: {
        userInfo: JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? 'null'),
        roles: JSON.parse(sessionStorage.getItem(SESSION_KEYS.roles) ?? '[]'),
      },
    }),
    'POST /ks/authority/manager/system-list': () => ({
      data: [{ systemName: '信用管理系统', systemCoding: 'XYGL', title: '信用管理', todoCount: 0 }],
    }),
    'POST /ks/common/array/fields': () => ({ data: { fields: FIELDS, version: 3 } }),
    'POST /ks/common/common/table/columns': () => ({ data: state.columns }),
    // the node's charts (图表设置): none unless a test gives some
    'POST /ks/config/node/chart-data': () => ({ data: state.chartData ?? [] }),
    'POST /ks/config/card-setting/info': () => ({
      data: { titleKey: 'xm', contents: [{ contentKey: 'zclb', label: '注册类别' }], width: '50%' },
    }),
    'POST /ks/common/buttons/table-button': () => ({ data: state.tableButtons }),
    'POST /ks/common/buttons/form-button': () => ({ data: state.formButtons }),
    [`POST ${PATHS.filters}`]: () => ({ data: state.filters }),
    [`POST ${PATHS.list}`]: (req) => {
      const b = bodyOf<{ pageNum: number; pageSize: number }>(req);
      const start = (b.pageNum - 1) * b.pageSize;
      return {
        data: {
          records: state.records.slice(start, start + b.pageSize).map(toRecord),
          total: state.records.length,
        },
      };
    },
    [`POST ${PATHS.detail}`]: (req) => {
      const r = find(req);
      return r ? { data: toDetail(r) } : { status: 404, code: 404, message: '记录不存在' };
    },
    [`POST ${PATHS.formDetails}`]: (req) => {
      const id = bodyOf(req).id;
      if (!id) return { data: { fields: FIELDS, values: {}, version: null, status: null } };
      const r = find(req);
      return r
        ? { data: { fields: FIELDS, values: r.values, version: r.version, status: r.status } }
        : { status: 404, code: 404, message: '记录不存在' };
    },
    [`POST ${PATHS.save}`]: (req) => {
      const b = bodyOf<{ id?: string; version?: number; values: Record<string, unknown> }>(req);
      if (!b.id) {
        const r = storedRecord(100 + state.records.length, { values: b.values });
        state.records.unshift(r);
        return { data: toRecord(r), message: '保存成功' };
      }
      const r = state.records.find((x) => x.id === b.id);
      if (!r) return { status: 404, code: 404, message: '记录不存在' };
      if (r.version !== b.version) return { status: 409, code: 409, message: '记录已被修改或已提交，请刷新后重试' };
      r.values = b.values;
      r.version += 1;
      return { data: toRecord(r), message: '保存成功' };
    },
    [`POST ${PATHS.del}`]: (req) => {
      const r = find(req);
      if (r?.status !== 'draft') return { status: 409, code: 409, message: '只能删除草稿' };
      state.records = state.records.filter((x) => x !== r);
      return { data: null, message: '删除成功' };
    },
    [`POST ${PATHS.submit}`]: (req) =>
      step(
        req,
        ['draft', 'rejected'],
        (r) => {
          r.status = 'pending';
          r.auditLevel = 1;
        },
        '提交成功',
      ),
    [`POST ${PATHS.revoke}`]: (req) =>
      step(req, ['pending'], (r) => {
        r.status = 'draft';
        r.auditLevel = 0;
      }),
    [`POST ${PATHS.audit}`]: (req) => {
      const b = bodyOf<{ pass: boolean; suggestion?: string }>(req);
      return step(req, ['pending'], (r) => {
        r.status = b.pass ? 'passed' : 'rejected';
        r.auditFlow.push({
          level: r.auditLevel,
          action: b.pass ? 'pass' : 'reject',
          suggestion: b.suggestion ?? null,
          userName: '张三',
          round: 1,
          time: '2026-03-03T01:00:00.000Z',
        });
        r.auditLevel = 0;
      });
    },
    [`POST ${PATHS.logs}`]: () => ({ data: state.logs }),
    [`POST ${PATHS.assignable}`]: () => ({
      data: [
        { id: rid(501), userName: '李审核', orgName: '市住建局' },
        { id: rid(502), userName: '王复审', orgName: null },
      ],
    }),
    [`POST ${PATHS.assign}`]: () => ({ data: null, message: '操作成功' }),
    // the node has no attachment types and its records no files unless a test says otherwise
    'GET /ks/common/common/att-description': () => ({ data: { list: [], template: null } }),
    'GET /ks/common/common/attachment/list': () => ({ data: [] }),
    ...handlers,
  });
  // the export answers an xlsx file; everything else the JSON fake server
  const transport: Transport = async (req) => {
    if (req.url.split('?')[0] === PATHS.exportXlsx && !handlers[`POST ${PATHS.exportXlsx}`]) {
      server.calls.push(req);
      const blob = new Blob(['xlsx'], {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      });
      return {
        status: 200,
        headers: new Headers({
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('执业注册申请.xlsx')}`,
        }),
        text: async () => '',
        blob: async () => blob,
      };
    }
    return server.transport(req);
  };
  configureRequest({ transport });
  return { ...server, state, jsonResponse };
}

function Probe() {
  const { pathname, search } = useLocation();
  return <div data-testid="probe">{`${pathname}${search}`}</div>;
}

/** The list pages; any other path (the detail pages) renders a probe showing where we are. */
export const listRoutes: RouteObject[] = [
  { path: '/dynamicPage/dynamicIndex', element: <DynamicIndexPage /> },
  { path: '/applyIndex', element: <ApplyIndexPage /> },
  { path: '*', element: <Probe /> },
];

export const LIST_URL = '/dynamicPage/dynamicIndex?gnCoding=ZYZC&systemCoding=XYGL';
export const renderEngine = (path = LIST_URL, routes: RouteObject[] = listRoutes) => renderRoutes(routes, path);

/** The last recorded call to a path, with its JSON body. */
export function lastBody<T = Record<string, unknown>>(calls: TransportRequest[], path: string): T {
  const hits = calls.filter((c) => c.url.split('?')[0] === path);
  if (!hits.length) throw new Error(`no call to ${path}`);
  return bodyOf<T>(hits[hits.length - 1]);
}

/** Presses 确定 of the open confirmation dialog whose content is `text`. */
export async function confirmDialog(user: User, text: string) {
  const content = await screen.findByText(text);
  const dialog = content.closest('.ant-modal-confirm, .ant-modal') as HTMLElement;
  const ok = Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === '确定');
  if (!ok) throw new Error('no 确定 button');
  await user.click(ok);
}

/** Waits for an antd message with this text. */
export function findMessage(text: string) {
  return waitFor(() => {
    const hit = Array.from(document.querySelectorAll('.ant-message-notice')).find((e) => e.textContent?.includes(text));
    if (!hit) throw new Error(`no message「${text}」`);
    return hit as HTMLElement;
  });
}
