import { createHash, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  BID_CIPHER_CHUNK,
  BID_MSG,
  BID_TAG_BYTES,
  type BidFile,
  type BidKey,
  type BidKeySave,
  type BidKeyState,
  type BidOverview,
  type BidReceipt,
  type BidSections,
  type BidTask,
  bidChunkCount,
  bidCipherChunkSize,
  bidCipherSize,
  bidKdfSchema,
  cleanFileName,
} from '@ks/contracts';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  bidFileParts,
  bidFiles,
  bidKeys,
  caBindings,
  tenderRegistrations,
  tenderSections,
  users,
} from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { newStorageKey, ObjectNotFound, type Storage, StorageUnavailable } from '../../platform/storage';
import { Meter } from '../files/multipart';
import { appendEvent, ledgerActor } from '../ledger/ledger';
import { projects } from '../tender/project';
import { registrationOf } from '../tender/registration.service';
import { type SectionRow, sectionOr404 } from '../tender/section.repo';

/**
 * Sealed bids (issue 16): the bidder's browser encrypts each bid file (format in @ks/contracts bids.ts and
 * docs/architecture.md), the server stores the ciphertext through the chunked-upload store under a generated key and
 * never holds a file key in the clear. Uploads are for accounts of an enterprise registered for the section, before
 * its bid deadline; the ciphertext goes back only to the bidder's own enterprise before the deadline (to test-decrypt
 * it); every other attempt to read a bid — content or ciphertext, whatever the role — is refused and logged.
 */
export interface BidsDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  /** how long an unfinished upload is kept */
  taskTtlMs: number;
}

export interface BidCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
}

export const GL_NAME = '投标文件';
const GL_KEY = '投标加密密钥';

type KeyRow = typeof bidKeys.$inferSelect;
type BidRow = typeof bidFiles.$inferSelect;

const keyOf = (k: KeyRow, ca: { holder: string; fingerprint: string } | null = null): BidKey => ({
  id: k.id,
  kind: k.kind as BidKey['kind'],
  algorithm: 'RSA-OAEP-256',
  publicKey: k.publicKey,
  fingerprint: k.fingerprint,
  encryptedPrivateKey: k.encryptedPrivateKey,
  iv: k.iv,
  kdf: k.kdf ? bidKdfSchema.parse(JSON.parse(k.kdf)) : null,
  caBindingId: k.caBindingId,
  caHolder: ca?.holder ?? null,
  caCertFingerprint: ca?.fingerprint ?? null,
  createdAt: k.createdAt.toISOString(),
});

const fileOf = (b: BidRow, uploaderName: string): BidFile => ({
  id: b.id,
  sectionId: b.sectionId,
  fileName: b.fileName,
  status: b.status === 'sealing' ? 'uploading' : (b.status as BidFile['status']),
  plainSize: b.plainSize,
  cipherSize: b.cipherSize,
  chunkCount: b.chunkCount,
  cipherSha256: b.cipherSha256,
  plainSha256: b.plainSha256,
  wrappedKey: b.wrappedKey,
  keyId: b.keyId,
  uploaderName,
  createdAt: b.createdAt.toISOString(),
  sealedAt: b.sealedAt?.toISOString() ?? null,
  endedAt: b.endedAt?.toISOString() ?? null,
});

const receiptOf = (b: BidRow, fingerprint: string): BidReceipt => ({
  id: b.id,
  sectionId: b.sectionId,
  fileName: b.fileName,
  plainSize: b.plainSize,
  cipherSize: b.cipherSize,
  cipherSha256: b.cipherSha256!,
  plainSha256: b.plainSha256!,
  sealedAt: b.sealedAt!.toISOString(),
  keyFingerprint: fingerprint,
});

const spkiOf = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });

