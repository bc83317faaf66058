import {
  type AuditLevel,
  type EngineRecord,
  type FieldDef,
  isCascaderType,
  isMultiValueType,
  joinValue,
  normaliseValues,
  type Operation,
  type ValidateOptions,
  validateRecord,
  wallClockText,
} from '@ks/contracts';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, operationLogs } from '../../db/schema';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import {
  BUILTIN_ROLE_BY_TYPE,
  type Caller,
  findNode,
  forgetNodeState,
  lastNodeState,
  type NodeRef,
  type NodeState,
  nodeState,
  nodeStateOf,
  nodeStateSelect,
  nodeStateValues,
  rememberNodeState,
  requireFunction,
  requireNode,
  roleCodesOf,
  seesAllNodes,
} from '../../platform/permissions';
import { executePrepared, renderCached } from '../../platform/prepared';
import { sanitizeRichText } from '../../platform/sanitize';
import { buttonsFor } from '../shell/grants.service';
import { auditConfig } from '../shell/settings.service';
import { ownEnterpriseValues, pullDownProblems, withSourceOptions } from './options.service';
import { matchesFieldPattern } from './pattern';
import {
  enforce,
  NO_REVIEW,
  operationsOf,
  type RecordAction,
  type ReviewFacts,
  recordFactsOf,
  reviewFactsOf,
  reviewFactsOfRow,
} from './policy';
import { auditFlow } from './review.service';
import { catalogOf, fieldsOf, kindOf, nodeForEngine } from './schema.service';
import {
  type Bind,
  bindValue,
  type Catalog,
  type Condition,
  columnOf,
  ident,
  normaliseSearchParams,
  orderSql,
  parseSort,
  parseWhereStr,
  type Sort,
  searchToConditions,
  sortColumns,
  tableOf,
  whereShape,
  whereSql,
  whereValues,
} from './sqlsafe';
import { uniqueViolationOf } from './unique';

/**
 * Records of an engine node, in the node's own table. Who sees what: administrators and developers every record;
 * anyone else the records of their enterprise (or their own, without one). Every change is one transaction with an
 * operation-log row; edits carry the version they started from (stale → 409).
 */

export interface EngineCaller extends Caller {
  enterpriseId: string | null;
  actor: Actor;
}

export const seesAll = (c: Caller) => c.loginRoleType === 'M' || c.loginRoleType === 'D';

/**
 * Which records a caller sees: administrators and developers all; anyone else their enterprise's (or their own),
 * plus those they were asked to review (a to-do of theirs or of one of their roles, open or done).
 */
export function scopeSql(
  c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'>,
  nodeId: string,
  roleCodes: string[],
): SQL {
  if (seesAll(c)) return sql`true`;
  const own = c.enterpriseId ? sql`"enterprise_id" = ${c.enterpriseId}` : sql`"owner_id" = ${c.id}`;
  const roleList = roleCodes.length
    ? sql.join(
        roleCodes.map((r) => sql`${r}`),
        sql`, `,
      )
    : sql`''`;
  return sql`(${own} or "id" in (select "record_id" from "todos" where "node_id" = ${nodeId} and (("assignee_type" = 'user' and "assignee_id" = ${c.id}) or ("assignee_type" = 'role' and "assignee_id" in (${roleList})))))`;
}

export async function engineNode(db: Db, gnCoding: string) {
  const n = await nodeForEngine(db, gnCoding);
  if (n.dataSource !== 'engine' || n.fieldsVersion === 0) throw notFound('该节点尚未配置字段');
  return n;
}

/** PostgreSQL's text form of a UTC timestamptz, e.g. `2026-11-22 20:16:18.787654+00`. */
const PG_UTC = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** A time as ISO 8601 in UTC; PostgreSQL's UTC text is rewritten directly (parsing a Date per cell is slow). */
export function iso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  const m = PG_UTC.exec(s);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  return new Date(s).toISOString();
}

type Reader = { code: string; col: string; kind: ReturnType<typeof kindOf> };
/** Each field's column and kind, worked out once per field list (lists reuse theirs). */
const readers = new WeakMap<readonly FieldDef[], Reader[]>();
function readersOf(fields: readonly FieldDef[]) {
  let r = readers.get(fields);
  if (!r) {
    r = fields.map((f) => ({ code: f.code, col: columnOf(f.code), kind: kindOf(f.type) }));
    readers.set(fields, r);
  }
  return r;
}

