import { UPLOAD_CHUNK_SIZE } from './constants';
import { z } from './zod';

/**
 * Sealed bids (issue 16): the bidder's browser encrypts each bid file before upload, the server keeps ciphertext only.
 *
 * File format (docs/architecture.md "Sealed bid files"): the plaintext is cut into segments of BID_PLAIN_CHUNK bytes
 * (the last one shorter, an empty file is one empty segment); segment i is AES-256-GCM-encrypted under the file's own
 * random key with the 96-bit IV = 11-byte big-endian i ‖ 1 byte final flag (0x01 on the last segment, else 0x00) and a
 * 128-bit tag appended. So every ciphertext segment but the last is exactly UPLOAD_CHUNK_SIZE bytes — one chunk of the
 * chunked upload — and a truncated, reordered or extended file fails to decrypt. The file key is wrapped with the
 * bidder's RSA public key (RSA-OAEP, SHA-256): the public key of the bidder's bound CA certificate, or of a key pair
 * made in the browser whose PKCS#8 private key is kept AES-256-GCM-encrypted under PBKDF2-SHA-256(passphrase).
 */
export const BID_TAG_BYTES = 16;
export const BID_CIPHER_CHUNK = UPLOAD_CHUNK_SIZE;
export const BID_PLAIN_CHUNK = UPLOAD_CHUNK_SIZE - BID_TAG_BYTES;
/** a bid file of up to 2 GiB of plaintext */
export const BID_MAX_PLAIN_BYTES = 2 * 1024 ** 3;
export const BID_PBKDF2_MIN_ITERATIONS = 310_000;

/** segments of a plaintext of `plainSize` bytes (at least one) */
export const bidChunkCount = (plainSize: number) => Math.max(1, Math.ceil(plainSize / BID_PLAIN_CHUNK));
/** bytes of the ciphertext of a plaintext of `plainSize` bytes */
export const bidCipherSize = (plainSize: number) => plainSize + bidChunkCount(plainSize) * BID_TAG_BYTES;
/** bytes of ciphertext segment `index` of a ciphertext of `cipherSize` bytes */
export const bidCipherChunkSize = (cipherSize: number, index: number) =>
  Math.min(BID_CIPHER_CHUNK, cipherSize - index * BID_CIPHER_CHUNK);

/** The IV of segment `index`: 11-byte big-endian index, then the final flag. */
export function bidSegmentIv(index: number, final: boolean): Uint8Array<ArrayBuffer> {
  const iv = new Uint8Array(12);
  let n = index;
  for (let i = 10; i >= 0 && n > 0; i--) {
    iv[i] = n % 256;
    n = Math.floor(n / 256);
  }
  iv[11] = final ? 1 : 0;
  return iv;
}

/**
 * The bid's 开标一览表 (price and key terms read out at opening) is sealed with it: the JSON of a BidSummary,
 * AES-256-GCM-encrypted under the same file key with this IV (final-flag byte 0x02, which no segment uses), tag
 * appended, base64. Nobody can read it before the bidder hands over the file key at opening.
 */
export const BID_SUMMARY_IV: Uint8Array<ArrayBuffer> = (() => {
  const iv = new Uint8Array(12);
  iv[11] = 2;
  return iv;
})();

const yuan2 = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
export const bidSummarySchema = z
  .object({
    /** 投标报价, yuan */
    price: z
      .number({ error: '请输入投标报价' })
      .gt(0, { error: '投标报价应大于 0' })
      .max(999_999_999_999, { error: '投标报价超出范围' })
      .refine(yuan2, { error: '投标报价最多保留两位小数' }),
    /** 工期, calendar days */
    durationDays: z
      .number({ error: '请输入工期' })
      .int({ error: '工期应为整数天' })
      .min(1, { error: '工期至少 1 天' })
      .max(3650, { error: '工期不超过 3650 天' }),
    /** 质量标准 */
    quality: z.string({ error: '请输入质量标准' }).trim().min(1, { error: '请输入质量标准' }).max(50),
    /** 项目经理 */
    manager: z.string({ error: '请输入项目经理' }).trim().min(1, { error: '请输入项目经理' }).max(20),
  })
  .strict();
export type BidSummary = z.infer<typeof bidSummarySchema>;

