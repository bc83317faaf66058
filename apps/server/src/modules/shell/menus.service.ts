import { type childMenuSchema, type EditMenuInput, type MenuItem, NEW_SYSTEM_MESSAGES } from '@ks/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { type Caller, clearNodeCache, grantsOf, seesAllNodes } from '../../platform/permissions';
import { dropNodeTable } from '../engine/node-table';
import * as repo from './nodes.repo';
import { nodeByCoding, nodeById } from './nodes.service';
import { assertCodeFree, GL, systemByCoding, systemOfNode, uniqueOr409 } from './structure.service';
import { lockSystem } from './systems.repo';
import { buildTree, childrenOf, subtreeIds, toMenuItem } from './tree';

/** The menu tree of a system: the sidebar of a caller, and adding, editing, moving and deleting its items. */

/** Data sources a node can use: its own engine table, or a module's domain table. */
export const DATA_SOURCES = [
  { value: 'engine', label: '节点数据表（由字段配置生成）', kind: 'engine' },
  { value: 'portal_notices', label: '交易公告（门户）', kind: 'domain' },
  { value: 'enterprises', label: '市场主体（企业）', kind: 'domain' },
] as const;

function assertDataSource(value: string) {
  if (!DATA_SOURCES.some((d) => d.value === value)) throw validationFailed({ dataSource: ['数据来源不在可选范围内'] });
}

/** A score as the numeric column stores it. */
const scoreColumn = (score: number | null | undefined) =>
  score === null || score === undefined ? null : score.toFixed(2);

/** The whole tree of a system, hidden items included (configuration pages). */
export async function fullTree(db: Db, systemCoding: string): Promise<MenuItem[]> {
  const s = await systemByCoding(db, systemCoding);
  return buildTree(await repo.nodesOfSystem(db, s.id), s.gnCoding);
}

/**
 * The sidebar of a caller (spec §4: menus load only for itShows 是): hidden items and what is under them never
 * appear; ordinary users see the nodes granted to them and the menus above those.
 */
export async function menusFor(db: Db, caller: Caller, systemCoding: string, parentId?: string): Promise<MenuItem[]> {
  const s = await systemByCoding(db, systemCoding);
  if (!s.enabled && !seesAllNodes(caller)) throw forbidden('系统已停用');
  const rows = await repo.nodesOfSystem(db, s.id);
  const granted = seesAllNodes(caller) ? null : await grantsOf(db, caller, s.id);
  const tree = buildTree(
    rows,
    s.gnCoding,
    (r) => granted === null || granted.has(r.id),
    (r) => r.itShows !== '是' || (granted !== null && r.disabled),
  );
  if (!parentId) return tree;
  const children = childrenOf(tree, parentId);
  if (!children) throw notFound('菜单不存在');
  return children;
}

export async function addChildMenu(db: Db, actor: Actor, input: z.output<typeof childMenuSchema>): Promise<MenuItem> {
  const s = await systemByCoding(db, input.systemCoding);
  if (input.parentId) {
    const parent = await nodeById(db, input.parentId);
    if (parent.systemId !== s.id) throw badRequest('上级菜单不属于该系统');
  }
  await assertCodeFree(db, input.gnCoding);
  assertDataSource(input.dataSource);
  return uniqueOr409(() =>
    db.transaction(async (tx) => {
      const { systemCoding: _sc, score, ...fields } = input;
      const n = await repo.insertNode(tx, { ...fields, score: scoreColumn(score), systemId: s.id });
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: n.gnCoding,
        recordId: n.id,
        logbook: `新增菜单：${n.title}（${n.gnCoding}），系统 ${s.systemName}`,
      });
      clearNodeCache();
      return toMenuItem(n, s.gnCoding);
    }),
  );
}

