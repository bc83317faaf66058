import { createHash } from 'node:crypto';
import { AccountMsg, PORTRAIT_SIZE, paths } from '@ks/contracts';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { badRequest } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { newStorageKey, type Storage } from '../../platform/storage';
import { announceAuthChange } from '../auth/auth.repo';
import type { AuthContext } from '../auth/auth.service';
import * as files from '../files/files.repo';
import * as repo from './account-centre.repo';

/** What an image file starts with: JPEG, PNG, GIF, WEBP (RIFF…WEBP). Anything else is not taken as a portrait. */
export function isImage(head: Buffer): boolean {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return true;
  }
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return true;
  return (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}

/**
 * A new portrait: checked by its first bytes, decoded and re-encoded by sharp (cropped to the centre, 256×256 WEBP, no
 * metadata kept), stored as a public file of the user (the header's <img> sends no token), and set as the user's photo.
 */
export async function savePortrait(
  deps: { db: Db; storage: Storage; now: () => Date },
  auth: AuthContext,
  bytes: Buffer,
): Promise<{ photo: string }> {
  if (!isImage(bytes))
    throw badRequest(AccountMsg.PORTRAIT_NOT_IMAGE, { fieldErrors: { file: [AccountMsg.PORTRAIT_NOT_IMAGE] } });
  let out: Buffer;
  try {
    out = await sharp(bytes, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize(PORTRAIT_SIZE, PORTRAIT_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw badRequest(AccountMsg.PORTRAIT_UNREADABLE, { fieldErrors: { file: [AccountMsg.PORTRAIT_UNREADABLE] } });
  }
  const key = newStorageKey();
  await deps.storage.put(key, out, out.length, 'image/webp');
  const t = deps.now();
  try {
    const photo = await deps.db.transaction(async (tx) => {
      const row = await files.insertFile(tx, {
        storageKey: key,
        fileName: 'portrait.webp',
        fileSize: out.length,
        md5: createHash('md5').update(out).digest('hex'),
        mime: 'image/webp',
        extension: 'webp',
        ownerId: auth.user.id,
        enterpriseId: auth.user.enterpriseId,
        visibility: 'public',
        source: 'portrait',
      });
      const url = `${paths.fileDownload.path}?fileId=${row.id}`;
      await repo.setPhoto(tx, auth.user.id, url, t);
      await announceAuthChange(tx);
      await writeOpLog(tx, auth.actor, { glName: '账号', recordId: auth.user.id, logbook: '更换头像' });
      return url;
    });
    return { photo };
  } catch (e) {
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  }
}
