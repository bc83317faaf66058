import {
  BID_PBKDF2_MIN_ITERATIONS,
  BID_PLAIN_CHUNK,
  BID_SUMMARY_IV,
  BID_TAG_BYTES,
  type BidKdf,
  type BidSummary,
  bidChunkCount,
  bidCipherSize,
  bidSegmentIv,
} from '@ks/contracts';
import { sha256 } from '@noble/hashes/sha2.js';
import { createSHA256 } from 'hash-wasm';

/**
 * The bidder's side of sealed bids (issue 16), in the browser with WebCrypto: the file format is written down in
 * @ks/contracts bids.ts and docs/architecture.md. Files are read, encrypted and hashed one segment at a time, so a
 * 500 MB file never sits in memory; SHA-256 over the whole plaintext runs incrementally (WebCrypto has no streaming
 * digest) while WebCrypto encrypts the segment off the main thread.
 */

/** An incremental SHA-256. */
interface Sha256 {
  kind: 'wasm' | 'js';
  update(bytes: Uint8Array): void;
  hex(): string;
}

/**
 * SHA-256 in WebAssembly (hash-wasm: about twice the speed of the JavaScript one, which made the hash the slowest stage
 * of sealing a bid); where WebAssembly may not be compiled (a content security policy without 'wasm-unsafe-eval'),
 * the JavaScript one (@noble/hashes) gives the same digest.
 */
export async function newSha256(): Promise<Sha256> {
  try {
    const h = await createSHA256();
    h.init();
    return {
      kind: 'wasm',
      update: (b) => void h.update(b),
      hex: () => h.digest('hex'),
    };
  } catch {
    return jsSha256();
  }
}

export function jsSha256(): Sha256 {
  const h = sha256.create();
  return { kind: 'js', update: (b) => void h.update(b), hex: () => toHex(h.digest()) };
}

const subtle = () => globalThis.crypto.subtle;
const RSA = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;
export const PBKDF2_ITERATIONS = 600_000;
export const RSA_BITS = 3072;

