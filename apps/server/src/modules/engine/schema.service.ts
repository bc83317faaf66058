import { createHash } from 'node:crypto';
import {
  type FieldDef,
  type FieldOption,
  fieldListSchema,
  isOptionType,
  OPTION_SOURCES,
  optionSourceOf,
  type UniqueKey,
  uniqueKeyProblems,
} from '@ks/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { type Actor, SYSTEM_ACTOR, writeOpLog } from '../../platform/oplog';
import { catalogOf, fieldsOf, kindOf, searchCodesOf } from './node-fields';
import { leftoverTableChanges, PG_TYPE_NAME, tableColumns, valuesIn } from './node-table';
import { optionSourceProblems } from './options.service';
import { patternProblem } from './pattern';
import {
  engineNodes,
  hasDataVersionTrigger,
  indexNamesOf,
  insertSchemaHistory,
  nodeForEngine,
  runDdl,
  schemaLock,
  updateNodeSchema,
} from './schema.repo';
import { assertFieldCode, COLUMN_TYPE, columnOf, quoteIdent, tableOf } from './sqlsafe';
import { assertNoDuplicates, type PlannedUnique, uniqueIndexPlan, uniqueKeysOf } from './unique';

// the node's row and fields, read by other modules through the schema service
export { nodeForEngine } from './schema.repo';

/**
 * A node's record table follows its field list (ARCHITECTURE.md, Data): typed columns `f_<code>` for the fields,
 * system columns for owner, enterprise, status, version and times, and composite indexes for the searchable fields.
 * Every statement is built from identifiers that passed `quoteIdent` and from the constant types below; no client
 * text reaches DDL. Each change is recorded in node_schema_history with the statements it ran.
 */

const indexName = (table: string, key: string) =>
  `i_${createHash('sha1').update(`${table}:${key}`).digest('hex').slice(0, 24)}`;
/**
 * The indexes this module manages on a node table are named `i_<24 hex>` (and `u_<24 hex>` for the unique keys,
 * unique.ts); any other index there is left alone.
 */
const MANAGED_INDEX = /^[iu]_[0-9a-f]{24}$/;

export interface PlannedIndex {
  name: string;
  /** the `create index` statement, built from checked identifiers only */
  ddl: string;
  /** a unique key's index: created only once the table's records are checked against it */
  unique?: PlannedUnique;
}

/**
 * The indexes of a node table (STACK.md's recipe; the list query in records.service reads them):
 * - the default order for everyone who sees all records: (created_at desc, id desc);
 * - the scopes: an enterprise's records (enterprise_id, created_at desc, id desc) and a person's own (owner_id, …);
 * - the status (status, created_at desc, id desc);
 * - each searchable field twice: (field, created_at desc, id desc) for administrators, and with the scope inside,
 *   (field, enterprise_id, created_at desc, id desc), so an enterprise's filtered, sorted page and its capped count
 *   are read from the index alone;
 * - each searchable free-text field (searched with `like '%…%'`, see catalogOf) also a trigram GIN index
 *   (pg_trgm, migration 0015), which finds the rows containing a substring without reading the table.
 */
export function indexPlan(
  nodeCode: string,
  fields: readonly FieldDef[],
  searchCodes: readonly string[],
  uniqueKeys: readonly UniqueKey[] = [],
): PlannedIndex[] {
  const raw = tableOf(nodeCode);
  const table = quoteIdent(raw);
  const order = '"created_at" desc, "id" desc';
  const plan: [string, string][] = [
    ['base:created', order],
    ['base:enterprise', `"enterprise_id", ${order}`],
    ['base:owner', `"owner_id", ${order}`],
    ['base:status', `"status", ${order}`],
  ];
  const byCode = new Map(fields.map((f) => [f.code, f]));
  for (const code of new Set(searchCodes)) {
    const f = byCode.get(code);
    if (!f) continue;
    const col = quoteIdent(columnOf(code));
    plan.push([`field:${code}`, `${col}, ${order}`], [`field:${code}:enterprise`, `${col}, "enterprise_id", ${order}`]);
    // a free-text field is searched for a substring (`like '%…%'`), which only a trigram index serves
    if (catalogOf([f]).get(code)?.searchable) plan.push([`trgm:${code}`, `gin:${col} gin_trgm_ops`]);
  }
  return [
    ...plan.map(([key, cols]) => {
      const name = indexName(raw, key);
      const [method, list] = cols.startsWith('gin:') ? ['using gin ', cols.slice(4)] : ['', cols];
      return { name, ddl: `create index if not exists ${quoteIdent(name)} on ${table} ${method}(${list})` };
    }),
    // each unique key (unique.ts)
    ...uniqueIndexPlan(nodeCode, fields, uniqueKeys, kindOf).map((u) => ({ name: u.name, ddl: u.ddl, unique: u })),
  ];
}