/** An RSA public key of 2048 bits or more, as SPKI, its fingerprint and modulus length in bytes; else 400. */
function rsaKey(k: KeyObject, message: string = BID_MSG.badPublicKey) {
  const bits = k.asymmetricKeyDetails?.modulusLength ?? 0;
  if (k.asymmetricKeyType !== 'rsa' || bits < 2048) throw badRequest(message);
  const der = spkiOf(k);
  return {
    publicKey: der.toString('base64'),
    fingerprint: createHash('sha256').update(der).digest('hex'),
    modulusBytes: Math.ceil(bits / 8),
  };
}

const liveKeyOf = async (q: DbOrTx, userId: string) =>
  (
    await q
      .select()
      .from(bidKeys)
      .where(and(eq(bidKeys.userId, userId), isNull(bidKeys.retiredAt)))
  )[0];

const caOf = async (q: DbOrTx, bindingId: string | null) => {
  if (!bindingId) return null;
  const [b] = await q
    .select({ holder: caBindings.holder, fingerprint: caBindings.fingerprint })
    .from(caBindings)
    .where(eq(caBindings.id, bindingId));
  return b ?? null;
};

/** The live CA bindings the user made, with whether their key can wrap bid keys (RSA). */
async function certificatesOf(q: DbOrTx, userId: string, now: Date) {
  const rows = await q
    .select()
    .from(caBindings)
    .where(and(eq(caBindings.userId, userId), isNull(caBindings.unboundAt)))
    .orderBy(desc(caBindings.boundAt));
  return rows.map((b) => ({
    id: b.id,
    holder: b.holder,
    algorithm: b.algorithm,
    notAfter: b.notAfter.toISOString(),
    usable: b.algorithm === 'RSA' && b.notAfter.getTime() > now.getTime(),
  }));
}

export async function keyState(deps: BidsDeps, c: BidCaller): Promise<BidKeyState> {
  const k = await liveKeyOf(deps.db, c.id);
  return {
    key: k ? keyOf(k, await caOf(deps.db, k.caBindingId)) : null,
    certificates: await certificatesOf(deps.db, c.id, deps.now()),
  };
}

/** One of the caller's keys (current or retired); another's is not found. */
export async function keyById(deps: BidsDeps, c: BidCaller, id: string): Promise<BidKey> {
  const [k] = await deps.db
    .select()
    .from(bidKeys)
    .where(and(eq(bidKeys.id, id), eq(bidKeys.userId, c.id)));
  if (!k) throw notFound('密钥不存在');
  return keyOf(k, await caOf(deps.db, k.caBindingId));
}

/** Set the caller's key: a browser-made key pair (private key encrypted under the passphrase), or a bound RSA CA key. */
export async function saveKey(deps: BidsDeps, c: BidCaller, input: BidKeySave): Promise<BidKey> {
  requireBidder(c);
  const now = deps.now();
  let material: { publicKey: string; fingerprint: string; modulusBytes: number };
  let extra: Partial<typeof bidKeys.$inferInsert>;
  let what: string;
  if (input.kind === 'passphrase') {
    let k: KeyObject;
    try {
      k = createPublicKey({ key: Buffer.from(input.publicKey, 'base64'), format: 'der', type: 'spki' });
    } catch {
      throw badRequest(BID_MSG.badPublicKey);
    }
    material = rsaKey(k);
    if (Buffer.from(input.iv, 'base64').length !== 12) throw badRequest('IV 须为 12 字节');
    extra = { encryptedPrivateKey: input.encryptedPrivateKey, iv: input.iv, kdf: JSON.stringify(input.kdf) };
    what = `口令保护的 RSA 密钥（PBKDF2-SHA-256 ${input.kdf.iterations} 次）`;
  } else {
    const [b] = await deps.db
      .select()
      .from(caBindings)
      .where(and(eq(caBindings.id, input.caBindingId), eq(caBindings.userId, c.id), isNull(caBindings.unboundAt)));
    if (!b || b.notAfter.getTime() <= now.getTime()) throw notFound(BID_MSG.caMissing);
    let k: KeyObject;
    try {
      k = new X509Certificate(Buffer.from(b.certificate, 'base64')).publicKey;
    } catch {
      throw badRequest(BID_MSG.caNotRsa);
    }
    material = rsaKey(k, BID_MSG.caNotRsa);
    extra = { caBindingId: b.id };
    what = `CA 证书（${b.holder}，序列号 ${b.serial}）的公钥`;
  }
  try {
    const row = await deps.db.transaction(async (tx) => {
      await tx
        .update(bidKeys)
        .set({ retiredAt: now })
        .where(and(eq(bidKeys.userId, c.id), isNull(bidKeys.retiredAt)));
      const [k] = await tx
        .insert(bidKeys)
        .values({ userId: c.id, kind: input.kind, ...material, ...extra })
        .returning();
      await writeOpLog(tx, c.actor, {
        glName: GL_KEY,
        recordId: k!.id,
        logbook: `设置投标加密密钥：${what}，公钥指纹 ${material.fingerprint}`,
      });
      return k!;
    });
    return keyOf(row, await caOf(deps.db, row.caBindingId));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('密钥正在被另一请求更换，请刷新后重试');
    throw e;
  }
}

