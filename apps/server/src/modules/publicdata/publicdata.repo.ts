import {
  LIMIT_PRICE_TRADE_TYPES,
  type Metrics,
  type PriceLimitRow,
  type PublicTxn,
  TENDER_NOTICE_CATEGORIES,
  type TxnStatus,
} from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { likePattern } from '../../db/sql';

/**
 * The public data's SQL (issue 19). A 交易 is the group of published portal notices (`notices`, status published) of
 * one project code and section name that has a tender notice; sections of this platform (tender_sections whose notice
 * was published, named in the notices as the tender module names them: the project's 项目编号 and "code name") add the
 * opening hall's facts. Every number is aggregated here; values are bound, identifiers fixed.
 */

const list = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  );

/** The published 交易 (`txn`), as a WITH list to select from. */
function txnCte(): SQL {
  return sql`with pub as (
      select n.id, n.title, n.category, n.trade_type, n.region, n.project_code, n.project_name, n.section_name,
        n.tenderer, n.amount, n.published_at,
        coalesce(n.project_code, n.id::text) as pkey, coalesce(n.section_name, '') as skey
      from notices n
      where n.status = 'published' and n.published_at is not null
    ),
    first_notice as (
      select distinct on (p.pkey, p.skey) p.*
      from pub p
      where p.category in (${list(TENDER_NOTICE_CATEGORIES)})
      order by p.pkey, p.skey, p.published_at, p.id
    ),
    stages as (
      select p.pkey, p.skey,
        max(p.published_at) filter (where p.category = '中标结果公告') as awarded_at,
        (array_agg(p.amount order by p.published_at desc, p.id desc) filter (where p.category = '中标结果公告'))[1]
          as win_price,
        min(p.published_at) filter (where p.category = '终止公告') as terminated_at,
        bool_or(p.category = '中标候选人公示') as publicity,
        (array_agg(p.id order by p.published_at desc, p.id desc))[1] as latest_id,
        (array_agg(p.category order by p.published_at desc, p.id desc))[1] as latest_category
      from pub p
      group by p.pkey, p.skey
    ),
    platform as (
      select t.project_code as pkey, s.code || ' ' || s.name as skey, s.id as section_id,
        o.status as opening_status, o.started_at, o.closed_at, o.failure_reason,
        (select count(*) from bid_opening_bids b where b.section_id = s.id and b.status = 'decrypted')::int as bids
      from tender_sections s
      join stats_transactions t on t.section_id = s.id
      left join bid_openings o on o.section_id = s.id
      where s.notice_published_at is not null and t.project_code is not null
    ),
    txn as (
      select f.id, f.title, f.trade_type, f.region, f.project_code, f.project_name, f.section_name, f.tenderer,
        f.category, f.published_at, f.amount as control, f.pkey, f.skey,
        st.latest_id, st.latest_category,
        pl.section_id is not null as on_platform, pl.section_id, pl.opening_status, pl.failure_reason,
        pl.started_at as opening_at,
        case when pl.opening_status = 'closed' then pl.closed_at end as opened_at,
        case when pl.opening_status = 'closed' then pl.bids end as bids,
        case when st.awarded_at is not null then st.win_price end as win_price,
        case
          when st.awarded_at is not null then 'awarded'
          when st.terminated_at is not null or pl.opening_status = 'failed' then 'failed'
          when st.publicity then 'publicity'
          when pl.opening_status is not null then 'opened'
          else 'bidding'
        end as status,
        case
          when st.awarded_at is not null then st.awarded_at
          else least(st.terminated_at, case when pl.opening_status = 'failed' then pl.started_at end)
        end as concluded_at,
        f.trade_type in (${list(LIMIT_PRICE_TRADE_TYPES)}) as limit_type
      from first_notice f
      join stages st on st.pkey = f.pkey and st.skey = f.skey
      left join platform pl on pl.pkey = f.pkey and pl.skey = f.skey
    )`;
}

const and = (parts: (SQL | undefined | false)[]) => {
  const kept = parts.filter((p): p is SQL => !!p);
  return kept.length ? sql.join(kept, sql` and `) : sql`true`;
};

/** Local calendar day → the instant it starts in the centre's zone. */
const dayStart = (d: string, tz: string) => sql`(${d}::date::timestamp at time zone ${tz})`;

