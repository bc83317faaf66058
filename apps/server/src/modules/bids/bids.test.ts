import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  pbkdf2Sync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BID_CIPHER_CHUNK, BID_MSG, BID_PLAIN_CHUNK, bidChunkCount, bidSegmentIv } from '@ks/contracts';
import { and, count, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bidFiles,
  enterprises,
  ledgerEntries,
  operationLogs,
  tenderRegistrations,
  tenderSections,
  users,
} from '../../db/schema';
import { createStorage } from '../../platform/storage';
import { createLocalStorage } from '../../platform/storage/local';
import { DEMO_BID_PASSPHRASE, demoBidPdf, sealSummary } from '../../seed/bids';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { form, otherEnterpriseUser } from '../files/testkit';
import { verifyLedger } from '../ledger/ledger';
import { projects } from '../tender/project';

/**
 * Sealed bids through the API (issue 16). The bidder's side is played here with node:crypto — an implementation of
 * the file format independent of the browser's — so the server is checked against the format, not against itself:
 * what is stored is the ciphertext; nobody reads a bid early, whatever the role, and every attempt is logged; the
 * bidder's own ciphertext decrypts to the plaintext the receipt names; after the deadline every upload is refused.
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let dev: string;
let auditor: string;
let user1: string;
let other: { token: string; enterpriseId: string };
let sectionId: string;
let deadline: Date;
let enterpriseId: string;

const P = {
  key: '/ks/trade/bid/v1/key',
  keyDetail: '/ks/trade/bid/v1/key/detail',
  sections: '/ks/trade/bid/v1/sections',
  section: '/ks/trade/bid/v1/section',
  task: '/ks/trade/bid/v1/upload-task',
  chunk: '/ks/trade/bid/v1/chunk-upload',
  finish: '/ks/trade/bid/v1/finish',
  withdraw: '/ks/trade/bid/v1/withdraw',
  cipher: '/ks/trade/bid/v1/cipher',
  content: '/ks/trade/bid/v1/content',
};

const PASSPHRASE = '晋源二小投标口令-2026';
const ITER = 310_000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const SUMMARY = { price: 38_500_000, durationDays: 540, quality: '合格', manager: '张伟' };

/** The bidder's key pair, the private key kept as the browser keeps it: PKCS#8, AES-256-GCM under PBKDF2(passphrase). */
function makeKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const kek = pbkdf2Sync(PASSPHRASE, salt, ITER, 32, 'sha256');
  const cip = createCipheriv('aes-256-gcm', kek, iv);
  const sealed = Buffer.concat([
    cip.update(privateKey.export({ type: 'pkcs8', format: 'der' })),
    cip.final(),
    cip.getAuthTag(),
  ]);
  return {
    publicKey,
    body: {
      kind: 'passphrase',
      publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      encryptedPrivateKey: sealed.toString('base64'),
      iv: iv.toString('base64'),
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: ITER, salt: salt.toString('base64') },
    },
  };
}

/** Encrypt as the browser does: segments of BID_PLAIN_CHUNK, IV = index ‖ final flag, tag appended. */
function encrypt(plain: Buffer, publicKey: KeyObject) {
  const fileKey = randomBytes(32);
  const n = bidChunkCount(plain.length);
  const chunks: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const cip = createCipheriv('aes-256-gcm', fileKey, bidSegmentIv(i, i === n - 1));
    const seg = plain.subarray(i * BID_PLAIN_CHUNK, (i + 1) * BID_PLAIN_CHUNK);
    chunks.push(Buffer.concat([cip.update(seg), cip.final(), cip.getAuthTag()]));
  }
  const wrapped = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    fileKey,
  );
  const cipher = Buffer.concat(chunks);
  return {
    chunks,
    cipher,
    fileKey,
    wrappedKey: wrapped.toString('base64'),
    plainSha256: sha(plain),
    cipherSha256: sha(cipher),
    summary: sealSummary(fileKey, SUMMARY),
  };
}

