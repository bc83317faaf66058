import { type CreditRecord, type LoginRoleType, SESSION_KEYS } from '@ks/contracts';
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, platformInfo, userInfo } from '../../test/server';
import type { CreditInfo, CreditLevelTitles, CreditSelectTypes, CreditSubjectRow, CreditTree } from './api';
import { CreditRecordsWorkspace } from './CreditInfoPage';

/** Fixtures and a fake of the credit calls for the records workspace (test-only module). */

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const OWN = uuid(100);
export const STANDARD_GOOD = uuid(201);
export const STANDARD_BAD = uuid(202);
export const bodyOf = <T = Record<string, unknown>>(req: TransportRequest): T => JSON.parse(String(req.body)) as T;

const LEVELS = [
  { title: 'AAA', minScore: 90, maxScore: null },
  { title: 'AA', minScore: 80, maxScore: 90 },
  { title: 'A', minScore: 70, maxScore: 80 },
  { title: 'B', minScore: 60, maxScore: 70 },
  { title: 'C', minScore: 0, maxScore: 60 },
];

export function creditRecord(n: number, over: Partial<CreditRecord> = {}): CreditRecord {
  return {
    id: uuid(500 + n),
    subjectKind: 'enterprise',
    subjectId: OWN,
    subjectName: '示例建设工程有限公司',
    enterpriseId: OWN,
    enterpriseName: '示例建设工程有限公司',
    standardId: STANDARD_GOOD,
    standardName: '获评省级建筑施工安全文明标准化工地',
    xxGrouping: '安全文明施工',
    conduct: 'good',
    highest: 6,
    score: 3,
    points: 3,
    counting: false,
    title: `记录${n}`,
    issuer: '山西省住房和城乡建设厅',
    remark: null,
    startTime: '2026-03-01',
    endTime: '2027-02-28',
    status: 'draft',
    statusText: '草稿',
    source: 'declared',
    sourceText: '企业申报',
    files: [{ fileId: uuid(900 + n), fileName: '证书.pdf', fileSize: 1024 }],
    createdBy: '张建国',
    createdAt: '2026-03-01T02:00:00.000Z',
    submittedBy: null,
    submittedAt: null,
    auditedBy: null,
    auditedAt: null,
    auditSuggestion: null,
    revokedBy: null,
    revokedAt: null,
    revokeReason: null,
    version: 1,
    operations: [{ code: 'detail', name: '详情', color: '#409EFF', show: true }],
    ...over,
  };
}

const op = (code: string, name: string) => ({ code, name, color: '#409EFF', show: true });
export const SIDE_DRAFT_OPS = [op('detail', '详情'), op('edit', '编辑'), op('submit', '提交'), op('delete', '删除')];
export const REVIEW_OPS = [op('detail', '详情'), op('audit', '审核')];

export const tree: CreditTree = {
  nodeName: '示例建设工程有限公司',
  score: 88.5,
  level: 'AA',
  badgeOf: 'records',
  children: [
    {
      primaryKey: 'good:安全文明施工',
      xxGrouping: '安全文明施工',
      nodeName: '安全文明施工',
      conduct: 'good',
      badge: 2,
      score: 3,
      children: [
        {
          primaryKey: STANDARD_GOOD,
          xxGrouping: '安全文明施工',
          nodeName: '获评省级建筑施工安全文明标准化工地',
          conduct: 'good',
          highest: 6,
          validityMonths: 12,
          badge: 2,
          score: 3,
        },
      ],
    },
    {
      primaryKey: 'bad:质量安全',
      xxGrouping: '质量安全',
      nodeName: '质量安全',
      conduct: 'bad',
      badge: 0,
      score: 0,
      children: [
        {
          primaryKey: STANDARD_BAD,
          xxGrouping: '质量安全',
          nodeName: '施工现场安全管理不到位被通报批评',
          conduct: 'bad',
          highest: 5,
          validityMonths: 6,
          badge: 0,
          score: 0,
        },
      ],
    },
  ],
};

export const info: CreditInfo = {
  subject: {
    kind: 'enterprise',
    id: OWN,
    name: '示例建设工程有限公司',
    code: '91140100MA0K8G2J7X',
    type: '施工企业',
    region: '太原市',
    enterpriseId: OWN,
    enterpriseName: '示例建设工程有限公司',
  },
  grade: {
    baseScore: 80,
    goodPoints: 10.5,
    badPoints: 2,
    score: 88.5,
    level: 'AA',
    countedRecords: 4,
    computedAt: '2026-03-01T02:00:00.000Z',
    validUntil: '2026-12-31',
  },
  levels: LEVELS,
  counts: { draft: 1, submitted: 0, passed: 4, rejected: 0, revoked: 0 },
};

export function subjectRow(n: number, over: Partial<CreditSubjectRow> = {}): CreditSubjectRow {
  return {
    ...info.subject,
    id: uuid(100 + n),
    name: n === 0 ? '示例建设工程有限公司' : `晋中路桥建设有限公司${n}`,
    grade: info.grade,
    waiting: 0,
    ...over,
  };
}

export const selectTypes: CreditSelectTypes = {
  subjectKinds: [
    { label: '企业', value: 'enterprise' },
    { label: '个人', value: 'person' },
  ],
  conducts: [
    { label: '良好行为', value: 'good' },
    { label: '不良行为', value: 'bad' },
  ],
  statuses: [{ label: '待审核', value: 'submitted' }],
  sources: [{ label: '企业申报', value: 'declared' }],
  levels: LEVELS.map((l) => ({ label: l.title, value: l.title })),
  groups: [],
};

export const levelTitles: CreditLevelTitles = { baseScore: 80, levels: LEVELS };

