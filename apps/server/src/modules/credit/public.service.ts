import { appTimeZone, type CreditPublicRow } from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createCache } from '../../platform/cache';
import { executePrepared, renderCached } from '../../platform/prepared';
import { likeContains } from './credit.repo';
import { freshen, todayOf } from './grade.service';

/**
 * The public credit list (信用公示, no sign-in): enterprises by name (a prefix, or any part) or by unified social credit
 * code, with their grade, score and how long it holds — nothing else: no records, no evidence, no people.
 *
 * A name prefix is one range scan of `enterprises_name_c_idx` (name in byte order, `collate "C"`) that is also the
 * order of the page, so page 1 reads ten index entries however many names match; a credit code is one probe of the
 * unique index. The total is counted up to 1,000 (`totalCapped` beyond), never over every match, and a count is kept
 * per search with the `credit_list_version` it was made at: the statement answers the kept count while the version
 * still has that value (any statement adding, removing, renaming or re-coding an enterprise or writing a grade moves
 * it), and counts otherwise — so repeated searches do not count again, and never answer a count out of date. A grade
 * that ran out is regraded before the page is answered.
 */

const CODE = /^[0-9A-HJ-NP-RTUW-Y]{18}$/;
const COUNT_CAP = 1000;

/** Counts kept by database and search, with the list version they were made at. */
const counts = createCache<string, { n: number; v: number }>('credit.publicCounts', { max: 5000 });
const dbIds = new WeakMap<Db, number>();
let lastDbId = 0;
const dbId = (db: Db): number => {
  const known = dbIds.get(db);
  if (known !== undefined) return known;
  lastDbId++;
  dbIds.set(db, lastDbId);
  return lastDbId;
};

type Search = 'all' | 'code' | 'prefix' | 'contains';

/**
 * One statement per request (a named prepared statement, rendered once per shape): the total counted up to the cap,
 * the page's keys read in index order (`enterprises_name_c_idx` holds name and id: an index-only scan that stops at the
 * page), then their rows and grades by key; the count joined so that an empty page still answers it.
 */
function statement(db: Db, search: Search, level: boolean, values: Map<string, unknown>) {
  return renderCached(
    db,
    `credit-public:${search}:${level ? 1 : 0}`,
    (bind) => {
      const conds: SQL[] = [];
      if (search === 'code') conds.push(sql`e.credit_code = ${bind('kw', values.get('kw'))}`);
      // a prefix as the index range it is (every name starting with it sorts, bytewise, from it up to it followed by
      // the highest code point), so that a generic plan of the prepared statement still reads only that range
      if (search === 'prefix') {
        conds.push(
          sql`e.name collate "C" >= ${bind('lo', values.get('lo'))} and e.name collate "C" < ${bind('hi', values.get('hi'))}`,
        );
      }
      if (search === 'contains') conds.push(sql`e.name collate "C" like ${bind('kw', values.get('kw'))}`);
      if (level) conds.push(sql`g.level = ${bind('level', values.get('level'))}`);
      const where = conds.length ? sql.join(conds, sql` and `) : sql`true`;
      const graded = level ? sql`join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id` : sql``;
      // the kept count while the list version still has its value; counting otherwise (a branch run only when taken)
      return sql`with lv as (select v from credit_list_version where id = 1),
          c as (select case when (select v from lv) = ${bind('kv', values.get('kv'))}::bigint
              then ${bind('kn', values.get('kn'))}::int
              else (select count(*)::int from (select 1 from enterprises e ${graded} where ${where}
                limit ${COUNT_CAP + 1}) t) end as n,
            (select v from lv) as v),
          k as materialized (select e.id from enterprises e ${graded} where ${where}
            order by e.name collate "C", e.id
            limit ${bind('limit', values.get('limit'))} offset ${bind('offset', values.get('offset'))})
        select c.n as ks_total, c.v as ks_version, p.* from c left join (
          select e.id, e.name, e.credit_code, g.level, g.score,
            to_char(g.computed_at at time zone ${bind('tz', values.get('tz'))}, 'YYYY-MM-DD') as evaluated_on,
            g.valid_until::text as valid_until
          from k join enterprises e on e.id = k.id
            left join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id
        ) p on true
        order by p.name collate "C", p.id`;
    },
    values,
  );
}

export async function publicList(
  db: Db,
  q: { keyword?: string; match: 'prefix' | 'contains'; level?: string; pageNum: number; pageSize: number },
  now: Date,
) {
  const values = new Map<string, unknown>();
  const kw = q.keyword?.trim();
  let search: Search = 'all';
  if (kw) {
    const code = kw.toUpperCase();
    if (CODE.test(code)) {
      search = 'code';
      values.set('kw', code);
    } else {
      search = q.match;
      if (search === 'contains') values.set('kw', likeContains(kw));
      else {
        values.set('lo', kw);
        values.set('hi', `${kw}\u{10FFFF}`);
      }
    }
  }
  if (q.level) values.set('level', q.level);
  // the calendar day of the evaluation in the platform's zone
  values.set('tz', appTimeZone());
  values.set('limit', q.pageSize);
  values.set('offset', (q.pageNum - 1) * q.pageSize);
  const countKey = `${dbId(db)}|${search}|${String(values.get('kw') ?? values.get('lo') ?? '')}|${q.level ?? ''}`;
  const kept = counts.get(countKey);
  values.set('kv', kept?.v ?? -1);
  values.set('kn', kept?.n ?? 0);
  const page = async () => executePrepared(db, statement(db, search, Boolean(q.level), values));
  let rows = await page();
  const today = todayOf(now);
  const stale = rows.filter((r) => r.id !== null && r.valid_until !== null && String(r.valid_until) < today);
  if (stale.length) {
    await freshen(
      db,
      stale.map((r) => ({ kind: 'enterprise' as const, id: String(r.id) })),
      now,
    );
    rows = await page();
  }
  const n = Number(rows[0]?.ks_total ?? 0);
  counts.set(countKey, { n, v: Number(rows[0]?.ks_version ?? -1) });
  return {
    // only these keys leave the server (the response schema is strict too)
    records: rows
      .filter((r) => r.id !== null)
      .map(
        (r): CreditPublicRow => ({
          name: String(r.name),
          creditCode: String(r.credit_code),
          level: r.level === null ? null : String(r.level),
          score: r.score === null ? null : Number(r.score),
          evaluatedOn: r.evaluated_on === null ? null : String(r.evaluated_on),
          validUntil: r.valid_until === null ? null : String(r.valid_until),
        }),
      ),
    total: Math.min(n, COUNT_CAP),
    totalCapped: n > COUNT_CAP,
  };
}
