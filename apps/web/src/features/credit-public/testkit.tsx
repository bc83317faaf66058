import type { CreditPublicRow } from '@ks/contracts';
import { act } from '@testing-library/react';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { createPortalServer, queryOf } from '../../test/portal';
import type { Handler } from '../../test/server';
import { setupShell } from '../shell/testData';
import type { CreditLetter } from './LetterView';

/** Fixtures and fake servers of the credit-public pages (test-only module). */

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const OWN = uuid(1);

export const LEVELS = [
  { title: 'AAA', minScore: 90, maxScore: null },
  { title: 'AA', minScore: 80, maxScore: 90 },
  { title: 'A', minScore: 70, maxScore: 80 },
  { title: 'B', minScore: 60, maxScore: 70 },
  { title: 'C', minScore: 0, maxScore: 60 },
];

const BRANDS = ['山西汾河', '山西太行', '山西晋阳', '太原龙城', '大同云冈'];
/** 23 enterprises in name order: levels cycling, one never evaluated. */
export const publicRows: CreditPublicRow[] = Array.from({ length: 23 }, (_, i) => ({
  name: `${BRANDS[i % BRANDS.length]}建设工程有限公司${String(i + 1).padStart(2, '0')}`,
  creditCode: `91140100MA0K${String(i).padStart(5, '0')}X`,
  level: i === 22 ? null : LEVELS[i % LEVELS.length]!.title,
  score: i === 22 ? null : 95 - i,
  evaluatedOn: i === 22 ? null : '2026-11-20',
  validUntil: i % 3 === 0 ? null : '2027-06-30',
})).sort((a, b) => (a.name < b.name ? -1 : 1));

/** The public list as the server answers it: code, name prefix or part, level, page (total capped at `cap`). */
export function publicListHandler(cap = 1000): Handler {
  return (req: TransportRequest) => {
    const q = queryOf(req);
    const kw = q.get('keyword') ?? '';
    const level = q.get('level');
    const rows = publicRows.filter(
      (r) =>
        (!kw ||
          r.creditCode === kw.toUpperCase() ||
          (q.get('match') === 'contains' ? r.name.includes(kw) : r.name.startsWith(kw))) &&
        (!level || r.level === level),
    );
    const size = Number(q.get('pageSize') ?? 10);
    const num = Number(q.get('pageNum') ?? 1);
    return {
      data: {
        records: rows.slice((num - 1) * size, num * size),
        total: Math.min(rows.length, cap),
        totalCapped: rows.length > cap,
      },
    };
  };
}

export const publicHandlers = (cap?: number): Record<string, Handler> => ({
  'GET /ks/credit/public/list': publicListHandler(cap),
  'GET /ks/credit/public/levels': () => ({ data: { levels: LEVELS } }),
});

/** A visitor: the portal's calls and the public credit calls, no session. */
export function setupVisitor(cap?: number) {
  const server = createPortalServer(publicHandlers(cap));
  configureRequest({ transport: server.transport });
  return server;
}

export function letter(n: number, over: Partial<CreditLetter> = {}): CreditLetter {
  const name = n === 1 ? '示例建设工程有限公司' : `山西企业${n}有限公司`;
  return {
    enterpriseId: uuid(n),
    enterpriseName: name,
    creditCode: `91140100MA0K${String(n).padStart(5, '0')}Y`,
    legalPerson: `法人${n}`,
    content: [
      '信用承诺书',
      `本单位${name}自愿参与公共资源交易活动，现郑重承诺：`,
      '一、依法诚信参与交易活动；',
      `承诺单位：${name}`,
      `法定代表人：法人${n}`,
      '日期：2026-11-26',
    ].join('\n'),
    signed: false,
    signedAt: null,
    signerName: null,
    ...over,
  };
}

export const bodyJson = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));

/**
 * A signed-in user in the shell with a stateful letter store: the own enterprise (1) and 24 others; 签署 signs the own
 * one once (then 409); enterprise users reach only their own (404).
 */
export function setupLetters(roleType: 'M' | 'D' | 'U', handlers: Record<string, Handler> = {}) {
  const letters = Array.from({ length: 25 }, (_, i) =>
    letter(i + 1, i % 4 === 3 ? { signed: true, signedAt: '2026-10-01T02:00:00.000Z', signerName: '王五' } : {}),
  );
  const readsAll = roleType !== 'U';
  const result = setupShell({
    roleType,
    systemCoding: 'XYGL',
    handlers: {
      'POST /ks/credit/credit/letter/list': (req) => {
        if (!readsAll) return { status: 403, code: 403, message: '无权访问' };
        const b = bodyJson(req);
        const rows = letters.filter(
          (l) =>
            (!b.keyword || l.enterpriseName.includes(b.keyword) || l.creditCode.includes(b.keyword)) &&
            (b.signed === undefined || l.signed === b.signed),
        );
        return {
          data: { records: rows.slice((b.pageNum - 1) * b.pageSize, b.pageNum * b.pageSize), total: rows.length },
        };
      },
      'POST /ks/credit/credit/letter/lc-info': (req) => {
        const id = bodyJson(req).enterpriseId ?? (roleType === 'U' ? OWN : null);
        if (!id) return { status: 403, code: 403, message: '当前账号未关联企业，请指定企业' };
        if (!readsAll && id !== OWN) return { status: 404, code: 404, message: '企业不存在' };
        const l = letters.find((x) => x.enterpriseId === id);
        return l ? { data: l } : { status: 404, code: 404, message: '企业不存在' };
      },
      'POST /ks/credit/credit/letter/sign': () => {
        if (roleType !== 'U') return { status: 403, code: 403, message: '无权访问' };
        const own = letters[0]!;
        if (own.signed) return { status: 409, code: 409, message: '信用承诺书已签署' };
        Object.assign(own, { signed: true, signedAt: '2026-11-26T03:00:00.000Z', signerName: '张三' });
        return { data: own, message: '签署成功' };
      },
      ...handlers,
    },
  });
  return { ...result, letters };
}

export function resetAll() {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
}