/** Decrypt as the bid-file tool page does: the private key from the passphrase, the file key, every segment. */
function decrypt(
  key: { encryptedPrivateKey: string; iv: string; kdf: { salt: string; iterations: number } },
  wrappedKey: string,
  chunks: Buffer[],
  passphrase = PASSPHRASE,
) {
  const kek = pbkdf2Sync(passphrase, Buffer.from(key.kdf.salt, 'base64'), key.kdf.iterations, 32, 'sha256');
  const sealed = Buffer.from(key.encryptedPrivateKey, 'base64');
  const d = createDecipheriv('aes-256-gcm', kek, Buffer.from(key.iv, 'base64'));
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  const pkcs8 = Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
  const fileKey = privateDecrypt(
    {
      key: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    Buffer.from(wrappedKey, 'base64'),
  );
  return Buffer.concat(
    chunks.map((ch, i) => {
      const dd = createDecipheriv('aes-256-gcm', fileKey, bidSegmentIv(i, i === chunks.length - 1));
      dd.setAuthTag(ch.subarray(ch.length - 16));
      return Buffer.concat([dd.update(ch.subarray(0, ch.length - 16)), dd.final()]);
    }),
  );
}

async function sendChunk(token: string, uploadId: string, chunk: number, data: Buffer, hash = sha(data)) {
  const f = form({ uploadId, chunk, sha256: hash }, [{ name: 'blob', data }]);
  const r = await t.app.inject({
    method: 'POST',
    url: P.chunk,
    headers: { ...f.headers, authorization: `Bearer ${token}` },
    payload: f.payload,
  });
  return { status: r.statusCode, body: r.json() };
}

/** A whole upload: task, chunks, finish. */
async function upload(token: string, keyId: string, publicKey: KeyObject, plain: Buffer, fileName = '投标文件.pdf') {
  const e = encrypt(plain, publicKey);
  const task = await c.post(P.task, token, {
    sectionId,
    fileName,
    plainSize: plain.length,
    cipherSize: e.cipher.length,
    keyId,
    wrappedKey: e.wrappedKey,
  });
  expect(task.status).toBe(200);
  for (const [i, ch] of e.chunks.entries())
    expect((await sendChunk(token, task.body.data.uploadId, i, ch)).status).toBe(200);
  const fin = await c.post(P.finish, token, {
    uploadId: task.body.data.uploadId,
    plainSha256: e.plainSha256,
    summary: e.summary,
  });
  return { ...e, fin, uploadId: task.body.data.uploadId as string };
}

const logs = async (text: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(operationLogs)
        .where(like(operationLogs.logbook, `%${text}%`))
    )[0]!.n,
  );
const sealedCount = async () =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(bidFiles)
        .where(and(eq(bidFiles.status, 'sealed'), eq(bidFiles.sectionId, sectionId)))
    )[0]!.n,
  );

let key: ReturnType<typeof makeKey>;
let keyId: string;
/** a plaintext of two segments and a bit, so the tail is a short chunk */
const plain = Buffer.concat([
  Buffer.from('%PDF-1.7\n投标函：投标报价人民币叁仟捌佰伍拾万元整\n'),
  randomBytes(BID_PLAIN_CHUNK + 1000),
]);
let first: Awaited<ReturnType<typeof upload>>;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'ks-bids-')),
      SINGLE_SESSION: '0',
      SESSION_TTL_MINUTES: '43200',
    },
  });
  [admin, dev, auditor, user1] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'auditor', 'U'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  other = await otherEnterpriseUser(t, 'bidder2');
  const [project] = await projects.list(db(), { where: { xmbh: 'SXGC-2026-1102' } });
  const [s] = await db().select().from(tenderSections).where(eq(tenderSections.projectId, project!.id));
  sectionId = s!.id;
  deadline = s!.bidDeadline;
  const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
  enterpriseId = u1!.enterpriseId!;
  // the demo registers user1 for this section: the tests register it themselves, after proving the refusal without
  await db()
    .delete(tenderRegistrations)
    .where(and(eq(tenderRegistrations.sectionId, sectionId), eq(tenderRegistrations.enterpriseId, enterpriseId)));
  const [ent] = await db().select().from(enterprises).where(eq(enterprises.id, enterpriseId));
  expect(ent!.name).toBe('示例建设工程有限公司');
  key = makeKey();
});
afterAll(async () => t?.close());

