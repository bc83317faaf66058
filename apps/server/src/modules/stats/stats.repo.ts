import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../engine/record-row';
import { quoteIdent, tableOf } from '../engine/sqlsafe';

/**
 * The statistics' SQL (issue 19). Every number is a `group by` over the summary tables of migration `stats` (kept by
 * triggers in the transaction of each write); lists read the fact tables through their indexes and take their totals
 * from the same summaries. Values are bound; identifiers come only from validated node codes (sqlsafe).
 */

/** Whose numbers: everything (administrators, developers) or one enterprise's (null: none at all). */
export type Scope = { all: true } | { all: false; ent: string | null };

/** A period as first days of months ('YYYY-MM-01'), both counted. */
export interface Period {
  start: string;
  end: string;
  region?: string;
}

const TZ = 'Asia/Shanghai';
const none = sql`false`;
const and = (parts: (SQL | undefined | false)[]) =>
  sql.join(
    parts.filter((p): p is SQL => !!p),
    sql` and `,
  );
const num = (v: unknown) => Number(v ?? 0);
const text = (v: unknown) => (v == null ? '' : String(v));

async function all(db: DbOrTx, q: SQL): Promise<Record<string, unknown>[]> {
  return rowsOf(await db.execute(q));
}

// ---- transactions --------------------------------------------------------------------------------------------------

function txnSummary(scope: Scope) {
  return scope.all ? sql`stats_txn_monthly m` : sql`stats_txn_ent_monthly m`;
}

function txnSummaryWhere(scope: Scope, p: Period, f: { type?: string; month?: string }) {
  if (!scope.all && !scope.ent) return none;
  return and([
    !scope.all && sql`m.enterprise_id = ${scope.ent}`,
    sql`m.month between ${p.start}::date and ${p.end}::date`,
    p.region ? sql`m.region = ${p.region}` : undefined,
    f.type ? sql`m.type = ${f.type}` : undefined,
    f.month ? sql`m.month = ${f.month}::date` : undefined,
    sql`m.n > 0`,
  ]);
}

/** Totals, by type, by region and by month — one statement (grouping sets). */
export async function txnGroups(db: DbOrTx, scope: Scope, p: Period, type?: string) {
  const rows = await all(
    db,
    sql`select grouping(m.type) as gt, grouping(m.region) as gr, grouping(m.month) as gm,
          m.type, m.region, to_char(m.month, 'YYYY-MM') as month, sum(m.n)::int as count, sum(m.amount)::float8 as amount
        from ${txnSummary(scope)} where ${txnSummaryWhere(scope, p, { type })}
        group by grouping sets ((m.type), (m.region), (m.month), ())`,
  );
  const pick = (r: Record<string, unknown>) => ({ count: num(r.count), amount: Math.round(num(r.amount) * 100) / 100 });
  const total = rows.find((r) => num(r.gt) && num(r.gr) && num(r.gm));
  return {
    total: total ? pick(total) : { count: 0, amount: 0 },
    byType: rows
      .filter((r) => !num(r.gt))
      .map((r) => ({ name: text(r.type), ...pick(r) }))
      .sort((a, b) => b.amount - a.amount),
    byRegion: rows
      .filter((r) => !num(r.gr))
      .map((r) => ({ name: text(r.region), ...pick(r) }))
      .sort((a, b) => b.amount - a.amount),
    byMonth: rows
      .filter((r) => !num(r.gm))
      .map((r) => ({ month: text(r.month), ...pick(r) }))
      .sort((a, b) => a.month.localeCompare(b.month)),
  };
}

/** The regions and types that have transactions in the caller's scope (filter options). */
export async function txnOptions(db: DbOrTx, scope: Scope) {
  if (!scope.all && !scope.ent) return { regions: [], types: [] };
  const where = scope.all ? sql`m.n > 0` : sql`m.enterprise_id = ${scope.ent} and m.n > 0`;
  const rows = await all(
    db,
    sql`select distinct 'r' as k, m.region as v from ${txnSummary(scope)} where ${where}
        union select distinct 't', m.type from ${txnSummary(scope)} where ${where} order by 2`,
  );
  return {
    regions: rows.filter((r) => r.k === 'r').map((r) => text(r.v)),
    types: rows.filter((r) => r.k === 't').map((r) => text(r.v)),
  };
}