function requireBidder(c: BidCaller): asserts c is BidCaller & { enterpriseId: string } {
  if (c.loginRoleType !== 'U' || !c.enterpriseId) throw forbidden(BID_MSG.noEnterprise);
}

const sectionRow = (q: DbOrTx, id: string) => sectionOr404(q, id, BID_MSG.sectionMissing);

const beforeDeadline = (s: SectionRow, now: Date) => now.getTime() < s.bidDeadline.getTime();

/** A refused attempt, logged (outside any transaction: the refusal changes nothing else), then thrown. */
async function refuse(deps: BidsDeps, c: BidCaller, e: AppError, what: string, recordId?: string): Promise<never> {
  await writeOpLog(deps.db, c.actor, { glName: GL_NAME, recordId, logbook: what, failInfo: e.message });
  throw e;
}

/** Upload rules: a bidder of a registered enterprise, before the deadline (a refusal past it is logged). */
async function requireUploadable(deps: BidsDeps, c: BidCaller, sectionId: string, what: string) {
  requireBidder(c);
  const s = await sectionRow(deps.db, sectionId);
  if (!beforeDeadline(s, deps.now())) {
    await refuse(deps, c, forbidden(BID_MSG.deadlinePassed), `${what}（标段 ${s.code} ${s.name}）`, s.id);
  }
  if (!(await registrationOf(deps.db, s.id, c.enterpriseId))) throw forbidden(BID_MSG.notRegistered);
  return { section: s, enterpriseId: c.enterpriseId };
}

async function projectNames(q: DbOrTx, ids: string[]) {
  const out = new Map<string, string>();
  for (const id of new Set(ids)) {
    const p = await projects.get(q, id);
    out.set(id, String(p?.values.xmmc ?? ''));
  }
  return out;
}

const sectionView = (s: SectionRow, projectName: string, registered: boolean, now: Date) => ({
  id: s.id,
  projectId: s.projectId,
  projectName,
  code: s.code,
  name: s.name,
  bidDeadline: s.bidDeadline.toISOString(),
  open: beforeDeadline(s, now),
  registered,
});

/** The sections the caller's enterprise registered for, with its sealed bid's receipt. */
export async function sections(deps: BidsDeps, c: BidCaller): Promise<BidSections> {
  requireBidder(c);
  const rows = await deps.db
    .select({ s: tenderSections })
    .from(tenderRegistrations)
    .innerJoin(tenderSections, eq(tenderSections.id, tenderRegistrations.sectionId))
    .where(eq(tenderRegistrations.enterpriseId, c.enterpriseId))
    .orderBy(tenderSections.bidDeadline, tenderSections.code);
  const ids = rows.map((r) => r.s.id);
  const sealed = ids.length
    ? await deps.db
        .select({ b: bidFiles, fingerprint: bidKeys.fingerprint })
        .from(bidFiles)
        .innerJoin(bidKeys, eq(bidKeys.id, bidFiles.keyId))
        .where(
          and(
            inArray(bidFiles.sectionId, ids),
            eq(bidFiles.enterpriseId, c.enterpriseId),
            eq(bidFiles.status, 'sealed'),
          ),
        )
    : [];
  const names = await projectNames(
    deps.db,
    rows.map((r) => r.s.projectId),
  );
  const now = deps.now();
  return rows.map(({ s }) => {
    const b = sealed.find((x) => x.b.sectionId === s.id);
    return {
      ...sectionView(s, names.get(s.projectId) ?? '', true, now),
      sealed: b ? receiptOf(b.b, b.fingerprint) : null,
    };
  });
}

