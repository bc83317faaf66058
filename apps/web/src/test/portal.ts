import { CREDIT_DEFAULT_LEVELS, type MarketEntity, type NoticeSummary } from '@ks/contracts';
import type { TransportRequest } from '../api/request';
import {
  createFakeServer,
  type Handler,
  marketDetail,
  marketEntity,
  noticeDetail,
  noticeSummary,
  overview,
  platformInfo,
} from './server';

/** The query of a recorded request. */
export function queryOf(req: TransportRequest): URLSearchParams {
  return new URLSearchParams(req.url.split('?')[1] ?? '');
}

/** 35 published notices; the list handler filters by category / tradeType / keyword and pages like the server. */
export const allNotices: NoticeSummary[] = Array.from({ length: 35 }, (_, i) => noticeSummary(i + 1));

export const allEntities: MarketEntity[] = Array.from({ length: 12 }, (_, i) =>
  marketEntity(i + 1, { creditGrade: i % 3 === 0 ? 'AAA' : 'AA' }),
);

function page<T>(rows: T[], q: URLSearchParams) {
  const pageNum = Number(q.get('pageNum') ?? 1);
  const pageSize = Number(q.get('pageSize') ?? 10);
  return { records: rows.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: rows.length };
}

/** A fake server with every public portal endpoint; `handlers` replace or add endpoints. */
export function createPortalServer(handlers: Record<string, Handler> = {}) {
  return createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/portal/v1/home/config': () => ({ data: { loginMode: 'ggfw', bidHallUrl: 'https://hall.example.test/' } }),
    'GET /ks/portal/v1/home/overview': () => ({ data: overview }),
    'GET /ks/portal/v1/notices': (req) => {
      const q = queryOf(req);
      const rows = allNotices.filter(
        (n) =>
          (!q.get('category') || n.category === q.get('category')) &&
          (!q.get('tradeType') || n.tradeType === q.get('tradeType')) &&
          (!q.get('keyword') || n.title.includes(q.get('keyword') ?? '')),
      );
      return { data: page(rows, q) };
    },
    'GET /ks/portal/v1/notices/detail': (req) => {
      const id = queryOf(req).get('id');
      const n = allNotices.find((x) => x.id === id);
      if (!n) return { status: 404, code: 404, message: '该公告不存在或已撤回' };
      return { data: noticeDetail(allNotices.indexOf(n) + 1) };
    },
    'GET /ks/portal/v1/common/enterprise-types': () => ({
      data: ['施工企业', '监理企业', '招标代理机构'].map((v) => ({ label: v, value: v })),
    }),
    'GET /ks/portal/v1/common/practice-areas': () => ({
      data: ['一级建造师', '注册造价工程师'].map((v) => ({ label: v, value: v })),
    }),
    'GET /ks/portal/v1/market/entities': (req) => {
      const q = queryOf(req);
      const kind = q.get('kind') ?? 'enterprise';
      const rows = allEntities
        .map((e) => ({ ...e, kind: kind as MarketEntity['kind'] }))
        .filter((e) => !q.get('creditGrade') || e.creditGrade === q.get('creditGrade'));
      return { data: page(rows, q) };
    },
    // the credit levels administrators set (the defaults here)
    'GET /ks/credit/public/levels': () => ({
      data: {
        levels: CREDIT_DEFAULT_LEVELS.map((l, i, all) => ({
          title: l.title,
          minScore: l.minScore,
          maxScore: i === 0 ? null : all[i - 1]!.minScore,
        })),
      },
    }),
    'GET /ks/portal/v1/market/detail': (req) => {
      const id = queryOf(req).get('id');
      const i = allEntities.findIndex((e) => e.id === id);
      if (i < 0) return { status: 404, code: 404, message: '市场主体不存在' };
      return { data: marketDetail(i + 1) };
    },
    ...handlers,
  });
}