export const BID_MSG = {
  sealedNoRead: '投标文件已加密封存：开标解密前任何人（包括管理员）均不能下载或预览其内容，本次访问已记录',
  cipherOthers: '只有投标人本人可以下载自己的投标文件密文用于解密自检，本次访问已记录',
  cipherAfterDeadline: '投标截止时间已过：投标文件密文只能在开标时由投标人解密，本次访问已记录',
  deadlinePassed: '投标截止时间已过，不再接受投标文件的上传、撤回或替换',
  notRegistered: '贵单位未报名该标段，不能递交投标文件',
  noEnterprise: '只有投标企业的账号可以递交投标文件',
  noKey: '请先设置投标加密密钥（CA 证书或口令保护的密钥）',
  keyMismatch: '投标文件的密钥已不是您当前的加密密钥，请刷新页面后重新加密上传',
  badPublicKey: '公钥无效：须为 2048 位以上的 RSA 公钥（SPKI）',
  badWrappedKey: '文件密钥的封装长度与公钥不符',
  caNotRsa: '该 CA 证书的密钥不是 RSA，暂不能用于投标文件加密；请改用口令保护的密钥',
  caMissing: '没有找到您绑定的有效 CA 证书',
  sizeMismatch: '密文大小与明文大小不符',
  taskGone: '上传任务不存在或已结束，请重新上传',
  chunkSize: '分片大小与投标文件格式不符',
  chunksMissing: '还有分片未上传',
  chunkHashMismatch: '分片的 SHA-256 与服务器收到的内容不符（传输出错），请重传该分片',
  bidMissing: '投标文件不存在',
  notOwn: '只能撤回本单位递交的投标文件',
  notSealed: '该投标文件已撤回或被替换',
  sectionMissing: '标段不存在',
  summaryMissing: '缺少加密的开标一览表（投标报价、工期、质量标准、项目经理）',
} as const;

const b64 = (max: number, message: string) =>
  z
    .string({ error: message })
    .min(1, { error: message })
    .max(max, { error: message })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: message });
const sha256 = (what: string) =>
  z.string({ error: `缺少${what}` }).regex(/^[0-9a-f]{64}$/, { error: `${what}须为 64 位十六进制 SHA-256` });

export const bidKdfSchema = z
  .object({
    name: z.literal('PBKDF2'),
    hash: z.literal('SHA-256'),
    iterations: z
      .number()
      .int()
      .min(BID_PBKDF2_MIN_ITERATIONS, { error: `PBKDF2 迭代次数不少于 ${BID_PBKDF2_MIN_ITERATIONS}` })
      .max(10_000_000),
    salt: b64(64, '盐值无效'),
  })
  .strict();
export type BidKdf = z.infer<typeof bidKdfSchema>;

export const bidKeySchema = z.object({
  id: z.string(),
  kind: z.enum(['ca', 'passphrase']),
  algorithm: z.literal('RSA-OAEP-256'),
  /** base64 SPKI */
  publicKey: z.string(),
  /** SHA-256 of the SPKI, hex */
  fingerprint: z.string(),
  /** passphrase keys: the PKCS#8 private key, AES-256-GCM under PBKDF2(passphrase), base64; iv base64 */
  encryptedPrivateKey: z.string().nullable(),
  iv: z.string().nullable(),
  kdf: bidKdfSchema.nullable(),
  /** CA keys: the certificate binding, its holder, and the SHA-256 (hex) of the certificate's DER — how the browser
   * finds the certificate among those the local signing agent lists, to ask it to unwrap a file key */
  caBindingId: z.string().nullable(),
  caHolder: z.string().nullable(),
  caCertFingerprint: z.string().nullable(),
  createdAt: z.string(),
});
export type BidKey = z.infer<typeof bidKeySchema>;

export const bidKeyStateSchema = z.object({
  /** the caller's current key, or null */
  key: bidKeySchema.nullable(),
  /** the caller's live CA certificate bindings (RSA ones can be used) */
  certificates: z.array(
    z.object({ id: z.string(), holder: z.string(), algorithm: z.string(), notAfter: z.string(), usable: z.boolean() }),
  ),
});
export type BidKeyState = z.infer<typeof bidKeyStateSchema>;

