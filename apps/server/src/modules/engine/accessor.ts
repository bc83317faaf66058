import type { FieldDef } from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { conflict, notFound, parse } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { HookRecord } from './hooks';
import { rowsOf, storedValue, toRecord } from './records.service';
import { catalogOf, fieldsOf, nodeForEngine } from './schema.service';
import { type Condition, columnOf, ident, tableOf, whereSql } from './sqlsafe';
import { uniqueViolationOf } from './unique';

/**
 * The typed accessor of one engine node for the domain module that owns it (ARCHITECTURE.md: "one typed accessor per
 * node that it owns, not spelling `f_` columns in many places"): the module names the fields it uses with their zod
 * types once, and reads, lists and updates the node's records by field code. Values read are checked against those
 * types (a record that does not fit is a server error: the node's configuration and the module disagree); values
 * written are checked too (a mismatch is a 400 naming the field) and stored as a form would store them.
 *
 * The accessor acts for the module, not for a caller: the record policy and function grants are the caller-facing
 * calls' business (records.service, review.service). Each function takes the database or a transaction — in a
 * decision hook, the hook's `tx`. Every update writes its operation-log row.
 */

export type NodeRecord<V> = Omit<HookRecord, 'values'> & { values: V };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most records one `list` answers. */
export const ACCESSOR_LIST_MAX = 1000;

export function nodeAccessor<S extends z.ZodRawShape>(gnCoding: string, shape: S) {
  const schema = z.object(shape);
  type V = z.infer<typeof schema>;
  const codes = Object.keys(shape);
  for (const code of codes) columnOf(code);
  const patchSchema = schema.partial().strict();
  const table = ident(tableOf(gnCoding));

  /** The node and the accessor's fields of it (each must be a field of the node: else a programming error). */
  async function fieldsNow(q: DbOrTx) {
    const n = await nodeForEngine(q, gnCoding);
    if (n.dataSource !== 'engine' || n.fieldsVersion === 0) throw new Error(`node ${gnCoding} has no engine fields`);
    const byCode = new Map(fieldsOf(n).map((f) => [f.code, f]));
    const missing = codes.filter((c) => !byCode.has(c));
    if (missing.length) throw new Error(`node ${gnCoding} has no field ${missing.join(', ')}`);
    return { n, fields: codes.map((c) => byCode.get(c)!) };
  }

  function recordOf(row: Record<string, unknown>, fields: FieldDef[]): NodeRecord<V> {
    const r = toRecord(row, fields, []);
    const parsed = schema.safeParse(r.values);
    if (!parsed.success) {
      throw new Error(`record ${r.id} of ${gnCoding} does not fit its accessor: ${z.prettifyError(parsed.error)}`);
    }
    return {
      id: r.id,
      status: r.status,
      version: r.version,
      round: Number(row.round),
      auditLevel: Number(row.audit_level),
      ownerId: r.ownerId,
      enterpriseId: row.enterprise_id === null ? null : String(row.enterprise_id),
      values: parsed.data,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  /** The record, or null when there is none with this id; `lock` takes its row lock (inside a transaction). */
  async function get(q: DbOrTx, id: string, opts: { lock?: boolean } = {}): Promise<NodeRecord<V> | null> {
    if (!UUID.test(id)) return null;
    const { fields } = await fieldsNow(q);
    const [row] = rowsOf(
      await q.execute(sql`select * from ${table} where "id" = ${id}${opts.lock ? sql` for update` : sql``}`),
    );
    return row ? recordOf(row, fields) : null;
  }

  return {
    gnCoding,
    get,

    /**
     * Records whose fields equal `where` (null: empty) and whose status is one of `status`, newest first, at most
     * `limit` (100; ACCESSOR_LIST_MAX at most) from `offset`.
     */
    async list(
      q: DbOrTx,
      opts: { where?: Partial<V>; status?: readonly string[]; limit?: number; offset?: number } = {},
    ): Promise<NodeRecord<V>[]> {
      const limit = Math.min(opts.limit ?? 100, ACCESSOR_LIST_MAX);
      const offset = opts.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
        throw new Error('accessor list: limit and offset must be whole numbers');
      }
      const { fields } = await fieldsNow(q);
      const where = parse(patchSchema, opts.where ?? {}) as Record<string, unknown>;
      const conditions: Condition[] = Object.entries(where).map(([code, v]) => {
        const stored = storedValue(fields.find((f) => f.code === code)!, v);
        return stored === null
          ? { field: code, op: 'isNull' }
          : { field: code, op: 'eq', value: stored as string | number };
      });
      const parts: SQL[] = [whereSql(conditions, catalogOf(fields))];
      if (opts.status) {
        parts.push(
          opts.status.length
            ? sql`"status" in (${sql.join(
                opts.status.map((s) => sql`${s}`),
                sql`, `,
              )})`
            : sql`false`,
        );
      }
      const rows = rowsOf(
        await q.execute(
          sql`select * from ${table} where ${sql.join(parts, sql` and `)} order by "created_at" desc, "id" desc limit ${limit} offset ${offset}`,
        ),
      );
      return rows.map((r) => recordOf(r, fields));
    },

    /**
     * Sets these fields of the record (the others keep their values), moves its version on, and writes the operation
     * log line `logbook` as `actor`. With `version`, only the record still at that version is changed (else 409).
     */
    async update(
      q: DbOrTx,
      id: string,
      patch: Partial<V>,
      opts: { actor: Actor; logbook: string; version?: number },
    ): Promise<NodeRecord<V>> {
      if (!UUID.test(id)) throw notFound('记录不存在');
      const { n, fields } = await fieldsNow(q);
      const values = parse(patchSchema, patch) as Record<string, unknown>;
      const sets: SQL[] = Object.entries(values).map(
        ([code, v]) => sql`${ident(columnOf(code))} = ${storedValue(fields.find((f) => f.code === code)!, v)}`,
      );
      sets.push(sql`"version" = "version" + 1`, sql`"updated_at" = now()`);
      const version = opts.version === undefined ? sql`` : sql` and "version" = ${opts.version}`;
      const [row] = rowsOf(
        await q
          .execute(sql`update ${table} set ${sql.join(sets, sql`, `)} where "id" = ${id}${version} returning *`)
          .catch((e: unknown) => {
            throw uniqueViolationOf(e, n) ?? e;
          }),
      );
      if (!row) {
        if (opts.version !== undefined && (await get(q, id))) throw conflict('记录已被修改，请刷新后重试');
        throw notFound('记录不存在');
      }
      await writeOpLog(q, opts.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: id, logbook: opts.logbook });
      return recordOf(row, fields);
    },
  };
}

export type NodeAccessor<S extends z.ZodRawShape> = ReturnType<typeof nodeAccessor<S>>;
