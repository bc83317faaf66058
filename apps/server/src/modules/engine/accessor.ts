import type { FieldDef } from '@ks/contracts';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { conflict, notFound, parse } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { HookRecord } from './hooks';
import { catalogOf, fieldsOf } from './node-fields';
import { recordStateOf, storedValue } from './record-row';
import { insertRecord, recordRow, recordRows, updateRecord } from './records.repo';
import { nodeForEngine } from './schema.repo';
import { type Condition, columnOf, tableOf, whereSql } from './sqlsafe';
import { uniqueViolationOf } from './unique';

/**
 * The typed accessor of one engine node for the domain module that owns it (ARCHITECTURE.md: "one typed accessor per
 * node that it owns, not spelling `f_` columns in many places"): the module names the fields it uses with their zod
 * types once, and reads, lists, creates and updates the node's records by field code. Values read are checked against those
 * types (a record that does not fit is a server error: the node's configuration and the module disagree); values
 * written are checked too (a mismatch is a 400 naming the field) and stored as a form would store them.
 *
 * The accessor acts for the module, not for a caller: the record policy and function grants are the caller-facing
 * calls' business (records.service, review.service). Each function takes the database or a transaction — in a
 * decision hook, the hook's `tx`. Every update writes its operation-log row.
 */

export type NodeRecord<V> = Omit<HookRecord, 'values'> & { values: V };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The record's status as a condition of `list` (a name no field code can take: codes are lower case). */
const STATUS = 'Status';
/** The most records one `list` answers. */
export const ACCESSOR_LIST_MAX = 1000;

export function nodeAccessor<S extends z.ZodRawShape>(gnCoding: string, shape: S) {
  const schema = z.object(shape);
  type V = z.infer<typeof schema>;
  const codes = Object.keys(shape);
  for (const code of codes) columnOf(code);
  const patchSchema = schema.partial().strict();
  tableOf(gnCoding);

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
    const r = recordStateOf(row, fields);
    const parsed = schema.safeParse(r.values);
    if (!parsed.success) {
      throw new Error(`record ${r.id} of ${gnCoding} does not fit its accessor: ${z.prettifyError(parsed.error)}`);
    }
    return { ...r, values: parsed.data };
  }

  /** The record, or null when there is none with this id; `lock` takes its row lock (inside a transaction). */
  async function get(q: DbOrTx, id: string, opts: { lock?: boolean } = {}): Promise<NodeRecord<V> | null> {
    if (!UUID.test(id)) return null;
    const { fields } = await fieldsNow(q);
    const row = await recordRow(q, gnCoding, id, opts.lock);
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
      if (opts.status?.length === 0) return [];
      const conditions: Condition[] = Object.entries(where).map(([code, v]) => {
        const stored = storedValue(fields.find((f) => f.code === code)!, v);
        return stored === null
          ? { field: code, op: 'isNull' }
          : { field: code, op: 'eq', value: stored as string | number };
      });
      const catalog = catalogOf(fields);
      if (opts.status) {
        catalog.set(STATUS, { kind: 'text', searchable: false, sortable: false, column: 'status' });
        conditions.push({ field: STATUS, op: 'in', value: [...opts.status] });
      }
      const rows = await recordRows(q, gnCoding, whereSql(conditions, catalog), limit, offset);
      return rows.map((r) => recordOf(r, fields));
    },

    /**
     * Creates a draft record owned by `owner` (the user and enterprise it belongs to, as if they had added it) with
     * these fields (the others empty), and writes the operation log line `logbook` as `actor`. `id`: the record's id
     * (a domain record whose review runs on this node shares its id with it).
     */
    async create(
      q: DbOrTx,
      values: Partial<V>,
      opts: { owner: { ownerId: string; enterpriseId: string | null }; id?: string; actor: Actor; logbook: string },
    ): Promise<NodeRecord<V>> {
      if (opts.id !== undefined && !UUID.test(opts.id)) throw new Error('accessor create: id must be a uuid');
      const { n, fields } = await fieldsNow(q);
      const parsed = parse(patchSchema, values) as Record<string, unknown>;
      const cols = Object.entries(parsed).map(([code, v]) => ({
        column: columnOf(code),
        value: storedValue(fields.find((f) => f.code === code)!, v),
      }));
      if (opts.id !== undefined) cols.unshift({ column: 'id', value: opts.id });
      const row = await insertRecord(q, gnCoding, opts.owner, cols).catch((e: unknown) => {
        throw uniqueViolationOf(e, n) ?? e;
      });
      await writeOpLog(q, opts.actor, {
        glName: n.title,
        gnCoding: n.gnCoding,
        recordId: String(row.id),
        logbook: opts.logbook,
      });
      return recordOf(row, fields);
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
      const cols = Object.entries(values).map(([code, v]) => ({
        column: columnOf(code),
        value: storedValue(fields.find((f) => f.code === code)!, v),
      }));
      const row = await updateRecord(q, gnCoding, id, cols, { version: opts.version }).catch((e: unknown) => {
        throw uniqueViolationOf(e, n) ?? e;
      });
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