/** Runs index changes (indexChanges), after checking the records against each unique index about to be created. */
async function applyIndexChanges(
  q: DbOrTx,
  nodeCode: string,
  fields: readonly FieldDef[],
  plan: readonly PlannedIndex[],
  changes: readonly string[],
) {
  const creating = plan.filter((p) => p.unique && changes.includes(p.ddl)).map((p) => p.unique!);
  await assertNoDuplicates(q, nodeCode, fields, creating);
  await runDdl(q, changes);
}

/**
 * The statements that bring a node table's indexes to `plan`: the missing ones created, managed ones no longer in the
 * plan (an earlier shape, a field no longer searchable) dropped. Reads the table's current indexes through `db`.
 */
export async function indexChanges(db: DbOrTx, nodeCode: string, plan: readonly PlannedIndex[]): Promise<string[]> {
  const have = await indexNamesOf(db, nodeCode);
  const want = new Set(plan.map((p) => p.name));
  return [
    ...[...have]
      .filter((n) => MANAGED_INDEX.test(n) && !want.has(n))
      .sort()
      .map((n) => `drop index if exists ${quoteIdent(n)}`),
    ...plan.filter((p) => !have.has(p.name)).map((p) => p.ddl),
  ];
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The statement that makes every change to a node's table move its data version (`node_data_versions`, migration
 * 0009): counts of its records are reused only while it stands still.
 */
export function dataVersionTriggerDdl(nodeCode: string, nodeId: string): string {
  if (!UUID_TEXT.test(nodeId)) throw new Error(`not a node id: ${nodeId}`);
  return `create or replace trigger "ks_data_version" after insert or update or delete or truncate on ${quoteIdent(tableOf(nodeCode))} for each statement execute function "ks_bump_node_data"('${nodeId}')`;
}

/** The data-version trigger statement when the node's table lacks it (see dataVersionTriggerDdl), else nothing. */
export async function dataVersionChanges(db: DbOrTx, nodeCode: string, nodeId: string): Promise<string[]> {
  return (await hasDataVersionTrigger(db, nodeCode)) ? [] : [dataVersionTriggerDdl(nodeCode, nodeId)];
}

/** Columns earlier versions made on node tables and nothing reads: dropped by the next sync. */
const LEGACY_COLUMNS = ['data'];

/** The statements that drop the table's legacy columns (`columns`: the table's, from node-table's tableColumns). */
export function legacyColumnChanges(nodeCode: string, columns: ReadonlyMap<string, string> | null): string[] {
  const table = quoteIdent(tableOf(nodeCode));
  return LEGACY_COLUMNS.filter((c) => columns?.has(c)).map((c) => `alter table ${table} drop column ${quoteIdent(c)}`);
}

/**
 * The statements that bring the node's table and columns to the field list `after`, from `before` (null: the node had
 * no fields) and the table as it really is (`existing`: its columns and their types from pg_attribute, null when there
 * is no table). A field's kind cannot change while it is in the list; a column whose real type differs from its
 * field's (a field removed and added again with another kind) is listed in `retyped`: it may be changed only while it
 * holds no value (the caller checks). Indexes follow `indexPlan` (see `indexChanges`).
 */