/**
 * A column's value in the form the record is saved in, so that what a form loads it can save again unchanged: numbers
 * as numbers; a date as YYYY-MM-DD and a date-time as YYYY-MM-DD HH:mm — wall-clock text in the platform's zone, as
 * the `date` and `timestamp` columns (no zone) hold it; the drivers answer these columns as text.
 */
function answered(r: Reader, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (r.kind === 'number') return Number(v);
  if (r.kind === 'date' || r.kind === 'datetime') return wallClockText(r.kind, String(v));
  return v;
}

export function toRecord(row: Record<string, unknown>, fields: FieldDef[], operations: Operation[]): EngineRecord {
  const values: Record<string, unknown> = {};
  for (const f of readersOf(fields)) values[f.code] = answered(f, row[f.col]);
  return {
    id: String(row.id),
    status: String(row.status),
    version: Number(row.version),
    ownerId: String(row.owner_id),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    // the level under review (0 when none): a list's 审核流程 column shows it while the record is pending
    auditLevel: Number(row.audit_level ?? 0),
    values,
    operations,
  };
}

/**
 * What the caller may do with each of these rows of a node's table: the granted row buttons the record policy allows
 * now (policy.ts). Reads the review facts (the caller's to-dos, the current round) only when a button needs them.
 */
export async function operationsForRows(
  db: Db,
  c: EngineCaller,
  nodeId: string,
  gnCoding: string,
  granted: Operation[],
  rows: readonly Record<string, unknown>[],
): Promise<Map<string, Operation[]>> {
  const reviewed = granted.some((o) => REVIEW_BUTTONS.has(o.code)) && rows.some((r) => r.status === 'pending');
  const facts = reviewed
    ? await reviewFactsOf(db, c, nodeId, rows, {
        roleCodes: await roleCodesOf(db, c),
        // the levels matter to 审核 and 指派 only (撤回 needs the current round alone)
        levels: granted.some((o) => o.code === 'audit' || o.code === 'assign')
          ? (await auditConfig(db, gnCoding)).levels
          : [],
      })
    : new Map<string, ReviewFacts>();
  const out = new Map<string, Operation[]>();
  for (const r of rows) {
    if (r.id === null || r.id === undefined) continue;
    // a listed or shown record is one the caller may read (scopeSql is the policy's read)
    const review = facts.get(String(r.id)) ?? { ...NO_REVIEW, asked: true };
    out.set(String(r.id), operationsOf(granted, c, recordFactsOf(r), { ...review, asked: true }));
  }
  return out;
}

/** Buttons whose verdict depends on the review workflow (to-dos, the current round). */
const REVIEW_BUTTONS = new Set(['audit', 'assign', 'revoke']);

export const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;

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
 * `scopeSql` as disjoint conditions whose union is the same set of records: the caller's own (enterprise or person),
 * and — apart from those — the records they were asked to review. Each part can be read in order from an index
 * (`(…, enterprise_id, created_at desc, id desc)`), which the `or` of `scopeSql` prevents.
 */
