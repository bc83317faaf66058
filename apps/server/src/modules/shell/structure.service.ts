import { type ConfigSystem, NEW_SYSTEM_MESSAGES } from '@ks/contracts';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { type Caller, clearNodeCache, grantsOf, seesAllNodes } from '../../platform/permissions';
import type { NodeRow } from './nodes.repo';
import * as repo from './systems.repo';

/**
 * Business systems, the top level of the configurable shell (spec §7 Configuration), and the one code space they share
 * with nodes. Menus: menus.service; node configuration: nodes.service; display groups: groups.service.
 */

/** The op-log heading of configuration changes. */
export const GL = '系统配置';

export type SystemRow = repo.SystemRow;

export async function systemByCoding(db: Db, systemCoding: string): Promise<SystemRow> {
  const s = await repo.findSystemByCoding(db, systemCoding);
  if (!s) throw notFound('系统不存在');
  return s;
}

export async function systemOfNode(db: Db, n: NodeRow): Promise<SystemRow> {
  const s = await repo.findSystemById(db, n.systemId);
  if (!s) throw notFound('系统不存在');
  return s;
}

/** A code is unique among systems and nodes alike (both travel as gnCoding). */
export async function assertCodeFree(db: Db, code: string, field = 'gnCoding') {
  if (await repo.codeTaken(db, code))
    throw Object.assign(conflict(NEW_SYSTEM_MESSAGES.duplicate), {
      data: { fieldErrors: { [field]: [NEW_SYSTEM_MESSAGES.duplicate] } },
    });
}

/**
 * Runs `work`; a unique index that refuses it answers 409 with `message` — by default a code taken meanwhile, as
 * assertCodeFree says it.
 */
export async function uniqueOr409<T>(
  work: () => Promise<T>,
  message: string = NEW_SYSTEM_MESSAGES.duplicate,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(message);
    throw e;
  }
}

export async function addSystem(
  db: Db,
  actor: Actor,
  input: { systemName: string; title: string; gnCoding: string },
): Promise<{ gnName: string; gnCoding: string }> {
  await assertCodeFree(db, input.gnCoding);
  return uniqueOr409(() =>
    db.transaction(async (tx) => {
      const s = await repo.insertSystem(tx, input);
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: s.gnCoding,
        recordId: s.id,
        logbook: `新建系统：${s.systemName}（${s.gnCoding}）`,
      });
      clearNodeCache();
      return { gnName: s.systemName, gnCoding: s.gnCoding };
    }),
  );
}

function toConfigSystem(s: SystemRow, menuCount: number): ConfigSystem {
  return {
    id: s.id,
    systemName: s.systemName,
    title: s.title,
    gnCoding: s.gnCoding,
    enabled: s.enabled,
    sort: s.sort,
    menuCount,
    createdAt: s.createdAt.toISOString(),
  };
}

export async function configSystems(db: Db): Promise<ConfigSystem[]> {
  return (await repo.systemsWithMenuCounts(db)).map((r) => toConfigSystem(r.system, r.menuCount));
}

export async function renameSystem(
  db: Db,
  actor: Actor,
  input: { systemCoding: string; systemName: string; title: string; gnCoding?: string; enabled?: boolean },
): Promise<ConfigSystem> {
  if (input.gnCoding !== undefined && input.gnCoding !== input.systemCoding) {
    throw validationFailed({ gnCoding: [NEW_SYSTEM_MESSAGES.gnCodingImmutable] });
  }
  const s = await systemByCoding(db, input.systemCoding);
  return db.transaction(async (tx) => {
    const u = await repo.updateSystem(tx, s.id, {
      systemName: input.systemName,
      title: input.title,
      enabled: input.enabled ?? s.enabled,
    });
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: s.gnCoding,
      recordId: s.id,
      logbook: `修改系统：${s.systemName} → ${input.systemName}（${input.title}）${u.enabled ? '' : '，已停用'}`,
    });
    return toConfigSystem(u, await repo.menuCountOf(tx, s.id));
  });
}

export async function deleteSystem(db: Db, actor: Actor, systemCoding: string): Promise<void> {
  const s = await systemByCoding(db, systemCoding);
  await db.transaction(async (tx) => {
    if ((await repo.menuCountOf(tx, s.id)) > 0) throw conflict('请先删除该系统下的菜单');
    await repo.deleteSystem(tx, s.id);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: s.gnCoding,
      recordId: s.id,
      logbook: `删除系统：${s.systemName}`,
    });
  });
  clearNodeCache();
}

/** Systems a caller may enter: all enabled ones for admins and developers, else those with a node they may see. */
export async function systemsFor(db: Db, caller: Caller): Promise<SystemRow[]> {
  const all = await repo.enabledSystems(db);
  if (seesAllNodes(caller)) return all;
  const granted = await grantsOf(db, caller);
  if (granted.size === 0) return [];
  const ids = await repo.systemsOfShownNodes(db, [...granted.keys()]);
  return all.filter((s) => ids.has(s.id));
}