export interface TxnFilter {
  keyword?: string;
  tradeType?: string;
  tradeTypes?: readonly string[];
  region?: string;
  status?: TxnStatus;
  dateFrom?: string;
  dateTo?: string;
  /** only 交易 with a control price */
  priced?: boolean;
}

function txnWhere(f: TxnFilter, tz: string): SQL {
  const kw = f.keyword ? likePattern(f.keyword) : null;
  return and([
    kw !== null &&
      sql`(t.project_name ilike ${kw} or t.project_code ilike ${kw} or t.title ilike ${kw} or t.tenderer ilike ${kw})`,
    f.tradeType ? sql`t.trade_type = ${f.tradeType}` : undefined,
    f.tradeTypes ? sql`t.trade_type in (${list(f.tradeTypes)})` : undefined,
    f.region ? sql`t.region = ${f.region}` : undefined,
    f.status ? sql`t.status = ${f.status}` : undefined,
    f.dateFrom ? sql`t.published_at >= ${dayStart(f.dateFrom, tz)}` : undefined,
    f.dateTo ? sql`t.published_at < ((${f.dateTo}::date + 1)::timestamp at time zone ${tz})` : undefined,
    f.priced ? sql`t.control is not null` : undefined,
  ]);
}

/** A 交易 as the contract has it, built in SQL (json keys are the contract's). */
const txnJson = (tz: string) => sql`json_build_object(
    'id', t.id, 'title', t.title, 'projectCode', t.project_code, 'projectName', t.project_name,
    'sectionName', t.section_name, 'tradeType', t.trade_type, 'region', t.region, 'tenderer', t.tenderer,
    'publishedAt', to_char(t.published_at at time zone ${tz}, 'YYYY-MM-DD'),
    'controlPrice', t.control::float8, 'status', t.status, 'winPrice', t.win_price::float8,
    'discountRate', case when t.status = 'awarded' and t.limit_type and t.control > 0 and t.win_price is not null
      then round(1 - t.win_price / t.control, 4)::float8 end,
    'bidders', t.bids,
    'concludedAt', to_char(t.concluded_at at time zone ${tz}, 'YYYY-MM-DD'),
    'latestNoticeId', t.latest_id, 'latestCategory', t.latest_category, 'onPlatform', t.on_platform)`;

const one = async <T>(db: DbOrTx, q: SQL): Promise<T | undefined> => {
  const res = (await db.execute(q)) as unknown as { rows: T[] };
  return res.rows[0];
};

/** 交易明细: one page, newest first, and the total of the filter — one statement. */
export async function txnPage(
  db: DbOrTx,
  f: TxnFilter,
  page: { limit: number; offset: number },
  tz: string,
): Promise<{ records: PublicTxn[]; total: number }> {
  const r = await one<{ total: number; records: PublicTxn[] | null }>(
    db,
    sql`${txnCte()},
      matched as (select t.* from txn t where ${txnWhere(f, tz)})
      select (select count(*) from matched)::int as total,
        (select json_agg(x.j order by x.published_at desc, x.id desc) from (
          select ${txnJson(tz)} as j, t.published_at, t.id from matched t
          order by t.published_at desc, t.id desc limit ${page.limit} offset ${page.offset}
        ) x) as records`,
  );
  return { total: Number(r?.total ?? 0), records: r?.records ?? [] };
}

/** One 交易 by its first notice's id, with its published notices; undefined when there is none such. */
export async function txnById(db: DbOrTx, id: string, tz: string) {
  return one<{
    transaction: PublicTxn;
    notices: { id: string; title: string; category: string; publishedAt: string; amount: number | null }[];
    opening: { status: string; at: string; bidders: number; failureReason: string | null } | null;
  }>(
    db,
    sql`${txnCte()}
      select ${txnJson(tz)} as transaction,
        (select json_agg(json_build_object('id', p.id, 'title', p.title, 'category', p.category,
            'publishedAt', to_char(p.published_at at time zone ${tz}, 'YYYY-MM-DD HH24:MI'),
            'amount', p.amount::float8) order by p.published_at, p.id)
          from pub p where p.pkey = t.pkey and p.skey = t.skey) as notices,
        case when t.opening_status is not null then json_build_object(
          'status', t.opening_status,
          'at', to_char(coalesce(t.opened_at, t.opening_at) at time zone ${tz}, 'YYYY-MM-DD HH24:MI'),
          'bidders', coalesce(t.bids, 0),
          'failureReason', t.failure_reason) end as opening
      from txn t where t.id = ${id}`,
  );
}