export function scopeBranches(
  c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'>,
  nodeId: string,
  bind: Bind = bindValue,
): SQL[] {
  if (seesAll(c)) return [sql`true`];
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
export const scopeShape = (c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'>) =>
  seesAll(c) ? 'all' : c.enterpriseId ? 'enterprise' : 'person';

/** The system columns a listed record needs (toRecord, the record policy's facts). */
const RECORD_COLUMNS = [
  'id',
  'owner_id',
  'enterprise_id',
  'status',
  'audit_level',
  'round',
  'version',
  'created_at',
  'updated_at',
];

/**
 * One statement for a list page and its capped total (STACK.md's recipe): the page's keys — each scope branch read
 * in index order, merged, only as many as the page needs — then only the page's rows read by primary key; and the
 * matches counted up to `limit + 1` (in any order, from the index alone where it can). Every row carries the count
 * as `ks_total`; an empty page answers one row of nulls with it. Limits are integers written into the text (few distinct values, so the statement keeps one plan); the
 * offset and every value are bound parameters.
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
  const ctes = sql`p as (select ${keys} from (${merged}) m order by ${order} offset ${(q.bind ?? bindValue)('off', q.offset)}::int limit ${sql.raw(String(q.pageSize))})`;
  const cols = sql.join(
    (q.columns ?? RECORD_COLUMNS).map((col) => sql`t.${ident(col)}`),
    sql`, `,
  );
  // (a subquery in a branch of `case` runs only when that branch is taken)
  const count = q.count
    ? sql`select case when ${q.count.reuse} then ${q.count.cached} else (select count(*)::int from (${counted}) k) end as n, ${q.count.versions}`
    : sql`select count(*)::int as n from (${counted}) k`;
  const page = sql`from (${count}) c left join (p join ${table} t on t."id" = p."id") on true`;
  const versions = q.count ? sql`, c."dv" as "ks_dv", c."cav" as "ks_cav"` : sql``;
  const query = q.access
    ? sql`with a as (${q.access.select}), ${ctes} select ${q.access.lead}, x.* from a cross join (select row_number() over (order by ${orderSql(q.sort, 'id', 't')}) as "ks_row", c.n as "ks_total"${versions}, ${cols} ${page}) x order by x."ks_row"`
    : sql`with ${ctes} select c.n as "ks_total"${versions}, ${cols} ${page} order by ${orderSql(q.sort, 'id', 't')}`;
  return { query, limit };
}

/**
 * The fields and filter catalogue of a node the caller may list, parsed once per schema version: the version and the
 * data source are read live (with the caller's grants, once per request), the field list only when it changed.
 */
const catalogues = new Map<string, { version: number; gnCoding: string; fields: FieldDef[]; catalog: Catalog }>();

async function listedNode(db: Db, c: EngineCaller, gnCoding: string) {
  const ref = await requireNode(db, c, gnCoding);
  const state = await nodeState(db, c, ref.id);
  if (state?.dataSource !== 'engine' || state.fieldsVersion === 0) throw notFound('该节点尚未配置字段');
  const hit = catalogues.get(ref.id);
  if (hit && hit.version === state.fieldsVersion) return { id: ref.id, ...hit };
  const n = await engineNode(db, gnCoding);
  const fields = fieldsOf(n);
  const entry = { version: n.fieldsVersion, gnCoding: n.gnCoding, fields, catalog: catalogOf(fields) };
  catalogues.set(n.id, entry);
  return { id: n.id, ...entry };
}

export async function listRecords(
  db: Db,
  c: EngineCaller,
  q: {
    gnCoding: string;
    pageNum: number;
    pageSize: number;
    search?: Record<string, unknown>;
    whereStr?: string;
    sortField?: string;
    order?: string;
  },
): Promise<{ records: EngineRecord[]; total: number; totalCapped: boolean }> {
  // Usually the node's catalogue is known (cached per schema version): then the caller's node state is read in the
  // list statement itself, which reads no record unless the caller may see the node and the version still holds; the
  // permission answer (403) is then given from that state exactly as requireNode gives it. When the caller read the
  // state before and it let them list this catalogue, the statement only confirms that nothing it is made of changed
  // since (access_version) — and answers no row if something did: the state is then read again. Otherwise: read the
  // state first, load the catalogue, run the statement.
  const ref = await findNode(db, q.gnCoding);
  const known = ref ? catalogues.get(ref.id) : undefined;
  const together = Boolean(ref && known && c.memo && !c.memo.nodes.has(ref.id));
  const n = together ? { id: ref!.id, ...known! } : await listedNode(db, c, q.gnCoding);
  let conditions: Condition[];
  let sort: Sort | null;
  try {
    conditions = [
      ...parseWhereStr(q.whereStr, n.catalog),
      ...searchToConditions(normaliseSearchParams(q.search ?? {}), n.catalog),
    ];
    sort = parseSort(q.sortField, q.order, n.catalog);
  } catch (e) {
    if (!together) throw e;
    // someone who may not see the node learns nothing of its fields: 403 before any 400; and a field saved since
    // the catalogue was read is known by the time a filter on it is refused
    await requireNode(db, c, q.gnCoding);
    if ((await nodeState(db, c, n.id))?.fieldsVersion !== n.version) return listRecords(db, c, q);
    throw e;
  }
  const page = { conditions, sort, pageNum: q.pageNum, pageSize: q.pageSize };
  if (together) {
    const last = lastNodeState(c, n.id);
    if (last && listable(c, ref!, last, n.version)) {
      const l = listQuery(db, c, n, page, { confirm: last.accessVersion });
      const { limit, countKey } = l;
      const rows = await runList(db, l);
      if (rows.length) {
        keepCount(countKey, rows);
        // confirmed: the state read before is this request's
        rememberNodeState(c, n.id, last);
        return pageOf(db, c, q.gnCoding, n, rows, limit);
      }
      forgetNodeState(c, n.id);
    }
    const l = listQuery(db, c, n, page, 'read');
    const { limit, countKey } = l;
    const rows = await runList(db, l);
    rememberNodeState(c, n.id, rows[0] ? nodeStateOf(rows[0]) : null);
    keepCount(countKey, rows);
    await requireNode(db, c, q.gnCoding);
    const state = await nodeState(db, c, n.id);
    if (state?.dataSource !== 'engine' || state.fieldsVersion === 0) throw notFound('该节点尚未配置字段');
    // the fields changed since the catalogue was read: answer with the new ones
    if (state.fieldsVersion !== n.version) return listRecords(db, c, q);
    return pageOf(db, c, q.gnCoding, n, rows, limit);
  }
  const l = listQuery(db, c, n, page, null);
  const { limit, countKey } = l;
  const rows = await runList(db, l);
  keepCount(countKey, rows);
  return pageOf(db, c, q.gnCoding, n, rows, limit);
}

/** Would this state let the caller list the node with the catalogue of schema version `version` (see listedNode)? */
function listable(c: EngineCaller, ref: NodeRef, state: NodeState, version: number): boolean {
  return (
    (seesAllNodes(c) || (!ref.disabled && state.granted.size > 0)) &&
    state.dataSource === 'engine' &&
    state.fieldsVersion !== 0 &&
    state.fieldsVersion === version
  );
}

/**
 * The list statement for a caller, a node (its catalogue of schema version `version`) and parsed conditions, as text
 * and parameters; `withState` embeds the caller's node state and its gate (see listRecords).
 */
export function listQuery(
  db: Db,
  c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'>,
  n: { id: string; gnCoding: string; version: number; fields: FieldDef[]; catalog: Catalog },
  q: { conditions: Condition[]; sort: Sort | null; pageNum: number; pageSize: number },
  state: StateMode,
) {
  const p = listParts(c, n, q, state);
  // values enter as named placeholders: the text is rendered once per shape, and not even built again once it is
  const statement = renderCached(db, p.shape, p.build, p.values);
  // A substring filter (`like '%…%'`) is planned for its value at every run, as an unnamed statement: whether the
  // text matches a few records (read them through the field's trigram index) or most (read in order, stop at the
  // page) is known only from the value, and a named statement's shared generic plan would pick one for all.
  const unnamed = q.conditions.some((x) => x.op === 'like') ? p.build(bindValue) : null;
  return { statement, unnamed, limit: p.limit, countKey: p.countKey };
}

/** Runs a list statement of listQuery: named (prepared once per connection), or unnamed for a substring filter. */
async function runList(db: Db, l: ReturnType<typeof listQuery>): Promise<Record<string, unknown>[]> {
  return l.unnamed ? rowsOf(await db.execute(l.unnamed)) : executePrepared(db, l.statement);
}

/**
 * What the list statement does about the caller's node state: nothing (read before), `read` it along (the records
 * only if it lets the caller list them), or `confirm` that a state read before still holds — `access_version` is
 * still the one it was read at — and answer no row at all otherwise.
 */
export type StateMode = null | 'read' | { confirm: number };

/**
 * The parts of a list statement: its shape (everything that decides its text), how to build it with a given bind,
 * and the values that build binds (worked out without building it).
 */
export function listParts(
  c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'>,
  n: { id: string; gnCoding: string; version: number; fields: FieldDef[]; catalog: Catalog },
  q: { conditions: Condition[]; sort: Sort | null; pageNum: number; pageSize: number },
  state: StateMode,
) {
  const offset = (q.pageNum - 1) * q.pageSize;
  const limit = countLimit(offset, q.pageSize);
  // the count this caller made of these conditions at this cap, if any (-1: none, never matches a version)
  const where = new Map<string, unknown>();
  whereValues(q.conditions, where);
  const countKey = [
    n.id,
    n.version,
    c.id,
    c.loginRoleType,
    c.enterpriseId ?? '',
    whereShape(q.conditions, n.catalog),
    JSON.stringify([...where]),
    limit,
  ].join('#');
  const cached = counts.get(countKey) ?? { n: 0, dv: -1, av: -1 };
  const shape = [
    n.gnCoding,
    n.version,
    state === null ? '' : state === 'read' ? 'read-state' : 'confirm-state',
    scopeShape(c),
    whereShape(q.conditions, n.catalog),
    q.sort ? `${q.sort.column} ${q.sort.dir}` : '',
    limit,
    q.pageSize,
  ].join('#');
  const build = (bind: Bind) =>
    listStatement({
      table: tableOf(n.gnCoding),
      branches: scopeBranches(c, n.id, bind),
      where: whereSql(q.conditions, n.catalog, bind),
      sort: q.sort,
      offset,
      pageSize: q.pageSize,
      bind,
      columns: [...RECORD_COLUMNS, ...readersOf(n.fields).map((r) => r.col)],
      count: countReuse(n.id, cached, bind),
      access:
        state === 'read'
          ? {
              select: nodeStateSelect(c, n.id, bind),
              // what requireNode and listedNode ask of the state: no record is read for a 403 or a stale catalogue
              gate: sql`a."ds" = 'engine' and a."v" = ${bind('version', n.version)}::int and (${sql.raw(seesAll(c) ? 'true' : 'false')} or cardinality(a."granted") > 0)`,
              // the state's columns on every row; its lists (functions, grants) on the first only
              lead: sql`a."v", a."ds", a."off", case when x."ks_row" = 1 then a."fns" end as "fns", case when x."ks_row" = 1 then a."granted" end as "granted", a."av"`,
            }
          : state
            ? {
                select: sql`select true as "ok" from "access_version" where "id" = 1 and "v" = ${bind('av', state.confirm)}::bigint`,
                gate: sql`a."ok"`,
                lead: sql`a."ok" as "ks_confirmed"`,
              }
            : undefined,
    }).query;
  // the same values as `build` binds, under the same keys (list.test checks the two agree)
  const values = new Map<string, unknown>();
  if (!seesAll(c)) {
    values.set('me', c.id);
    if (c.enterpriseId) values.set('ent', c.enterpriseId);
    values.set('node', n.id);
    values.set('role', BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user');
  }
  whereValues(q.conditions, values);
  values.set('off', offset);
  values.set('node', n.id);
  values.set('cdv', cached.dv);
  values.set('cav', cached.av);
  values.set('cn', cached.n);
  if (state === 'read') {
    nodeStateValues(c, n.id, values);
    values.set('version', n.version);
  } else if (state) values.set('av', state.confirm);
  return { shape, limit, build, values, countKey };
}

/**
 * Counts made before, by caller, node catalogue, conditions and cap, with the versions they were made at
 * (`node_data_versions` of the node, `access_version`): reused by the list statement only while both still have them.
 */
const COUNTS_MAX = 20_000;
const counts = new Map<string, { n: number; dv: number; av: number }>();
/** The kept counts (for tests). */
export const listCounts = counts;

function countReuse(nodeId: string, cached: { n: number; dv: number; av: number }, bind: Bind) {
  const dv = sql`coalesce((select d."v" from "node_data_versions" d where d."node_id" = ${bind('node', nodeId)}::uuid), 0)`;
  const av = sql`(select av."v" from "access_version" av where av."id" = 1)`;
  return {
    reuse: sql`${dv} = ${bind('cdv', cached.dv)}::bigint and ${av} = ${bind('cav', cached.av)}::bigint`,
    cached: sql`${bind('cn', cached.n)}::int`,
    versions: sql`${dv} as "dv", ${av} as "cav"`,
  };
}

/** Keep the count a list statement answered (its first row), with the versions it belongs to. */
function keepCount(key: string, rows: Record<string, unknown>[]) {
  const r = rows[0];
  if (!r || r.ks_dv === undefined || r.ks_dv === null || r.ks_cav === null || r.ks_cav === undefined) return;
  counts.delete(key);
  if (counts.size >= COUNTS_MAX) counts.delete(counts.keys().next().value!);
  counts.set(key, { n: Number(r.ks_total), dv: Number(r.ks_dv), av: Number(r.ks_cav) });
}

/** A page of the list from the statement's rows (see listStatement). */
async function pageOf(
  db: Db,
  c: EngineCaller,
  gnCoding: string,
  n: { id: string; fields: FieldDef[] },
  rows: Record<string, unknown>[],
  limit: number,
): Promise<{ records: EngineRecord[]; total: number; totalCapped: boolean }> {
  const ops = await buttonsFor(db, c, gnCoding, 'table');
  const listed = rows.filter((r) => r.id !== null && r.id !== undefined);
  const operations = await operationsForRows(db, c, n.id, gnCoding, ops, listed);
  const counted = Number(rows[0]?.ks_total ?? 0);
  return {
    records: listed.map((r) => toRecord(r, n.fields, operations.get(String(r.id)) ?? [])),
    // the total is counted up to a limit (STACK.md): past it the pager is told so, and shows e.g. "1000+"
    total: Math.min(counted, limit),
    totalCapped: counted > limit,
  };
}

/** What the record policy needs beyond the record: the caller's role codes and the node's audit levels. */
export async function policyContext(q: Db, c: EngineCaller, gnCoding: string) {
  return { roleCodes: await roleCodesOf(q, c), levels: (await auditConfig(q, gnCoding)).levels };
}

/**
 * The record and the caller's review facts, after the record policy allowed `action` (else its 404 / 403 / 409).
 * `lock` takes the row lock (inside a transaction: `q` is the transaction, `ctx` read with it or before it).
 */
export async function recordFor(
  q: Db,
  c: EngineCaller,
  n: { id: string; gnCoding: string },
  id: string,
  action: RecordAction,
  ctx: { roleCodes: readonly string[]; levels: readonly AuditLevel[] },
  lock = false,
  version?: number,
): Promise<{ row: Record<string, unknown>; review: ReviewFacts }> {
  const table = ident(tableOf(n.gnCoding));
  const [row] = rowsOf(
    await q.execute(sql`select * from ${table} where "id" = ${id}${lock ? sql` for update` : sql``}`),
  );
  // a record the caller may not read answers as if it did not exist
  if (!row) throw notFound('记录不存在');
  const review = await reviewFactsOfRow(q, c, n.id, row, ctx);
  enforce(c, recordFactsOf(row), review, action, version);
  return { row, review };
}

/** A record the caller may read (the record policy), else 404. */
export async function rowOf(db: Db, c: EngineCaller, gnCoding: string, id: string, nodeId: string) {
  const ctx = { roleCodes: await roleCodesOf(db, c), levels: [] };
  return (await recordFor(db, c, { id: nodeId, gnCoding }, id, 'read', ctx)).row;
}

export async function recordDetail(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireNode(db, c, gnCoding);
  const n = await engineNode(db, gnCoding);
  const row = await rowOf(db, c, n.gnCoding, id, n.id);
  const ops = await buttonsFor(db, c, gnCoding, 'table');
  const operations = await operationsForRows(db, c, n.id, n.gnCoding, ops, [row]);
  return {
    ...toRecord(row, fieldsOf(n), operations.get(id) ?? []),
    auditLevel: Number(row.audit_level ?? 0),
    auditFlow: await auditFlow(db, n.id, id),
  };
}

/** The stored form of a value: multi-values and cascader paths joined, numbers as numbers, empty as null. */
export function storedValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v))
    return isMultiValueType(f.type) || isCascaderType(f.type) || f.type === 'daterange'
      ? joinValue(f.type, v)
      : String(v.at(-1) ?? '');
  if (kindOf(f.type) === 'number') return Number(v);
  // rich text: scripts, event handlers and javascript: URLs never reach the table
  if (f.type === 'editor') return sanitizeRichText(String(v));
  return String(v);
}

