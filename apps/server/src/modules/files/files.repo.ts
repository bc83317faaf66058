import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { attachmentTypes, files, menuNodes, uploadParts, uploadTasks } from '../../db/schema';
import { ident, tableOf } from '../engine/sqlsafe';

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;
export type TaskRow = typeof uploadTasks.$inferSelect;
export type NewTaskRow = typeof uploadTasks.$inferInsert;
export type PartRow = typeof uploadParts.$inferSelect;
export type AttachmentTypeRow = typeof attachmentTypes.$inferSelect;

export async function fileById(db: DbOrTx, id: string): Promise<FileRow | undefined> {
  const [f] = await db.select().from(files).where(eq(files.id, id));
  return f;
}

export async function insertFile(db: DbOrTx, row: NewFileRow): Promise<FileRow> {
  const [f] = await db.insert(files).values(row).returning();
  return f!;
}

/** Attaches a file to a record, or changes which attachment type it is. */
export async function updateFile(
  tx: Tx,
  id: string,
  set: Partial<Pick<NewFileRow, 'recordId' | 'gnCoding' | 'annexNo'>>,
): Promise<void> {
  await tx.update(files).set(set).where(eq(files.id, id));
}

/**
 * Does the file still exist? Its row stays locked (shared) until `tx` ends, so a delete of the same bytes (which locks
 * them first) waits for the transaction that relies on them.
 */
export async function lockFileShared(tx: Tx, id: string): Promise<boolean> {
  const [f] = await tx.select({ id: files.id }).from(files).where(eq(files.id, id)).for('share');
  return Boolean(f);
}

export async function filesOfRecord(db: DbOrTx, gnCoding: string, recordId: string): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.gnCoding, gnCoding), eq(files.recordId, recordId)))
    .orderBy(asc(files.createdAt), asc(files.id));
}

/** A finished file with these bytes that the caller's enterprise (or, without one, the caller) already holds. */
export async function sameBytesOf(
  db: DbOrTx,
  md5: string,
  size: number,
  owner: { id: string; enterpriseId: string | null },
): Promise<FileRow | undefined> {
  const [f] = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.md5, md5),
        eq(files.fileSize, size),
        owner.enterpriseId ? eq(files.enterpriseId, owner.enterpriseId) : eq(files.ownerId, owner.id),
      ),
    )
    .orderBy(asc(files.createdAt))
    .limit(1);
  return f;
}

/** Delete a file row; true when no other row still uses its bytes (the caller then removes them from the store). */
export async function deleteFileRow(tx: Tx, f: FileRow): Promise<boolean> {
  // lock every row sharing the bytes, so an instant upload of the same bytes waits for this decision
  await tx.execute(sql`select ${files.id} from ${files} where ${files.storageKey} = ${f.storageKey} for update`);
  await tx.delete(files).where(eq(files.id, f.id));
  const [left] = await tx.select({ n: count() }).from(files).where(eq(files.storageKey, f.storageKey));
  return Number(left?.n ?? 0) === 0;
}

/** A node's attachment types replaced by `list`, in its order (run inside the caller's transaction). */
export async function replaceTypesOfNode(
  db: DbOrTx,
  nodeId: string,
  list: Omit<typeof attachmentTypes.$inferInsert, 'id' | 'nodeId' | 'sort'>[],
): Promise<void> {
  await db.delete(attachmentTypes).where(eq(attachmentTypes.nodeId, nodeId));
  if (list.length) await db.insert(attachmentTypes).values(list.map((t, i) => ({ ...t, nodeId, sort: i })));
}

