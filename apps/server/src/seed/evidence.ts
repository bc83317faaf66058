import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UPLOAD_EXTENSIONS, type UploadedFile } from '@ks/contracts';
import type { Db } from '../db/client';
import type { FileCaller } from '../modules/files/caller';
import { checkUpload, type FilesDeps, storeUploads } from '../modules/files/files.service';
import { type Form, formPdf } from '../modules/files/templates/pdf';
import type { Storage } from '../platform/storage';

/**
 * The demo's evidence files: one-page PDFs (a filled form, a certificate, a scan's cover) uploaded the way a browser's
 * upload is accepted — the files module's checks (name, format, content signature), the bytes in the platform's
 * storage under a generated key, the row and its log line in the seed's transaction. The storage keys written are
 * remembered, so a seed that fails removes its bytes again (`discard`).
 */
/** Uploads of the seed, on its transaction. */
export interface Evidence {
  upload(
    c: FileCaller,
    doc: { name: string; form: Omit<Form, 'file'>; gnCoding?: string | null; annexNo?: string | null },
  ): Promise<UploadedFile>;
  /** the files module's deps on the transaction (the engine's attachment operations) */
  readonly deps: FilesDeps;
}

export interface EvidenceStore {
  on(tx: Db): Evidence;
  /** The storage keys this seed wrote. */
  readonly keys: readonly string[];
  /** Remove the bytes written (the seed's transaction rolled back). */
  discard(): Promise<void>;
  /** Remove the spool directory. */
  close(): Promise<void>;
}

export async function evidenceStore(storage: Storage, now: () => Date = () => new Date()): Promise<EvidenceStore> {
  const spoolDir = await mkdtemp(path.join(tmpdir(), 'ks-seed-'));
  const keys: string[] = [];
  // the platform's storage, noting each key written (the local adapter moves the spooled file into place)
  const noting: Storage = Object.create(storage, {
    putFile: {
      value: async (key: string, localPath: string, size: number, contentType: string) => {
        keys.push(key);
        await storage.putFile(key, localPath, size, contentType);
      },
    },
  });
  let n = 0;
  return {
    keys,
    on(tx) {
      const deps: FilesDeps = {
        db: tx,
        storage: noting,
        spoolDir,
        uploadMaxBytes: 20 * 1024 * 1024,
        chunkedMaxBytes: 20 * 1024 * 1024,
        taskTtlMs: 3600_000,
        now,
      };
      return {
        deps,
        async upload(c, doc) {
          const bytes = formPdf({ ...doc.form, file: doc.name });
          const file = path.join(spoolDir, `${++n}`);
          await writeFile(file, bytes);
          const u = {
            rawName: doc.name,
            spooled: {
              path: file,
              size: bytes.length,
              md5: createHash('md5').update(bytes).digest('hex'),
              head: bytes.subarray(0, 64),
            },
            gnCoding: doc.gnCoding ?? null,
            annexNo: doc.annexNo ?? null,
            allowed: UPLOAD_EXTENSIONS,
            visibility: 'private' as const,
            source: 'attachment',
          };
          const [out] = await storeUploads(deps, c, [{ ...u, ...(await checkUpload(deps, u)) }]);
          return out!;
        },
      };
    },
    async discard() {
      for (const k of keys) await storage.delete(k).catch(() => undefined);
    },
    async close() {
      await rm(spoolDir, { recursive: true, force: true });
    },
  };
}
