import type { FieldDef, FieldValues, FormDetailsResult } from '@ks/contracts';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { isDeveloper, requireFunction, requireNode } from '../../platform/permissions';
import { fieldsOf } from './node-fields';
import { type EngineCaller, engineNode, rowOf } from './record-access';
import { toRecord } from './record-row';

/** A new record's values: switches off (switch-2 is fixed to 1, §4), everything else empty. */
export function defaultValues(fields: readonly FieldDef[]): FieldValues {
  const out: FieldValues = {};
  for (const f of fields) {
    if (f.type === 'read-text') continue;
    out[f.code] = f.type === 'switch-2' ? '1' : f.type === 'switch' || f.type === 'switch-1' ? '0' : null;
  }
  return out;
}

/**
 * info/v1/form/details: the node's form. Without an id, a new record's form (the caller must hold 新增, or be a
 * developer); with an id,
 * the record's values, version and status (the caller must be allowed to see it: another enterprise's is a 404).
 */
export async function formDetails(
  db: Db,
  c: EngineCaller,
  body: { gnCoding: string; systemCoding: string; id?: string },
): Promise<FormDetailsResult> {
  // a new form needs 新增; developers, who configure forms, may open it to see it
  const ref =
    body.id || isDeveloper(c)
      ? await requireNode(db, c, body.gnCoding)
      : await requireFunction(db, c, body.gnCoding, 'add');
  if (body.systemCoding && body.systemCoding !== ref.systemCoding) {
    throw validationFailed({ systemCoding: ['系统编码与节点不符'] });
  }
  const n = await engineNode(db, body.gnCoding);
  const fields = fieldsOf(n);
  if (!body.id) return { fields, values: defaultValues(fields), version: null, status: null };
  const row = await rowOf(db, c, n.gnCoding, body.id, n.id);
  const rec = toRecord(row, fields, []);
  return { fields, values: rec.values, version: rec.version, status: rec.status };
}