export async function txnList(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  f: { type?: string; month?: string; limit: number; offset: number },
) {
  if (!scope.all && !scope.ent) return { records: [], total: 0 };
  const [tot] = await all(
    db,
    sql`select coalesce(sum(m.n), 0)::int as total from ${txnSummary(scope)} where ${txnSummaryWhere(scope, p, f)}`,
  );
  // the months as a range of opening times (the same rows as t.month): the time indexes serve range and order at once
  const from = f.month ?? p.start;
  const to = f.month ?? p.end;
  const where = and([
    !scope.all && sql`t.enterprise_id = ${scope.ent}`,
    sql`t.opened_at >= (${from}::date::timestamp at time zone ${TZ})`,
    sql`t.opened_at < ((${to}::date + interval '1 month')::timestamp at time zone ${TZ})`,
    p.region ? sql`t.region = ${p.region}` : undefined,
    f.type ? sql`t.type = ${f.type}` : undefined,
  ]);
  const rows = await all(
    db,
    sql`select t.section_id, t.section_code, t.section_name, t.project_code, t.project_name, t.type, t.region,
          to_char(t.month, 'YYYY-MM') as month, to_char(t.opened_at at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as opened_at,
          t.amount::float8 as amount
        from stats_transactions t where ${where}
        order by t.opened_at desc, t.section_id desc limit ${f.limit} offset ${f.offset}`,
  );
  return {
    total: num(tot?.total),
    records: rows.map((r) => ({
      sectionId: text(r.section_id),
      sectionCode: text(r.section_code),
      sectionName: text(r.section_name),
      projectCode: r.project_code == null ? null : text(r.project_code),
      projectName: r.project_name == null ? null : text(r.project_name),
      type: text(r.type),
      region: text(r.region),
      month: text(r.month),
      openedAt: text(r.opened_at),
      amount: num(r.amount),
    })),
  };
}

/** Re-derives the facts of a project's sections (its 进场登记 was decided). */
export async function syncProject(db: DbOrTx, projectId: string) {
  await db.execute(sql`select stats_txn_sync_project(${projectId}::uuid)`);
}

export async function rebuild(db: DbOrTx) {
  await db.execute(sql`select stats_rebuild()`);
}

// ---- engine records (办件) -------------------------------------------------------------------------------------------

export interface EngineNodeRef {
  id: string;
  gnCoding: string;
  title: string;
  fields: unknown;
  systemCoding: string;
  systemName: string;
}

/** The engine nodes that have a record table, in system and menu order. */
export async function engineNodes(db: DbOrTx, gnCoding?: string): Promise<EngineNodeRef[]> {
  const rows = await all(
    db,
    sql`select m.id, m.gn_coding, m.title, m.fields, s.gn_coding as system_coding, s.system_name
        from menu_nodes m join business_systems s on s.id = m.system_id
        where to_regclass('n_' || lower(m.gn_coding)) is not null
          ${gnCoding ? sql`and lower(m.gn_coding) = lower(${gnCoding})` : sql``}
        order by s.sort, s.gn_coding, m.sort, m.gn_coding`,
  );
  return rows.map((r) => ({
    id: text(r.id),
    gnCoding: text(r.gn_coding),
    title: text(r.title),
    fields: r.fields,
    systemCoding: text(r.system_coding),
    systemName: text(r.system_name),
  }));
}

const bounds = (p: Period) =>
  sql`r.created_at >= (${p.start}::date::timestamp at time zone ${TZ})
      and r.created_at < ((${p.end}::date + interval '1 month')::timestamp at time zone ${TZ})`;

/** Records of an enterprise: its own, or owned by one of its people. */
function recordScope(scope: Scope, p: Period) {
  if (!scope.all && !scope.ent) return none;
  return and([
    !scope.all &&
      sql`(r.enterprise_id = ${scope.ent} or (r.enterprise_id is null and r.owner_id in (select u.id from users u where u.enterprise_id = ${scope.ent})))`,
    p.region
      ? sql`coalesce(r.enterprise_id, (select u.enterprise_id from users u where u.id = r.owner_id)) in (select e.id from enterprises e where e.region = ${p.region})`
      : undefined,
    bounds(p),
  ]);
}