export const bidKeySaveSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('passphrase'),
      publicKey: b64(4000, '公钥无效'),
      encryptedPrivateKey: b64(12_000, '加密的私钥无效'),
      iv: b64(24, 'IV 无效'),
      kdf: bidKdfSchema,
    })
    .strict(),
  z.object({ kind: z.literal('ca'), caBindingId: z.uuid({ error: '缺少 CA 证书' }) }).strict(),
]);
export type BidKeySave = z.infer<typeof bidKeySaveSchema>;

export const bidStatusSchema = z.enum(['uploading', 'sealed', 'withdrawn', 'replaced']);
export const BID_STATUS_LABELS: Record<z.infer<typeof bidStatusSchema>, string> = {
  uploading: '上传中',
  sealed: '已加密封存',
  withdrawn: '已撤回',
  replaced: '已替换',
};

/** The receipt (回执) of a sealed bid. */
export const bidReceiptSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  fileName: z.string(),
  plainSize: z.number().int(),
  cipherSize: z.number().int(),
  cipherSha256: z.string(),
  plainSha256: z.string(),
  sealedAt: z.string(),
  keyFingerprint: z.string(),
});
export type BidReceipt = z.infer<typeof bidReceiptSchema>;

export const bidFileSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  fileName: z.string(),
  status: bidStatusSchema,
  plainSize: z.number().int(),
  cipherSize: z.number().int(),
  chunkCount: z.number().int(),
  cipherSha256: z.string().nullable(),
  plainSha256: z.string().nullable(),
  /** base64 RSA-OAEP wrapped AES key */
  wrappedKey: z.string(),
  keyId: z.string(),
  uploaderName: z.string(),
  createdAt: z.string(),
  sealedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type BidFile = z.infer<typeof bidFileSchema>;

export const bidSectionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  code: z.string(),
  name: z.string(),
  bidDeadline: z.string(),
  /** the deadline has not passed */
  open: z.boolean(),
  /** the caller's enterprise is registered for the section */
  registered: z.boolean(),
});

export const bidOverviewSchema = z.object({
  section: bidSectionSchema,
  /** the caller's enterprise's bid files for the section, newest first (sealed, and the history) */
  files: z.array(bidFileSchema),
});
export type BidOverview = z.infer<typeof bidOverviewSchema>;

export const bidSectionsSchema = z.array(bidSectionSchema.extend({ sealed: bidReceiptSchema.nullable() }));
export type BidSections = z.infer<typeof bidSectionsSchema>;

export const bidTaskSchema = z
  .object({
    sectionId: z.uuid({ error: '缺少标段' }),
    fileName: z.string({ error: '缺少文件名' }).min(1, { error: '缺少文件名' }).max(255, { error: '文件名过长' }),
    plainSize: z
      .number({ error: '缺少文件大小' })
      .int()
      .min(0)
      .max(BID_MAX_PLAIN_BYTES, { error: '投标文件不能超过 2 GB' }),
    cipherSize: z.number({ error: '缺少密文大小' }).int().min(BID_TAG_BYTES),
    keyId: z.uuid({ error: '缺少加密密钥' }),
    wrappedKey: b64(2000, '封装的文件密钥无效'),
  })
  .strict();
export type BidTask = z.infer<typeof bidTaskSchema>;

export const bidTaskResultSchema = z.object({
  uploadId: z.string(),
  chunkCount: z.number().int(),
  chunkSize: z.number().int(),
  /** the chunks still to send */
  missing: z.array(z.number().int()),
});

export const bidChunkFormSchema = z.object({
  uploadId: z.uuid({ error: BID_MSG.taskGone }),
  /** SHA-256 of this ciphertext chunk (hex): checked as it streams in, a mismatch is not recorded */
  sha256: sha256('分片哈希'),
  chunk: z.coerce.number({ error: '分片序号有误' }).int().min(0).max(9_999, { error: '分片序号有误' }),
});

export const bidFinishSchema = z
  .object({
    uploadId: z.uuid({ error: BID_MSG.taskGone }),
    plainSha256: sha256('明文哈希'),
    /** the sealed 开标一览表 (BID_SUMMARY_IV), base64 */
    summary: b64(4000, BID_MSG.summaryMissing),
  })
  .strict();

export const bidIdSchema = z.object({ id: z.uuid({ error: BID_MSG.bidMissing }) });
export const bidCipherQuerySchema = z.object({
  id: z.uuid({ error: BID_MSG.bidMissing }),
  chunk: z.coerce.number({ error: '分片序号有误' }).int().min(0).max(9_999, { error: '分片序号有误' }),
});
