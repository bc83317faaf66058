import { createHash } from 'node:crypto';
import {
  type FieldDef,
  type FieldOption,
  fieldListSchema,
  isNumberType,
  isOptionType,
  isTextType,
  OPTION_SOURCES,
  optionSourceOf,
  type TableColumn,
} from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { menuNodes, nodeSchemaHistory } from '../../db/schema';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { optionSourceProblems } from './options.service';
import { assertFieldCode, type Catalog, COLUMN_TYPE, columnOf, type FieldKind, quoteIdent, tableOf } from './sqlsafe';

/**
 * A node's record table follows its field list (ARCHITECTURE.md, Data): typed columns `f_<code>` for the fields,
 * system columns for owner, enterprise, status, version and times, and composite indexes for the searchable fields.
 * Every statement is built from identifiers that passed `quoteIdent` and from the constant types below; no client
 * text reaches DDL. Each change is recorded in node_schema_history with the statements it ran.
 */

export function kindOf(type: string): FieldKind {
  if (isNumberType(type)) return 'number';
  if (type === 'date') return 'date';
  if (type === 'datetime') return 'datetime';
  return 'text';
}

/**
 * The fields a client may filter and sort on: every field is a real column. Free-text fields are searched with like;
 * option fields (select, radio …) and the rest by equality, which their index answers.
 */
export function catalogOf(fields: readonly FieldDef[]): Catalog {
  const c: Catalog = new Map();
  for (const f of fields) {
    const kind = kindOf(f.type);
    c.set(f.code, { kind, searchable: kind === 'text' && isTextType(f.type), sortable: true });
  }
  c.set('createdAt', { kind: 'datetime', searchable: false, sortable: true, column: 'created_at' });
  c.set('updatedAt', { kind: 'datetime', searchable: false, sortable: true, column: 'updated_at' });
  return c;
}

const indexName = (table: string, cols: string) =>
  `i_${createHash('sha1').update(`${table}:${cols}`).digest('hex').slice(0, 24)}`;

/** The statements that bring the node's table from `before` to `after` (creating it when `before` is null). */
export function planDdl(
  nodeCode: string,
  before: readonly FieldDef[] | null,
  after: readonly FieldDef[],
  searchCodes: readonly string[],
): string[] {
  const table = quoteIdent(tableOf(nodeCode));
  const raw = tableOf(nodeCode);
  const out: string[] = [];
  if (before === null) {
    out.push(
      `create table if not exists ${table} (` +
        '"id" uuid primary key default gen_random_uuid(), ' +
        '"owner_id" uuid not null, ' +
        '"enterprise_id" uuid, ' +
        `"status" varchar(12) not null default 'draft', ` +
        '"audit_level" integer not null default 0, ' +
        '"round" integer not null default 0, ' +
        '"version" integer not null default 1, ' +
        '"created_at" timestamptz not null default now(), ' +
        '"updated_at" timestamptz not null default now(), ' +
        `"data" jsonb not null default '{}'::jsonb)`,
    );
    out.push(
      `create index if not exists ${quoteIdent(indexName(raw, 'scope'))} on ${table} ("enterprise_id", "owner_id", "created_at" desc, "id" desc)`,
    );
    out.push(
      `create index if not exists ${quoteIdent(indexName(raw, 'status'))} on ${table} ("status", "created_at" desc, "id" desc)`,
    );
  }
  const old = new Map((before ?? []).map((f) => [f.code, f]));
  for (const f of after) {
    assertFieldCode(f.code);
    const prev = old.get(f.code);
    if (prev && kindOf(prev.type) !== kindOf(f.type)) {
      throw conflict(`字段「${f.name}」的类型不能由 ${prev.type} 改为 ${f.type}，请新建字段`);
    }
    if (!prev)
      out.push(
        `alter table ${table} add column if not exists ${quoteIdent(columnOf(f.code))} ${COLUMN_TYPE[kindOf(f.type)]}`,
      );
  }
  // searchable fields: one composite index each (STACK.md's recipe): the filter column, then the default order, so a
  // filtered first page is read straight from the index
  for (const code of searchCodes) {
    if (!after.some((f) => f.code === code)) continue;
    const col = quoteIdent(columnOf(code));
    out.push(
      `create index if not exists ${quoteIdent(indexName(raw, code))} on ${table} (${col}, "created_at" desc, "id" desc)`,
    );
  }
  // a removed field keeps its column (and data); it simply leaves the schema
  return out;
}

export async function nodeForEngine(db: Db, gnCoding: string) {
  const [n] = await db.select().from(menuNodes).where(eq(menuNodes.gnCoding, gnCoding));
  if (!n) throw notFound('节点不存在');
  return n;
}

export const fieldsOf = (n: { fields: unknown }): FieldDef[] =>
  Array.isArray(n.fields) ? (n.fields as FieldDef[]) : [];

export async function saveFields(
  db: Db,
  actor: Actor,
  gnCoding: string,
  fields: FieldDef[],
  version: number,
): Promise<{ fields: FieldDef[]; version: number }> {
  const n = await nodeForEngine(db, gnCoding);
  if (n.dataSource !== 'engine') throw conflict('该节点的数据来自业务模块，不能在此修改字段');
  const problems = await optionSourceProblems(db, n.gnCoding, fields);
  if (Object.keys(problems).length) throw validationFailed(problems);
  const columns = Array.isArray(n.columns) ? (n.columns as TableColumn[]) : [];
  const searchCodes = columns.filter((c) => c.isSearch).map((c) => c.code);
  const before = n.fieldsVersion === 0 ? null : fieldsOf(n);
  const ddl = planDdl(n.gnCoding, before, fields, searchCodes);
  return db.transaction(async (tx) => {
    const [u] = await tx
      .update(menuNodes)
      .set({ fields, fieldsVersion: n.fieldsVersion + 1, updatedAt: new Date() })
      .where(and(eq(menuNodes.id, n.id), eq(menuNodes.fieldsVersion, version)))
      .returning();
    if (!u) throw conflict('字段已被他人修改，请刷新后重试');
    for (const stmt of ddl) await tx.execute(sql.raw(stmt));
    await tx.insert(nodeSchemaHistory).values({
      nodeId: n.id,
      version: u.fieldsVersion,
      fields,
      ddl,
      createdBy: actor.userId,
    });
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      gnCoding,
      recordId: n.id,
      logbook: `保存字段：${n.title} 共 ${fields.length} 个字段（第 ${u.fieldsVersion} 版，执行 ${ddl.length} 条结构变更）`,
    });
    return { fields: fieldsOf(u), version: u.fieldsVersion };
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
): Promise<{ fields: FieldDef[]; version: number }> {
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