/** Each node's data version (moved by every write to its table): a count made at these versions still holds. */
export async function nodeVersions(db: DbOrTx, nodeIds: string[]): Promise<Record<string, number>> {
  if (!nodeIds.length) return {};
  const rows = await all(
    db,
    sql`select node_id, v from node_data_versions where node_id in (${sql.join(
      nodeIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return Object.fromEntries(rows.map((r) => [text(r.node_id), num(r.v)]));
}

const table = (n: EngineNodeRef) => sql.raw(quoteIdent(tableOf(n.gnCoding)));

/** Records per node and state: one `union all` of grouped counts over the nodes' own indexes. */
export async function completeCounts(db: DbOrTx, scope: Scope, p: Period, nodes: EngineNodeRef[]) {
  if (!nodes.length) return new Map<string, Record<string, number>>();
  const parts = nodes.map(
    (n) =>
      sql`select ${n.id}::text as node_id, r.status, count(*)::int as n from ${table(n)} r where ${recordScope(scope, p)} group by r.status`,
  );
  const rows = await all(db, sql.join(parts, sql` union all `));
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const m = out.get(text(r.node_id)) ?? {};
    m[text(r.status)] = num(r.n);
    out.set(text(r.node_id), m);
  }
  return out;
}

export async function completeList(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  n: EngineNodeRef,
  f: { status?: string; limit: number; offset: number; total?: number },
) {
  const where = and([recordScope(scope, p), f.status ? sql`r.status = ${f.status}` : undefined]);
  const total =
    f.total ?? num((await all(db, sql`select count(*)::int as total from ${table(n)} r where ${where}`))[0]?.total);
  const rows = await all(
    db,
    sql`select r.*, e.name as "__enterprise", to_char(r.created_at at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as "__created",
          to_char(r.updated_at at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as "__updated"
        from ${table(n)} r left join enterprises e on e.id = r.enterprise_id
        where ${where} order by r.created_at desc, r.id desc limit ${f.limit} offset ${f.offset}`,
  );
  return { total, rows };
}

// ---- to-dos --------------------------------------------------------------------------------------------------------

function todoSummary(scope: Scope) {
  return scope.all ? sql`stats_todo_monthly m` : sql`stats_todo_ent_monthly m`;
}

function todoSummaryWhere(scope: Scope, p: Period, f: { nodeId?: string; ent?: string; state?: string } = {}) {
  if (!scope.all && !scope.ent) return none;
  return and([
    !scope.all && sql`m.enterprise_id = ${scope.ent}`,
    sql`m.month between ${p.start}::date and ${p.end}::date`,
    p.region ? sql`m.region = ${p.region}` : undefined,
    f.nodeId ? sql`m.node_id = ${f.nodeId}` : undefined,
    f.ent ? sql`m.enterprise_id = ${f.ent}` : undefined,
    f.state ? sql`m.state = ${f.state}` : undefined,
    sql`m.n > 0`,
  ]);
}

const stateSums = sql`coalesce(sum(m.n) filter (where m.state = 'open'), 0)::int as open,
  coalesce(sum(m.n) filter (where m.state = 'done'), 0)::int as done, sum(m.n)::int as total`;

const counts = (r: Record<string, unknown>) => ({ open: num(r.open), done: num(r.done), total: num(r.total) });

export async function todoByNode(db: DbOrTx, scope: Scope, p: Period) {
  const rows = await all(
    db,
    sql`select s.gn_coding as system_coding, s.system_name, n.gn_coding, n.title, g.open, g.done, g.total
        from (select m.system_id, m.node_id, ${stateSums} from ${todoSummary(scope)} where ${todoSummaryWhere(scope, p)}
              group by m.system_id, m.node_id) g
        join business_systems s on s.id = g.system_id join menu_nodes n on n.id = g.node_id
        order by s.sort, s.gn_coding, n.sort, n.gn_coding`,
  );
  return rows.map((r) => ({
    systemCoding: text(r.system_coding),
    systemName: text(r.system_name),
    gnCoding: text(r.gn_coding),
    nodeName: text(r.title),
    ...counts(r),
  }));
}

export async function todoByRegion(db: DbOrTx, scope: Scope, p: Period) {
  const rows = await all(
    db,
    sql`select m.region, ${stateSums} from ${todoSummary(scope)} where ${todoSummaryWhere(scope, p)}
        group by m.region order by total desc, m.region`,
  );
  return rows.map((r) => ({ region: text(r.region), ...counts(r) }));
}

export async function todoByEnterprise(db: DbOrTx, scope: Scope, p: Period, limit: number, offset: number) {
  const where = todoSummaryWhere(scope, p);
  // one pass: the groups' number (a window over the groups, before the limit) rides with the page
  const rows = await all(
    db,
    sql`select g.enterprise_id, e.name, coalesce(e.region, '') as region, g.open, g.done, g.total, g.groups
        from (select m.enterprise_id, ${stateSums}, (count(*) over ())::int as groups
              from stats_todo_ent_monthly m where ${where}
              group by m.enterprise_id order by open desc, total desc, m.enterprise_id limit ${limit} offset ${offset}) g
        join enterprises e on e.id = g.enterprise_id
        order by g.open desc, g.total desc, g.enterprise_id`,
  );
  const total =
    rows.length > 0
      ? num(rows[0]!.groups)
      : offset === 0
        ? 0
        : num(
            (
              await all(
                db,
                sql`select count(distinct m.enterprise_id)::int as total from stats_todo_ent_monthly m where ${where}`,
              )
            )[0]?.total,
          );
  return {
    total,
    records: rows.map((r) => ({
      enterpriseId: text(r.enterprise_id),
      enterpriseName: text(r.name),
      region: text(r.region),
      ...counts(r),
    })),
  };
}

export async function todoRecords(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  f: { nodeId?: string; ent?: string; state?: string; limit: number; offset: number },
) {
  if (!scope.all && !scope.ent) return { total: 0, records: [] };
  const summary = f.ent ? sql`stats_todo_ent_monthly m` : todoSummary(scope);
  const [tot] = await all(
    db,
    sql`select coalesce(sum(m.n), 0)::int as total from ${summary} where ${todoSummaryWhere(scope, p, f)}`,
  );
  const where = and([
    !scope.all && sql`t.enterprise_id = ${scope.ent}`,
    sql`t.sb_time >= (${p.start}::date::timestamp at time zone ${TZ})`,
    sql`t.sb_time < ((${p.end}::date + interval '1 month')::timestamp at time zone ${TZ})`,
    p.region ? sql`t.region = ${p.region}` : undefined,
    f.nodeId ? sql`t.node_id = ${f.nodeId}` : undefined,
    f.ent ? sql`t.enterprise_id = ${f.ent}` : undefined,
    f.state === 'open' ? sql`t.done_at is null` : f.state === 'done' ? sql`t.done_at is not null` : undefined,
  ]);
  const rows = await all(
    db,
    sql`select t.todo_id, n.gn_coding, n.title, d.business_name, d.submitter_name, e.name as enterprise_name, t.region,
          t.level, to_char(t.sb_time at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as sb_time,
          to_char(t.done_at at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as done_at
        from (select * from stats_todos t where ${where} order by t.sb_time desc, t.todo_id desc
              limit ${f.limit} offset ${f.offset}) t
        join todos d on d.id = t.todo_id join menu_nodes n on n.id = t.node_id
        left join enterprises e on e.id = t.enterprise_id
        order by t.sb_time desc, t.todo_id desc`,
  );
  return {
    total: num(tot?.total),
    records: rows.map((r) => ({
      id: text(r.todo_id),
      gnCoding: text(r.gn_coding),
      nodeName: text(r.title),
      businessName: text(r.business_name),
      submitterName: text(r.submitter_name),
      enterpriseName: r.enterprise_name == null ? null : text(r.enterprise_name),
      region: text(r.region),
      level: num(r.level),
      sbTime: text(r.sb_time),
      doneAt: r.done_at == null ? null : text(r.done_at),
    })),
  };
}

// ---- progress (办理进度) ---------------------------------------------------------------------------------------------

function openWhere(scope: Scope, p: Period, f: { nodeId?: string; level?: number } = {}) {
  if (!scope.all && !scope.ent) return none;
  return and([
    sql`t.done_at is null`,
    !scope.all && sql`t.enterprise_id = ${scope.ent}`,
    // the period as submission times: the partial index of the open to-dos serves it
    sql`t.sb_time >= (${p.start}::date::timestamp at time zone ${TZ})`,
    sql`t.sb_time < ((${p.end}::date + interval '1 month')::timestamp at time zone ${TZ})`,
    p.region ? sql`t.region = ${p.region}` : undefined,
    f.nodeId ? sql`t.node_id = ${f.nodeId}` : undefined,
    f.level ? sql`t.level = ${f.level}` : undefined,
  ]);
}

/** Applications waiting now, per node and level (a record counts once however many reviewers hold its to-do). */
export async function pendingByLevel(db: DbOrTx, scope: Scope, p: Period, overdueBefore: Date) {
  const rows = await all(
    db,
    sql`select a.node_id, a.level, count(*)::int as pending,
          (count(*) filter (where a.since < ${overdueBefore.toISOString()}::timestamptz))::int as overdue
        from (select t.node_id, t.record_id, t.level, min(t.sb_time) as since from stats_todos t
              where ${openWhere(scope, p)} group by t.node_id, t.record_id, t.level) a
        group by a.node_id, a.level`,
  );
  return rows.map((r) => ({
    nodeId: text(r.node_id),
    level: num(r.level),
    pending: num(r.pending),
    overdue: num(r.overdue),
  }));
}

/**
 * Decisions taken at each level in the period and how long each took: from the level's start (the submission, or the
 * previous level's pass) to the decision, in the record's audit history.
 */
export async function decidedByLevel(db: DbOrTx, scope: Scope, p: Period) {
  if (!scope.all && !scope.ent) return [];
  const mine = and([
    !scope.all && sql`s.enterprise_id = ${scope.ent}`,
    p.region ? sql`s.region = ${p.region}` : undefined,
  ]);
  const restrict = !scope.all || p.region;
  const rows = await all(
    db,
    sql`select a.node_id, a.level, count(*)::int as decided,
          avg(extract(epoch from a.created_at - a.prev) / 3600)::float8 as avg_h,
          max(extract(epoch from a.created_at - a.prev) / 3600)::float8 as max_h
        from (select r.node_id, r.record_id, r.level, r.action, r.created_at,
                lag(r.created_at) over (partition by r.node_id, r.record_id order by r.id) as prev
              from record_audits r
              ${restrict ? sql`where (r.node_id, r.record_id) in (select s.node_id, s.record_id from stats_todos s where ${mine})` : sql``}) a
        where a.action in ('pass', 'reject') and a.level > 0 and a.prev is not null
          and a.created_at >= (${p.start}::date::timestamp at time zone ${TZ})
          and a.created_at < ((${p.end}::date + interval '1 month')::timestamp at time zone ${TZ})
        group by a.node_id, a.level`,
  );
  return rows.map((r) => ({
    nodeId: text(r.node_id),
    level: num(r.level),
    decided: num(r.decided),
    avgHours: r.avg_h == null ? null : Math.round(num(r.avg_h) * 10) / 10,
    maxHours: r.max_h == null ? null : Math.round(num(r.max_h) * 10) / 10,
  }));
}

export async function nodeLevels(db: DbOrTx, nodeIds: string[]) {
  if (!nodeIds.length) return [];
  const rows = await all(
    db,
    sql`select m.id, m.gn_coding, m.title, l.level, l.name from menu_nodes m
        left join audit_levels l on l.node_id = m.id
        where m.id in (${sql.join(
          nodeIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
  return rows.map((r) => ({
    nodeId: text(r.id),
    gnCoding: text(r.gn_coding),
    title: text(r.title),
    level: r.level == null ? null : num(r.level),
    name: r.name == null ? null : text(r.name),
  }));
}

export async function progressList(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  f: { nodeId?: string; level?: number; overdue?: boolean; overdueBefore: Date; limit: number; offset: number },
) {
  const before = f.overdueBefore.toISOString();
  const having =
    f.overdue === true
      ? sql`having min(t.sb_time) < ${before}::timestamptz`
      : f.overdue === false
        ? sql`having min(t.sb_time) >= ${before}::timestamptz`
        : sql``;
  const grouped = sql`select t.node_id, t.record_id, t.level, min(t.sb_time) as since, min(t.todo_id::text) as todo_id
    from stats_todos t where ${openWhere(scope, p, f)} group by t.node_id, t.record_id, t.level ${having}`;
  // the page and the number of groups in one grouping (a window before the limit); a page past the end counts apart
  const rows = await all(
    db,
    sql`select g.node_id, g.record_id, g.level, n.gn_coding, n.title, d.business_name, d.submitter_name, l.name as level_name,
          to_char(g.since at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as since_text, g.since, g.total
        from (select x.*, (count(*) over ())::int as total from (${grouped}) x
              order by x.since, x.record_id limit ${f.limit} offset ${f.offset}) g
        join menu_nodes n on n.id = g.node_id join todos d on d.id = g.todo_id::uuid
        left join audit_levels l on l.node_id = g.node_id and l.level = g.level
        order by g.since, g.record_id`,
  );
  if (rows.length > 0 || f.offset === 0) return { total: rows.length ? num(rows[0]!.total) : 0, rows };
  const [tot] = await all(db, sql`select count(*)::int as total from (${grouped}) g`);
  return { total: num(tot?.total), rows };
}

// ---- participating enterprises ------------------------------------------------------------------------------------

export interface ParticipateFilter {
  type?: string;
  keyword?: string;
}

/**
 * The registrations of the period per enterprise, from the participation summaries: by month only when neither region
 * nor type narrows it (far fewer rows), else by month, region and type.
 */
function participateFrom(scope: Scope, p: Period, f: ParticipateFilter, like?: string, after?: string | null) {
  const narrow = Boolean(p.region || f.type);
  const where = and([
    !scope.all && sql`m.enterprise_id = ${scope.ent}`,
    sql`m.month between ${p.start}::date and ${p.end}::date`,
    narrow && p.region ? sql`m.region = ${p.region}` : undefined,
    narrow && f.type ? sql`m.type = ${f.type}` : undefined,
    after ? sql`m.enterprise_id > ${after}::uuid` : undefined,
  ]);
  // summed per enterprise first (by its id alone), then joined to the enterprises the groups name: a join per group,
  // not per summary row
  return sql`from (select m.enterprise_id, sum(m.n)::int as sections, sum(m.amount)::float8 as amount
      from ${narrow ? sql`stats_participation m` : sql`stats_participation_month m`}
      where ${where}
      group by m.enterprise_id
      having sum(m.n) > 0) g
    join enterprises e on e.id = g.enterprise_id
    ${like ? sql`where (e.name like ${like} escape '\\' or e.credit_code like ${like} escape '\\')` : sql``}`;
}

const participateColumns = sql`g.enterprise_id, e.name, e.credit_code, e.region, g.sections, g.amount`;

const SORTS: Record<string, SQL> = {
  sections: sql`sections`,
  amount: sql`amount`,
};

export function participateRow(r: Record<string, unknown>) {
  return {
    enterpriseId: text(r.enterprise_id),
    enterpriseName: text(r.name),
    creditCode: text(r.credit_code),
    region: r.region == null ? null : text(r.region),
    sections: num(r.sections),
    amount: Math.round(num(r.amount) * 100) / 100,
  };
}

export async function participateCount(db: DbOrTx, scope: Scope, p: Period, f: ParticipateFilter, like?: string) {
  if (!scope.all && !scope.ent) return 0;
  const [tot] = await all(
    db,
    sql`select count(*)::int as total from (select g.enterprise_id ${participateFrom(scope, p, f, like)}) x`,
  );
  return num(tot?.total);
}

/** A page and the number of enterprises in one pass (a window over the groups, before the limit). */
export async function participatePage(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  f: ParticipateFilter & { sortField?: string; order?: string; limit: number; offset: number },
  like?: string,
) {
  if (!scope.all && !scope.ent) return { total: 0, records: [] };
  const sortCol = SORTS[f.sortField ?? 'sections'] ?? SORTS.sections!;
  const dir = f.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await all(
    db,
    sql`select ${participateColumns}, (count(*) over ())::int as groups ${participateFrom(scope, p, f, like)}
        order by ${sortCol} ${dir}, g.enterprise_id limit ${f.limit} offset ${f.offset}`,
  );
  const total =
    rows.length > 0 ? num(rows[0]!.groups) : f.offset === 0 ? 0 : await participateCount(db, scope, p, f, like);
  return { total, records: rows.map(participateRow) };
}

/** One batch of the export, in enterprise order after `after` (keyset: no offset, no result held). */
export async function participateBatch(
  db: DbOrTx,
  scope: Scope,
  p: Period,
  f: ParticipateFilter,
  like: string | undefined,
  after: string | null,
  limit: number,
) {
  if (!scope.all && !scope.ent) return [];
  const rows = await all(
    db,
    sql`select ${participateColumns} ${participateFrom(scope, p, f, like, after)} order by g.enterprise_id limit ${limit}`,
  );
  return rows.map(participateRow);
}