export function planDdl(
  nodeCode: string,
  before: readonly FieldDef[] | null,
  after: readonly FieldDef[],
  existing: ReadonlyMap<string, string> | null = null,
): { ddl: string[]; retyped: { field: FieldDef; column: string; have: string }[] } {
  const table = quoteIdent(tableOf(nodeCode));
  const out: string[] = [];
  const retyped: { field: FieldDef; column: string; have: string }[] = [];
  if (!existing) {
    out.push(
      `create table ${table} (` +
        '"id" uuid primary key default gen_random_uuid(), ' +
        '"owner_id" uuid not null, ' +
        '"enterprise_id" uuid, ' +
        `"status" varchar(12) not null default 'draft', ` +
        '"audit_level" integer not null default 0, ' +
        '"round" integer not null default 0, ' +
        '"version" integer not null default 1, ' +
        '"created_at" timestamptz not null default now(), ' +
        '"updated_at" timestamptz not null default now())',
    );
  }
  const old = new Map((before ?? []).map((f) => [f.code, f]));
  for (const f of after) {
    assertFieldCode(f.code);
    const prev = old.get(f.code);
    if (prev && kindOf(prev.type) !== kindOf(f.type)) {
      throw conflict(`字段「${f.name}」的类型不能由 ${prev.type} 改为 ${f.type}，请新建字段`);
    }
    const column = columnOf(f.code);
    const kind = kindOf(f.type);
    const have = existing?.get(column);
    if (have === undefined) {
      out.push(`alter table ${table} add column ${quoteIdent(column)} ${COLUMN_TYPE[kind]}`);
    } else if (have !== PG_TYPE_NAME[kind]) {
      retyped.push({ field: f, column, have });
      out.push(
        `alter table ${table} alter column ${quoteIdent(column)} type ${COLUMN_TYPE[kind]} using null::${COLUMN_TYPE[kind]}`,
      );
    }
  }
  // a removed field keeps its column (and data); it simply leaves the schema
  return { ddl: out, retyped };
}

/**
 * Brings every engine node table's indexes (and data-version trigger) to the current plan (run at start-up, after the
 * migrations): tables made by earlier versions get the new shapes and lose the old ones (and their legacy columns). Idempotent; one transaction per node, serialised
 * between processes by an advisory lock. Answers the statements it ran.
 */
export async function syncEngineIndexes(db: Db): Promise<string[]> {
  const nodes = await engineNodes(db);
  const ran: string[] = [];
  for (const n of nodes) {
    try {
      ran.push(...(await syncNodeIndexes(db, n)));
    } catch (e) {
      // records that break a unique key whose index is missing (e.g. restored from an old backup): the server starts,
      // and says which node needs its records put right; the node's other indexes wait until it is
      if (!(e instanceof AppError)) throw e;
      process.emitWarning(`节点 ${n.gnCoding} 的索引未能同步：${e.message}`);
    }
  }
  return ran;
}

/**
 * Brings one engine node's table indexes (and its data-version trigger) to the current plan of its fields and
 * searchable columns — at start-up, and when its list columns are saved (a column made searchable gets its index
 * at once). One transaction, serialised between processes by an advisory lock; answers the statements it ran.
 */
export async function syncNodeIndexes(
  db: Db,
  n: { id: string; gnCoding: string; title: string; fields: unknown; columns: unknown; uniqueKeys?: unknown },
): Promise<string[]> {
  const fields = fieldsOf(n);
  const plan = indexPlan(n.gnCoding, fields, searchCodesOf(n.columns), uniqueKeysOf(n));
  return db.transaction(async (tx) => {
    await schemaLock(tx);
    const indexes = await indexChanges(tx, n.gnCoding, plan);
    const changes = [
      ...indexes,
      ...(await dataVersionChanges(tx, n.gnCoding, n.id)),
      ...legacyColumnChanges(n.gnCoding, await tableColumns(tx, n.gnCoding)),
    ];
    if (!changes.length) return [];
    await applyIndexChanges(tx, n.gnCoding, fields, plan, indexes);
    await runDdl(tx, changes.slice(indexes.length));
    await writeOpLog(tx, SYSTEM_ACTOR, {
      glName: '系统配置',
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `同步索引：${n.title}（执行 ${changes.length} 条结构变更）`,
    });
    return changes;
  });
}