export function signIn(role: LoginRoleType, enterpriseName: string | null = '示例建设工程有限公司') {
  sessionStorage.setItem(SESSION_KEYS.token, `tok-${role}`);
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: role, enterpriseName }));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(role === 'M' ? ['admin'] : ['user']));
}

export interface CreditState {
  records: CreditRecord[];
  subjects: CreditSubjectRow[];
}

/** A fake of the credit endpoints for `role` (a U is an enterprise user unless `reviewer`). */
export function setupCreditServer(
  role: LoginRoleType,
  opts: { reviewer?: boolean; records?: CreditRecord[]; handlers?: Record<string, Handler> } = {},
) {
  const enterpriseName = role === 'U' && !opts.reviewer ? '示例建设工程有限公司' : null;
  signIn(role, enterpriseName);
  vi.spyOn(browser, 'pathname').mockReturnValue('/credit/companyInfo');
  const reads = role !== 'U' || opts.reviewer;
  const state: CreditState = {
    records: opts.records ?? [creditRecord(1)],
    subjects: [subjectRow(0), subjectRow(1, { grade: { ...info.grade!, level: 'B', score: 65 } })],
  };
  const forbidden = { status: 403, code: 403, message: '无权进行此操作' };
  const page = <T,>(rows: T[], b: { pageNum?: number; pageSize?: number }) => {
    const n = b.pageNum ?? 1;
    const s = b.pageSize ?? 10;
    return { records: rows.slice((n - 1) * s, n * s), total: rows.length };
  };
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: {
        userInfo: { ...userInfo, loginRoleType: role, enterpriseName },
        roles: role === 'M' ? ['admin'] : ['user'],
      },
    }),
    'GET /ks/credit/admin/select-type': () => (reads ? { data: selectTypes } : forbidden),
    'POST /ks/credit/management/top-titles': () =>
      reads
        ? {
            data: {
              levels: LEVELS.map((l) => ({ ...l, enterprises: 7, persons: 3 })),
              totals: [{ key: 'waiting', title: '待审核记录', value: 1 }],
            },
          }
        : forbidden,
    'POST /ks/credit/common/left-tree': (req) => {
      const b = bodyOf<{ subjectId?: string }>(req);
      // as the server: no subject → what waits for review (readers without an enterprise), else the own tree
      return {
        data:
          reads && !b.subjectId && !enterpriseName
            ? { ...tree, nodeName: '信用评价标准', score: null, badgeOf: 'waiting' }
            : tree,
      };
    },
    'POST /ks/credit/common/info': () => ({ data: info }),
    'POST /ks/credit/record/list': (req) => {
      const b = bodyOf<{ status?: string; pageNum?: number; pageSize?: number }>(req);
      return {
        data: page(
          state.records.filter((r) => !b.status || r.status === b.status),
          b,
        ),
      };
    },
    'POST /ks/credit/management/list': (req) => {
      if (!reads) return forbidden;
      const b = bodyOf<{ status?: string; pageNum?: number; pageSize?: number }>(req);
      return {
        data: page(
          state.records.filter((r) => !b.status || r.status === b.status),
          b,
        ),
      };
    },
    'POST /ks/credit/common/list': (req) => {
      const b = bodyOf<{ level?: string; keyword?: string; pageNum?: number; pageSize?: number }>(req);
      const rows = state.subjects.filter(
        (s) => (!b.level || s.grade?.level === b.level) && (!b.keyword || s.name.includes(b.keyword)),
      );
      return { data: page(rows, b) };
    },
    'GET /ks/basic/personal/pull-down': () => ({
      data: [
        {
          label: '李志强',
          value: uuid(301),
          certNo: '晋114000001',
          practiceArea: '一级建造师',
          enterpriseName: '示例建设工程有限公司',
        },
      ],
    }),
    'GET /ks/credit/record/description': () => ({
      data: { baseScore: 80, levels: LEVELS, standards: 27, rules: ['信用分 = 基础分 80 分 + 良好 − 不良'] },
    }),
    'POST /ks/credit/level/titles': () => ({ data: levelTitles }),
    'PUT /ks/credit/level/titles': (req) => ({ data: bodyOf(req), message: '保存成功' }),
    'POST /ks/credit/record/update': (req) => {
      const b = bodyOf<{ id: string }>(req);
      const r = state.records.find((x) => x.id === b.id)!;
      return { data: { ...r, version: r.version + 1 }, message: '保存成功' };
    },
    'POST /ks/credit/record/audit': (req) => {
      const b = bodyOf<{ id: string; pass: boolean }>(req);
      const r = state.records.find((x) => x.id === b.id)!;
      Object.assign(r, { status: b.pass ? 'passed' : 'rejected', operations: [op('detail', '详情')] });
      return { data: r, message: '操作成功' };
    },
    'POST /ks/credit/record/auto-retrieve': () => ({
      data: {
        found: 2,
        created: [creditRecord(9, { title: '获评市级文明工地', status: 'submitted', source: 'retrieved' })],
        skipped: [{ title: '串通投标', reason: '已于 2025-01-01 到期，不再计分' }],
        message: '找到 2 条已公开的认定结果，新增 1 条待审核记录，1 条未新增',
      },
    }),
    ...opts.handlers,
  });
  configureRequest({ transport: server.transport });
  return { ...server, state };
}

export function renderCredit(props: { onChange?: (r: CreditRecord) => void } = {}) {
  return renderRoutes(
    [
      { path: '/credit/companyInfo', element: <CreditRecordsWorkspace {...props} /> },
      { path: '/system/companyInfo', element: <div data-testid="company-info-page">企业信息</div> },
    ],
    '/credit/companyInfo',
  );
}

export function resetAll() {
  configureRequest();
  act(() => resetPrompts());
  vi.restoreAllMocks();
  sessionStorage.clear();
}