export async function saveRecord(
  db: Db,
  c: EngineCaller,
  input: { gnCoding: string; id?: string; version?: number; values: Record<string, unknown> },
  clock: ValidateOptions,
) {
  await requireFunction(db, c, input.gnCoding, input.id ? 'edit' : 'add');
  const n = await engineNode(db, input.gnCoding);
  const fields = fieldsOf(n);
  // only the record's side edits it (the record policy), whatever the values say: checked first, and again under the
  // row lock below
  const ctx = await policyContext(db, c, n.gnCoding);
  if (input.id) await recordFor(db, c, n, input.id, 'edit', ctx);
  // the same rules as the form, from the same code; dictionary and qualification fields are checked against their
  // items, pull-down fields against their source (with the record's parent values); an ordinary user's record names
  // their own enterprise only
  const own = await ownEnterpriseValues(db, c, fields, normaliseValues(fields, input.values));
  const values = own.values;
  // configured patterns run with RE2 (linear time), never a backtracking engine
  const errors = validateRecord(await withSourceOptions(db, fields), values, {
    ...clock,
    matchesRegex: matchesFieldPattern,
  });
  if (Object.keys(errors).length || Object.keys(own.errors).length) {
    throw validationFailed({
      ...Object.fromEntries(Object.entries(errors).map(([k, m]) => [`values.${k}`, [m]])),
      ...own.errors,
    });
  }
  const sourceErrors = await pullDownProblems(db, c, fields, values);
  if (Object.keys(sourceErrors).length) throw validationFailed(sourceErrors);
  const table = ident(tableOf(n.gnCoding));
  // read before the transaction: the embedded database has one connection, which the transaction holds
  const ops = await buttonsFor(db, c, input.gnCoding, 'table');
  const cols = fields.map((f) => ({ col: ident(columnOf(f.code)), value: storedValue(f, values[f.code]) }));
  // a value another record holds under one of the node's unique keys: the key's index refuses it (409, naming it)
  return db
    .transaction(async (tx) => {
      let row: Record<string, unknown> | undefined;
      if (!input.id) {
        const names = sql.join([sql`"owner_id"`, sql`"enterprise_id"`, ...cols.map((x) => x.col)], sql`, `);
        const vals = sql.join([sql`${c.id}`, sql`${c.enterpriseId}`, ...cols.map((x) => sql`${x.value}`)], sql`, `);
        [row] = rowsOf(await tx.execute(sql`insert into ${table} (${names}) values (${vals}) returning *`));
      } else {
        await recordFor(tx, c, n, input.id, 'edit', ctx, true, input.version ?? -1);
        const sets = sql.join(
          [...cols.map((x) => sql`${x.col} = ${x.value}`), sql`"version" = "version" + 1`, sql`"updated_at" = now()`],
          sql`, `,
        );
        [row] = rowsOf(
          await tx.execute(
            sql`update ${table} set ${sets} where "id" = ${input.id} and "status" in ('draft', 'rejected') and "version" = ${input.version ?? -1} returning *`,
          ),
        );
        if (!row) throw conflict('记录已被修改或已提交，请刷新后重试');
      }
      await writeOpLog(tx, c.actor, {
        glName: n.title,
        gnCoding: n.gnCoding,
        recordId: String(row?.id),
        logbook: input.id ? '修改记录' : '新增记录',
      });
      const saved = row as Record<string, unknown>;
      const operations = await operationsForRows(tx, c, n.id, n.gnCoding, ops, [saved]);
      return toRecord(saved, fields, operations.get(String(saved.id)) ?? []);
    })
    .catch((e: unknown) => {
      throw uniqueViolationOf(e, n) ?? e;
    });
}