export async function saveFields(
  db: Db,
  actor: Actor,
  gnCoding: string,
  fields: FieldDef[],
  version: number,
  /** the node's unique keys; absent: the ones it has are kept (and must still name fields of the list) */
  keys?: UniqueKey[],
): Promise<{ fields: FieldDef[]; version: number; uniqueKeys: UniqueKey[] }> {
  const n = await nodeForEngine(db, gnCoding);
  if (n.dataSource !== 'engine') throw conflict('该节点的数据来自业务模块，不能在此修改字段');
  const uniqueKeys = keys ?? uniqueKeysOf(n);
  const problems = await optionSourceProblems(db, n.gnCoding, fields);
  for (const [k, m] of Object.entries(uniqueKeyProblems(fields, uniqueKeys))) {
    const key = k ? `uniqueKeys.${k}` : 'uniqueKeys';
    problems[key] = [...(problems[key] ?? []), m];
  }
  // a pattern the server would not run (RE2: no backreferences, no look-around) is refused now, not at record save
  for (const [i, f] of fields.entries()) {
    const p = patternProblem(f);
    if (p) problems[`fields.${i}.regex`] = [...(problems[`fields.${i}.regex`] ?? []), p];
  }
  if (Object.keys(problems).length) throw validationFailed(problems);
  const before = n.fieldsVersion === 0 ? null : fieldsOf(n);
  // the kinds and codes are checked before anything is written
  planDdl(n.gnCoding, before, fields, new Map());
  const plan = indexPlan(n.gnCoding, fields, searchCodesOf(n.columns), uniqueKeys);
  return db.transaction(async (tx) => {
    const u = await updateNodeSchema(tx, n.id, version, { fields, uniqueKeys });
    if (!u) throw conflict('字段已被他人修改，请刷新后重试');
    // a table left by an earlier node of this code is not this node's: dropped when empty, else archived
    const leftover = before === null ? await leftoverTableChanges(tx, n.gnCoding, new Date()) : null;
    await runDdl(tx, leftover?.ddl ?? []);
    const table = await tableColumns(tx, n.gnCoding);
    const { ddl: tableDdl, retyped } = planDdl(n.gnCoding, before, fields, table);
    for (const r of retyped) {
      const held = await valuesIn(tx, tableOf(n.gnCoding), r.column);
      if (held > 0) {
        throw validationFailed({
          [`fields.${fields.indexOf(r.field)}.type`]: [
            `字段「${r.field.name}」的数据列已有 ${held >= 1000 ? '1000 条以上' : `${held} 条`}${r.have} 类型的数据，不能改为${r.field.type}，请换一个字段编码`,
          ],
        });
      }
    }
    const legacy = legacyColumnChanges(n.gnCoding, table);
    await runDdl(tx, [...tableDdl, ...legacy]);
    const indexes = await indexChanges(tx, n.gnCoding, plan);
    await applyIndexChanges(tx, n.gnCoding, fields, plan, indexes);
    const trigger = await dataVersionChanges(tx, n.gnCoding, n.id);
    await runDdl(tx, trigger);
    const ddl = [...(leftover?.ddl ?? []), ...tableDdl, ...legacy, ...indexes, ...trigger];
    if (leftover) {
      await writeOpLog(tx, actor, {
        glName: '系统配置',
        gnCoding,
        recordId: n.id,
        logbook: `${leftover.log}（节点 ${n.title}）`,
      });
    }
    await insertSchemaHistory(tx, { nodeId: n.id, version: u.fieldsVersion, fields, ddl, createdBy: actor.userId });
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      gnCoding,
      recordId: n.id,
      logbook: `保存字段：${n.title} 共 ${fields.length} 个字段（第 ${u.fieldsVersion} 版，执行 ${ddl.length} 条结构变更）`,
    });
    return { fields: fieldsOf(u), version: u.fieldsVersion, uniqueKeys: uniqueKeysOf(u) };
  });
}

/**
 * A field's value range (its inline option list), saved through the same versioned field save. Only fields whose
 * options are inline (`static`) have one: dictionaries, the qualification tree and pull-down sources are kept elsewhere.
 */
export async function saveValueRange(
  db: Db,
  actor: Actor,
  gnCoding: string,
  code: string,
  list: FieldOption[],
): Promise<{ fields: FieldDef[]; version: number; uniqueKeys: UniqueKey[] }> {
  const n = await nodeForEngine(db, gnCoding);
  const fields = fieldsOf(n);
  const field = fields.find((f) => f.code === code);
  if (!field) throw validationFailed({ code: [`节点没有字段：${code}`] });
  if (!isOptionType(field.type)) throw validationFailed({ code: [`字段「${field.name}」不是选择类字段，没有值域`] });
  if (optionSourceOf(field) !== OPTION_SOURCES.static) {
    throw validationFailed({ code: [`字段「${field.name}」的选项来自${field.options?.type}，不能在此修改值域`] });
  }
  const next = fields.map((f) => (f.code === code ? { ...f, options: { ...f.options, list } } : f));
  // the whole list is checked again, as a developer's field save is
  const parsed = fieldListSchema.safeParse(next);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = ['list', ...issue.path.slice(3)].join('.');
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    throw validationFailed(fieldErrors);
  }
  return saveFields(db, actor, gnCoding, parsed.data as FieldDef[], n.fieldsVersion);
}
