/** A throwaway RSA-OAEP (SHA-256) key pair for tests: the public key as PEM, and decryption of base64 ciphertext. */
export async function testKeyPair(): Promise<{ pem: string; decrypt(b64: string, label?: string): Promise<string> }> {
  const { subtle } = globalThis.crypto;
  const pair = await subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  let bin = '';
  for (const b of new Uint8Array(await subtle.exportKey('spki', pair.publicKey))) bin += String.fromCharCode(b);
  const pem = `-----BEGIN PUBLIC KEY-----\n${btoa(bin)
    .match(/.{1,64}/g)
    ?.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return {
    pem,
    async decrypt(b64: string, label?: string) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const params = label ? { name: 'RSA-OAEP', label: new TextEncoder().encode(label) } : { name: 'RSA-OAEP' };
      return new TextDecoder().decode(await subtle.decrypt(params, pair.privateKey, bytes));
    },
  };
}
