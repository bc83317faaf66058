import {
  appNow,
  appToday,
  GRANULARITY_MONTHS,
  type Granularity,
  type Indicators,
  type MonitoringReport,
  OPENING_STATUS_LABELS,
  type OpeningStatus,
  type PersonDetail,
  PUBLIC_DATA_MSG,
  type PublicTxnDetail,
  previousReportPeriod,
  reportPeriodOf,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { AppError, notFound, validationFailed } from '../../platform/errors';
import * as market from '../portal/market.repo';
import { listMarket, marketDetail } from '../portal/market.service';
import * as repo from './publicdata.repo';
import { findingsOf, reportPdf } from './publicdata.report';

/**
 * 公共数据 (issue 19): published transactions, control prices, the market's people and the indicators and monitoring
 * report built from them. Everyone signed in reads the same (it is published data); nothing unpublished is read
 * (publicdata.repo), persons come through the market pages' own reads with their certificate numbers masked.
 */

export interface PublicDataDeps {
  db: Db;
  now: () => Date;
  tz: string;
}

const paging = (q: { pageNum: number; pageSize: number }) => ({
  limit: q.pageSize,
  offset: (q.pageNum - 1) * q.pageSize,
});

// ---- 交易明细, 控制价公示 -------------------------------------------------------------------------------------------

export function detailsList(d: PublicDataDeps, q: repo.TxnFilter & { pageNum: number; pageSize: number }) {
  return repo.txnPage(d.db, q, paging(q), d.tz);
}

export async function details(d: PublicDataDeps, id: string): Promise<PublicTxnDetail> {
  const r = await repo.txnById(d.db, id, d.tz);
  if (!r) throw notFound(PUBLIC_DATA_MSG.transactionMissing);
  return {
    transaction: r.transaction,
    notices: r.notices,
    opening: r.opening
      ? {
          ...r.opening,
          statusLabel: OPENING_STATUS_LABELS[r.opening.status as OpeningStatus] ?? r.opening.status,
        }
      : null,
  };
}

export function priceLimits(d: PublicDataDeps, q: repo.TxnFilter & { pageNum: number; pageSize: number }) {
  return repo.priceLimitPage(d.db, q, paging(q), d.tz);
}

// ---- 人员 -----------------------------------------------------------------------------------------------------------

/** 从业人员 as the market list shows them (certificate numbers masked there), with the practice areas to filter by. */
export async function persons(
  d: PublicDataDeps,
  q: { keyword?: string; practiceArea?: string; pageNum: number; pageSize: number },
) {
  const [page, areas] = await Promise.all([
    listMarket(d.db, {
      kind: 'practitioner',
      keyword: q.keyword,
      practiceArea: q.practiceArea,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    }),
    market.practiceAreas(d.db),
  ]);
  return {
    total: page.total,
    records: page.records.map((p) => ({
      id: p.id,
      name: p.name,
      enterpriseName: p.enterpriseName,
      practiceArea: p.type,
      region: p.region,
      certNo: p.code,
      creditGrade: p.creditGrade,
    })),
    practiceAreas: areas,
  };
}

/** One person's public record: exactly the fields of the contract, nothing else of the row. */
export async function person(d: PublicDataDeps, id: string): Promise<PersonDetail> {
  const m = await marketDetail(d.db, 'practitioner', id, d.now()).catch((e: unknown) => {
    if (e instanceof AppError && e.httpStatus === 404) throw notFound(PUBLIC_DATA_MSG.personMissing);
    throw e;
  });
  return {
    id: m.basic.id,
    name: m.basic.name,
    enterpriseName: m.basic.enterpriseName,
    practiceArea: m.basic.type,
    region: m.basic.region,
    certNo: m.basic.code,
    creditGrade: m.basic.creditGrade,
    creditScore: m.basic.creditScore,
    qualifications: m.qualifications.map((x) => ({
      name: x.name,
      level: x.level,
      certNo: x.certNo,
      validUntil: x.validUntil,
      expired: x.expired,
    })),
    performances: m.performances.map((x) => ({
      projectName: x.projectName,
      role: x.role,
      builder: x.builder,
      amount: x.amount,
      completedAt: x.completedAt,
    })),
    creditRecords: m.creditRecords.map((x) => ({
      kind: x.kind,
      title: x.title,
      score: x.score,
      issuer: x.issuer,
      startDate: x.startDate,
      endDate: x.endDate,
      expired: x.expired,
    })),
  };
}

// ---- 市场指标 -------------------------------------------------------------------------------------------------------

/** 'YYYY-MM' plus n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const k = y * 12 + (m - 1) + n;
  return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
}

/** The first month of the period of `g` that holds `month`. */
function periodStart(month: string, g: Granularity): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = g === 'year' ? 1 : g === 'quarter' ? Math.floor((m - 1) / 3) * 3 + 1 : m;
  return `${y}-${String(first).padStart(2, '0')}`;
}

