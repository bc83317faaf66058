import {
  type CardStyle,
  type Chart,
  type ChildMenuInput,
  type ConfigSystem,
  type EditMenuInput,
  MENU_ICONS,
  type MenuItem,
  NEW_SYSTEM_MESSAGES,
  NODE_PROPERTIES,
  type NodeFunction,
  type NodePreview,
  STANDARD_BUTTONS,
  type TableColumn,
} from '@ks/contracts';
import { and, asc, count, eq, inArray, isNull, max, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { businessSystems, displayGroups, grants, menuNodes, nodeFunctions } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { type Caller, clearNodeCache, grantsOf, isAdmin, seesAllNodes } from '../../platform/permissions';
import { dropNodeTable } from '../engine/node-table';
import { buildTree, type NodeRow, nodesOfSystem, subtreeIds, toMenuItem } from './tree';

const GL = '系统配置';

export type SystemRow = typeof businessSystems.$inferSelect;

/** Data sources a node can use: its own engine table, or a module's domain table. */
export const DATA_SOURCES = [
  { value: 'engine', label: '节点数据表（由字段配置生成）', kind: 'engine' },
  { value: 'portal_notices', label: '交易公告（门户）', kind: 'domain' },
  { value: 'enterprises', label: '市场主体（企业）', kind: 'domain' },
] as const;

export async function systemByCoding(db: Db, systemCoding: string): Promise<SystemRow> {
  const [s] = await db.select().from(businessSystems).where(eq(businessSystems.gnCoding, systemCoding));
  if (!s) throw notFound('系统不存在');
  return s;
}

async function nodeById(db: Db, id: string): Promise<NodeRow> {
  const [n] = await db.select().from(menuNodes).where(eq(menuNodes.id, id));
  if (!n) throw notFound('菜单不存在');
  return n;
}

export async function nodeByCoding(db: Db, gnCoding: string): Promise<NodeRow> {
  const [n] = await db.select().from(menuNodes).where(eq(menuNodes.gnCoding, gnCoding));
  if (!n) throw notFound('节点不存在');
  return n;
}

async function systemOfNode(db: Db, n: NodeRow): Promise<SystemRow> {
  const [s] = await db.select().from(businessSystems).where(eq(businessSystems.id, n.systemId));
  if (!s) throw notFound('系统不存在');
  return s;
}

/** A code is unique among systems and nodes alike (both travel as gnCoding). */
async function assertCodeFree(db: Db, code: string, field = 'gnCoding') {
  const lower = code.toLowerCase();
  const [s] = await db
    .select({ id: businessSystems.id })
    .from(businessSystems)
    .where(sql`lower(${businessSystems.gnCoding}) = ${lower}`);
  const [n] = await db.select({ id: menuNodes.id }).from(menuNodes).where(sql`lower(${menuNodes.gnCoding}) = ${lower}`);
  if (s || n)
    throw Object.assign(conflict(NEW_SYSTEM_MESSAGES.duplicate), {
      data: { fieldErrors: { [field]: [NEW_SYSTEM_MESSAGES.duplicate] } },
    });
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23505' || err?.cause?.code === '23505';
}

async function uniqueOr409<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(NEW_SYSTEM_MESSAGES.duplicate);
    throw e;
  }
}

// ── systems ──────────────────────────────────────────────────────────────────