/** One section and the caller's enterprise's bid files for it (sealed and ended; unfinished uploads left out). */
export async function overview(deps: BidsDeps, c: BidCaller, sectionId: string): Promise<BidOverview> {
  requireBidder(c);
  const s = await sectionRow(deps.db, sectionId);
  const registered = Boolean(await registrationOf(deps.db, s.id, c.enterpriseId));
  const rows = await deps.db
    .select({ b: bidFiles, name: users.userName })
    .from(bidFiles)
    .innerJoin(users, eq(users.id, bidFiles.uploaderId))
    .where(
      and(
        eq(bidFiles.sectionId, s.id),
        eq(bidFiles.enterpriseId, c.enterpriseId),
        inArray(bidFiles.status, ['sealed', 'withdrawn', 'replaced']),
      ),
    )
    .orderBy(desc(bidFiles.createdAt));
  if (!registered && !rows.length) throw forbidden(BID_MSG.notRegistered);
  const names = await projectNames(deps.db, [s.projectId]);
  return {
    section: sectionView(s, names.get(s.projectId) ?? '', registered, deps.now()),
    files: rows.map((r) => fileOf(r.b, r.name)),
  };
}

/** upload-task: a new upload of an encrypted bid file (an earlier unfinished one of the caller for the section is freed). */
export async function startUpload(deps: BidsDeps, c: BidCaller, input: BidTask) {
  const { section, enterpriseId } = await requireUploadable(deps, c, input.sectionId, '上传投标文件被拒绝');
  const name = cleanFileName(input.fileName);
  if (!name) throw badRequest('缺少文件名');
  if (input.cipherSize !== bidCipherSize(input.plainSize)) throw badRequest(BID_MSG.sizeMismatch);
  const key = await liveKeyOf(deps.db, c.id);
  if (!key) throw conflict(BID_MSG.noKey);
  if (key.id !== input.keyId) throw conflict(BID_MSG.keyMismatch);
  if (Buffer.from(input.wrappedKey, 'base64').length !== key.modulusBytes) throw badRequest(BID_MSG.badWrappedKey);

  const earlier = await deps.db
    .select()
    .from(bidFiles)
    .where(and(eq(bidFiles.uploaderId, c.id), eq(bidFiles.sectionId, section.id), eq(bidFiles.status, 'uploading')));
  for (const e of earlier) await dropUpload(deps, e);

  const storageKey = newStorageKey();
  const storageRef = await deps.storage.parts.create(storageKey, 'application/octet-stream');
  const chunkCount = bidChunkCount(input.plainSize);
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const [b] = await tx
      .insert(bidFiles)
      .values({
        sectionId: section.id,
        enterpriseId,
        uploaderId: c.id,
        keyId: key.id,
        fileName: name,
        plainSize: input.plainSize,
        cipherSize: input.cipherSize,
        chunkCount,
        wrappedKey: input.wrappedKey,
        storageKey,
        storageRef,
        expiresAt: new Date(now.getTime() + deps.taskTtlMs),
      })
      .returning();
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: b!.id,
      logbook: `开始上传加密投标文件：${name}（标段 ${section.code} ${section.name}，密文 ${input.cipherSize} 字节，${chunkCount} 个分片）`,
    });
    return b!;
  });
  return {
    uploadId: row.id,
    chunkCount,
    chunkSize: BID_CIPHER_CHUNK,
    missing: Array.from({ length: chunkCount }, (_, i) => i),
  };
}