describe('the demo', () => {
  it('has user1’s sealed bid on 第二实验小学 BD-01, which decrypts with the demo passphrase to the demo 投标函', async () => {
    const list = await c.get(P.sections, user1);
    const seeded = list.body.data.find((x: { code: string; projectName: string }) =>
      x.projectName.includes('第二实验小学'),
    );
    expect(seeded.sealed).toMatchObject({ fileName: '投标文件-施工标段.pdf', plainSha256: sha(demoBidPdf()) });
    const ov = await c.get(`${P.section}?id=${seeded.id}`, user1);
    const file = ov.body.data.files[0];
    const k = (await c.get(P.key, user1)).body.data.key;
    // the seeded bytes are in the run's seed store (read here directly; this file's app writes to a store of its own)
    const [row] = await db().select().from(bidFiles).where(eq(bidFiles.id, file.id));
    const seedStore = createLocalStorage(path.join(inject('seedDataDir'), 'files'));
    const stored: Buffer[] = [];
    for await (const ch of await seedStore.get(row!.storageKey)) stored.push(ch as Buffer);
    const all = Buffer.concat(stored);
    const chunks = Array.from({ length: file.chunkCount }, (_, i) =>
      all.subarray(i * BID_CIPHER_CHUNK, (i + 1) * BID_CIPHER_CHUNK),
    );
    expect(sha(Buffer.concat(chunks))).toBe(seeded.sealed.cipherSha256);
    expect(decrypt(k, file.wrappedKey, chunks, DEMO_BID_PASSPHRASE)).toEqual(demoBidPdf());
  });
});

