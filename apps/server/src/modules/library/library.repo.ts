import { type LibraryKind, paths } from '@ks/contracts';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { files, libraryItems, users } from '../../db/schema';

/** Queries of the library (资料库): items with their stored file and uploader. */

export type ItemRow = typeof libraryItems.$inferSelect;

const itemColumns = {
  id: libraryItems.id,
  kind: libraryItems.kind,
  series: libraryItems.series,
  title: libraryItems.title,
  version: libraryItems.version,
  description: libraryItems.description,
  fileId: libraryItems.fileId,
  current: libraryItems.current,
  createdAt: libraryItems.createdAt,
  updatedAt: libraryItems.updatedAt,
  fileName: files.fileName,
  fileSize: files.fileSize,
  extension: files.extension,
  uploaderName: users.userName,
};

export type ItemView = {
  id: string;
  kind: string;
  series: string;
  title: string;
  version: string;
  description: string;
  fileId: string;
  current: boolean;
  createdAt: Date;
  updatedAt: Date;
  fileName: string;
  fileSize: number;
  extension: string;
  uploaderName: string | null;
};

export const toItem = (r: ItemView) => ({
  id: r.id,
  kind: r.kind as LibraryKind,
  series: r.series,
  title: r.title,
  version: r.version,
  description: r.description,
  fileId: r.fileId,
  fileName: r.fileName,
  fileSize: r.fileSize,
  extension: r.extension,
  url: `${paths.fileDownload.path}?fileId=${encodeURIComponent(r.fileId)}`,
  current: r.current,
  uploaderName: r.uploaderName,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const selectItems = (db: DbOrTx) =>
  db
    .select(itemColumns)
    .from(libraryItems)
    .innerJoin(files, eq(files.id, libraryItems.fileId))
    .leftJoin(users, eq(users.id, libraryItems.uploaderId));

/** A LIKE pattern matching `s` literally anywhere. */
const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ListFilter {
  kinds: LibraryKind[];
  series?: string;
  keyword?: string;
  currentOnly: boolean;
  pageNum: number;
  pageSize: number;
}

export async function list(db: DbOrTx, f: ListFilter) {
  const conds: (SQL | undefined)[] = [
    f.kinds.length ? inArray(libraryItems.kind, f.kinds) : undefined,
    f.series ? eq(libraryItems.series, f.series) : undefined,
    f.currentOnly ? eq(libraryItems.current, true) : undefined,
  ];
  if (f.keyword) {
    const p = contains(f.keyword);
    conds.push(
      or(
        ilike(libraryItems.title, p),
        ilike(libraryItems.series, p),
        ilike(libraryItems.version, p),
        ilike(libraryItems.description, p),
        ilike(files.fileName, p),
      ),
    );
  }
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    selectItems(db)
      .where(where)
      .orderBy(
        asc(libraryItems.kind),
        asc(libraryItems.series),
        desc(libraryItems.current),
        desc(libraryItems.createdAt),
        desc(libraryItems.version),
        desc(libraryItems.id),
      )
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize),
    db.select({ n: count() }).from(libraryItems).innerJoin(files, eq(files.id, libraryItems.fileId)).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function itemView(db: DbOrTx, id: string) {
  const [r] = await selectItems(db).where(eq(libraryItems.id, id));
  return r;
}

export async function currentOf(db: DbOrTx, kind: LibraryKind, series: string) {
  const [r] = await selectItems(db).where(
    and(eq(libraryItems.kind, kind), eq(libraryItems.series, series), eq(libraryItems.current, true)),
  );
  return r;
}

export async function seriesOf(db: DbOrTx, kind: LibraryKind) {
  return db
    .select({
      series: libraryItems.series,
      versions: sql<number>`count(*)::int`,
      currentVersion: sql<string | null>`max(case when ${libraryItems.current} then ${libraryItems.version} end)`,
    })
    .from(libraryItems)
    .where(eq(libraryItems.kind, kind))
    .groupBy(libraryItems.series)
    .orderBy(asc(libraryItems.series));
}

export async function itemById(db: DbOrTx, id: string) {
  const [r] = await db.select().from(libraryItems).where(eq(libraryItems.id, id));
  return r;
}

/**
 * Serialises the changes of one series (kind and series) for the rest of the transaction: a transaction-scoped
 * advisory lock on the hash of the pair, so two set-current calls, or an add and a delete, never interleave.
 */
export async function lockSeries(tx: Tx, kind: string, series: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`library:${kind}:${series}`}))`);
}

export async function hasAny(tx: Tx, kind: string, series: string) {
  const [r] = await tx
    .select({ id: libraryItems.id })
    .from(libraryItems)
    .where(and(eq(libraryItems.kind, kind), eq(libraryItems.series, series)))
    .limit(1);
  return Boolean(r);
}

export async function versionTaken(tx: Tx, kind: string, series: string, version: string) {
  const [r] = await tx
    .select({ id: libraryItems.id })
    .from(libraryItems)
    .where(and(eq(libraryItems.kind, kind), eq(libraryItems.series, series), eq(libraryItems.version, version)));
  return Boolean(r);
}

export async function isFileBound(tx: Tx, fileId: string) {
  const [r] = await tx.select({ id: libraryItems.id }).from(libraryItems).where(eq(libraryItems.fileId, fileId));
  return Boolean(r);
}

export async function fileRow(db: DbOrTx, id: string) {
  const [f] = await db.select().from(files).where(eq(files.id, id));
  return f;
}

/** Clears the current flag of the series' other versions. */
export async function clearCurrent(tx: Tx, kind: string, series: string, except?: string) {
  await tx
    .update(libraryItems)
    .set({ current: false, updatedAt: new Date() })
    .where(
      and(
        eq(libraryItems.kind, kind),
        eq(libraryItems.series, series),
        eq(libraryItems.current, true),
        except ? ne(libraryItems.id, except) : undefined,
      ),
    );
}

export async function markCurrent(tx: Tx, id: string) {
  const [r] = await tx
    .update(libraryItems)
    .set({ current: true, updatedAt: new Date() })
    .where(eq(libraryItems.id, id))
    .returning();
  return r;
}

export async function insertItem(tx: Tx, row: typeof libraryItems.$inferInsert) {
  const [r] = await tx.insert(libraryItems).values(row).returning();
  return r!;
}

export async function updateItem(tx: Tx, id: string, set: { title: string; description: string }) {
  const [r] = await tx
    .update(libraryItems)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(libraryItems.id, id))
    .returning();
  return r;
}

export async function deleteItem(tx: Tx, id: string) {
  const [r] = await tx.delete(libraryItems).where(eq(libraryItems.id, id)).returning();
  return r;
}

/** The newest remaining version of a series. */
export async function newestOf(tx: Tx, kind: string, series: string) {
  const [r] = await tx
    .select()
    .from(libraryItems)
    .where(and(eq(libraryItems.kind, kind), eq(libraryItems.series, series)))
    .orderBy(desc(libraryItems.createdAt), desc(libraryItems.version), desc(libraryItems.id))
    .limit(1);
  return r;
}

/** Binds a stored file to its library item (the files module's node code and record id), or unbinds it. */
export async function bindFile(tx: Tx, fileId: string, bound: { gnCoding: string; recordId: string } | null) {
  await tx
    .update(files)
    .set({ gnCoding: bound?.gnCoding ?? null, recordId: bound?.recordId ?? null })
    .where(eq(files.id, fileId));
}