/** The caller's unfinished upload (else 404), still open for its section. */
async function ownUpload(deps: BidsDeps, c: BidCaller, uploadId: string, what: string) {
  const [b] = await deps.db
    .select()
    .from(bidFiles)
    .where(and(eq(bidFiles.id, uploadId), eq(bidFiles.uploaderId, c.id)));
  if (!b || (b.status !== 'uploading' && b.status !== 'sealing')) throw notFound(BID_MSG.taskGone);
  await requireUploadable(deps, c, b.sectionId, what);
  if (b.expiresAt.getTime() < deps.now().getTime()) throw notFound(BID_MSG.taskGone);
  return b;
}

/** chunk-upload: store ciphertext chunk `index` of the caller's upload, exactly its size, straight into the store. */
export async function putChunk(
  deps: BidsDeps,
  c: BidCaller,
  uploadId: string,
  index: number,
  sha256: string,
  body: Readable,
) {
  let b: BidRow;
  try {
    b = await ownUpload(deps, c, uploadId, '上传投标文件分片被拒绝');
  } catch (e) {
    body.resume();
    throw e;
  }
  if (b.status !== 'uploading') {
    body.resume();
    throw conflict('文件正在封存，请稍候');
  }
  if (index >= b.chunkCount) {
    body.resume();
    throw badRequest('分片序号有误');
  }
  const size = bidCipherChunkSize(b.cipherSize, index);
  const hash = createHash('sha256');
  const meter = new Meter({ max: size, tooLarge: BID_MSG.chunkSize, exact: size, wrongSize: BID_MSG.chunkSize, hash });
  const onError = (e: Error) => meter.destroy(e);
  body.once('error', onError);
  meter.on('error', () => undefined);
  let tag: { etag: string | null };
  try {
    tag = await deps.storage.parts.put(
      b.storageKey,
      b.storageRef,
      { index, offset: index * BID_CIPHER_CHUNK, size },
      body.pipe(meter),
    );
  } catch (e) {
    body.resume();
    if (e instanceof ObjectNotFound) throw notFound(BID_MSG.taskGone);
    if (e instanceof AppError) throw e;
    throw badRequest('网络不稳定，分片未收全，请重试');
  } finally {
    body.off('error', onError);
  }
  // what arrived is not what the browser sent: not recorded (a recorded chunk of this index stays as it was)
  if (hash.digest('hex') !== sha256) throw badRequest(BID_MSG.chunkHashMismatch);
  await deps.db
    .insert(bidFileParts)
    .values({ bidId: b.id, index, size, etag: tag.etag })
    .onConflictDoUpdate({
      target: [bidFileParts.bidId, bidFileParts.index],
      set: { size, etag: tag.etag, createdAt: sql`now()` },
    });
  const [n] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(bidFileParts)
    .where(eq(bidFileParts.bidId, b.id));
  return { chunk: index, uploaded: n?.n ?? 0, total: b.chunkCount };
}