describe('the bidder’s key', () => {
  it('is refused when it is not an RSA key of 2048 bits or more, and nothing is changed', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const r = await c.post(P.key, user1, {
      ...key.body,
      publicKey: small.export({ type: 'spki', format: 'der' }).toString('base64'),
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(BID_MSG.badPublicKey);
    expect((await c.get(P.key, user1)).body.data.key.publicKey).not.toBe(key.body.publicKey);
  });

  it('is a browser-made key pair whose private key the server keeps encrypted only, logged', async () => {
    const before = await logs('设置投标加密密钥：口令保护的 RSA 密钥');
    const r = await c.post(P.key, user1, key.body);
    expect(r.status).toBe(200);
    keyId = r.body.data.id;
    expect(r.body.data).toMatchObject({
      kind: 'passphrase',
      algorithm: 'RSA-OAEP-256',
      encryptedPrivateKey: key.body.encryptedPrivateKey,
    });
    expect(await logs('设置投标加密密钥：口令保护的 RSA 密钥')).toBe(before + 1);
    const state = await c.get(P.key, user1);
    expect(state.body.data.key.id).toBe(keyId);
  });

  it('cannot be a CA certificate the user has not bound', async () => {
    const r = await c.post(P.key, user1, { kind: 'ca', caBindingId: '3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11' });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(BID_MSG.caMissing);
  });

  it('is for accounts of an enterprise only', async () => {
    expect((await c.post(P.key, admin, key.body)).status).toBe(403);
    const r = await c.post(P.key, auditor, key.body);
    expect(r.status).toBe(403);
  });
});

describe('uploading a sealed bid', () => {
  it('is refused to an enterprise not registered for the section, and nothing is stored', async () => {
    const r = await c.post(P.task, user1, {
      sectionId,
      fileName: '投标文件.pdf',
      plainSize: 10,
      cipherSize: 26,
      keyId,
      wrappedKey: encrypt(Buffer.alloc(10), key.publicKey).wrappedKey,
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(BID_MSG.notRegistered);
    expect(
      Number((await db().select({ n: count() }).from(bidFiles).where(eq(bidFiles.sectionId, sectionId)))[0]!.n),
    ).toBe(0);
    // registration is made by the registration flow; here directly
    await db()
      .insert(tenderRegistrations)
      .values({
        sectionId,
        enterpriseId,
        userId: (await db().select().from(users).where(eq(users.account, 'user1')))[0]!.id,
        contact: '张伟',
        phone: '13800000000',
        registeredAt: t.clock.now,
      });
  });

  it('is refused when the sizes do not fit the format or the key is not the current one', async () => {
    const e = encrypt(Buffer.alloc(10), key.publicKey);
    const base = {
      sectionId,
      fileName: '投标文件.pdf',
      plainSize: 10,
      cipherSize: 26,
      keyId,
      wrappedKey: e.wrappedKey,
    };
    const a = await c.post(P.task, user1, { ...base, cipherSize: 10 + 16 * 2 });
    expect(a.status).toBe(400);
    expect(a.body.message).toBe(BID_MSG.sizeMismatch);
    const b = await c.post(P.task, user1, { ...base, keyId: '3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11' });
    expect(b.status).toBe(409);
    expect(b.body.message).toBe(BID_MSG.keyMismatch);
    const w = await c.post(P.task, user1, { ...base, wrappedKey: Buffer.alloc(64).toString('base64') });
    expect(w.status).toBe(400);
    expect(w.body.message).toBe(BID_MSG.badWrappedKey);
  });

  it('stores the ciphertext only and answers a receipt with both hashes and the time', async () => {
    first = await upload(user1, keyId, key.publicKey, plain);
    expect(first.fin.status).toBe(200);
    const r = first.fin.body.data;
    expect(r).toMatchObject({
      plainSha256: sha(plain),
      cipherSha256: first.cipherSha256,
      plainSize: plain.length,
      cipherSize: plain.length + 16 * 2,
      sealedAt: t.clock.now.toISOString(),
    });
    const [row] = await db().select().from(bidFiles).where(eq(bidFiles.id, r.id));
    expect(row!.status).toBe('sealed');
    // what the store holds is exactly the ciphertext: no plaintext byte run of it
    const stored: Buffer[] = [];
    for await (const ch of await createStorage(t.config).get(row!.storageKey)) stored.push(ch as Buffer);
    const all = Buffer.concat(stored);
    expect(sha(all)).toBe(first.cipherSha256);
    expect(all.includes(plain.subarray(0, 64))).toBe(false);
    expect(await logs(`密文 SHA-256 ${first.cipherSha256}`)).toBe(1);
    // and in the tamper-evident log of opening and evaluation, with both hashes, the chain still intact
    const [entry] = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'bid.sealed'), eq(ledgerEntries.sectionId, sectionId)))
      .orderBy(desc(ledgerEntries.seq))
      .limit(1);
    expect(JSON.parse(entry!.payload)).toMatchObject({
      bidId: r.id,
      cipherSha256: first.cipherSha256,
      plainSha256: sha(plain),
    });
    expect((await verifyLedger(db())).intact).toBe(true);
    const list = await c.get(P.sections, user1);
    expect(list.body.data.find((x: { id: string }) => x.id === sectionId).sealed.id).toBe(r.id);
  });

  it('records no chunk of the wrong size or damaged on the way, and seals nothing while one is missing', async () => {
    const e = encrypt(Buffer.from('另一份文件'), key.publicKey);
    const task = await c.post(P.task, user1, {
      sectionId,
      fileName: '第二份.pdf',
      plainSize: Buffer.byteLength('另一份文件'),
      cipherSize: e.cipher.length,
      keyId,
      wrappedKey: e.wrappedKey,
    });
    const wrongSize = await sendChunk(user1, task.body.data.uploadId, 0, e.cipher.subarray(1));
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.message).toBe(BID_MSG.chunkSize);
    const missing = await c.post(P.finish, user1, {
      uploadId: task.body.data.uploadId,
      plainSha256: e.plainSha256,
      summary: e.summary,
    });
    expect(missing.status).toBe(409);
    expect(missing.body.data.missing).toEqual([0]);
    // a chunk damaged on the way (the browser's hash of it is another's) is not recorded
    const damaged = await sendChunk(user1, task.body.data.uploadId, 0, e.cipher, sha(Buffer.from('x')));
    expect(damaged.status).toBe(400);
    expect(damaged.body.message).toBe(BID_MSG.chunkHashMismatch);
    const still409 = await c.post(P.finish, user1, {
      uploadId: task.body.data.uploadId,
      plainSha256: e.plainSha256,
      summary: e.summary,
    });
    expect(still409.status).toBe(409);
    expect(await sealedCount()).toBe(1);
    const [still] = await db()
      .select()
      .from(bidFiles)
      .where(and(eq(bidFiles.status, 'sealed'), eq(bidFiles.sectionId, sectionId)));
    expect(still!.id).toBe(first.fin.body.data.id);
  });
});

