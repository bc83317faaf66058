import {
  LIBRARY_FILE_NODE,
  LIBRARY_KIND_LABELS,
  LIBRARY_MSG,
  type LibraryItem,
  type LibraryKind,
  libraryExtensionsOf,
} from '@ks/contracts';
import type { Db, Tx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { registerFileReader } from '../files/readers';
import * as repo from './library.repo';

/**
 * 资料库 (issue 19): product-centre downloads (客户端工具, 操作手册, 操作视频) and standard files (标准文件), each item one
 * version of a series with one current version per series. Administrators add uploaded files (chunked upload, usage
 * library), edit, set the current version and delete, each change in one transaction with an operation-log row; the
 * changes of one series are serialised by a transaction-scoped advisory lock, and the partial unique index holds the
 * one-current rule whatever happens. Bound files are readable by everyone signed in (the reader below).
 */

const GL_NAME = '资料库';

// any signed-in caller reads a bound library file (the files module asks only for callers it knows)
registerFileReader(LIBRARY_FILE_NODE, async (db, _c, recordId) => Boolean(await repo.itemById(db, recordId)));

const label = (r: { kind: string; series: string; version: string }) =>
  `${LIBRARY_KIND_LABELS[r.kind as LibraryKind] ?? r.kind}「${r.series}」${r.version}`;

/** A unique index refused the write: two changes of the same series met (the advisory lock makes this rare). */
function uniqueClash(e: unknown): boolean {
  const code =
    (e as { code?: string; cause?: { code?: string } })?.code ?? (e as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

async function view(db: Db, id: string): Promise<LibraryItem> {
  const r = await repo.itemView(db, id);
  if (!r) throw notFound(LIBRARY_MSG.notFound);
  return repo.toItem(r);
}

export async function list(db: Db, f: repo.ListFilter) {
  const { rows, total } = await repo.list(db, f);
  return { records: rows.map(repo.toItem), total };
}

export async function series(db: Db, kind: LibraryKind) {
  return repo.seriesOf(db, kind);
}

export async function current(db: Db, kind: LibraryKind, seriesName: string): Promise<LibraryItem | null> {
  const r = await repo.currentOf(db, kind, seriesName);
  return r ? repo.toItem(r) : null;
}

/** Runs a change of the library; a unique-index clash that slipped past the checks answers 409, never 500. */
async function change<T>(db: Db, run: (tx: Tx) => Promise<T>) {
  try {
    return await db.transaction(run);
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (uniqueClash(e)) throw conflict(LIBRARY_MSG.busy);
    throw e;
  }
}

export interface AddInput {
  kind: LibraryKind;
  series: string;
  title: string;
  version: string;
  description: string;
  fileId: string;
  makeCurrent: boolean;
}

/** Adds an uploaded file as a version of a series: the series' first version is current; later ones when asked. */
export async function add(db: Db, actor: Actor, input: AddInput): Promise<LibraryItem> {
  const id = await change(db, async (tx) => {
    await repo.lockSeries(tx, input.kind, input.series);
    const f = await repo.fileRow(tx, input.fileId);
    if (f?.source !== 'library') throw badRequest(LIBRARY_MSG.noFile);
    if (await repo.isFileBound(tx, f.id)) throw badRequest(LIBRARY_MSG.fileBound);
    if (!libraryExtensionsOf(input.kind).includes(f.extension)) throw badRequest(LIBRARY_MSG.badFormat(input.kind));
    if (await repo.versionTaken(tx, input.kind, input.series, input.version)) {
      throw conflict(LIBRARY_MSG.versionTaken(input.series, input.version));
    }
    const first = !(await repo.hasAny(tx, input.kind, input.series));
    const makeCurrent = first || input.makeCurrent;
    if (makeCurrent) await repo.clearCurrent(tx, input.kind, input.series);
    const item = await repo.insertItem(tx, {
      kind: input.kind,
      series: input.series,
      title: input.title,
      version: input.version,
      description: input.description,
      fileId: f.id,
      current: makeCurrent,
      uploaderId: actor.userId,
    });
    await repo.bindFile(tx, f.id, { gnCoding: LIBRARY_FILE_NODE, recordId: item.id });
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: LIBRARY_FILE_NODE,
      recordId: item.id,
      logbook: `上传资料：${label(item)}（${f.fileName}）${makeCurrent ? '，设为当前版本' : ''}`,
    });
    return item.id;
  });
  return view(db, id);
}

export async function update(db: Db, actor: Actor, input: { id: string; title: string; description: string }) {
  await change(db, async (tx) => {
    const r = await repo.updateItem(tx, input.id, { title: input.title, description: input.description });
    if (!r) throw notFound(LIBRARY_MSG.notFound);
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: LIBRARY_FILE_NODE,
      recordId: r.id,
      logbook: `修改资料：${label(r)}，名称「${r.title}」`,
    });
  });
  return view(db, input.id);
}

/** 设为当前版本: the only current version of its series. */
export async function setCurrent(db: Db, actor: Actor, id: string) {
  await change(db, async (tx) => {
    const before = await repo.itemById(tx, id);
    if (!before) throw notFound(LIBRARY_MSG.notFound);
    await repo.lockSeries(tx, before.kind, before.series);
    // read again under the lock: a delete may have come first
    const r = await repo.itemById(tx, id);
    if (!r) throw notFound(LIBRARY_MSG.notFound);
    if (r.current) return;
    await repo.clearCurrent(tx, r.kind, r.series, r.id);
    await repo.markCurrent(tx, r.id);
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: LIBRARY_FILE_NODE,
      recordId: r.id,
      logbook: `设为当前版本：${label(r)}`,
    });
  });
  return view(db, id);
}

/** Deletes a version; when it was the current one, the newest remaining version becomes current. */
export async function remove(db: Db, actor: Actor, id: string) {
  await change(db, async (tx) => {
    const before = await repo.itemById(tx, id);
    if (!before) throw notFound(LIBRARY_MSG.notFound);
    await repo.lockSeries(tx, before.kind, before.series);
    const r = await repo.deleteItem(tx, id);
    if (!r) throw notFound(LIBRARY_MSG.notFound);
    // the file stays in the store as the administrator's own file, no longer readable by everyone
    await repo.bindFile(tx, r.fileId, null);
    let promoted: repo.ItemRow | undefined;
    if (r.current) {
      const next = await repo.newestOf(tx, r.kind, r.series);
      if (next) promoted = await repo.markCurrent(tx, next.id);
    }
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: LIBRARY_FILE_NODE,
      recordId: r.id,
      logbook: `删除资料：${label(r)}${promoted ? `；${promoted.version} 成为当前版本` : ''}`,
    });
  });
}
