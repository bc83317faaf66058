import { sql } from 'drizzle-orm';
import {
  bigint,
  char,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { caBindings } from './ca';
import { createdAt, id, timestamptz } from './columns';
import { tenderSections } from './tender';

/**
 * Keys bidders encrypt their bid files to (issue 16). An RSA-OAEP public key (SPKI): either the public key of the
 * user's bound CA certificate (the private key stays in the CA key), or of a key pair made in the browser whose PKCS#8
 * private key is stored here AES-256-GCM-encrypted under a PBKDF2 key of a passphrase the server never sees. One
 * current key per user; replaced keys stay (retired) so bids wrapped to them can still be decrypted.
 */
export const bidKeys = pgTable(
  'bid_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ca | passphrase */
    kind: varchar('kind', { length: 12 }).notNull(),
    /** base64 SPKI of an RSA key */
    publicKey: text('public_key').notNull(),
    /** SHA-256 of the SPKI, hex */
    fingerprint: char('fingerprint', { length: 64 }).notNull(),
    /** modulus length in bytes: the length of every key wrapped to it */
    modulusBytes: integer('modulus_bytes').notNull(),
    encryptedPrivateKey: text('encrypted_private_key'),
    iv: varchar('iv', { length: 24 }),
    /** { name: 'PBKDF2', hash: 'SHA-256', iterations, salt } */
    kdf: text('kdf'),
    caBindingId: uuid('ca_binding_id').references(() => caBindings.id),
    createdAt: createdAt(),
    retiredAt: timestamptz('retired_at'),
  },
  (t) => [
    uniqueIndex('bid_keys_user_live_uq').on(t.userId).where(sql`${t.retiredAt} is null`),
    check('bid_keys_kind_ck', sql`${t.kind} in ('ca', 'passphrase')`),
    check(
      'bid_keys_material_ck',
      sql`(${t.kind} = 'passphrase' and ${t.encryptedPrivateKey} is not null and ${t.iv} is not null and ${t.kdf} is not null) or (${t.kind} = 'ca' and ${t.caBindingId} is not null)`,
    ),
  ],
);

/**
 * Bid files (投标文件): ciphertext only, stored under a generated key through the chunked-upload store; the server
 * never holds the file key in the clear. One sealed file per enterprise and section (a new one replaces it; a
 * withdrawal ends it); the row stays as the record, the bytes of an ended file are freed.
 */
export const bidFiles = pgTable(
  'bid_files',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    keyId: uuid('key_id')
      .notNull()
      .references(() => bidKeys.id),
    /** the bidder's file name, cleaned; metadata only */
    fileName: varchar('file_name', { length: 255 }).notNull(),
    plainSize: bigint('plain_size', { mode: 'number' }).notNull(),
    cipherSize: bigint('cipher_size', { mode: 'number' }).notNull(),
    chunkCount: integer('chunk_count').notNull(),
    /** base64 RSA-OAEP(SHA-256) of the file's AES-256 key */
    wrappedKey: text('wrapped_key').notNull(),
    storageKey: varchar('storage_key', { length: 100 }).notNull(),
    storageRef: varchar('storage_ref', { length: 1024 }).notNull(),
    /** uploading | sealing (being joined and hashed) | sealed | withdrawn | replaced */
    status: varchar('status', { length: 12 }).notNull().default('uploading'),
    cipherSha256: char('cipher_sha256', { length: 64 }),
    /** the bidder's browser's SHA-256 of the plaintext: the server cannot check it, the bidder's decryption does */
    plainSha256: char('plain_sha256', { length: 64 }),
    /** the sealed 开标一览表: AES-256-GCM under the file key (BID_SUMMARY_IV), base64; null only for bids of before it */
    summaryCipher: text('summary_cipher'),
    createdAt: createdAt(),
    /** an unfinished upload is swept after this */
    expiresAt: timestamptz('expires_at').notNull(),
    sealedAt: timestamptz('sealed_at'),
    endedAt: timestamptz('ended_at'),
  },
  (t) => [
    uniqueIndex('bid_files_sealed_uq').on(t.sectionId, t.enterpriseId).where(sql`${t.status} = 'sealed'`),
    index('bid_files_section_ent_idx').on(t.sectionId, t.enterpriseId, t.createdAt.desc()),
    index('bid_files_expiry_idx').on(t.status, t.expiresAt),
    check('bid_files_status_ck', sql`${t.status} in ('uploading', 'sealing', 'sealed', 'withdrawn', 'replaced')`),
    check('bid_files_size_ck', sql`${t.plainSize} >= 0 and ${t.cipherSize} = ${t.plainSize} + 16 * ${t.chunkCount}`),
    check(
      'bid_files_sealed_ck',
      sql`${t.status} in ('uploading', 'sealing') or (${t.cipherSha256} is not null and ${t.plainSha256} is not null and ${t.sealedAt} is not null)`,
    ),
  ],
);

/** Ciphertext chunks received for an unfinished bid upload (index, size, the store's tag of the write). */
export const bidFileParts = pgTable(
  'bid_file_parts',
  {
    bidId: uuid('bid_id')
      .notNull()
      .references(() => bidFiles.id, { onDelete: 'cascade' }),
    index: integer('idx').notNull(),
    size: integer('size').notNull(),
    etag: varchar('etag', { length: 100 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.bidId, t.index] })],
);
