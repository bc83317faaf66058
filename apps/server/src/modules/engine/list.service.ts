import { type EngineRecord, type FieldDef, SUPERVISE_FUNCTION } from '@ks/contracts';
import type { Db } from '../../db/client';
import { createCache } from '../../platform/cache';
import { notFound } from '../../platform/errors';
import {
  findNode,
  forgetNodeState,
  lastNodeState,
  type NodeRef,
  type NodeState,
  nodeState,
  nodeStateOf,
  nodeStateValues,
  rememberNodeState,
  requireNode,
  seesAllNodes,
} from '../../platform/permissions';
import { renderCached } from '../../platform/prepared';
import { buttonsFor } from '../shell/grants.service';
import { catalogOf, fieldsOf } from './node-fields';
import { type EngineCaller, engineNode, operationsForRows } from './record-access';
import { recordColumns, toRecord } from './record-row';
import {
  accessConfirmed,
  countLimit,
  countReuse,
  listStatement,
  runListStatement,
  scopeBranches,
  scopeShape,
  scopeValues,
  stateRead,
} from './records.repo';
import {
  type Bind,
  type Catalog,
  type Condition,
  columnOf,
  normaliseSearchParams,
  parseSort,
  parseWhereStr,
  type Sort,
  searchToConditions,
  tableOf,
  whereShape,
  whereSql,
  whereValues,
} from './sqlsafe';

/**
 * The list of a node's records (issue 5, Performance): one statement per page — the caller's scope read in index
 * order, the page's rows by key, the total counted up to a cap (a count kept while nothing it depends on moved) — and
 * the caller's node state read or confirmed in that same statement. The node's catalogue (fields, filters) is kept
 * per schema version.
 */

/**
 * The fields and filter catalogue of a node the caller may list, parsed once per schema version: the version and the
 * data source are read live (with the caller's grants, once per request), the field list only when it changed.
 */
const catalogues = createCache<string, { version: number; gnCoding: string; fields: FieldDef[]; catalog: Catalog }>(
  'engine.catalogues',
  { max: 2000 },
);

/** The node a caller lists (403 / 404 as the list gives them), with its fields and catalogue (cached per schema version). */
export async function listedNode(db: Db, c: EngineCaller, gnCoding: string) {
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
      // the scope follows the state read before (监督查看 reads all), which the statement confirms
      const l = listQuery(db, c, n, page, { confirm: last.accessVersion }, supervisesIn(last));
      const { limit, countKey } = l;
      const rows = await runListStatement(db, l);
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
    const rows = await runListStatement(db, l);
    rememberNodeState(c, n.id, rows[0] ? nodeStateOf(rows[0]) : null);
    keepCount(countKey, rows);
    await requireNode(db, c, q.gnCoding);
    const state = await nodeState(db, c, n.id);
    if (state?.dataSource !== 'engine' || state.fieldsVersion === 0) throw notFound('该节点尚未配置字段');
    // the fields changed since the catalogue was read, or the caller supervises the node (the statement read the
    // caller's own records only): answer again with the state now known
    if (state.fieldsVersion !== n.version || supervisesIn(state)) return listRecords(db, c, q);
    return pageOf(db, c, q.gnCoding, n, rows, limit);
  }
  const l = listQuery(db, c, n, page, null, supervisesIn(await nodeState(db, c, n.id)));
  const { limit, countKey } = l;
  const rows = await runListStatement(db, l);
  keepCount(countKey, rows);
  return pageOf(db, c, q.gnCoding, n, rows, limit);
}

/** Does the state give the caller the node's 监督查看 function (every record, read-only)? */
const supervisesIn = (state: NodeState | null) => state?.granted.has(SUPERVISE_FUNCTION) ?? false;

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
  supervises = false,
) {
  const p = listParts({ ...c, supervises }, n, q, state);
  // values enter as named placeholders: the text is rendered once per shape, and not even built again once it is
  const statement = renderCached(db, p.shape, p.build, p.values);
  // A substring filter (`like '%…%'`) is planned for its value at every run, as an unnamed statement: whether the
  // text matches a few records (read them through the field's trigram index) or most (read in order, stop at the
  // page) is known only from the value, and a named statement's shared generic plan would pick one for all.
  // A rare term (the column's statistics say so) is the exception: one generic plan suits all of them, kept on
  // connections of their own (records.repo runListStatement).
  const unnamed = q.conditions.some((x) => x.op === 'like');
  const terms = q.conditions.flatMap((x) => (x.op === 'like' ? [{ column: columnOf(x.field), term: x.value }] : []));
  const likes = terms.length ? { table: tableOf(n.gnCoding), terms } : undefined;
  return { statement, unnamed, likes, limit: p.limit, countKey: p.countKey };
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
  c: Pick<EngineCaller, 'id' | 'loginRoleType' | 'enterpriseId'> & { supervises?: boolean },
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
    scopeShape(c),
    whereShape(q.conditions, n.catalog),
    JSON.stringify([...where]),
    limit,
  ].join('#');
  const cached = counts.get(countKey) ?? { n: 0, dv: -1, av: -1 };
  const substring = q.conditions.some((x) => x.op === 'like');
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
      columns: recordColumns(n.fields),
      count: countReuse(n.id, cached, bind),
      shared: substring,
      access:
        state === 'read'
          ? stateRead(c, n.id, n.version, bind)
          : state
            ? accessConfirmed(bind, state.confirm)
            : undefined,
    }).query;
  // the same values as `build` binds, under the same keys (list.test checks the two agree)
  const values = new Map<string, unknown>();
  scopeValues(c, n.id, values);
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
const counts = createCache<string, { n: number; dv: number; av: number }>('engine.listCounts', { max: 20_000 });
/** The kept counts (for tests and the benchmark). */
export const listCounts = counts;

/** Keep the count a list statement answered (its first row), with the versions it belongs to. */
function keepCount(key: string, rows: Record<string, unknown>[]) {
  const r = rows[0];
  if (!r || r.ks_dv === undefined || r.ks_dv === null || r.ks_cav === null || r.ks_cav === undefined) return;
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
