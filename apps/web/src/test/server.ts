import type {
  AdminNotice,
  HomeOverview,
  MarketDetail,
  MarketEntity,
  NoticeDetail,
  NoticeSummary,
  PlatformInfo,
  SystemItem,
  UserInfo,
} from '@ks/contracts';
import { NOTICE_CATEGORIES, TRADE_TYPES } from '@ks/contracts';
import type { Transport, TransportRequest, TransportResponse } from '../api/request';

/** A fake /ks server for component tests: handlers by "METHOD path", every call recorded. */
export type Handler = (req: TransportRequest) => { status?: number; code?: number; message?: string; data?: unknown };

export const platformInfo: PlatformInfo = {
  describe: '主办单位：某某省公共资源交易中心',
  filingsCoding: '晋ICP备12345678号-1',
  version: '1.0.0',
  platformName: '某某省公共资源交易平台',
  phone: '400-800-1234',
};

export const userInfo: UserInfo = {
  id: 'u-1',
  userName: '张三',
  loginRoleType: 'M',
  photo: null,
  practicingStatus: { practiceDetails: [] },
  enterpriseName: '某某建设工程有限公司',
};

export const systems: SystemItem[] = [
  { systemName: '信用评价管理系统', systemCoding: 'xypj', title: '信用评价', todoCount: 3 },
  { systemName: '电子招投标系统', systemCoding: 'ztb', title: '招投标', todoCount: 120 },
  { systemName: '专家抽取系统', systemCoding: 'zjcq', title: '专家抽取', todoCount: 0 },
];

/** A notice summary with a stable UUID built from n. */
export function noticeSummary(n: number, over: Partial<NoticeSummary> = {}): NoticeSummary {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: `示例公告${n}`,
    category: NOTICE_CATEGORIES[n % NOTICE_CATEGORIES.length],
    tradeType: TRADE_TYPES[n % TRADE_TYPES.length],
    region: '太原市',
    projectCode: `SX-2026-${String(n).padStart(4, '0')}`,
    publishedAt: `2026-03-${String((n % 28) + 1).padStart(2, '0')}T02:30:00.000Z`,
    ...over,
  };
}

export const overview: HomeOverview = {
  byCategory: NOTICE_CATEGORIES.map((category, i) => ({
    category,
    items: [noticeSummary(i * 10 + 1, { category, title: `${category}示例一` })],
  })),
  byTradeType: TRADE_TYPES.map((tradeType, i) => ({
    tradeType,
    items: [noticeSummary(i * 10 + 2, { tradeType, title: `${tradeType}示例一` })],
  })),
  stats: { projects: 1234, transactionAmount: '1234567890.12', enterprises: 56, notices: 789 },
};

export function noticeDetail(n: number, over: Partial<NoticeDetail> = {}): NoticeDetail {
  return {
    ...noticeSummary(n),
    bodyHtml: '<p>正文</p>',
    attachments: [
      { name: '招标文件.pdf', url: '/ks/common/common/file/download?fileId=20000000-0000-4000-a000-000000000001' },
    ],
    amount: '1234567.5',
    tenderer: '某某市住房和城乡建设局',
    projectName: '某某市滨河东路道路改造工程',
    sectionName: '施工一标段',
    ...over,
  };
}

export function adminNotice(n: number, over: Partial<AdminNotice> = {}): AdminNotice {
  return {
    ...noticeDetail(n),
    status: 'draft',
    version: 1,
    updatedAt: '2026-03-01T00:00:00.000Z',
    createdBy: '平台管理员',
    ...over,
  };
}

export function marketEntity(n: number, over: Partial<MarketEntity> = {}): MarketEntity {
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind: 'enterprise',
    name: `示例建设工程有限公司${n}`,
    code: `91140100MA0${String(n).padStart(7, '0')}`,
    type: '施工企业',
    region: '太原市',
    creditGrade: 'AA',
    enterpriseName: null,
    ...over,
  };
}

export function marketDetail(n: number, over: Partial<MarketDetail> = {}): MarketDetail {
  return {
    basic: {
      ...marketEntity(n),
      legalPerson: '李四',
      address: '太原市小店区示例路1号',
      registeredCapital: '5000万元',
      establishedAt: '2010-05-01',
      creditScore: 92.5,
    },
    qualifications: [
      { name: '建筑工程施工总承包', level: '一级', certNo: 'D114000001', validUntil: '2028-12-31', expired: false },
    ],
    performances: [],
    creditRecords: [
      {
        kind: '良好',
        title: '省级优质工程',
        score: 2,
        issuer: '省住房和城乡建设厅',
        startDate: '2025-01-01',
        endDate: null,
        expired: false,
      },
    ],
    ...over,
  };
}

export function jsonResponse(status: number, body: unknown): TransportResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => text,
    blob: async () => new Blob([text], { type: 'application/json' }),
  };
}

export function createFakeServer(handlers: Record<string, Handler>) {
  const calls: TransportRequest[] = [];
  const transport: Transport = async (req) => {
    calls.push(req);
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const handler = handlers[key];
    if (!handler) return jsonResponse(404, { code: 404, data: null, message: `no handler for ${key}` });
    const r = handler(req);
    const status = r.status ?? 200;
    return jsonResponse(status, { code: r.code ?? status, data: r.data ?? null, message: r.message ?? '操作成功' });
  };
  const callsTo = (path: string) => calls.filter((c) => c.url.split('?')[0] === path);
  return { transport, calls, callsTo };
}
