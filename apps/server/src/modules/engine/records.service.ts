import { normaliseValues, type ValidateOptions, validateRecord } from '@ks/contracts';
import type { Db } from '../../db/client';
import { conflict, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { requireFunction, requireNode } from '../../platform/permissions';
import { buttonsFor } from '../shell/grants.service';
import { fieldsOf } from './node-fields';
import { ownEnterpriseValues, pullDownProblems, withSourceOptions } from './options.service';
import { matchesFieldPattern } from './pattern';
import { type EngineCaller, engineNode, operationsForRows, policyContext, recordFor, rowOf } from './record-access';
import { storedValue, toRecord } from './record-row';
import { type ColumnValue, deleteDraft, detachFiles, insertRecord, recordLogRows, updateRecord } from './records.repo';
import { auditFlow } from './review.service';
import { columnOf } from './sqlsafe';
import { uniqueViolationOf } from './unique';

/**
 * Records of an engine node, one at a time: the detail, save (new or edited draft), delete, and the record's
 * operation log. Who sees what and who may act is the record policy's (policy.ts, through record-access.ts); lists are
 * list.service's. Every change is one transaction with an operation-log row; edits carry the version they started
 * from (stale → 409).
 */

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
  // read before the transaction: the embedded database has one connection, which the transaction holds
  const ops = await buttonsFor(db, c, input.gnCoding, 'table');
  const cols: ColumnValue[] = fields.map((f) => ({ column: columnOf(f.code), value: storedValue(f, values[f.code]) }));
  // a value another record holds under one of the node's unique keys: the key's index refuses it (409, naming it)
  return db
    .transaction(async (tx) => {
      let saved: Record<string, unknown>;
      if (!input.id) {
        saved = await insertRecord(tx, n.gnCoding, { ownerId: c.id, enterpriseId: c.enterpriseId }, cols);
      } else {
        await recordFor(tx, c, n, input.id, 'edit', ctx, true, input.version ?? -1);
        const row = await updateRecord(tx, n.gnCoding, input.id, cols, {
          editable: true,
          version: input.version ?? -1,
        });
        if (!row) throw conflict('记录已被修改或已提交，请刷新后重试');
        saved = row;
      }
      await writeOpLog(tx, c.actor, {
        glName: n.title,
        gnCoding: n.gnCoding,
        recordId: String(saved.id),
        logbook: input.id ? '修改记录' : '新增记录',
      });
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
  const ctx = await policyContext(db, c, n.gnCoding);
  await db.transaction(async (tx) => {
    await recordFor(tx, c, n, id, 'delete', ctx, true);
    if (!(await deleteDraft(tx, n.gnCoding, id))) throw conflict('只能删除草稿');
    // its attachments become unattached uploads of their owners; the files sweep removes them (and their bytes)
    await detachFiles(tx, n.gnCoding, id);
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding, recordId: id, logbook: '删除记录' });
  });
}

/** The operation log of one record the caller may see, oldest first (screen 25). */
export async function recordLogs(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireNode(db, c, gnCoding);
  const n = await engineNode(db, gnCoding);
  await rowOf(db, c, n.gnCoding, id, n.id);
  const rows = await recordLogRows(db, gnCoding, id);
  return rows.map((r) => ({
    glName: r.glName,
    czrClassification: r.czrClassification,
    czrName: r.czrName,
    logbook: r.logbook,
    failInfo: r.failInfo,
    czTime: r.czTime.toISOString(),
  }));
}