export async function editMenu(db: Db, actor: Actor, input: EditMenuInput): Promise<MenuItem> {
  const n = await nodeById(db, input.id);
  if (input.gnCoding !== undefined && input.gnCoding !== n.gnCoding) {
    throw validationFailed({ gnCoding: [NEW_SYSTEM_MESSAGES.gnCodingImmutable] });
  }
  const dataSource = input.dataSource ?? n.dataSource;
  assertDataSource(dataSource);
  const s = await systemOfNode(db, n);
  return db.transaction(async (tx) => {
    const u = await repo.updateNode(tx, n.id, {
      title: input.title,
      icon: input.icon ?? null,
      itShows: input.itShows ?? '是',
      nodeProperties: input.nodeProperties,
      style: input.style ?? 'table',
      nodeSetFlag: input.nodeSetFlag ?? false,
      disabled: input.disabled ?? false,
      groupName: input.groupName ?? null,
      dataSource,
      score: scoreColumn(input.score),
    });
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `修改菜单：${n.title} → ${u.title}；显示 ${u.itShows}；属性 ${u.nodeProperties}${u.disabled ? '；已禁用' : ''}${u.score === null ? '' : `；分值 ${Number(u.score)}`}`,
    });
    clearNodeCache();
    return toMenuItem(u, s.gnCoding);
  });
}

export async function updateDataSource(db: Db, actor: Actor, gnCoding: string, dataSource: string): Promise<MenuItem> {
  const n = await nodeByCoding(db, gnCoding);
  assertDataSource(dataSource);
  const s = await systemOfNode(db, n);
  return db.transaction(async (tx) => {
    const u = await repo.updateNode(tx, n.id, { dataSource });
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding,
      recordId: n.id,
      logbook: `修改数据来源：${n.dataSource} → ${dataSource}`,
    });
    return toMenuItem(u, s.gnCoding);
  });
}

export async function deleteMenu(db: Db, actor: Actor, id: string): Promise<void> {
  const n = await nodeById(db, id);
  await db.transaction(async (tx) => {
    if ((await repo.childCountOf(tx, n.id)) > 0) throw conflict('请先删除下级菜单');
    // its record table goes with it when empty; a node with records is refused (a new node of the same code would
    // otherwise show them)
    const dropped = await dropNodeTable(tx, n);
    await repo.deleteNode(tx, n.id);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `删除菜单：${n.title}${dropped.length ? '（删除其空数据表）' : ''}`,
    });
  });
  clearNodeCache();
}

/** Moves a node under `parentId` (null: top level) at position `index` among its new siblings. */
export async function moveMenu(
  db: Db,
  actor: Actor,
  input: { id: string; parentId: string | null; index: number },
): Promise<MenuItem[]> {
  const n = await nodeById(db, input.id);
  const s = await systemOfNode(db, n);
  await db.transaction(async (tx) => {
    // one mover at a time per system, so concurrent drags cannot interleave their renumbering
    await lockSystem(tx, s.id);
    const rows = await repo.nodesOfSystem(tx, s.id);
    if (input.parentId) {
      const parent = rows.find((r) => r.id === input.parentId);
      if (!parent) throw badRequest('上级菜单不属于该系统');
      if (subtreeIds(rows, n.id).has(parent.id)) throw badRequest('不能移动到自身或其下级菜单之下');
    }
    const siblings = rows.filter((r) => r.parentId === input.parentId && r.id !== n.id);
    const at = Math.min(input.index, siblings.length);
    siblings.splice(at, 0, n);
    for (const [i, r] of siblings.entries()) {
      if (r.id === n.id) await repo.placeNode(tx, r.id, i, input.parentId);
      else if (r.sort !== i) await repo.placeNode(tx, r.id, i);
    }
    const parentTitle = input.parentId ? (rows.find((r) => r.id === input.parentId)?.title ?? '') : '顶层';
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `移动菜单：${n.title} → ${parentTitle} 第 ${at + 1} 位`,
    });
  });
  clearNodeCache();
  return buildTree(await repo.nodesOfSystem(db, s.id), s.gnCoding);
}
