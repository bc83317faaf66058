import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { files, operationLogs } from '../../db/schema';
import { BUILTIN_ROLE_BY_TYPE, nodeStateSelect } from '../../platform/permissions';
import { executePrepared } from '../../platform/prepared';
import { allRare } from './like-stats';
import { rowsOf } from './record-row';
import { type Bind, bindValue, ident, orderSql, type Sort, SYSTEM_COLUMNS, sortColumns, tableOf } from './sqlsafe';

/**
 * The SQL of a node's records, in the node's own table (`n_<code>`): who sees which (the scope), the list statement,
 * and the reads and writes of single records. Every identifier passes sqlsafe's checks, every value is bound; the
 * rules (who may, when) are the services' and the record policy's.
 */

type Row = Record<string, unknown>;
interface ScopeCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  /** holds the node's 监督查看 function (record-access `supervisesNode`): reads every record of it */
  supervises?: boolean;
}

const tableSql = (gnCoding: string) => ident(tableOf(gnCoding));

// ── scope ───────────────────────────────────────────────────────────────────

export const seesAll = (c: Pick<ScopeCaller, 'loginRoleType'>) => c.loginRoleType === 'M' || c.loginRoleType === 'D';
/** Does the caller read every record of the node: administrators, developers, its supervisors (监督查看)? */
const readsAll = (c: Pick<ScopeCaller, 'loginRoleType' | 'supervises'>) => seesAll(c) || c.supervises === true;

/**
 * Which records a caller sees: administrators, developers and the node's supervisors all; anyone else their
 * enterprise's (or their own), plus those they were asked to review (a to-do of theirs or of one of their roles, open
 * or done).
 */
export function scopeSql(c: ScopeCaller, nodeId: string, roleCodes: string[]): SQL {
  if (readsAll(c)) return sql`true`;
  const own = c.enterpriseId ? sql`"enterprise_id" = ${c.enterpriseId}` : sql`"owner_id" = ${c.id}`;
  const roleList = roleCodes.length
    ? sql.join(
        roleCodes.map((r) => sql`${r}`),
        sql`, `,
      )
    : sql`''`;
  return sql`(${own} or "id" in (select "record_id" from "todos" where "node_id" = ${nodeId} and (("assignee_type" = 'user' and "assignee_id" = ${c.id}) or ("assignee_type" = 'role' and "assignee_id" in (${roleList})))))`;
}

/**
 * `scopeSql` as disjoint conditions whose union is the same set of records: the caller's own (enterprise or person),
 * and — apart from those — the records they were asked to review. Each part can be read in order from an index
 * (`(…, enterprise_id, created_at desc, id desc)`), which the `or` of `scopeSql` prevents.
 */
export function scopeBranches(c: ScopeCaller, nodeId: string, bind: Bind = bindValue): SQL[] {
  if (readsAll(c)) return [sql`true`];
  const builtin = BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user';
  const me = bind('me', c.id);
  const [own, notOwn] = c.enterpriseId
    ? [
        sql`"enterprise_id" = ${bind('ent', c.enterpriseId)}::uuid`,
        sql`"enterprise_id" is distinct from ${bind('ent', c.enterpriseId)}::uuid`,
      ]
    : [sql`"owner_id" = ${me}::uuid`, sql`"owner_id" <> ${me}::uuid`];
  // the caller's role codes as roleCodesOf reads them: the built-in one and those assigned
  const asked = sql`"id" in (select "record_id" from "todos" where "node_id" = ${bind('node', nodeId)}::uuid and (("assignee_type" = 'user' and "assignee_id" = ${me}::text) or ("assignee_type" = 'role' and "assignee_id" in (select ${bind('role', builtin)}::text union all select r."code" from "user_roles" ur join "roles" r on r."id" = ur."role_id" where ur."user_id" = ${me}::uuid))))`;
  return [own, sql`${notOwn} and ${asked}`];
}

/** What decides the text of `scopeBranches` (not its values). */
export const scopeShape = (c: Pick<ScopeCaller, 'enterpriseId' | 'loginRoleType' | 'supervises'>) =>
  readsAll(c) ? 'all' : c.enterpriseId ? 'enterprise' : 'person';