describe('reading a sealed bid before opening', () => {
  it('is refused for every role — content by anyone, the bidder included — and every attempt logged', async () => {
    const id = first.fin.body.data.id;
    const before = await logs('试图下载或预览投标文件内容');
    for (const who of [admin, dev, auditor, other.token, user1]) {
      const r = await c.get(`${P.content}?id=${id}`, who);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(BID_MSG.sealedNoRead);
    }
    expect(await logs('试图下载或预览投标文件内容')).toBe(before + 5);
    const rows = await db()
      .select()
      .from(operationLogs)
      .where(like(operationLogs.logbook, '%试图下载或预览投标文件内容%'));
    expect(rows.map((r) => r.failInfo)).toEqual(rows.map(() => BID_MSG.sealedNoRead));
    expect(new Set(rows.map((r) => r.czrName)).size).toBe(5);
  });

  it('gives its ciphertext to nobody but its bidder, every refusal logged', async () => {
    const id = first.fin.body.data.id;
    const before = await logs('试图下载投标文件密文');
    for (const who of [admin, dev, auditor, other.token]) {
      const r = await c.get(`${P.cipher}?id=${id}&chunk=0`, who);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(BID_MSG.cipherOthers);
    }
    expect(await logs('试图下载投标文件密文')).toBe(before + 4);
    // nor through the files module's download, by the bid's id
    const d = await t.app.inject({
      method: 'GET',
      url: `/ks/common/common/file/download?fileId=${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(d.statusCode).toBe(404);
  });

  it('decrypts, for its bidder, to the plaintext whose hash the receipt names', async () => {
    const r = first.fin.body.data;
    const ov = await c.get(`${P.section}?id=${sectionId}`, user1);
    const file = ov.body.data.files.find((f: { id: string }) => f.id === r.id);
    const k = await c.get(`${P.keyDetail}?id=${file.keyId}`, user1);
    const chunks: Buffer[] = [];
    for (let i = 0; i < file.chunkCount; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${P.cipher}?id=${r.id}&chunk=${i}`,
        headers: { authorization: `Bearer ${user1}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      chunks.push(res.rawPayload);
    }
    expect(chunks[0]!.length).toBe(BID_CIPHER_CHUNK);
    expect(sha(Buffer.concat(chunks))).toBe(r.cipherSha256);
    const back = decrypt(k.body.data, file.wrappedKey, chunks);
    expect(sha(back)).toBe(r.plainSha256);
    // another user's key is not theirs to read
    expect((await c.get(`${P.keyDetail}?id=${file.keyId}`, other.token)).status).toBe(404);
  });
});

describe('withdraw and replace', () => {
  it('replaces the sealed file with a new upload and frees the old ciphertext', async () => {
    const second = await upload(user1, keyId, key.publicKey, Buffer.from('修订后的投标文件'), '投标文件（修订）.pdf');
    expect(second.fin.status).toBe(200);
    const [old] = await db().select().from(bidFiles).where(eq(bidFiles.id, first.fin.body.data.id));
    expect(old!.status).toBe('replaced');
    expect(await createStorage(t.config).stat(old!.storageKey)).toBeNull();
    expect(await sealedCount()).toBe(1);
    expect(await logs('替换此前递交的 投标文件.pdf')).toBe(1);
    first = second;
  });

  it('withdraws it: the record stays, the ciphertext goes, a second withdrawal is refused', async () => {
    const id = first.fin.body.data.id;
    expect((await c.post(P.withdraw, other.token, { id })).status).toBe(404);
    const w = await c.post(P.withdraw, user1, { id });
    expect(w.status).toBe(200);
    expect(w.body.data.status).toBe('withdrawn');
    expect(await sealedCount()).toBe(0);
    const again = await c.post(P.withdraw, user1, { id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(BID_MSG.notSealed);
    expect(await logs('撤回投标文件：投标文件（修订）.pdf')).toBe(1);
    const withdrawn = await db().select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'bid.withdrawn'));
    expect(withdrawn.map((e) => JSON.parse(e.payload).bidId)).toContain(id);
  });
});

describe('after the bid deadline', () => {
  it('refuses every upload, a withdrawal and the bidder’s own ciphertext, and changes nothing', async () => {
    const last = await upload(user1, keyId, key.publicKey, Buffer.from('最终投标文件'), '最终.pdf');
    expect(last.fin.status).toBe(200);
    // an upload begun before the deadline, finished after it
    const e = encrypt(Buffer.from('迟到的文件'), key.publicKey);
    const late = await c.post(P.task, user1, {
      sectionId,
      fileName: '迟到.pdf',
      plainSize: Buffer.byteLength('迟到的文件'),
      cipherSize: e.cipher.length,
      keyId,
      wrappedKey: e.wrappedKey,
    });
    expect(late.status).toBe(200);
    t.clock.now = new Date(deadline.getTime());
    const rows = await db().select().from(bidFiles);

    const task = await c.post(P.task, user1, {
      sectionId,
      fileName: '迟到.pdf',
      plainSize: Buffer.byteLength('迟到的文件'),
      cipherSize: e.cipher.length,
      keyId,
      wrappedKey: e.wrappedKey,
    });
    expect(task.status).toBe(403);
    expect(task.body.message).toBe(BID_MSG.deadlinePassed);
    const ch = await sendChunk(user1, late.body.data.uploadId, 0, e.cipher);
    expect(ch.status).toBe(403);
    expect(ch.body.message).toBe(BID_MSG.deadlinePassed);
    const fin = await c.post(P.finish, user1, {
      uploadId: late.body.data.uploadId,
      plainSha256: e.plainSha256,
      summary: e.summary,
    });
    expect(fin.status).toBe(403);
    const w = await c.post(P.withdraw, user1, { id: last.fin.body.data.id });
    expect(w.status).toBe(403);
    expect(w.body.message).toBe(BID_MSG.deadlinePassed);
    const cip = await c.get(`${P.cipher}?id=${last.fin.body.data.id}&chunk=0`, user1);
    expect(cip.status).toBe(403);
    expect(cip.body.message).toBe(BID_MSG.cipherAfterDeadline);
    const content = await c.get(`${P.content}?id=${last.fin.body.data.id}`, admin);
    expect(content.status).toBe(403);

    expect(await db().select().from(bidFiles)).toEqual(rows);
    expect(await logs('上传投标文件被拒绝')).toBe(1);
    expect(await logs('上传投标文件分片被拒绝')).toBe(1);
    expect(await logs('撤回投标文件被拒绝')).toBe(1);
  });
});
