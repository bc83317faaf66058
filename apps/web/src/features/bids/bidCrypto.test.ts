import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { BID_CIPHER_CHUNK, BID_PLAIN_CHUNK, bidSegmentIv } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import {
  decryptChunks,
  encryptFile,
  importPublicKey,
  makePassphraseKey,
  unlockPrivateKey,
  WrongPassphrase,
} from './bidCrypto';

/**
 * The browser side of sealed bids: what encryptFile makes decrypts back with the passphrase-protected key, chunks are
 * exactly one upload chunk, a changed or reordered chunk fails, a wrong passphrase is told apart, and the format is
 * the one written down (checked against node:crypto's AES-GCM, an implementation independent of WebCrypto's).
 */
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const PASS = '投标口令 correct horse';

async function setUp(size: number) {
  const key = await makePassphraseKey(PASS, 310_000, 2048);
  const plain = new Uint8Array(randomBytes(size));
  const enc = await encryptFile(new Blob([plain]), await importPublicKey(key.publicKey));
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < enc.chunkCount; i++) chunks.push(await enc.chunk(i));
  return { key, plain, enc, chunks };
}

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
    expect(r.cipherSha256).toBe(sha(Buffer.concat(chunks)));
    expect(r.plainSize).toBe(plain.length);
  });

  it('follows the written format: segment i under IV index ‖ final flag, tag appended', async () => {
    const { chunks, enc, key, plain } = await setUp(BID_PLAIN_CHUNK + 5);
    const priv = await unlockPrivateKey(key, PASS);
    const raw = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, priv, Buffer.from(enc.wrappedKey, 'base64')),
    );
    expect(raw.length).toBe(32);
    const last = createCipheriv('aes-256-gcm', raw, bidSegmentIv(1, true));
    const tail = plain.subarray(BID_PLAIN_CHUNK);
    expect(Buffer.concat([last.update(tail), last.final(), last.getAuthTag()])).toEqual(Buffer.from(chunks[1]!));
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
    expect(Buffer.from(key.iv, 'base64')).toHaveLength(12);
  });
});