/** SHA-256 of a stored object, streamed (memory stays flat whatever its size). */
async function storedSha256(storage: Storage, key: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of await storage.get(key)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * finish: every chunk in (each checked against its SHA-256 as it came), joined and hashed; then sealed, replacing the enterprise's
 * earlier sealed file for the section. The receipt names both hashes and the time.
 */
export async function finishUpload(
  deps: BidsDeps,
  c: BidCaller,
  input: { uploadId: string; plainSha256: string; summary: string },
): Promise<BidReceipt> {
  const b = await ownUpload(deps, c, input.uploadId, '封存投标文件被拒绝');
  // AES-GCM of a small JSON: at least the tag and some bytes
  if (Buffer.from(input.summary, 'base64').length < BID_TAG_BYTES + 20) throw badRequest(BID_MSG.summaryMissing);
  const parts = await deps.db
    .select()
    .from(bidFileParts)
    .where(eq(bidFileParts.bidId, b.id))
    .orderBy(bidFileParts.index);
  if (parts.length < b.chunkCount) {
    const have = new Set(parts.map((p) => p.index));
    const missing = Array.from({ length: b.chunkCount }, (_, i) => i).filter((i) => !have.has(i));
    throw new AppError(409, 409, BID_MSG.chunksMissing, { missing });
  }
  const claimed = await deps.db
    .update(bidFiles)
    .set({ status: 'sealing', expiresAt: new Date(deps.now().getTime() + deps.taskTtlMs) })
    .where(and(eq(bidFiles.id, b.id), eq(bidFiles.status, 'uploading')))
    .returning({ id: bidFiles.id });
  if (!claimed.length) throw conflict('文件正在封存，请稍候');
  let cipherSha256: string;
  try {
    await deps.storage.parts.complete(
      b.storageKey,
      b.storageRef,
      parts.map((p) => ({ index: p.index, etag: p.etag })),
      b.cipherSize,
    );
    cipherSha256 = await storedSha256(deps.storage, b.storageKey);
  } catch (e) {
    if (e instanceof StorageUnavailable) {
      await deps.db.update(bidFiles).set({ status: 'uploading' }).where(eq(bidFiles.id, b.id));
      throw e;
    }
    await dropUpload(deps, b, true, c.actor, `合并失败：${(e as Error).message}`);
    throw badRequest('投标文件合并失败，请重新上传');
  }
  const now = deps.now();
  const section = await sectionRow(deps.db, b.sectionId);
  if (!beforeDeadline(section, now)) {
    await dropUpload(deps, b, true, c.actor, BID_MSG.deadlinePassed);
    throw forbidden(BID_MSG.deadlinePassed);
  }
  const { sealed, replaced } = await deps.db.transaction(async (tx) => {
    const replaced = await tx
      .update(bidFiles)
      .set({ status: 'replaced', endedAt: now })
      .where(
        and(
          eq(bidFiles.sectionId, b.sectionId),
          eq(bidFiles.enterpriseId, b.enterpriseId),
          eq(bidFiles.status, 'sealed'),
        ),
      )
      .returning();
    const [sealed] = await tx
      .update(bidFiles)
      .set({
        status: 'sealed',
        cipherSha256,
        plainSha256: input.plainSha256,
        summaryCipher: input.summary,
        sealedAt: now,
      })
      .where(eq(bidFiles.id, b.id))
      .returning();
    await tx.delete(bidFileParts).where(eq(bidFileParts.bidId, b.id));
    await appendEvent(tx, {
      kind: 'bid.sealed',
      sectionId: b.sectionId,
      actor: ledgerActor(c.actor),
      payload: {
        bidId: b.id,
        enterpriseId: b.enterpriseId,
        cipherSha256,
        plainSha256: input.plainSha256,
        summarySha256: createHash('sha256').update(input.summary).digest('hex'),
        replaced: replaced.map((r) => r.id),
      },
      at: now,
    });
    const was = replaced[0] ? `，替换此前递交的 ${replaced[0].fileName}` : '';
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: b.id,
      logbook: `递交加密投标文件：${b.fileName}（标段 ${section.code} ${section.name}，密文 SHA-256 ${cipherSha256}，明文 SHA-256 ${input.plainSha256}）${was}`,
    });
    return { sealed: sealed!, replaced };
  });
  for (const r of replaced) await deps.storage.delete(r.storageKey).catch(() => undefined);
  const [k] = await deps.db.select().from(bidKeys).where(eq(bidKeys.id, sealed.keyId));
  return receiptOf(sealed, k!.fingerprint);
}

