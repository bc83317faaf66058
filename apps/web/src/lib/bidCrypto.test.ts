import { BID_CIPHER_CHUNK, BID_PLAIN_CHUNK, BID_SUMMARY_IV, type BidSummary, bidSegmentIv } from '@ks/contracts';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import {
  decryptChunks,
  decryptSummary,
  encryptFile,
  encryptSummary,
  fromBase64,
  importPublicKey,
  jsSha256,
  makePassphraseKey,
  newSha256,
  toHex,
  unlockPrivateKey,
  unwrapFileKey,
  WrongPassphrase,
} from './bidCrypto';

/**
 * The browser side of sealed bids: what encryptFile makes decrypts back with the passphrase-protected key, chunks are
 * exactly one upload chunk, a changed, reordered or cut-off file fails, a wrong passphrase is told apart, and the
 * format is the one written down (segment i encrypted on its own under the IV the format names gives the same bytes).
 * The server's tests encrypt the same format with node:crypto.
 */
const sha = (b: Uint8Array) => toHex(sha256(b));
const PASS = '投标口令 correct horse';

function concat(parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let o = 0; o < n; o += 65536) crypto.getRandomValues(out.subarray(o, Math.min(n, o + 65536)));
  return out;
}

async function setUp(size: number) {
  const key = await makePassphraseKey(PASS, 310_000, 2048);
  const plain = randomBytes(size);
  const enc = await encryptFile(new Blob([plain]), await importPublicKey(key.publicKey));
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < enc.chunkCount; i++) chunks.push(await enc.chunk(i));
  return { key, plain, enc, chunks };
}

describe('the SHA-256 of sealed bids', () => {
  it('WebAssembly and JavaScript give the same digest, fed in pieces, and the standard one', async () => {
    const wasm = await newSha256();
    expect(wasm.kind).toBe('wasm');
    const js = jsSha256();
    const data = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) % 251);
    for (const [a, b] of [
      [0, 5],
      [5, 1_000_000],
      [1_000_000, data.length],
    ]) {
      wasm.update(data.subarray(a, b));
      js.update(data.subarray(a, b));
    }
    const expected = Buffer.from(sha256(data)).toString('hex');
    expect(wasm.hex()).toBe(expected);
    expect(js.hex()).toBe(expected);
    const abc = await newSha256();
    abc.update(new TextEncoder().encode('abc'));
    expect(abc.hex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('a bid file encrypted in the browser', () => {
  it('is chunks of exactly one upload chunk that decrypt to the plaintext whose hash it reports', async () => {
    const { key, plain, enc, chunks } = await setUp(2 * BID_PLAIN_CHUNK + 123);
    expect(enc.chunkCount).toBe(3);
    expect(chunks.map((c) => c.length)).toEqual([BID_CIPHER_CHUNK, BID_CIPHER_CHUNK, 123 + 16]);
    expect(enc.cipherSize).toBe(chunks.reduce((n, c) => n + c.length, 0));
    expect(enc.plainSha256()).toBe(sha(plain));
    const priv = await unlockPrivateKey(key, PASS);
    const r = await decryptChunks(priv, enc.wrappedKey, chunks.length, async (i) => chunks[i]!);
    expect(r.plainSha256).toBe(sha(plain));
    expect(r.cipherSha256).toBe(sha(concat(chunks)));
    expect(r.plainSize).toBe(plain.length);
  });

  it('decrypts with a key held elsewhere: the holder unwraps the file key (a CA key through its agent)', async () => {
    const { key, plain, enc, chunks } = await setUp(BID_PLAIN_CHUNK + 77);
    const priv = await unlockPrivateKey(key, PASS);
    const asked: number[] = [];
    const holder = async (wrapped: Uint8Array<ArrayBuffer>) => {
      asked.push(wrapped.length);
      return new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, priv, wrapped));
    };
    const r = await decryptChunks(holder, enc.wrappedKey, chunks.length, async (i) => chunks[i]!);
    expect(asked).toEqual([256]);
    expect(r.plainSha256).toBe(sha(plain));
    // the holder's own refusal is what the bidder reads
    const refusing = async () => {
      throw new Error('无法连接证书签名助手');
    };
    await expect(decryptChunks(refusing, enc.wrappedKey, chunks.length, async (i) => chunks[i]!)).rejects.toThrow(
      '无法连接证书签名助手',
    );
  });

  it('follows the written format: segment i under IV index ‖ final flag, tag appended', async () => {
    const { chunks, enc, key, plain } = await setUp(BID_PLAIN_CHUNK + 5);
    const priv = await unlockPrivateKey(key, PASS);
    const raw = new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, priv, fromBase64(enc.wrappedKey)));
    expect(raw.length).toBe(32);
    const fileKey = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const tail = plain.subarray(BID_PLAIN_CHUNK);
    const as = async (final: boolean) =>
      new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: bidSegmentIv(1, final) }, fileKey, tail));
    expect(await as(true)).toEqual(chunks[1]);
    expect(await as(false)).not.toEqual(chunks[1]);
    expect(Array.from(bidSegmentIv(258, false))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0]);
  });

  it('does not decrypt when a chunk is changed, two are swapped or the last is cut off', async () => {
    const { key, enc, chunks } = await setUp(2 * BID_PLAIN_CHUNK + 10);
    const priv = await unlockPrivateKey(key, PASS);
    const changed = chunks.map((c) => new Uint8Array(c));
    changed[1]![100]! ^= 1;
    await expect(decryptChunks(priv, enc.wrappedKey, 3, async (i) => changed[i]!)).rejects.toThrow(
      '第 2 个分片解密失败',
    );
    const swapped = [chunks[1]!, chunks[0]!, chunks[2]!];
    await expect(decryptChunks(priv, enc.wrappedKey, 3, async (i) => swapped[i]!)).rejects.toThrow(
      '第 1 个分片解密失败',
    );
    // without its final segment the file's last chunk does not carry the final flag
    await expect(decryptChunks(priv, enc.wrappedKey, 2, async (i) => chunks[i]!)).rejects.toThrow(
      '第 2 个分片解密失败',
    );
  });

  it('an empty file is one segment of the tag alone', async () => {
    const { enc, chunks } = await setUp(0);
    expect(chunks.map((c) => c.length)).toEqual([16]);
    expect(enc.plainSha256()).toBe(sha(new Uint8Array(0)));
  });

  it('tells a wrong passphrase apart', async () => {
    const key = await makePassphraseKey(PASS, 310_000, 2048);
    await expect(unlockPrivateKey(key, '不对的口令')).rejects.toBeInstanceOf(WrongPassphrase);
    expect(key.kdf.iterations).toBe(310_000);
    expect(fromBase64(key.iv)).toHaveLength(12);
  });
});