/** 控制价公示: the published sections with a ceiling, newest first; the filter's total and amount. */
export async function priceLimitPage(
  db: DbOrTx,
  f: TxnFilter,
  page: { limit: number; offset: number },
  tz: string,
): Promise<{ records: PriceLimitRow[]; total: number; amount: number }> {
  const where = txnWhere({ ...f, tradeTypes: f.tradeType ? undefined : LIMIT_PRICE_TRADE_TYPES, priced: true }, tz);
  const r = await one<{ total: number; amount: number; records: PriceLimitRow[] | null }>(
    db,
    sql`${txnCte()},
      matched as (select t.* from txn t where ${where})
      select (select count(*) from matched)::int as total,
        (select coalesce(sum(m.control), 0) from matched m)::float8 as amount,
        (select json_agg(x.j order by x.published_at desc, x.id desc) from (
          select json_build_object('id', t.id, 'projectCode', t.project_code, 'projectName', t.project_name,
              'sectionName', t.section_name, 'tradeType', t.trade_type, 'category', t.category, 'region', t.region,
              'tenderer', t.tenderer, 'controlPrice', t.control::float8,
              'publishedAt', to_char(t.published_at at time zone ${tz}, 'YYYY-MM-DD'), 'onPlatform', t.on_platform) as j,
            t.published_at, t.id
          from matched t order by t.published_at desc, t.id desc limit ${page.limit} offset ${page.offset}
        ) x) as records`,
  );
  return { total: Number(r?.total ?? 0), amount: Number(r?.amount ?? 0), records: r?.records ?? [] };
}

// ---- indicators -----------------------------------------------------------------------------------------------------

export interface IndicatorRange {
  /** date_trunc's unit: month | quarter | year */
  unit: 'month' | 'quarter' | 'year';
  /** months per period */
  step: number;
  /** first day of the first period and of the month after the last, YYYY-MM-DD (local) */
  from: string;
  to: string;
  region?: string;
  tradeType?: string;
}

type Row = Metrics & { kind: 'p' | 'r' | 't' | 'all'; name: string | null };

const METRICS = sql`
  count(*) filter (where e.k = 'pub')::int as published,
  coalesce(sum(e.control) filter (where e.k = 'pub'), 0)::float8 as "controlAmount",
  count(*) filter (where e.k = 'open')::int as opened,
  coalesce(sum(e.bids) filter (where e.k = 'open'), 0)::int as "bidsOpened",
  round(avg(e.bids) filter (where e.k = 'open'), 2)::float8 as bidders,
  count(*) filter (where e.k = 'win')::int as awarded,
  coalesce(sum(e.win) filter (where e.k = 'win'), 0)::float8 as "awardAmount",
  count(*) filter (where e.k = 'win' and e.limit_type and e.control > 0 and e.win is not null)::int as "discountSamples",
  round(avg(1 - e.win / e.control) filter (where e.k = 'win' and e.limit_type and e.control > 0 and e.win is not null), 4)::float8
    as "discountRate",
  count(*) filter (where e.k = 'fail')::int as failed,
  count(*) filter (where e.k in ('win', 'fail'))::int as concluded,
  round(count(*) filter (where e.k = 'fail')::numeric / nullif(count(*) filter (where e.k in ('win', 'fail')), 0), 4)::float8
    as "retenderRate"`;

const COLS = sql`coalesce(a.published, 0) as published, coalesce(a."controlAmount", 0) as "controlAmount",
  coalesce(a.opened, 0) as opened, coalesce(a."bidsOpened", 0) as "bidsOpened", a.bidders,
  coalesce(a.awarded, 0) as awarded, coalesce(a."awardAmount", 0) as "awardAmount",
  coalesce(a."discountSamples", 0) as "discountSamples", a."discountRate", coalesce(a.failed, 0) as failed,
  coalesce(a.concluded, 0) as concluded, a."retenderRate"`;

/**
 * The indicators of a range, per period, per region, per trade type and in total — one statement (grouping sets over
 * the 交易's events: published, opened in the hall, awarded or failed, each at its own time). Every period of the
 * range is answered, empty ones with zeros.
 */