/** The values `scopeBranches` binds, under the keys it gives them. */
export function scopeValues(c: ScopeCaller, nodeId: string, into: Map<string, unknown>) {
  if (readsAll(c)) return;
  into.set('me', c.id);
  if (c.enterpriseId) into.set('ent', c.enterpriseId);
  into.set('node', nodeId);
  into.set('role', BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user');
}

// ── the list statement ──────────────────────────────────────────────────────

/** The total is counted up to this many matches and then answered as capped (STACK.md: never an exact count). */
export const COUNT_CAP = 1000;

/**
 * How far a list counts for a page: the cap, or the next multiple of it past the page, so that a pager showing
 * "1000+" always offers the page after the one shown.
 */
export function countLimit(offset: number, pageSize: number): number {
  return COUNT_CAP * Math.ceil((offset + pageSize + 1) / COUNT_CAP);
}

/**
 * One statement for a list page and its capped total (STACK.md's recipe): the page's keys — each scope branch read
 * in index order, merged, only as many as the page needs — then only the page's rows read by primary key; and the
 * matches counted up to `limit + 1` (in any order, from the index alone where it can). Every row carries the count
 * as `ks_total`; an empty page answers one row of nulls with it. Limits are integers written into the text (few
 * distinct values, so the statement keeps one plan); the offset and every value are bound parameters.
 */
export function listStatement(q: {
  table: string;
  branches: readonly SQL[];
  where: SQL;
  sort: Sort | null;
  offset: number;
  pageSize: number;
  bind?: Bind;
  /**
   * The record columns to answer (checked identifiers); default: the system columns a record needs. Named, not `t.*`:
   * a prepared statement whose result columns change with the table (a field added) would fail.
   */
  columns?: readonly string[];
  /**
   * A read that comes along in the same statement (the caller's node state, or the check that a state read before
   * still holds): `select` becomes the CTE `a`, `lead` (columns over `a` and the row number `x."ks_row"`) leads every
   * answered row, and no record is read unless `gate` (an expression over `a`) holds. An empty `a` answers no row.
   */
  access?: { select: SQL; gate: SQL; lead: SQL };
  /**
   * A count made before, reused while `reuse` (an expression over the versions it was made at) holds: `cached` is
   * answered instead of counting. `versions` (columns "dv", "cav") answer the versions the count belongs to, as
   * `ks_dv` and `ks_cav` on every row.
   */
  count?: { reuse: SQL; cached: SQL; versions: SQL };
  /**
   * Read the matches once for both the page and the count (a substring filter): each branch's first `limit + 1` keys
   * in order are kept as the CTE `u`, the page is sorted from them and the count counts them. A filter served by a
   * bitmap (the trigram index) reads every match anyway: this reads the index once instead of twice, and the planner
   * plans each branch once instead of twice.
   */
  shared?: boolean;
}): { query: SQL; limit: number } {
  if (!Number.isInteger(q.pageSize) || q.pageSize < 1 || q.pageSize > 100) throw new Error('bad page size');
  if (!Number.isInteger(q.offset) || q.offset < 0) throw new Error('bad offset');
  const limit = countLimit(q.offset, q.pageSize);
  const take = sql.raw(String(limit + 1));
  const keys = sql.join(
    sortColumns(q.sort).map((c) => ident(c)),
    sql`, `,
  );
  const order = orderSql(q.sort);
  const table = ident(q.table);
  const gate = q.access ? sql` and (select ${q.access.gate} from a)` : sql``;
  // the page: each branch in index order, merged; only offset + page size keys are pulled from them
  const ordered = (scope: SQL) =>
    sql`(select ${keys} from ${table} where ${scope} and ${q.where}${gate} order by ${order} limit ${take})`;
  const merged =
    q.branches.length === 1
      ? ordered(q.branches[0]!)
      : sql`select ${keys} from (${sql.join(q.branches.map(ordered), sql` union all `)}) u`;
  // the count: up to limit + 1 matches in any order (index-only for a filter on a searchable field)
  const any = (scope: SQL) => sql`(select 1 from ${table} where ${scope} and ${q.where}${gate} limit ${take})`;
  const counted =
    q.branches.length === 1
      ? any(q.branches[0]!)
      : sql`select 1 from (${sql.join(q.branches.map(any), sql` union all `)}) u limit ${take}`;
  const pageOf = (from: SQL) =>
    sql`p as (select ${keys} from ${from} m order by ${order} offset ${(q.bind ?? bindValue)('off', q.offset)}::int limit ${sql.raw(String(q.pageSize))})`;
  const ctes = q.shared
    ? sql`u as materialized (${q.branches.length === 1 ? ordered(q.branches[0]!) : sql.join(q.branches.map(ordered), sql` union all `)}), ${pageOf(sql`u`)}`
    : pageOf(sql`(${merged})`);
  const counting = q.shared ? sql`select 1 from u limit ${take}` : counted;
  const cols = sql.join(
    (q.columns ?? SYSTEM_COLUMNS).map((col) => sql`t.${ident(col)}`),
    sql`, `,
  );
  // (a subquery in a branch of `case` runs only when that branch is taken)
  const count = q.count
    ? sql`select case when ${q.count.reuse} then ${q.count.cached} else (select count(*)::int from (${counting}) k) end as n, ${q.count.versions}`
    : sql`select count(*)::int as n from (${counting}) k`;
  const page = sql`from (${count}) c left join (p join ${table} t on t."id" = p."id") on true`;
  const versions = q.count ? sql`, c."dv" as "ks_dv", c."cav" as "ks_cav"` : sql``;
  const query = q.access
    ? sql`with a as (${q.access.select}), ${ctes} select ${q.access.lead}, x.* from a cross join (select row_number() over (order by ${orderSql(q.sort, 'id', 't')}) as "ks_row", c.n as "ks_total"${versions}, ${cols} ${page}) x order by x."ks_row"`
    : sql`with ${ctes} select c.n as "ks_total"${versions}, ${cols} ${page} order by ${orderSql(q.sort, 'id', 't')}`;
  return { query, limit };
}

/**
 * Runs a list statement: as a named statement (prepared once per connection, platform/prepared.ts), or — `unnamed` —
 * the same text unnamed, planned for its values at each run.
 */
export async function runListStatement(
  q: Db,
  l: {
    statement: { sql: string; params: unknown[] };
    unnamed: boolean;
    /** its substring terms: when the column's statistics call every one rare, one generic plan (like-stats.ts) */
    likes?: { table: string; terms: { column: string; term: string }[] };
  },
): Promise<Row[]> {
  if (l.unnamed && l.likes && (await allRare(q, l.likes.table, l.likes.terms)))
    return executePrepared(q, l.statement, { generic: true });
  return executePrepared(q, l.statement, { named: !l.unnamed });
}

/**
 * A kept count's reuse for `listStatement`: while the node's data version (`node_data_versions`) and `access_version`
 * are still the ones it was made at (-1: no count kept, never matches).
 */
export function countReuse(nodeId: string, cached: { n: number; dv: number; av: number }, bind: Bind) {
  const dv = sql`coalesce((select d."v" from "node_data_versions" d where d."node_id" = ${bind('node', nodeId)}::uuid), 0)`;
  const av = sql`(select av."v" from "access_version" av where av."id" = 1)`;
  return {
    reuse: sql`${dv} = ${bind('cdv', cached.dv)}::bigint and ${av} = ${bind('cav', cached.av)}::bigint`,
    cached: sql`${bind('cn', cached.n)}::int`,
    versions: sql`${dv} as "dv", ${av} as "cav"`,
  };
}

/**
 * The caller's node state read in the list statement (permissions' nodeStateSelect) and its gate — what requireNode
 * and the list's catalogue ask of it (the node's data source, its schema `version`, a grant), so no record is read for
 * a 403 or a stale catalogue — with the state's columns on every row, its lists (functions, grants) on the first only.
 */
export const stateRead = (c: ScopeCaller, nodeId: string, version: number, bind: Bind) => ({
  select: nodeStateSelect(c, nodeId, bind),
  gate: sql`a."ds" = 'engine' and a."v" = ${bind('version', version)}::int and (${sql.raw(seesAll(c) ? 'true' : 'false')} or cardinality(a."granted") > 0)`,
  lead: sql`a."v", a."ds", a."off", case when x."ks_row" = 1 then a."fns" end as "fns", case when x."ks_row" = 1 then a."granted" end as "granted", case when x."ks_row" = 1 then a."roles" end as "roles", a."av"`,
});

/** The gate of a list statement that confirms a node state read before: `access_version` still at `version`. */
export const accessConfirmed = (bind: Bind, version: number) => ({
  select: sql`select true as "ok" from "access_version" where "id" = 1 and "v" = ${bind('av', version)}::bigint`,
  gate: sql`a."ok"`,
  lead: sql`a."ok" as "ks_confirmed"`,
});

// ── single records ──────────────────────────────────────────────────────────

/** The record's row (every column), or undefined; `lock` takes its row lock (inside a transaction). */
export async function recordRow(q: DbOrTx, gnCoding: string, id: string, lock = false): Promise<Row | undefined> {
  const [row] = rowsOf(
    await q.execute(sql`select * from ${tableSql(gnCoding)} where "id" = ${id}${lock ? sql` for update` : sql``}`),
  );
  return row;
}

/** The records matching `where`, newest first (a module's accessor). */
export async function recordRows(q: DbOrTx, gnCoding: string, where: SQL, limit: number, offset: number) {
  return rowsOf(
    await q.execute(
      sql`select * from ${tableSql(gnCoding)} where ${where} order by "created_at" desc, "id" desc limit ${limit} offset ${offset}`,
    ),
  );
}

/** A value for a field's column. */
export interface ColumnValue {
  column: string;
  value: unknown;
}

export async function insertRecord(
  q: DbOrTx,
  gnCoding: string,
  owner: { ownerId: string; enterpriseId: string | null },
  values: readonly ColumnValue[],
): Promise<Row> {
  const names = sql.join([sql`"owner_id"`, sql`"enterprise_id"`, ...values.map((x) => ident(x.column))], sql`, `);
  const vals = sql.join(
    [sql`${owner.ownerId}`, sql`${owner.enterpriseId}`, ...values.map((x) => sql`${x.value}`)],
    sql`, `,
  );
  const [row] = rowsOf(await q.execute(sql`insert into ${tableSql(gnCoding)} (${names}) values (${vals}) returning *`));
  return row!;
}

/**
 * Sets the record's field columns and moves its version on; `version` (when given): only while the record is still
 * at it; `editable`: only while it is a draft or rejected. The row as written, or undefined when nothing matched.
 */
export async function updateRecord(
  q: DbOrTx,
  gnCoding: string,
  id: string,
  values: readonly ColumnValue[],
  only: { version?: number; editable?: boolean } = {},
): Promise<Row | undefined> {
  const sets = sql.join(
    [
      ...values.map((x) => sql`${ident(x.column)} = ${x.value}`),
      sql`"version" = "version" + 1`,
      sql`"updated_at" = now()`,
    ],
    sql`, `,
  );
  const editable = only.editable ? sql` and "status" in ('draft', 'rejected')` : sql``;
  const version = only.version === undefined ? sql`` : sql` and "version" = ${only.version}`;
  const [row] = rowsOf(
    await q.execute(sql`update ${tableSql(gnCoding)} set ${sets} where "id" = ${id}${editable}${version} returning *`),
  );
  return row;
}

/** Deletes the record while it is a draft; did it? */
export async function deleteDraft(q: DbOrTx, gnCoding: string, id: string): Promise<boolean> {
  const gone = rowsOf(
    await q.execute(sql`delete from ${tableSql(gnCoding)} where "id" = ${id} and "status" = 'draft' returning "id"`),
  );
  return gone.length > 0;
}

/** The record's attachments become unattached uploads of their owners (the files sweep removes them later). */
export async function detachFiles(q: DbOrTx, gnCoding: string, recordId: string) {
  await q
    .update(files)
    .set({ recordId: null })
    .where(and(eq(files.gnCoding, gnCoding), eq(files.recordId, recordId)));
}

/** The record's review state: status, level under review, the round when it changes; the version moves on. */
export async function setReviewState(
  q: DbOrTx,
  gnCoding: string,
  id: string,
  set: { status: string; level: number; round?: number },
) {
  await q.execute(
    sql`update ${tableSql(gnCoding)} set "status" = ${set.status}, "audit_level" = ${set.level}, ${
      set.round === undefined ? sql`` : sql`"round" = ${set.round},`
    } "version" = "version" + 1, "updated_at" = now() where "id" = ${id}`,
  );
}

/** Moves the record's version on (a step that changes who may act, not its values); `touch`: its updated time too. */
export async function bumpVersion(q: DbOrTx, gnCoding: string, id: string, touch: boolean) {
  const updated = touch ? sql`, "updated_at" = now()` : sql``;
  await q.execute(sql`update ${tableSql(gnCoding)} set "version" = "version" + 1${updated} where "id" = ${id}`);
}

/** The operation log of one record, oldest first. */
export async function recordLogRows(q: DbOrTx, gnCoding: string, recordId: string) {
  return q
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.gnCoding, gnCoding), eq(operationLogs.recordId, recordId)))
    .orderBy(asc(operationLogs.id));
}