describe('the sealed 开标一览表', () => {
  const SUMMARY: BidSummary = { price: 37_680_000.5, durationDays: 365, quality: '合格', manager: '张建国' };

  it('is sealed under the file key and opens with that key only', async () => {
    const { key, enc } = await setUp(10);
    const sealed = await enc.summary(SUMMARY);
    const priv = await unlockPrivateKey(key, PASS);
    const raw = await unwrapFileKey(priv, enc.wrappedKey);
    expect(raw).toHaveLength(32);
    expect(await decryptSummary(raw, sealed)).toEqual(SUMMARY);
    // the written format: AES-256-GCM under BID_SUMMARY_IV, tag appended
    const fileKey = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: BID_SUMMARY_IV }, fileKey, fromBase64(sealed));
    expect(JSON.parse(new TextDecoder().decode(plain))).toEqual(SUMMARY);
    // another key, or a changed text, fails
    const other = crypto.getRandomValues(new Uint8Array(32));
    await expect(decryptSummary(other, sealed)).rejects.toThrow('开标一览表无法用该文件密钥解开');
    const changed = fromBase64(sealed);
    changed[3]! ^= 1;
    await expect(decryptSummary(raw, btoa(String.fromCharCode(...changed)))).rejects.toThrow('无法用该文件密钥解开');
  });

  it('round-trips with a raw key, and the unwrap refuses a wrong private key', async () => {
    const raw = crypto.getRandomValues(new Uint8Array(32));
    expect(await decryptSummary(raw, await encryptSummary(raw, SUMMARY))).toEqual(SUMMARY);
    const { enc } = await setUp(1);
    const stranger = await makePassphraseKey('另一把钥匙的口令', 310_000, 2048);
    await expect(unwrapFileKey(await unlockPrivateKey(stranger, '另一把钥匙的口令'), enc.wrappedKey)).rejects.toThrow(
      '文件密钥无法用该私钥解开',
    );
  });
});
