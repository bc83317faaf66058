/**
 * Login field encryption: RSA-OAEP with SHA-256 (MGF1 SHA-256; the label is the sign-in's nonce, empty for other
 * fields) under the server's RSA public key
 * (PEM, SPKI), ciphertext as base64. WebCrypto is used when the page has it (secure contexts); otherwise
 * node-forge, loaded on demand so it stays out of the main bundle.
 */

function pemBody(pem: string): string {
  return pem
    .replace(/-----BEGIN [^-]+-----/, '')
    .replace(/-----END [^-]+-----/, '')
    .replace(/\s+/g, '');
}

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    bin += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(bin);
}

export async function encryptWithWebCrypto(
  plaintext: string,
  pem: string,
  subtle: SubtleCrypto,
  label?: string,
): Promise<string> {
  const key = await subtle.importKey(
    'spki',
    base64ToBytes(pemBody(pem)),
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const cipher = await subtle.encrypt(
    label ? { name: 'RSA-OAEP', label: new TextEncoder().encode(label) } : { name: 'RSA-OAEP' },
    key,
    new TextEncoder().encode(plaintext),
  );
  return bytesToBase64(new Uint8Array(cipher));
}

export async function encryptWithForge(plaintext: string, pem: string, label?: string): Promise<string> {
  const mod = await import('node-forge');
  // CommonJS module: the namespace is its default export (a bundler may also expose the members directly)
  const forge = mod.default ?? mod;
  const publicKey = forge.pki.publicKeyFromPem(pem);
  const cipher = publicKey.encrypt(forge.util.encodeUtf8(plaintext), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
    ...(label ? { label: forge.util.encodeUtf8(label) } : {}),
  });
  return forge.util.encode64(cipher);
}

function availableSubtle(): SubtleCrypto | undefined {
  return typeof globalThis.crypto !== 'undefined' ? globalThis.crypto.subtle : undefined;
}

/**
 * Encrypts `plaintext` (UTF-8) for the holder of the private key matching `pem`, with `label` as the OAEP label when
 * given (a sign-in's nonce); returns base64.
 */
export function encrypt(
  plaintext: string,
  pem: string,
  label?: string,
  subtle: SubtleCrypto | undefined = availableSubtle(),
) {
  return subtle ? encryptWithWebCrypto(plaintext, pem, subtle, label) : encryptWithForge(plaintext, pem, label);
}