export async function typesOfNode(db: DbOrTx, gnCoding: string): Promise<AttachmentTypeRow[]> {
  return db
    .select({
      id: attachmentTypes.id,
      nodeId: attachmentTypes.nodeId,
      annexNo: attachmentTypes.annexNo,
      annexName: attachmentTypes.annexName,
      annexFormat: attachmentTypes.annexFormat,
      annexSize: attachmentTypes.annexSize,
      isRequired: attachmentTypes.isRequired,
      fileType: attachmentTypes.fileType,
      template: attachmentTypes.template,
      sort: attachmentTypes.sort,
    })
    .from(attachmentTypes)
    .innerJoin(menuNodes, eq(menuNodes.id, attachmentTypes.nodeId))
    .where(eq(menuNodes.gnCoding, gnCoding))
    .orderBy(asc(attachmentTypes.sort), asc(attachmentTypes.annexNo));
}

export async function templateExists(db: DbOrTx, name: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(attachmentTypes)
    .where(eq(attachmentTypes.template, name))
    .limit(1);
  return Boolean(row);
}

// ---- chunked uploads ----------------------------------------------------------------------------------------------

export async function taskById(db: DbOrTx, id: string): Promise<TaskRow | undefined> {
  const [t] = await db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
  return t;
}

export async function openTaskFor(
  db: DbOrTx,
  ownerId: string,
  md5: string,
  fileSize: number,
  usage: string,
  now: Date,
): Promise<TaskRow | undefined> {
  const [t] = await db
    .select()
    .from(uploadTasks)
    .where(
      and(
        eq(uploadTasks.ownerId, ownerId),
        eq(uploadTasks.md5, md5),
        eq(uploadTasks.fileSize, fileSize),
        eq(uploadTasks.status, 'uploading'),
        eq(uploadTasks.usage, usage),
        sql`${uploadTasks.expiresAt} > ${now.toISOString()}`,
      ),
    )
    .orderBy(asc(uploadTasks.createdAt))
    .limit(1);
  return t;
}

export async function insertTask(db: DbOrTx, values: NewTaskRow): Promise<TaskRow> {
  const [t] = await db.insert(uploadTasks).values(values).returning();
  return t!;
}

export async function updateTask(
  db: DbOrTx,
  id: string,
  set: Partial<Pick<NewTaskRow, 'expiresAt' | 'fileName' | 'gnCoding' | 'annexNo' | 'fileType'>>,
): Promise<void> {
  await db.update(uploadTasks).set(set).where(eq(uploadTasks.id, id));
}

/** A merged task: its chunk records go, it points at the file it became until `expiresAt`. */
export async function finishTask(tx: Tx, id: string, fileId: string, expiresAt: Date): Promise<void> {
  await tx.delete(uploadParts).where(eq(uploadParts.taskId, id));
  await tx.update(uploadTasks).set({ status: 'done', fileId, expiresAt }).where(eq(uploadTasks.id, id));
}

export async function partsOf(db: DbOrTx, taskId: string): Promise<PartRow[]> {
  return db.select().from(uploadParts).where(eq(uploadParts.taskId, taskId)).orderBy(asc(uploadParts.index));
}

/** A task with how many chunks it holds and whether it holds chunk `index` — one round trip per chunk-upload. */
export async function taskForChunk(
  db: DbOrTx,
  id: string,
  index: number,
): Promise<{ task: TaskRow; stored: number; has: boolean } | undefined> {
  const [r] = await db
    .select({
      task: uploadTasks,
      stored: sql<number>`(select count(*) from ${uploadParts} where ${uploadParts.taskId} = ${uploadTasks.id})`,
      has: sql<boolean>`exists (select 1 from ${uploadParts} where ${uploadParts.taskId} = ${uploadTasks.id} and ${uploadParts.index} = ${index})`,
    })
    .from(uploadTasks)
    .where(eq(uploadTasks.id, id));
  return r && { task: r.task, stored: Number(r.stored), has: Boolean(r.has) };
}

/** Record a stored chunk; the last recorded write of an index is the one that counts. */
export async function recordPart(db: DbOrTx, p: { taskId: string; index: number; size: number; etag: string | null }) {
  await db
    .insert(uploadParts)
    .values(p)
    .onConflictDoUpdate({
      target: [uploadParts.taskId, uploadParts.index],
      set: { size: p.size, etag: p.etag, createdAt: sql`now()` },
    });
}

