import { existsSync } from 'node:fs';
import path from 'node:path';
import type { saveAttachmentTypesSchema } from '@ks/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { badRequest, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { nodeForEngine } from '../engine/schema.service';
import * as repo from './files.repo';
import { toAttachmentType } from './files.service';

/** The server's template files (served by the template download, named by attachment types). */
export const TEMPLATES_DIR = path.join(import.meta.dirname, 'templates');
const GL = '系统配置';

export const NOT_ENGINE_NODE = '该节点的数据来自业务模块，不能配置附件类型';
export const sizeOverServerLimit = (maxMb: number) => `附件大小不能超过服务器的上传上限（${maxMb} MB）`;

/**
 * Developers replace a node's whole list of attachment types (spec §3 attachment type) in one transaction; the
 * order given is the sort. Files already uploaded keep their annexNo: a type removed and added back finds them again,
 * and no file is ever deleted here. The required-attachment check of submission reads the new list at once.
 */
export async function saveAttachmentTypes(
  db: Db,
  actor: Actor,
  input: z.output<typeof saveAttachmentTypesSchema>,
  /** the largest file the server takes (CHUNKED_UPLOAD_MAX_MB), in MB: no type may allow more */
  maxMb: number,
) {
  const n = await nodeForEngine(db, input.gnCoding);
  if (n.dataSource !== 'engine') throw badRequest(NOT_ENGINE_NODE);
  const missing: Record<string, string[]> = {};
  input.list.forEach((t, i) => {
    if (t.template && !existsSync(path.join(TEMPLATES_DIR, t.template))) missing[`list.${i}.template`] = ['模板不存在'];
    if (t.annexSize > maxMb) missing[`list.${i}.annexSize`] = [sizeOverServerLimit(maxMb)];
  });
  if (Object.keys(missing).length) throw validationFailed(missing);
  await db.transaction(async (tx) => {
    await repo.replaceTypesOfNode(
      tx,
      n.id,
      input.list.map((t) => ({ ...t, template: t.template ?? null })),
    );
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `保存附件类型：${n.title}`,
    });
  });
  const list = (await repo.typesOfNode(db, n.gnCoding)).map(toAttachmentType);
  return { list, template: list.find((t) => t.template)?.template ?? null };
}