/** Withdraw the enterprise's sealed file before the deadline: the record stays, the ciphertext is freed. */
export async function withdraw(deps: BidsDeps, c: BidCaller, id: string): Promise<BidFile> {
  requireBidder(c);
  const [b] = await deps.db.select().from(bidFiles).where(eq(bidFiles.id, id));
  if (!b || b.enterpriseId !== c.enterpriseId) throw notFound(BID_MSG.bidMissing);
  await requireUploadable(deps, c, b.sectionId, `撤回投标文件被拒绝：${b.fileName}`);
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const [w] = await tx
      .update(bidFiles)
      .set({ status: 'withdrawn', endedAt: now })
      .where(and(eq(bidFiles.id, b.id), eq(bidFiles.status, 'sealed')))
      .returning();
    if (!w) throw conflict(BID_MSG.notSealed);
    await appendEvent(tx, {
      kind: 'bid.withdrawn',
      sectionId: b.sectionId,
      actor: ledgerActor(c.actor),
      payload: { bidId: b.id, enterpriseId: b.enterpriseId, cipherSha256: b.cipherSha256 },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: b.id,
      logbook: `撤回投标文件：${b.fileName}（密文 SHA-256 ${b.cipherSha256}）`,
    });
    return w;
  });
  await deps.storage.delete(row.storageKey).catch(() => undefined);
  const [u] = await deps.db.select({ name: users.userName }).from(users).where(eq(users.id, row.uploaderId));
  return fileOf(row, u?.name ?? '');
}

/**
 * One ciphertext chunk, for the bidder's own test decryption before the deadline. Anyone else — administrators,
 * reviewers, other bidders, the tenderee — and anyone after the deadline is refused, and the attempt logged.
 */
export async function cipherChunk(deps: BidsDeps, c: BidCaller, id: string, index: number) {
  const [b] = await deps.db.select().from(bidFiles).where(eq(bidFiles.id, id));
  if (!b) throw notFound(BID_MSG.bidMissing);
  const what = `试图下载投标文件密文：${b.fileName}`;
  if (c.loginRoleType !== 'U' || c.enterpriseId !== b.enterpriseId) {
    await refuse(deps, c, forbidden(BID_MSG.cipherOthers), what, b.id);
  }
  const s = await sectionRow(deps.db, b.sectionId);
  if (!beforeDeadline(s, deps.now())) await refuse(deps, c, forbidden(BID_MSG.cipherAfterDeadline), what, b.id);
  if (b.status !== 'sealed') throw conflict(BID_MSG.notSealed);
  if (index >= b.chunkCount) throw badRequest('分片序号有误');
  const start = index * BID_CIPHER_CHUNK;
  const size = bidCipherChunkSize(b.cipherSize, index);
  const stream = await deps.storage.get(b.storageKey, { start, end: start + size - 1 });
  return { stream, size };
}

/**
 * The content of a bid (download or preview): the server holds ciphertext only, and no role may have a bid's content
 * before its bidder decrypts it at opening — every attempt is refused and logged.
 */
export async function content(deps: BidsDeps, c: BidCaller, id: string): Promise<never> {
  const [b] = await deps.db.select().from(bidFiles).where(eq(bidFiles.id, id));
  if (!b) throw notFound(BID_MSG.bidMissing);
  return refuse(deps, c, forbidden(BID_MSG.sealedNoRead), `试图下载或预览投标文件内容：${b.fileName}`, b.id);
}

/** Free an unfinished upload: its parts (or joined object), its row; logged when a refusal caused it. */
async function dropUpload(deps: BidsDeps, b: BidRow, joined = false, actor?: Actor, why?: string) {
  await deps.storage.parts.abort(b.storageKey, b.storageRef).catch(() => undefined);
  if (joined) await deps.storage.delete(b.storageKey).catch(() => undefined);
  await deps.db.transaction(async (tx) => {
    await tx.delete(bidFiles).where(and(eq(bidFiles.id, b.id), inArray(bidFiles.status, ['uploading', 'sealing'])));
    if (actor && why) {
      await writeOpLog(tx, actor, {
        glName: GL_NAME,
        recordId: b.id,
        logbook: `投标文件未被接受：${b.fileName}`,
        failInfo: why,
      });
    }
  });
}

/** Free unfinished uploads past their time (and seals a crash interrupted). */
export async function sweep(deps: BidsDeps): Promise<number> {
  const stale = await deps.db
    .select()
    .from(bidFiles)
    .where(
      and(or(eq(bidFiles.status, 'uploading'), eq(bidFiles.status, 'sealing')), lt(bidFiles.expiresAt, deps.now())),
    );
  for (const b of stale) await dropUpload(deps, b, b.status === 'sealing');
  return stale.length;
}