export async function addSystem(
  db: Db,
  actor: Actor,
  input: { systemName: string; title: string; gnCoding: string },
): Promise<{ gnName: string; gnCoding: string }> {
  await assertCodeFree(db, input.gnCoding);
  return uniqueOr409(() =>
    db.transaction(async (tx) => {
      const [last] = await tx.select({ m: max(businessSystems.sort) }).from(businessSystems);
      const [s] = await tx
        .insert(businessSystems)
        .values({ ...input, levels: 0, sort: (last?.m ?? 0) + 1 })
        .returning();
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: s!.gnCoding,
        recordId: s!.id,
        logbook: `新建系统：${s!.systemName}（${s!.gnCoding}）`,
      });
      clearNodeCache();
      return { gnName: s!.systemName, gnCoding: s!.gnCoding };
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
  const rows = await db
    .select({ s: businessSystems, n: count(menuNodes.id) })
    .from(businessSystems)
    .leftJoin(menuNodes, eq(menuNodes.systemId, businessSystems.id))
    .groupBy(businessSystems.id)
    .orderBy(asc(businessSystems.sort), asc(businessSystems.createdAt));
  return rows.map((r) => toConfigSystem(r.s, Number(r.n)));
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
    const [u] = await tx
      .update(businessSystems)
      .set({ systemName: input.systemName, title: input.title, enabled: input.enabled ?? s.enabled })
      .where(eq(businessSystems.id, s.id))
      .returning();
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: s.gnCoding,
      recordId: s.id,
      logbook: `修改系统：${s.systemName} → ${input.systemName}（${input.title}）${u!.enabled ? '' : '，已停用'}`,
    });
    const [c] = await tx.select({ n: count() }).from(menuNodes).where(eq(menuNodes.systemId, s.id));
    return toConfigSystem(u!, Number(c?.n ?? 0));
  });
}

export async function deleteSystem(db: Db, actor: Actor, systemCoding: string): Promise<void> {
  const s = await systemByCoding(db, systemCoding);
  await db.transaction(async (tx) => {
    const [c] = await tx.select({ n: count() }).from(menuNodes).where(eq(menuNodes.systemId, s.id));
    if (Number(c?.n ?? 0) > 0) throw conflict('请先删除该系统下的菜单');
    await tx.delete(businessSystems).where(eq(businessSystems.id, s.id));
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
  const all = await db
    .select()
    .from(businessSystems)
    .where(eq(businessSystems.enabled, true))
    .orderBy(asc(businessSystems.sort), asc(businessSystems.createdAt));
  if (seesAllNodes(caller)) return all;
  const granted = await grantsOf(db, caller);
  if (granted.size === 0) return [];
  const rows = await db
    .select({ systemId: menuNodes.systemId })
    .from(menuNodes)
    .where(and(inArray(menuNodes.id, [...granted.keys()]), eq(menuNodes.itShows, '是'), eq(menuNodes.disabled, false)));
  const ids = new Set(rows.map((r) => r.systemId));
  return all.filter((s) => ids.has(s.id));
}

// ── menus ────────────────────────────────────────────────────────────────────

/** The whole tree of a system, hidden items included (configuration pages). */
export async function fullTree(db: Db, systemCoding: string): Promise<MenuItem[]> {
  const s = await systemByCoding(db, systemCoding);
  return buildTree(await nodesOfSystem(db, s.id), s.gnCoding);
}

/**
 * The sidebar of a caller (spec §4: menus load only for itShows 是): hidden items and what is under them never
 * appear; ordinary users see the nodes granted to them and the menus above those.
 */
export async function menusFor(db: Db, caller: Caller, systemCoding: string, parentId?: string): Promise<MenuItem[]> {
  const s = await systemByCoding(db, systemCoding);
  if (!s.enabled && !seesAllNodes(caller)) throw forbidden('系统已停用');
  const rows = await nodesOfSystem(db, s.id);
  const granted = seesAllNodes(caller) ? null : await grantsOf(db, caller, s.id);
  const tree = buildTree(
    rows,
    s.gnCoding,
    (r) => granted === null || granted.has(r.id),
    (r) => r.itShows !== '是' || (granted !== null && r.disabled),
  );
  if (!parentId) return tree;
  const find = (items: MenuItem[]): MenuItem | null => {
    for (const it of items) {
      if (it.id === parentId) return it;
      const hit = find(it.children);
      if (hit) return hit;
    }
    return null;
  };
  const parent = find(tree);
  if (!parent) throw notFound('菜单不存在');
  return parent.children;
}

export async function addChildMenu(db: Db, actor: Actor, input: ReturnType<typeof normaliseChild>): Promise<MenuItem> {
  const s = await systemByCoding(db, input.systemCoding);
  if (input.parentId) {
    const parent = await nodeById(db, input.parentId);
    if (parent.systemId !== s.id) throw badRequest('上级菜单不属于该系统');
  }
  await assertCodeFree(db, input.gnCoding);
  assertDataSource(input.dataSource);
  return uniqueOr409(() =>
    db.transaction(async (tx) => {
      const [last] = await tx
        .select({ m: max(menuNodes.sort) })
        .from(menuNodes)
        .where(
          and(
            eq(menuNodes.systemId, s.id),
            input.parentId ? eq(menuNodes.parentId, input.parentId) : isNull(menuNodes.parentId),
          ),
        );
      const { systemCoding: _sc, score, ...fields } = input;
      const [n] = await tx
        .insert(menuNodes)
        .values({
          ...fields,
          score: scoreColumn(score),
          systemId: s.id,
          sort: last?.m === null || last?.m === undefined ? 0 : last.m + 1,
        })
        .returning();
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: n!.gnCoding,
        recordId: n!.id,
        logbook: `新增菜单：${n!.title}（${n!.gnCoding}），系统 ${s.systemName}`,
      });
      clearNodeCache();
      return toMenuItem(n!, s.gnCoding);
    }),
  );
}