export async function deleteRecord(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireFunction(db, c, gnCoding, 'delete');
  const n = await engineNode(db, gnCoding);
  const table = ident(tableOf(n.gnCoding));
  const ctx = await policyContext(db, c, n.gnCoding);
  await db.transaction(async (tx) => {
    await recordFor(tx, c, n, id, 'delete', ctx, true);
    const gone = rowsOf(
      await tx.execute(sql`delete from ${table} where "id" = ${id} and "status" = 'draft' returning "id"`),
    );
    if (!gone.length) throw conflict('只能删除草稿');
    // its attachments become unattached uploads of their owners; the files sweep removes them (and their bytes)
    await tx
      .update(files)
      .set({ recordId: null })
      .where(and(eq(files.gnCoding, n.gnCoding), eq(files.recordId, id)));
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding, recordId: id, logbook: '删除记录' });
  });
}

/** The operation log of one record the caller may see, oldest first (screen 25). */
export async function recordLogs(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireNode(db, c, gnCoding);
  const n = await engineNode(db, gnCoding);
  await rowOf(db, c, n.gnCoding, id, n.id);
  const rows = await db
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.gnCoding, gnCoding), eq(operationLogs.recordId, id)))
    .orderBy(asc(operationLogs.id));
  return rows.map((r) => ({
    glName: r.glName,
    czrClassification: r.czrClassification,
    czrName: r.czrName,
    logbook: r.logbook,
    failInfo: r.failInfo,
    czTime: r.czTime.toISOString(),
  }));
}
