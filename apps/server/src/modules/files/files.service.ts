import { createHmac, randomBytes } from 'node:crypto';
import {
  type Annex,
  type AttachmentType,
  checkExtension,
  checkTypedFile,
  cleanFileName,
  contentMatchesExtension,
  extensionOf,
  type FileOperationType,
  mimeOf,
  PORTAL_NOTICE_NODE,
  paths,
  previewKind,
  tooLargeMessage,
  type UploadedFile,
  UploadMsg,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { constantTime } from '../../platform/crypto';
import { type AppError, badRequest, forbidden, notFound } from '../../platform/errors';
import { SYSTEM_ACTOR, writeOpLog } from '../../platform/oplog';
import { canCall, findNode, requireNode } from '../../platform/permissions';
import { putSettingIfAbsent } from '../../platform/settings';
import { newStorageKey, type Storage } from '../../platform/storage';
import { canReadFile, type FileCaller, ownsFile, recordAccess, requireWritable } from './access';
import * as repo from './files.repo';
import { payloadTooLarge, type Spooled } from './multipart';

export interface FilesDeps {
  db: Db;
  storage: Storage;
  /** single-request uploads are spooled here before they are accepted */
  spoolDir: string;
  uploadMaxBytes: number;
  chunkedMaxBytes: number;
  taskTtlMs: number;
  now: () => Date;
}

export const GL_NAME = '文件';

/** The address that downloads a file: with the bearer token, or by itself for public files. */
export const downloadUrl = (fileId: string) => `${paths.fileDownload.path}?fileId=${fileId}`;
export const templateUrl = (name: string) => `${paths.attTemplate.path}?name=${encodeURIComponent(name)}`;

export function toUploaded(f: repo.FileRow, op: FileOperationType = ''): UploadedFile {
  return {
    fileId: f.id,
    fileKey: f.id,
    fileName: f.fileName,
    fileSize: f.fileSize,
    fileType: f.extension,
    mime: f.mime,
    md5: f.md5,
    url: downloadUrl(f.id),
    fileNo: f.annexNo,
    preview: previewKind(f.extension),
    gnCoding: f.gnCoding,
    recordId: f.recordId,
    createdAt: f.createdAt.toISOString(),
    fileOperationType: op,
  };
}

export function toAttachmentType(t: repo.AttachmentTypeRow): AttachmentType {
  return {
    annexNo: t.annexNo,
    annexName: t.annexName,
    annexFormat: t.annexFormat,
    annexSize: t.annexSize,
    isRequired: t.isRequired,
    fileType: t.fileType,
    template: t.template ? templateUrl(t.template) : null,
    templateName: t.template,
  };
}

/** A typed-attachment message about size is a 413; the others are 400. */
function refuse(message: string): AppError {
  return message.startsWith('文件大小') ? payloadTooLarge(message) : badRequest(message);
}

export async function attachmentTypeOf(db: Db, gnCoding: string, annexNo: string) {
  const t = (await repo.typesOfNode(db, gnCoding)).find((x) => x.annexNo === annexNo);
  if (!t) throw badRequest('附件类型不存在');
  return t;
}

export interface AcceptInput {
  rawName: string;
  spooled: Spooled;
  gnCoding?: string | null;
  annexNo?: string | null;
  fileType?: string | null;
  /** formats accepted when the upload names no attachment type */
  allowed: readonly string[];
  visibility: 'private' | 'public';
  source: string;
}

/** The checks every single-request upload passes: name, format (typed or default), size, content signature. */
export async function checkUpload(deps: FilesDeps, u: AcceptInput) {
  const name = cleanFileName(u.rawName);
  if (!name) throw badRequest(UploadMsg.EMPTY_NAME);
  if (u.annexNo && u.gnCoding) {
    const type = await attachmentTypeOf(deps.db, u.gnCoding, u.annexNo);
    const msg = checkTypedFile({ name, size: u.spooled.size }, type);
    if (msg) throw refuse(msg);
  } else {
    const msg = checkExtension(name, u.allowed);
    if (msg) throw badRequest(msg);
  }
  if (u.spooled.size === 0) throw badRequest(UploadMsg.EMPTY_FILE);
  const ext = extensionOf(name);
  if (!contentMatchesExtension(ext, u.spooled.head)) throw badRequest(UploadMsg.CONTENT_MISMATCH);
  return { name, ext };
}

/**
 * Accept checked uploads: store the bytes under generated keys, then the rows and their log in one transaction.
 * All or nothing: when anything fails, the bytes stored so far are removed again.
 */
export async function storeUploads(
  deps: FilesDeps,
  c: FileCaller,
  uploads: (AcceptInput & { name: string; ext: string })[],
): Promise<UploadedFile[]> {
  const stored: string[] = [];
  try {
    for (const u of uploads) {
      const key = newStorageKey();
      await deps.storage.putFile(key, u.spooled.path, u.spooled.size, mimeOf(u.ext));
      stored.push(key);
    }
    const rows = await deps.db.transaction(async (tx) => {
      const out: repo.FileRow[] = [];
      for (const [i, u] of uploads.entries()) {
        const row = await repo.insertFile(tx, {
          storageKey: stored[i]!,
          fileName: u.name,
          fileSize: u.spooled.size,
          md5: u.spooled.md5,
          mime: mimeOf(u.ext),
          extension: u.ext,
          ownerId: c.id,
          enterpriseId: c.enterpriseId,
          gnCoding: u.gnCoding ?? null,
          annexNo: u.annexNo ?? null,
          fileType: u.fileType ?? null,
          visibility: u.visibility,
          source: u.source,
        });
        await writeOpLog(tx, c.actor, {
          glName: GL_NAME,
          gnCoding: u.gnCoding ?? undefined,
          recordId: row.id,
          logbook: `上传文件：${u.name}（${u.spooled.size} 字节）`,
        });
        out.push(row);
      }
      return out;
    });
    return rows.map((r) => toUploaded(r, 'add'));
  } catch (e) {
    await Promise.all(stored.map((k) => deps.storage.delete(k).catch(() => undefined)));
    throw e;
  }
}

/** The node must be one the caller sees (its uploads, its attachment types). */
export async function requireUploadNode(deps: FilesDeps, c: FileCaller, gnCoding: string | undefined | null) {
  if (gnCoding) await requireNode(deps.db, c, gnCoding);
}

/** Notice attachments are uploaded by whoever may write notices: administrators, and holders of 新增 or 编辑. */
export async function requireNoticeWriter(deps: FilesDeps, c: FileCaller) {
  const node = await findNode(deps.db, PORTAL_NOTICE_NODE);
  if (!node || !((await canCall(deps.db, c, node, 'add')) || (await canCall(deps.db, c, node, 'edit')))) {
    throw forbidden();
  }
}

// ---- lists ---------------------------------------------------------------------------------------------------------

export async function attDescription(deps: FilesDeps, c: FileCaller, gnCoding: string) {
  await requireNode(deps.db, c, gnCoding);
  const list = (await repo.typesOfNode(deps.db, gnCoding)).map(toAttachmentType);
  return { list, template: list.find((t) => t.template)?.template ?? null };
}

export async function fjList(deps: FilesDeps, c: FileCaller, gnCoding: string, recordId: string) {
  await recordAccess(deps.db, c, gnCoding, recordId);
  return (await repo.filesOfRecord(deps.db, gnCoding, recordId)).map((f) => toUploaded(f));
}

/** §3 annex rows of a record: its files by attachment type, a row without url for each type without a file. */
export async function attachmentList(deps: FilesDeps, c: FileCaller, gnCoding: string, recordId: string) {
  await recordAccess(deps.db, c, gnCoding, recordId);
  const [types, rows] = await Promise.all([
    repo.typesOfNode(deps.db, gnCoding),
    repo.filesOfRecord(deps.db, gnCoding, recordId),
  ]);
  const out: Annex[] = [];
  const annexOf = (f: repo.FileRow, t?: repo.AttachmentTypeRow): Annex => ({
    annexName: t?.annexName ?? f.fileName,
    annexNo: t?.annexNo ?? f.annexNo,
    isRequired: t?.isRequired ?? false,
    fileType: t?.fileType ?? f.fileType ?? '',
    url: downloadUrl(f.id),
    fileId: f.id,
    fileName: f.fileName,
    fileSize: f.fileSize,
    preview: previewKind(f.extension),
    fileOperationType: '',
  });
  for (const t of types) {
    const mine = rows.filter((f) => f.annexNo === t.annexNo);
    if (!mine.length) {
      out.push({
        annexName: t.annexName,
        annexNo: t.annexNo,
        isRequired: t.isRequired,
        fileType: t.fileType,
        url: null,
        fileId: null,
        fileName: null,
        fileSize: null,
        preview: null,
        fileOperationType: '',
      });
    }
    for (const f of mine) out.push(annexOf(f, t));
  }
  for (const f of rows) if (!types.some((t) => t.annexNo === f.annexNo)) out.push(annexOf(f));
  return out;
}

// ---- attach, detach, delete -----------------------------------------------------------------------------------------

/** Remove bytes nobody refers to any more (after the transaction that dropped the last row committed). */
async function removeBytes(deps: FilesDeps, keys: string[]) {
  for (const k of keys) await deps.storage.delete(k).catch(() => undefined);
}

/**
 * §4 attachment operations on a record: add binds a file the caller's side uploaded, del removes one of the record's
 * files, '' keeps one (its attachment type may change). One transaction, one log row per change, in the record's log.
 */
export async function applyAttachmentOps(
  deps: FilesDeps,
  c: FileCaller,
  input: { gnCoding: string; id: string; fileList: { fileId: string; fileNo?: string; fileOperationType: string }[] },
) {
  const access = await recordAccess(deps.db, c, input.gnCoding, input.id);
  requireWritable(c, access);
  const types = await repo.typesOfNode(deps.db, input.gnCoding);
  const rows = new Map(
    (
      await repo.filesByIds(
        deps.db,
        input.fileList.map((f) => f.fileId),
      )
    ).map((f) => [f.id, f]),
  );
  const orphaned = await deps.db.transaction(async (tx) => {
    const gone: string[] = [];
    for (const op of input.fileList) {
      const f = rows.get(op.fileId);
      if (!f || !ownsFile(c, f)) throw notFound('文件不存在');
      const type = op.fileNo ? types.find((t) => t.annexNo === op.fileNo) : undefined;
      if (op.fileNo && !type) throw badRequest('附件类型不存在');
      if (type) {
        const msg = checkTypedFile({ name: f.fileName, size: f.fileSize }, type);
        if (msg) throw refuse(msg);
      }
      const named = type ?? types.find((t) => t.annexNo === f.annexNo);
      const log = (logbook: string) =>
        writeOpLog(tx, c.actor, { glName: GL_NAME, gnCoding: input.gnCoding, recordId: input.id, logbook });
      if (op.fileOperationType === 'add') {
        if (f.recordId && f.recordId !== input.id) throw badRequest(`文件已属于其他记录：${f.fileName}`);
        if (f.gnCoding && f.gnCoding !== input.gnCoding) throw badRequest(`文件不属于该节点：${f.fileName}`);
        if (f.recordId === input.id && !op.fileNo) continue;
        await repo.updateFile(tx, f.id, {
          recordId: input.id,
          gnCoding: input.gnCoding,
          annexNo: type?.annexNo ?? f.annexNo,
        });
        await log(`新增附件：${f.fileName}${named ? `（${named.annexName}）` : ''}`);
      } else {
        if (f.recordId !== input.id || f.gnCoding !== input.gnCoding) throw notFound('文件不存在');
        if (op.fileOperationType === 'del') {
          if (await repo.deleteFileRow(tx, f)) gone.push(f.storageKey);
          await log(`删除附件：${f.fileName}`);
        } else if (type && type.annexNo !== f.annexNo) {
          await repo.updateFile(tx, f.id, { annexNo: type.annexNo });
          await log(`调整附件类型：${f.fileName}（${type.annexName}）`);
        }
      }
    }
    return gone;
  });
  await removeBytes(deps, orphaned);
  return attachmentList(deps, c, input.gnCoding, input.id);
}

/** Unattached record uploads are kept this long (a form being filled in), then swept. */
export const ORPHAN_KEEP_MS = 24 * 3600_000;

/**
 * Remove record uploads nobody attached within ORPHAN_KEEP_MS (a form left without saving, a deleted draft's files),
 * with their bytes once no other file row shares them, and a log row each. Answers how many went.
 */
export async function sweepOrphans(deps: FilesDeps): Promise<number> {
  const old = await repo.orphanedRecordFiles(deps.db, new Date(deps.now().getTime() - ORPHAN_KEEP_MS));
  for (const f of old) {
    const last = await deps.db.transaction(async (tx) => {
      const last = await repo.deleteFileRow(tx, f);
      await writeOpLog(tx, SYSTEM_ACTOR, {
        glName: GL_NAME,
        gnCoding: f.gnCoding ?? undefined,
        recordId: f.id,
        logbook: `清理未关联的文件：${f.fileName}`,
      });
      return last;
    });
    if (last) await removeBytes(deps, [f.storageKey]);
  }
  return old.length;
}

/** Delete a file of the caller's side: one not attached yet, or one of a record that may still be edited. */
export async function deleteFile(deps: FilesDeps, c: FileCaller, fileId: string) {
  const f = await repo.fileById(deps.db, fileId);
  if (!f || !(await canReadFile(deps.db, c, f))) throw notFound('文件不存在');
  if (!ownsFile(c, f)) throw forbidden(c.loginRoleType === 'M' ? UploadMsg.ADMIN_READ_ONLY : undefined);
  if (f.recordId && f.gnCoding) requireWritable(c, await recordAccess(deps.db, c, f.gnCoding, f.recordId));
  const last = await deps.db.transaction(async (tx) => {
    const last = await repo.deleteFileRow(tx, f);
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      gnCoding: f.gnCoding ?? undefined,
      recordId: f.recordId ?? f.id,
      logbook: `删除文件：${f.fileName}`,
    });
    return last;
  });
  if (last) await removeBytes(deps, [f.storageKey]);
}