/** Claim a task for merging: only one caller moves it from uploading to merging (for at most an hour). */
export async function claimForMerge(db: DbOrTx, id: string, now: Date): Promise<TaskRow | undefined> {
  const [t] = await db
    .update(uploadTasks)
    .set({ status: 'merging', expiresAt: new Date(now.getTime() + 3600_000) })
    .where(and(eq(uploadTasks.id, id), eq(uploadTasks.status, 'uploading')))
    .returning();
  return t;
}

export async function releaseMerge(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
  await db
    .update(uploadTasks)
    .set({ status: 'uploading', expiresAt })
    .where(and(eq(uploadTasks.id, id), eq(uploadTasks.status, 'merging')));
}

export async function deleteTask(db: DbOrTx, id: string): Promise<void> {
  await db.delete(uploadTasks).where(eq(uploadTasks.id, id));
}

/** Tasks past their expiry: unfinished uploads, merges that never finished (a crash), finished tasks. */
export async function staleTasks(db: DbOrTx, now: Date, limit = 100): Promise<TaskRow[]> {
  return db
    .select()
    .from(uploadTasks)
    .where(sql`${uploadTasks.expiresAt} < ${now.toISOString()}`)
    .orderBy(asc(uploadTasks.expiresAt))
    .limit(limit);
}

export async function filesByIds(db: DbOrTx, ids: string[]): Promise<FileRow[]> {
  if (!ids.length) return [];
  return db.select().from(files).where(inArray(files.id, ids));
}

/**
 * Record uploads that never became (or stopped being) part of a record — a form left without saving, a deleted
 * draft — and are older than `before`. Editor images and notice files (no node) are not record uploads.
 */
export async function orphanedRecordFiles(db: DbOrTx, before: Date, limit = 100): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(isNotNull(files.gnCoding), isNull(files.recordId), sql`${files.createdAt} < ${before.toISOString()}`))
    .orderBy(asc(files.createdAt))
    .limit(limit);
}

/**
 * The names of the node's required attachment types that the record has no file of (§5: a submission needs every
 * required annex), in the types' order.
 */
export async function missingRequiredAnnexes(tx: DbOrTx, n: { id: string; gnCoding: string }, recordId: string) {
  const rows = await tx
    .select({ annexName: attachmentTypes.annexName })
    .from(attachmentTypes)
    .where(
      and(
        eq(attachmentTypes.nodeId, n.id),
        eq(attachmentTypes.isRequired, true),
        sql`not exists (select 1 from ${files} where ${files.gnCoding} = ${n.gnCoding} and ${files.recordId} = ${recordId} and ${files.annexNo} = ${attachmentTypes.annexNo})`,
      ),
    )
    .orderBy(asc(attachmentTypes.sort), asc(attachmentTypes.annexNo));
  return rows.map((r) => r.annexName);
}

// ---- the records files belong to ----------------------------------------------------------------------------------

/** The node whose records files are attached to: its id, code, data source and schema version. */
export async function nodeOfRecords(db: DbOrTx, gnCoding: string) {
  const [node] = await db
    .select({
      id: menuNodes.id,
      gnCoding: menuNodes.gnCoding,
      dataSource: menuNodes.dataSource,
      fieldsVersion: menuNodes.fieldsVersion,
    })
    .from(menuNodes)
    .where(eq(menuNodes.gnCoding, gnCoding));
  return node;
}

/** What the record policy needs of an engine record (owner, side, status, version, level, round), if it exists. */
export async function recordFactsRow(
  db: DbOrTx,
  gnCoding: string,
  recordId: string,
): Promise<Record<string, unknown> | undefined> {
  const res = (await db.execute(
    sql`select "id", "owner_id", "enterprise_id", "status", "version", "audit_level", "round" from ${ident(tableOf(gnCoding))} where "id" = ${recordId}`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return res.rows[0];
}
