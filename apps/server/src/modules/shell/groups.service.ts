import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import * as repo from './groups.repo';
import { renameGroupInMenus } from './nodes.repo';
import { GL, systemByCoding, uniqueOr409 } from './structure.service';
import { findSystemById } from './systems.repo';

/** Display groups: the headings a system's menus are grouped under (a menu names its group). */

const toGroup = (g: repo.GroupRow, systemCoding: string) => ({
  id: g.id,
  systemCoding,
  name: g.name,
  icon: g.icon,
  sort: g.sort,
});

const NAME_TAKEN = '分组名称已存在';

async function groupById(db: Db, id: string) {
  const g = await repo.findGroup(db, id);
  if (!g) throw notFound('分组不存在');
  return g;
}

export async function groupsOf(db: Db, systemCoding: string) {
  const s = await systemByCoding(db, systemCoding);
  return (await repo.groupsOfSystem(db, s.id)).map((g) => toGroup(g, s.gnCoding));
}

export async function createGroup(
  db: Db,
  actor: Actor,
  input: { systemCoding: string; name: string; icon: string | null; sort: number },
) {
  const s = await systemByCoding(db, input.systemCoding);
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const g = await repo.insertGroup(tx, { systemId: s.id, name: input.name, icon: input.icon, sort: input.sort });
        await writeOpLog(tx, actor, {
          glName: GL,
          gnCoding: s.gnCoding,
          recordId: g.id,
          logbook: `新增分组：${g.name}`,
        });
        return toGroup(g, s.gnCoding);
      }),
    NAME_TAKEN,
  );
}

export async function updateGroup(
  db: Db,
  actor: Actor,
  input: { id: string; name: string; icon: string | null; sort: number },
) {
  const g = await groupById(db, input.id);
  const s = await findSystemById(db, g.systemId);
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const u = await repo.updateGroup(tx, g.id, { name: input.name, icon: input.icon, sort: input.sort });
        // menus that named the group follow the rename
        if (g.name !== input.name) await renameGroupInMenus(tx, g.systemId, g.name, input.name);
        await writeOpLog(tx, actor, {
          glName: GL,
          gnCoding: s?.gnCoding,
          recordId: g.id,
          logbook: `修改分组：${g.name} → ${input.name}`,
        });
        return toGroup(u, s?.gnCoding ?? '');
      }),
    NAME_TAKEN,
  );
}

export async function deleteGroup(db: Db, actor: Actor, id: string) {
  const g = await groupById(db, id);
  await db.transaction(async (tx) => {
    await renameGroupInMenus(tx, g.systemId, g.name, null);
    await repo.deleteGroup(tx, id);
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除分组：${g.name}` });
  });
}