// ---- reading -------------------------------------------------------------------------------------------------------

/** The file, when the caller may read it; 404 otherwise (another enterprise's file answers as missing). */
export async function readableFile(deps: FilesDeps, c: FileCaller, fileId: string) {
  const f = await repo.fileById(deps.db, fileId);
  if (!f || !(await canReadFile(deps.db, c, f))) throw notFound('文件不存在');
  return f;
}

const PREVIEW_TTL_S = 600;
let secretPromise: { db: Db; p: Promise<Buffer> } | null = null;

/** The key that signs preview addresses: made once, kept in the database so every process shares it. */
function urlSecret(db: Db): Promise<Buffer> {
  if (!secretPromise || secretPromise.db !== db) {
    const p = putSettingIfAbsent(db, 'files.urlSecret', randomBytes(32).toString('base64')).then((v) =>
      Buffer.from(v, 'base64'),
    );
    secretPromise = { db, p };
    p.catch(() => {
      secretPromise = null;
    });
  }
  return secretPromise.p;
}

const sign = (secret: Buffer, fileId: string, exp: number) =>
  createHmac('sha256', secret).update(`${fileId}.${exp}`).digest('base64url');

/** A short-lived address of a file the caller may read, for <img>, <iframe> and <video> (which send no token). */
export async function previewUrl(deps: FilesDeps, c: FileCaller, fileId: string) {
  const f = await readableFile(deps, c, fileId);
  const exp = Math.floor(deps.now().getTime() / 1000) + PREVIEW_TTL_S;
  const sig = sign(await urlSecret(deps.db), f.id, exp);
  // the address ends with the file's name, which a PDF viewer shows as the document's title
  const named = `${paths.fileDownload.path}/${encodeURIComponent(f.fileName)}?fileId=${encodeURIComponent(f.id)}`;
  return {
    url: `${named}&inline=1&exp=${exp}&sig=${sig}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

export async function verifyPreview(deps: FilesDeps, fileId: string, exp: string, sig: string): Promise<boolean> {
  const e = Number(exp);
  if (!Number.isSafeInteger(e) || e * 1000 < deps.now().getTime()) return false;
  const want = Buffer.from(sign(await urlSecret(deps.db), fileId, e));
  const got = Buffer.from(sig);
  return constantTime.equal(want, got);
}

export const oversize = (bytes: number) => tooLargeMessage(Math.floor(bytes / 1024 / 1024));
