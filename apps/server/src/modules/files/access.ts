import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { menuNodes, todos } from '../../db/schema';
import { forbidden, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/oplog';
import { roleCodesOf } from '../../platform/permissions';
import type { AuthContext } from '../auth/auth.service';
import { ident, tableOf } from '../engine/sqlsafe';

/**
 * Who may read and change files. A file is readable by its owner, the owner's enterprise, administrators, and the
 * reviewers of the engine record it is attached to (a to-do of theirs or of one of their roles, open or done).
 * Anything else answers as if the file did not exist.
 */
export interface FileCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
}

export const callerOf = (auth: AuthContext): FileCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

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

/** Is the caller a reviewer of this record of this node (a to-do of theirs or of one of their roles)? */
export async function reviewsRecord(db: Db, c: FileCaller, gnCoding: string, recordId: string): Promise<boolean> {
  const roleCodes = await roleCodesOf(db, c);
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(todos)
    .innerJoin(menuNodes, eq(menuNodes.id, todos.nodeId))
    .where(
      and(
        eq(menuNodes.gnCoding, gnCoding),
        eq(todos.recordId, recordId),
        or(
          and(eq(todos.assigneeType, 'user'), eq(todos.assigneeId, c.id)),
          and(eq(todos.assigneeType, 'role'), inArray(todos.assigneeId, roleCodes)),
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function canReadFile(db: Db, c: FileCaller, f: FileOwnership): Promise<boolean> {
  if (isAdmin(c) || ownsFile(c, f)) return true;
  if (f.gnCoding && f.recordId) return reviewsRecord(db, c, f.gnCoding, f.recordId);
  return false;
}

export interface RecordAccess {
  nodeId: string;
  gnCoding: string;
  /** the record's owner side (owner or same enterprise) — may change its attachments while it is editable */
  owner: boolean;
  /** draft or rejected */
  editable: boolean;
}

/**
 * May the caller see this engine record's files? Administrators, the record's owner and enterprise, and its
 * reviewers may; anyone else gets 404, so record ids cannot be probed.
 */
export async function recordAccess(db: Db, c: FileCaller, gnCoding: string, recordId: string): Promise<RecordAccess> {
  const [node] = await db
    .select({
      id: menuNodes.id,
      gnCoding: menuNodes.gnCoding,
      dataSource: menuNodes.dataSource,
      v: menuNodes.fieldsVersion,
    })
    .from(menuNodes)
    .where(eq(menuNodes.gnCoding, gnCoding));
  if (node?.dataSource !== 'engine' || node.v === 0) throw notFound('记录不存在');
  const res = (await db.execute(
    sql`select "owner_id", "enterprise_id", "status" from ${ident(tableOf(node.gnCoding))} where "id" = ${recordId}`,
  )) as unknown as { rows: { owner_id: string; enterprise_id: string | null; status: string }[] };
  const row = res.rows[0];
  if (!row) throw notFound('记录不存在');
  const owner = row.owner_id === c.id || (row.enterprise_id !== null && row.enterprise_id === c.enterpriseId);
  const access = {
    nodeId: node.id,
    gnCoding: node.gnCoding,
    owner,
    editable: row.status === 'draft' || row.status === 'rejected',
  };
  if (owner || isAdmin(c) || (await reviewsRecord(db, c, node.gnCoding, recordId))) return access;
  throw notFound('记录不存在');
}

/** Change a record's attachments: its owner side only, while it is editable; administrators see them read-only. */
export function requireWritable(c: FileCaller, a: RecordAccess): void {
  if (isAdmin(c)) throw forbidden('管理员只能查看附件');
  if (!a.owner) throw forbidden();
  if (!a.editable) throw forbidden('记录已提交审核或已办结，附件不能修改');
}