export function normaliseChild(input: ChildMenuInput & Required<Pick<ChildMenuInput, 'itShows'>>) {
  return input as {
    systemCoding: string;
    parentId: string | null;
    gnCoding: string;
    title: string;
    icon: string | null;
    itShows: '是' | '否';
    nodeProperties: string;
    style: string;
    nodeSetFlag: boolean;
    disabled: boolean;
    groupName: string | null;
    dataSource: string;
    score: number | null;
  };
}

/** A score as the numeric column stores it. */
const scoreColumn = (score: number | null | undefined) =>
  score === null || score === undefined ? null : score.toFixed(2);

function assertDataSource(value: string) {
  if (!DATA_SOURCES.some((d) => d.value === value)) throw validationFailed({ dataSource: ['数据来源不在可选范围内'] });
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
    const [u] = await tx
      .update(menuNodes)
      .set({
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
        updatedAt: new Date(),
      })
      .where(eq(menuNodes.id, n.id))
      .returning();
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `修改菜单：${n.title} → ${u!.title}；显示 ${u!.itShows}；属性 ${u!.nodeProperties}${u!.disabled ? '；已禁用' : ''}${u!.score === null ? '' : `；分值 ${Number(u!.score)}`}`,
    });
    clearNodeCache();
    return toMenuItem(u!, s.gnCoding);
  });
}

export async function updateDataSource(db: Db, actor: Actor, gnCoding: string, dataSource: string): Promise<MenuItem> {
  const n = await nodeByCoding(db, gnCoding);
  assertDataSource(dataSource);
  const s = await systemOfNode(db, n);
  return db.transaction(async (tx) => {
    const [u] = await tx
      .update(menuNodes)
      .set({ dataSource, updatedAt: new Date() })
      .where(eq(menuNodes.id, n.id))
      .returning();
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding,
      recordId: n.id,
      logbook: `修改数据来源：${n.dataSource} → ${dataSource}`,
    });
    return toMenuItem(u!, s.gnCoding);
  });
}

