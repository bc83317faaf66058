import { type ApiBody, type BidKey, type BidReceipt, type BidSummary, paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import {
  decryptChunks,
  type EncryptedFile,
  encryptFile,
  importPublicKey,
  toHex,
  type Unwrapper,
  unlockPrivateKey,
} from '../lib/bidCrypto';
import { agentDecrypt, findAgentCert } from '../lib/caAgent';
import { call } from './call';
import { download } from './request';

/** Sealed bids (投标文件, issue 16): the bidder's key, the registered sections, encrypted upload and test decryption. */

export const BIDS_KEY = ['bids'] as const;

export const bidKeyQuery = queryOptions({ queryKey: [...BIDS_KEY, 'key'], queryFn: () => call('bidKey') });
export const bidSectionsQuery = queryOptions({
  queryKey: [...BIDS_KEY, 'sections'],
  queryFn: () => call('bidSections'),
});
export const bidOverviewQuery = (id: string) =>
  queryOptions({
    queryKey: [...BIDS_KEY, 'section', id],
    queryFn: () => call('bidOverview', { params: { id } }),
    enabled: id.length > 0,
  });

/** One key of the caller's enterprise, by id (the key a sealed file was wrapped to). */
export const bidKeyByIdQuery = (id: string) =>
  queryOptions({
    queryKey: [...BIDS_KEY, 'key', id],
    queryFn: () => call('bidKeyById', { params: { id } }),
    enabled: Boolean(id),
  });
export const saveBidKey = (data: ApiBody<'bidKeySave'>) => call('bidKeySave', { data });
export const withdrawBid = (id: string) => call('bidWithdraw', { data: { id } });

/** How many chunks are on the way at once while the next ones are encrypted. */
const IN_FLIGHT = 3;

export interface UploadProgress {
  /** chunks encrypted and stored */
  done: number;
  total: number;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/**
 * Encrypt `file` in the browser to the caller's current key and upload the ciphertext chunk by chunk (each with its
 * SHA-256; a failed chunk is encrypted again and retried once); the bid's 开标一览表 is sealed under the same file key
 * and sent with the last step. The answer is the receipt.
 */
export async function uploadSealedBid(
  sectionId: string,
  file: File,
  key: BidKey,
  summary: BidSummary,
  onProgress: (p: UploadProgress) => void,
): Promise<BidReceipt> {
  const enc: EncryptedFile = await encryptFile(file, await importPublicKey(key.publicKey));
  const task = await call('bidTask', {
    data: {
      sectionId,
      fileName: file.name,
      plainSize: enc.plainSize,
      cipherSize: enc.cipherSize,
      keyId: key.id,
      wrappedKey: enc.wrappedKey,
    },
  });
  let done = 0;
  onProgress({ done, total: enc.chunkCount });
  const send = async (i: number, bytes: Uint8Array<ArrayBuffer>) => {
    const form = new FormData();
    form.append('uploadId', task.uploadId);
    form.append('chunk', String(i));
    form.append('sha256', await sha256Hex(bytes));
    form.append('file', new Blob([bytes]), 'chunk');
    await call('bidChunk', { data: form, timeout: 120_000 });
  };
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < enc.chunkCount; i++) {
    const bytes = await enc.chunk(i);
    const p: Promise<void> = send(i, bytes)
      .catch(async () => send(i, await enc.chunk(i)))
      .then(() => {
        done++;
        onProgress({ done, total: enc.chunkCount });
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return call('bidFinish', {
    data: { uploadId: task.uploadId, plainSha256: enc.plainSha256(), summary: await enc.summary(summary) },
  });
}

export interface TestDecryption {
  cipherSha256: string;
  plainSha256: string;
  plainSize: number;
  cipherMatches: boolean;
  plainMatches: boolean;
}

/** What unlocks a bid's key: the passphrase of a passphrase-protected key, or the local CA agent holding the key. */
export type BidSecret = { passphrase: string } | { agentUrl: string };

/**
 * What unwraps the file keys wrapped to key `keyId` of the caller's enterprise: the private key unlocked with the
 * passphrase (a wrong one: WrongPassphrase), or the CA agent's certificate bound to the key.
 */
export async function bidUnwrapper(keyId: string, secret: BidSecret): Promise<Unwrapper> {
  const key = await call('bidKeyById', { params: { id: keyId } });
  if ('agentUrl' in secret) {
    if (key.kind !== 'ca' || !key.caCertFingerprint) throw new Error('这份投标文件的密钥由口令保护，请输入解密口令');
    const cert = await findAgentCert(secret.agentUrl, key.caCertFingerprint);
    if (!cert) throw new Error(`未找到加密所用的 CA 证书：请插入 ${key.caHolder ?? ''} 的 CA 锁后重试`);
    return (wrapped) => agentDecrypt(secret.agentUrl, cert.id, wrapped);
  }
  return unlockPrivateKey(key, secret.passphrase);
}

/** Download the bid's ciphertext chunk by chunk, decrypt it with the passphrase-protected key, compare the hashes. */
export async function testDecrypt(
  receipt: BidReceipt & { chunkCount: number; wrappedKey: string; keyId: string },
  secret: BidSecret,
  onProgress: (p: UploadProgress) => void,
): Promise<TestDecryption> {
  const unwrap = await bidUnwrapper(receipt.keyId, secret);
  let done = 0;
  onProgress({ done, total: receipt.chunkCount });
  const r = await decryptChunks(
    unwrap,
    receipt.wrappedKey,
    receipt.chunkCount,
    async (i) => {
      const { blob } = await download({ url: paths.bidCipher.path, params: { id: receipt.id, chunk: i } });
      return new Uint8Array(await blob.arrayBuffer());
    },
    () => {
      done++;
      onProgress({ done, total: receipt.chunkCount });
    },
  );
  return {
    ...r,
    cipherMatches: r.cipherSha256 === receipt.cipherSha256,
    plainMatches: r.plainSha256 === receipt.plainSha256,
  };
}
