import { beforeAll, describe, expect, it } from 'vitest';
import { testKeyPair } from '../test/rsa';
import { encrypt, encryptWithForge, encryptWithWebCrypto } from './crypto';

const subtle = globalThis.crypto.subtle;
let pem = '';
let decrypt: (b64: string, label?: string) => Promise<string>;

beforeAll(async () => {
  ({ pem, decrypt } = await testKeyPair());
});

describe('login field encryption (RSA-OAEP SHA-256)', () => {
  it('WebCrypto path round-trips ASCII and Chinese text', async () => {
    for (const text of ['admin', '密码Passw0rd！', 'U']) {
      const cipher = await encryptWithWebCrypto(text, pem, subtle);
      expect(cipher).not.toBe(text);
      expect(atob(cipher)).toHaveLength(256);
      expect(await decrypt(cipher)).toBe(text);
    }
  });

  it('node-forge path round-trips ASCII and Chinese text (UTF-8)', async () => {
    for (const text of ['admin', '中文账号', 'M']) {
      const cipher = await encryptWithForge(text, pem);
      expect(atob(cipher)).toHaveLength(256);
      expect(await decrypt(cipher)).toBe(text);
    }
  });

  it('encrypt uses WebCrypto when available and falls back to node-forge without it', async () => {
    expect(await decrypt(await encrypt('张三', pem))).toBe('张三');
    expect(await decrypt(await encrypt('李四', pem, undefined, undefined))).toBe('李四');
  });

  it('binds the ciphertext to a label (the sign-in nonce) on both paths: another label does not decrypt', async () => {
    const nonce = '0b7f3a52-6c1e-4d8e-9a51-2f1c8e7d9a10';
    for (const cipher of [
      await encryptWithWebCrypto('Demo@2026', pem, subtle, nonce),
      await encryptWithForge('Demo@2026', pem, nonce),
    ]) {
      expect(await decrypt(cipher, nonce)).toBe('Demo@2026');
      await expect(decrypt(cipher, 'another-nonce')).rejects.toThrow();
      await expect(decrypt(cipher)).rejects.toThrow();
    }
  });

  it('every ciphertext differs (OAEP is randomised)', async () => {
    const a = await encrypt('same', pem);
    const b = await encrypt('same', pem);
    expect(a).not.toBe(b);
  });
});