/** How many periods the range shows when none is asked for. */
const DEFAULT_PERIODS: Record<Granularity, number> = { month: 12, quarter: 8, year: 5 };

/** The range asked for (else the last periods up to this month), widened to whole periods. */
export function rangeOf(
  d: PublicDataDeps,
  q: { granularity: Granularity; startMonth?: string; endMonth?: string },
): { startMonth: string; endMonth: string; range: Omit<repo.IndicatorRange, 'region' | 'tradeType'> } {
  const g = q.granularity;
  const step = GRANULARITY_MONTHS[g];
  const thisMonth = appToday(d.now(), d.tz).slice(0, 7);
  const end = q.endMonth ?? (q.startMonth && q.startMonth > thisMonth ? q.startMonth : thisMonth);
  const lastStart = periodStart(end, g);
  const start = q.startMonth
    ? periodStart(q.startMonth, g)
    : periodStart(addMonths(lastStart, -(DEFAULT_PERIODS[g] - 1) * step), g);
  if (lastStart < start) throw validationFailed({ endMonth: [PUBLIC_DATA_MSG.monthOrder] });
  const after = addMonths(lastStart, step);
  return {
    startMonth: start,
    endMonth: addMonths(after, -1),
    range: { unit: g, step, from: `${start}-01`, to: `${after}-01` },
  };
}

export async function indicators(
  d: PublicDataDeps,
  q: { granularity: Granularity; startMonth?: string; endMonth?: string; region?: string; tradeType?: string },
): Promise<Indicators> {
  const { startMonth, endMonth, range } = rangeOf(d, q);
  const r = await repo.indicators(d.db, { ...range, region: q.region, tradeType: q.tradeType }, d.tz);
  return { granularity: q.granularity, startMonth, endMonth, ...r };
}

// ---- 监测报告 -------------------------------------------------------------------------------------------------------

const lastDay = (month: string) => {
  const next = addMonths(month, 1);
  const d = new Date(`${next}-01T00:00:00Z`);
  return new Date(d.getTime() - 86_400_000).toISOString().slice(0, 10);
};

export async function report(d: PublicDataDeps, q: { period: string; region?: string }): Promise<MonitoringReport> {
  const p = reportPeriodOf(q.period);
  const prevPeriod = previousReportPeriod(q.period);
  const pp = prevPeriod ? reportPeriodOf(prevPeriod) : null;
  if (!p || !pp || !prevPeriod) {
    throw validationFailed({ period: [PUBLIC_DATA_MSG.badPeriod] });
  }
  const today = appToday(d.now(), d.tz);
  if (`${p.startMonth}-01` > today) {
    throw validationFailed({ period: [PUBLIC_DATA_MSG.futurePeriod] });
  }
  const step = p.kind === 'month' ? 1 : 3;
  const span = (start: string, end: string): repo.IndicatorRange => ({
    unit: p.kind,
    step,
    from: `${start}-01`,
    to: `${addMonths(end, 1)}-01`,
    region: q.region,
  });
  const trendMonths = p.kind === 'month' ? 6 : 12;
  // a running period's trend stops at this month: the months to come have nothing yet
  const thisMonth = today.slice(0, 7);
  const trendEnd = p.endMonth < thisMonth ? p.endMonth : thisMonth;
  const [cur, prev, trend] = await Promise.all([
    repo.indicators(d.db, span(p.startMonth, p.endMonth), d.tz),
    repo.indicators(d.db, span(pp.startMonth, pp.endMonth), d.tz),
    repo.indicators(
      d.db,
      {
        unit: 'month',
        step: 1,
        from: `${addMonths(trendEnd, -(trendMonths - 1))}-01`,
        to: `${addMonths(trendEnd, 1)}-01`,
        region: q.region,
      },
      d.tz,
    ),
  ]);
  const end = lastDay(p.endMonth);
  return {
    period: q.period,
    label: p.label,
    kind: p.kind,
    previousPeriod: prevPeriod,
    previousLabel: pp.label,
    region: q.region ?? null,
    start: `${p.startMonth}-01`,
    end: end < today ? end : today,
    current: cur.total,
    previous: prev.total,
    trend: trend.periods,
    byRegion: cur.byRegion,
    byTradeType: cur.byTradeType,
    findings: findingsOf(cur.total, prev.total, cur.byRegion, q.region ? `${q.region}` : ''),
    generatedAt: appNow(d.now(), d.tz),
  };
}

export async function reportFile(d: PublicDataDeps, q: { period: string; region?: string }) {
  const r = await report(d, q);
  return { name: `市场监测报告-${r.label}${r.region ? `-${r.region}` : ''}.pdf`, pdf: reportPdf(r) };
}