export function toBase64(bytes: Uint8Array | ArrayBuffer): string {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let bin = '';
  for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

async function passphraseKey(passphrase: string, kdf: BidKdf): Promise<CryptoKey> {
  const base = await subtle().importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', iterations: kdf.iterations, salt: fromBase64(kdf.salt) },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** A new RSA-OAEP key pair whose PKCS#8 private key leaves the browser only encrypted under the passphrase. */
export async function makePassphraseKey(passphrase: string, iterations = PBKDF2_ITERATIONS, bits = RSA_BITS) {
  const pair = await subtle().generateKey(
    { ...RSA, modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['encrypt', 'decrypt'],
  );
  const spki = await subtle().exportKey('spki', pair.publicKey);
  const pkcs8 = await subtle().exportKey('pkcs8', pair.privateKey);
  const kdf: BidKdf = {
    name: 'PBKDF2',
    hash: 'SHA-256',
    iterations: Math.max(iterations, BID_PBKDF2_MIN_ITERATIONS),
    salt: toBase64(crypto.getRandomValues(new Uint8Array(16))),
  };
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv }, await passphraseKey(passphrase, kdf), pkcs8);
  return {
    kind: 'passphrase' as const,
    publicKey: toBase64(spki),
    encryptedPrivateKey: toBase64(sealed),
    iv: toBase64(iv),
    kdf,
  };
}

export class WrongPassphrase extends Error {
  constructor() {
    super('口令不正确，无法解开您的私钥');
  }
}

/** The private key, unlocked with the passphrase (a wrong one fails the AES-GCM tag: WrongPassphrase). */
export async function unlockPrivateKey(
  key: { encryptedPrivateKey: string | null; iv: string | null; kdf: BidKdf | null },
  passphrase: string,
): Promise<CryptoKey> {
  if (!key.encryptedPrivateKey || !key.iv || !key.kdf) throw new Error('该密钥的私钥在 CA 证书中，请使用证书解密');
  let pkcs8: ArrayBuffer;
  try {
    pkcs8 = await subtle().decrypt(
      { name: 'AES-GCM', iv: fromBase64(key.iv) },
      await passphraseKey(passphrase, key.kdf),
      fromBase64(key.encryptedPrivateKey),
    );
  } catch {
    throw new WrongPassphrase();
  }
  return subtle().importKey('pkcs8', pkcs8, RSA, false, ['decrypt']);
}

export const importPublicKey = (spkiBase64: string) =>
  subtle().importKey('spki', fromBase64(spkiBase64), RSA, false, ['encrypt']);

/** The encryption of one file: sizes and the wrapped key up front, then the ciphertext chunks in order. */
export interface EncryptedFile {
  plainSize: number;
  cipherSize: number;
  chunkCount: number;
  /** base64 RSA-OAEP of the file's AES-256 key */
  wrappedKey: string;
  /** ciphertext chunk `i` (exactly one upload chunk), in order: each call reads and encrypts that segment */
  chunk(i: number): Promise<Uint8Array<ArrayBuffer>>;
  /** hex SHA-256 of the plaintext: once every chunk has been made, in order */
  plainSha256(): string;
  /** the sealed 开标一览表: the JSON of `s` under the same file key (BID_SUMMARY_IV), tag appended, base64 */
  summary(s: BidSummary): Promise<string>;
}

/** The JSON of a 开标一览表, AES-256-GCM-encrypted under the file key with BID_SUMMARY_IV, tag appended, base64. */
async function sealSummary(fileKey: CryptoKey, s: BidSummary): Promise<string> {
  const json = JSON.stringify({ price: s.price, durationDays: s.durationDays, quality: s.quality, manager: s.manager });
  const sealed = await subtle().encrypt(
    { name: 'AES-GCM', iv: BID_SUMMARY_IV },
    fileKey,
    new TextEncoder().encode(json),
  );
  return toBase64(sealed);
}

/**
 * Encrypt a 开标一览表 with a raw file key (32 bytes) — what the sealing browser does with the key it generated; the
 * tests and tools that hold a raw key use it.
 */
export async function encryptSummary(rawFileKey: Uint8Array<ArrayBuffer>, s: BidSummary): Promise<string> {
  return sealSummary(await subtle().importKey('raw', rawFileKey, 'AES-GCM', false, ['encrypt']), s);
}

/**
 * Open a sealed 开标一览表 with the raw file key: the parsed JSON (not yet checked against the schema). A wrong key or
 * a changed text fails the AES-GCM tag.
 */
export async function decryptSummary(rawFileKey: Uint8Array<ArrayBuffer>, sealed: string): Promise<unknown> {
  const key = await subtle().importKey('raw', rawFileKey, 'AES-GCM', false, ['decrypt']);
  let plain: ArrayBuffer;
  try {
    plain = await subtle().decrypt({ name: 'AES-GCM', iv: BID_SUMMARY_IV }, key, fromBase64(sealed));
  } catch {
    throw new Error('开标一览表无法用该文件密钥解开：密钥不符或内容被改动');
  }
  try {
    return JSON.parse(new TextDecoder().decode(plain)) as unknown;
  } catch {
    throw new Error('开标一览表的内容无法识别');
  }
}

/**
 * Encrypt `file` for the holder of `publicKey`: a fresh AES-256-GCM key (never leaves this function unwrapped).
 * Chunks are made in order (0, 1, 2 …); asking one again (a retried upload) encrypts it again the same way.
 */
export async function encryptFile(file: Blob, publicKey: CryptoKey): Promise<EncryptedFile> {
  const fileKey = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const raw = new Uint8Array(await subtle().exportKey('raw', fileKey));
  const wrapped = await subtle().encrypt(RSA, publicKey, raw);
  raw.fill(0);
  const n = bidChunkCount(file.size);
  const hash = await newSha256();
  let hashed = 0;
  let pre: { i: number; p: Promise<ArrayBuffer> } | null = null;
  const read = (i: number) =>
    file.slice(i * BID_PLAIN_CHUNK, Math.min(file.size, (i + 1) * BID_PLAIN_CHUNK)).arrayBuffer();
  return {
    plainSize: file.size,
    cipherSize: bidCipherSize(file.size),
    chunkCount: n,
    wrappedKey: toBase64(wrapped),
    async chunk(i) {
      const plain = new Uint8Array(await (pre?.i === i ? pre.p : read(i)));
      // read the next segment while this one is encrypted and hashed
      if (i === hashed) pre = i + 1 < n ? { i: i + 1, p: read(i + 1) } : null;
      const enc = subtle().encrypt({ name: 'AES-GCM', iv: bidSegmentIv(i, i === n - 1) }, fileKey, plain);
      if (i === hashed) {
        hash.update(plain);
        hashed++;
      }
      return new Uint8Array(await enc);
    },
    plainSha256() {
      if (hashed !== n) throw new Error('文件尚未加密完');
      return hash.hex();
    },
    summary: (s) => sealSummary(fileKey, s),
  };
}

/**
 * What unwraps a file key: the private key here (a passphrase key, unlocked), or a function that has the key's holder
 * do it (a CA key: the local signing agent decrypts with the key inside the certificate device).
 */
export type Unwrapper = CryptoKey | ((wrapped: Uint8Array<ArrayBuffer>) => Promise<Uint8Array<ArrayBuffer>>);

/** The raw AES-256 file key (32 bytes) from its RSA-OAEP wrapping: unwrapped here, or by the key's holder. */
export async function unwrapFileKey(unwrap: Unwrapper, wrappedKey: string): Promise<Uint8Array<ArrayBuffer>> {
  let raw: Uint8Array<ArrayBuffer>;
  if (typeof unwrap === 'function') {
    // the agent's own refusals (not reachable, wrong key, PIN cancelled) say what happened
    raw = await unwrap(fromBase64(wrappedKey));
  } else {
    try {
      raw = new Uint8Array(await subtle().decrypt(RSA, unwrap, fromBase64(wrappedKey)));
    } catch {
      throw new Error('文件密钥无法用该私钥解开：这份文件不是用此密钥加密的');
    }
  }
  if (raw.length !== 32) throw new Error('解开的文件密钥长度不是 32 字节');
  return raw;
}

/** Decrypt ciphertext chunks (in order) with the unwrapped file key; hashes of both sides come out at the end. */
export async function decryptChunks(
  unwrap: Unwrapper,
  wrappedKey: string,
  count: number,
  fetchChunk: (i: number) => Promise<Uint8Array<ArrayBuffer>>,
  onChunk?: (i: number, plain: Uint8Array) => void,
): Promise<{ plainSha256: string; cipherSha256: string; plainSize: number }> {
  const raw = await unwrapFileKey(unwrap, wrappedKey);
  const fileKey = await subtle().importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
  const plainHash = await newSha256();
  const cipherHash = await newSha256();
  let size = 0;
  let next = count > 0 ? fetchChunk(0) : null;
  for (let i = 0; i < count; i++) {
    const c = await next!;
    next = i + 1 < count ? fetchChunk(i + 1) : null;
    if (c.length < BID_TAG_BYTES) throw new Error(`第 ${i + 1} 个分片不完整`);
    const dec = subtle().decrypt({ name: 'AES-GCM', iv: bidSegmentIv(i, i === count - 1) }, fileKey, c);
    cipherHash.update(c);
    let plain: Uint8Array;
    try {
      plain = new Uint8Array(await dec);
    } catch {
      throw new Error(`第 ${i + 1} 个分片解密失败：密文被改动、缺失或顺序有误`);
    }
    plainHash.update(plain);
    size += plain.length;
    onChunk?.(i, plain);
  }
  return { plainSha256: plainHash.hex(), cipherSha256: cipherHash.hex(), plainSize: size };
}
