import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../platform/errors';
import { roleCodesOf } from '../../platform/permissions';
import { judge, recordFactsOf, reviewFactsOfRow, type Verdict } from '../engine/policy';
import { supervisesNode } from '../engine/record-access';
import type { FileCaller } from './caller';
import * as repo from './files.repo';
import { fileReaderOf } from './readers';

/**
 * Who may read and change files. A file is readable by its owner, the owner's enterprise, administrators, and whoever
 * may read the engine record it is attached to (the record policy) — or, for a domain module's own records, whoever
 * the module's reader lets read the record (readers.ts). Anything else answers as if the file did not
 * exist. A record's attachments change as the record does: by whoever the record policy lets edit it.
 */
export { callerOf, type FileCaller } from './caller';

export const isAdmin = (c: FileCaller) => c.loginRoleType === 'M';

export interface FileOwnership {
  ownerId: string;
  enterpriseId: string | null;
  gnCoding: string | null;
  recordId: string | null;
}

/** Same account, or same enterprise. */
export const ownsFile = (c: FileCaller, f: FileOwnership) =>
  f.ownerId === c.id || (f.enterpriseId !== null && f.enterpriseId === c.enterpriseId);

/**
 * The record policy's verdict (modules/engine/policy.ts) on the caller and an engine record of a node: the node, the
 * record's facts and the caller's review facts. Unknown nodes and records answer 404.
 */
async function recordVerdicts(db: Db, c: FileCaller, gnCoding: string, recordId: string) {
  const node = await repo.nodeOfRecords(db, gnCoding);
  if (node?.dataSource !== 'engine' || node.fieldsVersion === 0) throw notFound('记录不存在');
  const row = await repo.recordFactsRow(db, node.gnCoding, recordId);
  if (!row) throw notFound('记录不存在');
  // reading and changing attachments need no audit levels: the policy's read and edit
  const review = await reviewFactsOfRow(db, c, node.id, row, {
    roleCodes: await roleCodesOf(db, c),
    levels: [],
    supervises: await supervisesNode(db, c, node.id),
  });
  const facts = recordFactsOf(row);
  return {
    node,
    read: judge(c, facts, review, 'read'),
    edit: judge(c, facts, review, 'edit'),
    editable: facts.status === 'draft' || facts.status === 'rejected',
  };
}

export async function canReadFile(db: Db, c: FileCaller, f: FileOwnership): Promise<boolean> {
  if (isAdmin(c) || ownsFile(c, f)) return true;
  if (!f.gnCoding || !f.recordId) return false;
  try {
    // a domain module's own records (credit evidence …) answer through the module's reader
    const reader = fileReaderOf(f.gnCoding);
    if (reader) return await reader(db, c, f.recordId);
    return (await recordVerdicts(db, c, f.gnCoding, f.recordId)).read.ok;
  } catch {
    return false;
  }
}

export interface RecordAccess {
  nodeId: string;
  gnCoding: string;
  /** the record policy's verdict on editing the record (its side, while draft or rejected) */
  edit: Verdict;
  /** draft or rejected */
  editable: boolean;
}

/**
 * May the caller see this engine record's files? Whoever may read the record (the record policy: its side,
 * administrators and developers, its reviewers); anyone else gets 404, so record ids cannot be probed.
 */
export async function recordAccess(db: Db, c: FileCaller, gnCoding: string, recordId: string): Promise<RecordAccess> {
  const v = await recordVerdicts(db, c, gnCoding, recordId);
  if (!v.read.ok) throw notFound('记录不存在');
  return { nodeId: v.node.id, gnCoding: v.node.gnCoding, edit: v.edit, editable: v.editable };
}

/**
 * Change a record's attachments: whoever may edit the record (its side, while it is draft or rejected — the record
 * policy); administrators and reviewers see them read-only.
 */
export function requireWritable(c: FileCaller, a: RecordAccess): void {
  if (a.edit.ok) return;
  if (a.edit.status === 409 || !a.editable) throw forbidden('记录已提交审核或已办结，附件不能修改');
  if (isAdmin(c)) throw forbidden('管理员只能查看附件');
  throw forbidden();
}