// ── export ──────────────────────────────────────────────────────────────────

const all = (conditions: readonly SQL[]) => (conditions.length ? sql.join([...conditions], sql` and `) : sql`true`);

/** How many records match every condition of `where`, counted up to `cap + 1`. */
export async function countUpTo(q: DbOrTx, gnCoding: string, where: readonly SQL[], cap: number): Promise<number> {
  const [r] = rowsOf(
    await q.execute(
      sql`select count(*)::int as n from (select 1 from ${tableSql(gnCoding)} where ${all(where)} limit ${cap + 1}) t`,
    ),
  );
  return Number(r?.n ?? 0);
}

/** One batch of matching rows in order; `textColumns` are answered as text (dates as their wall-clock text). */
export async function rowsBatch(
  q: DbOrTx,
  gnCoding: string,
  p: { where: readonly SQL[]; order: SQL; textColumns: readonly string[]; limit: number; offset: number },
) {
  const select = sql.join([sql`*`, ...p.textColumns.map((c) => sql`${ident(c)}::text as ${ident(c)}`)], sql`, `);
  return rowsOf(
    await q.execute(
      sql`select ${select} from ${tableSql(gnCoding)} where ${all(p.where)} order by ${p.order} limit ${p.limit} offset ${p.offset}`,
    ),
  );
}