export async function indicators(db: DbOrTx, r: IndicatorRange, tz: string) {
  const label = r.unit === 'month' ? 'YYYY-MM' : r.unit === 'quarter' ? 'YYYY-"Q"Q' : 'YYYY';
  const from = dayStart(r.from, tz);
  const to = dayStart(r.to, tz);
  const res = (await db.execute(
    sql`${txnCte()},
      f as (select t.* from txn t where ${and([
        r.region ? sql`t.region = ${r.region}` : undefined,
        r.tradeType ? sql`t.trade_type = ${r.tradeType}` : undefined,
      ])}),
      ev as (
        select f.published_at as at, 'pub'::text as k, f.region, f.trade_type, f.control, null::numeric as win,
          null::int as bids, f.limit_type
        from f
        union all
        select f.opened_at, 'open', f.region, f.trade_type, f.control, null, f.bids, f.limit_type
        from f where f.opened_at is not null
        union all
        select f.concluded_at, case when f.status = 'awarded' then 'win' else 'fail' end, f.region, f.trade_type,
          f.control, f.win_price, null, f.limit_type
        from f where f.status in ('awarded', 'failed') and f.concluded_at is not null
      ),
      e as (
        select date_trunc(${r.unit}::text, ev.at at time zone ${tz}) as bucket, ev.*
        from ev where ev.at >= ${from} and ev.at < ${to}
      ),
      a0 as (
        select grouping(e.bucket) as gb, grouping(e.region) as gr, grouping(e.trade_type) as gt,
          e.bucket, e.region, e.trade_type, ${METRICS}
        from e group by grouping sets ((e.bucket), (e.region), (e.trade_type), ())
      )
      select 'p' as kind, to_char(s.b, ${label}) as name, ${COLS}
      from generate_series(${r.from}::timestamp, (${r.to}::date - 1)::timestamp, make_interval(months => ${r.step}::int)) s(b)
      left join a0 a on a.gb = 0 and a.gr = 1 and a.gt = 1 and a.bucket = date_trunc(${r.unit}::text, s.b)
      union all
      select 'r', a.region, ${COLS} from a0 a where a.gr = 0
      union all
      select 't', a.trade_type, ${COLS} from a0 a where a.gt = 0
      union all
      select 'all', null, ${COLS} from a0 a where a.gb = 1 and a.gr = 1 and a.gt = 1`,
  )) as unknown as { rows: Row[] };
  const metricsOf = (x: Row): Metrics => ({
    published: Number(x.published),
    controlAmount: Number(x.controlAmount),
    opened: Number(x.opened),
    bidsOpened: Number(x.bidsOpened),
    bidders: x.bidders === null ? null : Number(x.bidders),
    awarded: Number(x.awarded),
    awardAmount: Number(x.awardAmount),
    discountSamples: Number(x.discountSamples),
    discountRate: x.discountRate === null ? null : Number(x.discountRate),
    failed: Number(x.failed),
    concluded: Number(x.concluded),
    retenderRate: x.retenderRate === null ? null : Number(x.retenderRate),
  });
  const rows = res.rows;
  const total = rows.find((x) => x.kind === 'all');
  const byPublished = (a: { published: number; name: string }, b: { published: number; name: string }) =>
    b.published - a.published || a.name.localeCompare(b.name, 'zh-CN');
  return {
    total: total ? metricsOf(total) : metricsOf({ ...EMPTY, kind: 'all', name: null }),
    periods: rows.filter((x) => x.kind === 'p').map((x) => ({ period: String(x.name), ...metricsOf(x) })),
    byRegion: rows
      .filter((x) => x.kind === 'r')
      .map((x) => ({ name: String(x.name), ...metricsOf(x) }))
      .sort(byPublished),
    byTradeType: rows
      .filter((x) => x.kind === 't')
      .map((x) => ({ name: String(x.name), ...metricsOf(x) }))
      .sort(byPublished),
  };
}

export const EMPTY: Metrics = {
  published: 0,
  controlAmount: 0,
  opened: 0,
  bidsOpened: 0,
  bidders: null,
  awarded: 0,
  awardAmount: 0,
  discountSamples: 0,
  discountRate: null,
  failed: 0,
  concluded: 0,
  retenderRate: null,
};
