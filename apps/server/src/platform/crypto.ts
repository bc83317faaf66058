import { constants, createHash, generateKeyPairSync, privateDecrypt, randomBytes, timingSafeEqual } from 'node:crypto';

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

export function generateLoginKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

/**
 * RSA-OAEP with SHA-256, ciphertext in base64, with the given OAEP label (empty when none). Returns null when it does
 * not decrypt — also when it was encrypted under another label.
 */
export function rsaDecrypt(privateKey: string, base64: string, label?: Buffer): string | null {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(base64)) return null;
  const buf = Buffer.from(base64, 'base64');
  if (buf.length !== 256) return null;
  try {
    return privateDecrypt(
      {
        key: privateKey,
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256',
        ...(label ? { oaepLabel: label } : {}),
      },
      buf,
    ).toString('utf8');
  } catch {
    return null;
  }
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** 256-bit opaque token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time equality of two secrets' bytes (of different lengths: false at once — the length is no secret). Called
 * through this object so that a test can watch that a comparison goes through it.
 */
export const constantTime = {
  equal(a: Buffer, b: Buffer): boolean {
    return a.length === b.length && timingSafeEqual(a, b);
  },
};