export async function deleteMenu(db: Db, actor: Actor, id: string): Promise<void> {
  const n = await nodeById(db, id);
  await db.transaction(async (tx) => {
    const [c] = await tx.select({ n: count() }).from(menuNodes).where(eq(menuNodes.parentId, n.id));
    if (Number(c?.n ?? 0) > 0) throw conflict('请先删除下级菜单');
    // its record table goes with it when empty; a node with records is refused (a new node of the same code would
    // otherwise show them)
    const dropped = await dropNodeTable(tx as unknown as Db, n);
    await tx.delete(menuNodes).where(eq(menuNodes.id, n.id));
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
    await tx.execute(sql`select id from business_systems where id = ${s.id} for update`);
    const rows = await nodesOfSystem(tx as unknown as Db, s.id);
    if (input.parentId) {
      const parent = rows.find((r) => r.id === input.parentId);
      if (!parent) throw badRequest('上级菜单不属于该系统');
      if (subtreeIds(rows, n.id).has(parent.id)) throw badRequest('不能移动到自身或其下级菜单之下');
    }
    const siblings = rows.filter((r) => r.parentId === input.parentId && r.id !== n.id);
    const at = Math.min(input.index, siblings.length);
    siblings.splice(at, 0, n);
    for (const [i, r] of siblings.entries()) {
      if (r.id === n.id) {
        await tx
          .update(menuNodes)
          .set({ parentId: input.parentId, sort: i, updatedAt: new Date() })
          .where(eq(menuNodes.id, r.id));
      } else if (r.sort !== i) {
        await tx.update(menuNodes).set({ sort: i }).where(eq(menuNodes.id, r.id));
      }
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
  return buildTree(await nodesOfSystem(db, s.id), s.gnCoding);
}

// ── node configuration ──────────────────────────────────────────────────────

export async function functionsOf(db: Db, nodeId: string): Promise<NodeFunction[]> {
  const rows = await db
    .select()
    .from(nodeFunctions)
    .where(eq(nodeFunctions.nodeId, nodeId))
    .orderBy(asc(nodeFunctions.sort));
  return rows.map((f) => ({
    code: f.code,
    name: f.name,
    color: f.color,
    show: f.show,
    kind: f.kind === 'form' ? 'form' : 'table',
  }));
}

export async function saveFunctions(
  db: Db,
  actor: Actor,
  gnCoding: string,
  functions: NodeFunction[],
): Promise<NodeFunction[]> {
  const codes = functions.map((f) => f.code);
  if (new Set(codes).size !== codes.length) throw validationFailed({ functions: ['按钮编码不能重复'] });
  const n = await nodeByCoding(db, gnCoding);
  await db.transaction(async (tx) => {
    await tx.delete(nodeFunctions).where(eq(nodeFunctions.nodeId, n.id));
    if (functions.length) {
      await tx.insert(nodeFunctions).values(functions.map((f, i) => ({ ...f, nodeId: n.id, sort: i })));
    }
    // grants of removed functions go with them
    await tx
      .delete(grants)
      .where(
        and(
          eq(grants.nodeId, n.id),
          ne(grants.functionCode, ''),
          codes.length ? sql`${grants.functionCode} not in ${codes}` : sql`true`,
        ),
      );
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding,
      recordId: n.id,
      logbook: `保存按钮：${functions.map((f) => `${f.name}(${f.code})`).join('、') || '无'}`,
    });
  });
  return functionsOf(db, n.id);
}

export async function functionNodes(db: Db, systemCoding: string) {
  const s = await systemByCoding(db, systemCoding);
  const rows = await db
    .select({ gnCoding: menuNodes.gnCoding, title: menuNodes.title, n: count(nodeFunctions.id) })
    .from(menuNodes)
    .innerJoin(nodeFunctions, eq(nodeFunctions.nodeId, menuNodes.id))
    .where(eq(menuNodes.systemId, s.id))
    .groupBy(menuNodes.id)
    .orderBy(asc(menuNodes.sort));
  return rows.map((r) => ({ gnCoding: r.gnCoding, title: r.title, count: Number(r.n) }));
}

export const standardButtons = (): NodeFunction[] =>
  STANDARD_BUTTONS.map((b) => ({ code: b.code, name: b.name, color: b.color, show: true, kind: b.kind }));
export const menuIcons = (): string[] => [...MENU_ICONS];
export const nodePropertyOptions = () => NODE_PROPERTIES.map((p) => ({ label: p.label, value: p.value }));

export function columnsOf(n: NodeRow): TableColumn[] {
  return Array.isArray(n.columns) ? (n.columns as TableColumn[]) : [];
}
export function cardStyleOf(n: NodeRow): CardStyle | null {
  return (n.cardStyle as CardStyle | null) ?? null;
}
export function chartsOf(n: NodeRow): Chart[] {
  return Array.isArray(n.charts) ? (n.charts as Chart[]) : [];
}

export async function preview(db: Db, gnCoding: string): Promise<NodePreview> {
  const n = await nodeByCoding(db, gnCoding);
  const s = await systemOfNode(db, n);
  return {
    node: toMenuItem(n, s.gnCoding),
    systemName: s.systemName,
    functions: await functionsOf(db, n.id),
    columns: columnsOf(n),
    cardStyle: cardStyleOf(n),
    charts: chartsOf(n),
  };
}

export async function saveNodeJson(
  db: Db,
  actor: Actor,
  gnCoding: string,
  patch: { columns?: TableColumn[]; cardStyle?: CardStyle; charts?: Chart[] },
  what: string,
): Promise<NodeRow> {
  const n = await nodeByCoding(db, gnCoding);
  return db.transaction(async (tx) => {
    const [u] = await tx
      .update(menuNodes)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(menuNodes.id, n.id))
      .returning();
    await writeOpLog(tx, actor, { glName: GL, gnCoding, recordId: n.id, logbook: `${what}：${n.title}` });
    return u!;
  });
}

