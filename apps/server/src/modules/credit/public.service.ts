import { type CreditPublicRow, dateIn } from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { likeContains, likePrefix, rowsOf } from './credit.repo';
import { freshen, instant, todayOf } from './grade.service';

/**
 * The public credit list (信用公示, no sign-in): enterprises by name (a prefix, or any part) or by unified social credit
 * code, with their grade, score and how long it holds — nothing else: no records, no evidence, no people.
 *
 * A name prefix is one range scan of `enterprises_name_c_idx` (name in byte order, `collate "C"`) that is also the
 * order of the page, so page 1 reads ten index entries however many names match; a credit code is one probe of the
 * unique index. The total is counted up to 1,000 (`totalCapped` beyond), never over every match. A grade that ran
 * out is regraded before the page is answered.
 */

const CODE = /^[0-9A-HJ-NP-RTUW-Y]{18}$/;
const COUNT_CAP = 1000;

export async function publicList(
  db: Db,
  q: { keyword?: string; match: 'prefix' | 'contains'; level?: string; pageNum: number; pageSize: number },
  now: Date,
) {
  const conds: SQL[] = [];
  const kw = q.keyword?.trim();
  if (kw) {
    const code = kw.toUpperCase();
    if (CODE.test(code)) conds.push(sql`e.credit_code = ${code}`);
    else {
      const pattern = q.match === 'contains' ? likeContains(kw) : likePrefix(kw);
      conds.push(sql`e.name collate "C" like ${pattern}`);
    }
  }
  if (q.level) conds.push(sql`g.level = ${q.level}`);
  const where = conds.length ? sql.join(conds, sql` and `) : sql`true`;
  const from = sql`enterprises e left join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id`;
  const page = async () =>
    rowsOf(
      await db.execute(sql`select e.id, e.name, e.credit_code, g.level, g.score, g.computed_at,
          g.valid_until::text as valid_until
        from ${from} where ${where}
        order by e.name collate "C", e.id
        limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}`),
    );
  let rows = await page();
  const today = todayOf(now);
  const stale = rows.filter((r) => r.valid_until !== null && String(r.valid_until) < today);
  if (stale.length) {
    await freshen(
      db,
      stale.map((r) => ({ kind: 'enterprise' as const, id: String(r.id) })),
      now,
    );
    rows = await page();
  }
  const [counted] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${COUNT_CAP + 1}) t`,
    ),
  );
  const n = Number(counted?.n ?? 0);
  return {
    // only these keys leave the server (the response schema is strict too)
    records: rows.map(
      (r): CreditPublicRow => ({
        name: String(r.name),
        creditCode: String(r.credit_code),
        level: r.level === null ? null : String(r.level),
        score: r.score === null ? null : Number(r.score),
        evaluatedOn: r.computed_at === null ? null : dateIn(instant(r.computed_at)),
        validUntil: r.valid_until === null ? null : String(r.valid_until),
      }),
    ),
    total: Math.min(n, COUNT_CAP),
    totalCapped: n > COUNT_CAP,
  };
}