// ── display groups ──────────────────────────────────────────────────────────

export async function groupsOf(db: Db, systemCoding: string) {
  const s = await systemByCoding(db, systemCoding);
  const rows = await db
    .select()
    .from(displayGroups)
    .where(eq(displayGroups.systemId, s.id))
    .orderBy(asc(displayGroups.sort), asc(displayGroups.name));
  return rows.map((g) => ({ id: g.id, systemCoding: s.gnCoding, name: g.name, icon: g.icon, sort: g.sort }));
}

export async function createGroup(
  db: Db,
  actor: Actor,
  input: { systemCoding: string; name: string; icon: string | null; sort: number },
) {
  const s = await systemByCoding(db, input.systemCoding);
  try {
    return await db.transaction(async (tx) => {
      const [g] = await tx
        .insert(displayGroups)
        .values({ systemId: s.id, name: input.name, icon: input.icon, sort: input.sort })
        .returning();
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: s.gnCoding,
        recordId: g!.id,
        logbook: `新增分组：${g!.name}`,
      });
      return { id: g!.id, systemCoding: s.gnCoding, name: g!.name, icon: g!.icon, sort: g!.sort };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('分组名称已存在');
    throw e;
  }
}

export async function updateGroup(
  db: Db,
  actor: Actor,
  input: { id: string; name: string; icon: string | null; sort: number },
) {
  const [g] = await db.select().from(displayGroups).where(eq(displayGroups.id, input.id));
  if (!g) throw notFound('分组不存在');
  const [s] = await db.select().from(businessSystems).where(eq(businessSystems.id, g.systemId));
  try {
    return await db.transaction(async (tx) => {
      const [u] = await tx
        .update(displayGroups)
        .set({ name: input.name, icon: input.icon, sort: input.sort })
        .where(eq(displayGroups.id, g.id))
        .returning();
      if (g.name !== input.name) {
        // menus that named the group follow the rename
        await tx
          .update(menuNodes)
          .set({ groupName: input.name })
          .where(and(eq(menuNodes.systemId, g.systemId), eq(menuNodes.groupName, g.name)));
      }
      await writeOpLog(tx, actor, {
        glName: GL,
        gnCoding: s?.gnCoding,
        recordId: g.id,
        logbook: `修改分组：${g.name} → ${input.name}`,
      });
      return { id: u!.id, systemCoding: s?.gnCoding ?? '', name: u!.name, icon: u!.icon, sort: u!.sort };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('分组名称已存在');
    throw e;
  }
}

export async function deleteGroup(db: Db, actor: Actor, id: string) {
  const [g] = await db.select().from(displayGroups).where(eq(displayGroups.id, id));
  if (!g) throw notFound('分组不存在');
  await db.transaction(async (tx) => {
    await tx
      .update(menuNodes)
      .set({ groupName: null })
      .where(and(eq(menuNodes.systemId, g.systemId), eq(menuNodes.groupName, g.name)));
    await tx.delete(displayGroups).where(eq(displayGroups.id, id));
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除分组：${g.name}` });
  });
}

export const adminOnly = (c: Caller) => {
  if (!isAdmin(c)) throw forbidden();
};
