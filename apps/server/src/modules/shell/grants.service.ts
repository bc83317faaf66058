import type { GrantMatrixRow, Operation, Role, UserBrief } from '@ks/contracts';
import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enterprises, grants, nodeFunctions, roles, userRoles, users } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { BUILTIN_ROLES, type Caller, isAdmin, nodeState, requireNode, seesAllNodes } from '../../platform/permissions';
import { functionsOf, nodeByCoding, systemByCoding } from './structure.service';
import { nodesOfSystem } from './tree';

const GL = '权限配置';
type Subject = { subjectType: 'role' | 'user'; subjectId: string };

async function subjectLabel(db: Db, s: Subject): Promise<string> {
  if (s.subjectType === 'role') {
    const [r] = await db.select().from(roles).where(eq(roles.code, s.subjectId));
    if (!r) throw notFound('角色不存在');
    return `角色 ${r.name}`;
  }
  if (!/^[0-9a-f-]{36}$/i.test(s.subjectId)) throw notFound('用户不存在');
  const [u] = await db.select().from(users).where(eq(users.id, s.subjectId));
  if (!u) throw notFound('用户不存在');
  return `用户 ${u.userName}（${u.account}）`;
}

async function subjectGrants(db: Db, s: Subject, nodeIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!nodeIds.length) return out;
  const rows = await db
    .select({ nodeId: grants.nodeId, functionCode: grants.functionCode })
    .from(grants)
    .where(
      and(eq(grants.subjectType, s.subjectType), eq(grants.subjectId, s.subjectId), inArray(grants.nodeId, nodeIds)),
    );
  for (const r of rows) {
    const set = out.get(r.nodeId) ?? new Set<string>();
    set.add(r.functionCode);
    out.set(r.nodeId, set);
  }
  return out;
}

export async function nodeGrant(db: Db, s: Subject & { gnCoding: string }) {
  await subjectLabel(db, s);
  const n = await nodeByCoding(db, s.gnCoding);
  const g = (await subjectGrants(db, s, [n.id])).get(n.id) ?? new Set<string>();
  const fns = await functionsOf(db, n.id);
  return {
    gnCoding: n.gnCoding,
    visible: g.size > 0,
    functions: fns.map((f) => ({ ...f, granted: g.has(f.code) })),
  };
}

/** Replaces a subject's grants on the given nodes inside `tx`; every function code must exist on its node. */
async function replaceGrants(
  tx: Db,
  s: Subject,
  items: { nodeId: string; visible: boolean; functionCodes: string[]; known: Set<string>; gnCoding: string }[],
) {
  for (const it of items) {
    const unknown = it.functionCodes.filter((c) => !it.known.has(c));
    if (unknown.length) throw badRequest(`节点 ${it.gnCoding} 没有按钮：${unknown.join('、')}`);
  }
  const nodeIds = items.map((i) => i.nodeId);
  if (nodeIds.length) {
    await tx
      .delete(grants)
      .where(
        and(eq(grants.subjectType, s.subjectType), eq(grants.subjectId, s.subjectId), inArray(grants.nodeId, nodeIds)),
      );
  }
  const values = items.flatMap((it) => {
    const visible = it.visible || it.functionCodes.length > 0;
    if (!visible) return [];
    return ['', ...new Set(it.functionCodes)].map((functionCode) => ({ ...s, nodeId: it.nodeId, functionCode }));
  });
  if (values.length) await tx.insert(grants).values(values);
}

export async function saveNodeGrant(
  db: Db,
  actor: Actor,
  input: Subject & { gnCoding: string; visible: boolean; functionCodes: string[] },
) {
  const label = await subjectLabel(db, input);
  const n = await nodeByCoding(db, input.gnCoding);
  const known = new Set((await functionsOf(db, n.id)).map((f) => f.code));
  await db.transaction(async (tx) => {
    await replaceGrants(tx, input, [
      { nodeId: n.id, visible: input.visible, functionCodes: input.functionCodes, known, gnCoding: n.gnCoding },
    ]);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: n.id,
      logbook: `授权 ${label}：${n.title} ${input.visible || input.functionCodes.length ? '可见' : '不可见'}；按钮 ${input.functionCodes.join('、') || '无'}`,
    });
  });
  return nodeGrant(db, input);
}

export async function grantMatrix(db: Db, s: Subject & { systemCoding: string }): Promise<GrantMatrixRow[]> {
  await subjectLabel(db, s);
  const sys = await systemByCoding(db, s.systemCoding);
  const rows = await nodesOfSystem(db, sys.id);
  const ids = rows.map((r) => r.id);
  const g = await subjectGrants(db, s, ids);
  const fns = ids.length
    ? await db.select().from(nodeFunctions).where(inArray(nodeFunctions.nodeId, ids)).orderBy(asc(nodeFunctions.sort))
    : [];
  const byNode = new Map<string, typeof fns>();
  for (const f of fns) byNode.set(f.nodeId, [...(byNode.get(f.nodeId) ?? []), f]);
  // depth-first order so that the page can indent by depth
  const out: GrantMatrixRow[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const r of rows.filter((x) => x.parentId === parentId)) {
      const set = g.get(r.id) ?? new Set<string>();
      out.push({
        id: r.id,
        parentId: r.parentId,
        gnCoding: r.gnCoding,
        title: r.title,
        itShows: r.itShows === '否' ? '否' : '是',
        depth,
        visible: set.size > 0,
        functions: (byNode.get(r.id) ?? []).map((f) => ({
          code: f.code,
          name: f.name,
          color: f.color,
          show: f.show,
          kind: f.kind === 'form' ? 'form' : 'table',
          granted: set.has(f.code),
        })),
      });
      walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export async function saveGrantMatrix(
  db: Db,
  actor: Actor,
  input: Subject & {
    systemCoding: string;
    grants: { gnCoding: string; visible: boolean; functionCodes: string[] }[];
  },
) {
  const label = await subjectLabel(db, input);
  const sys = await systemByCoding(db, input.systemCoding);
  const rows = await nodesOfSystem(db, sys.id);
  const byCode = new Map(rows.map((r) => [r.gnCoding, r]));
  const fns = rows.length
    ? await db
        .select({ nodeId: nodeFunctions.nodeId, code: nodeFunctions.code })
        .from(nodeFunctions)
        .where(
          inArray(
            nodeFunctions.nodeId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  const items = input.grants.map((g) => {
    const node = byCode.get(g.gnCoding);
    if (!node) throw badRequest(`节点 ${g.gnCoding} 不属于该系统`);
    const known = new Set(fns.filter((f) => f.nodeId === node.id).map((f) => f.code));
    return { nodeId: node.id, visible: g.visible, functionCodes: g.functionCodes, known, gnCoding: g.gnCoding };
  });
  await db.transaction(async (tx) => {
    // the whole system is replaced: nodes left out lose their grants
    await replaceGrants(
      tx,
      input,
      rows.map(
        (r) =>
          items.find((i) => i.nodeId === r.id) ?? {
            nodeId: r.id,
            visible: false,
            functionCodes: [],
            known: new Set<string>(),
            gnCoding: r.gnCoding,
          },
      ),
    );
    const visible = items.filter((i) => i.visible || i.functionCodes.length).length;
    const buttons = items.reduce((n, i) => n + i.functionCodes.length, 0);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: sys.gnCoding,
      logbook: `保存权限 ${label}：系统 ${sys.systemName}，可见节点 ${visible} 个，按钮 ${buttons} 个`,
    });
  });
  return grantMatrix(db, input);
}

/** Buttons of a node the caller may press (spec §6: button visibility comes from the operations list). */
export async function buttonsFor(
  db: Db,
  caller: Caller,
  gnCoding: string,
  kind: 'table' | 'form',
): Promise<Operation[]> {
  const node = await requireNode(db, caller, gnCoding);
  // the node's functions and the caller's grants on it come from one read (once per request with a memo)
  const state = await nodeState(db, caller, node.id);
  const fns = (state?.functions ?? []).filter((f) => f.kind === kind && f.show);
  const pick = ({ code, name, color, show }: Operation) => ({ code, name, color, show });
  if (isAdmin(caller)) return fns.map(pick);
  // what canCall would answer for each: granted, on a node that is not disabled
  if (node.disabled) return [];
  return fns.filter((f) => state?.granted.has(f.code)).map(pick);
}

// ── roles ────────────────────────────────────────────────────────────────────

export async function ensureBuiltinRoles(db: Db) {
  await db
    .insert(roles)
    .values(BUILTIN_ROLES.map((r) => ({ code: r.code, name: r.name, builtin: true })))
    .onConflictDoNothing();
}

export async function listRoles(db: Db): Promise<Role[]> {
  const rows = await db
    .select({ r: roles, n: count(userRoles.userId) })
    .from(roles)
    .leftJoin(userRoles, eq(userRoles.roleId, roles.id))
    .groupBy(roles.id)
    .orderBy(sql`${roles.builtin} desc`, asc(roles.createdAt));
  const typeCounts = await db.select({ t: users.loginRoleType, n: count() }).from(users).groupBy(users.loginRoleType);
  const byType = new Map(typeCounts.map((t) => [t.t, Number(t.n)]));
  return rows.map(({ r, n }) => {
    const builtin = BUILTIN_ROLES.find((b) => b.code === r.code && r.builtin);
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      builtin: r.builtin,
      memberCount: builtin ? (byType.get(builtin.loginRoleType) ?? 0) : Number(n),
    };
  });
}

async function roleById(db: Db, id: string) {
  const [r] = await db.select().from(roles).where(eq(roles.id, id));
  if (!r) throw notFound('角色不存在');
  return r;
}

export async function createRole(db: Db, actor: Actor, input: { code: string; name: string }): Promise<Role> {
  const [dup] = await db.select().from(roles).where(sql`lower(${roles.code}) = ${input.code.toLowerCase()}`);
  if (dup) throw conflict('角色编码已存在');
  try {
    return await db.transaction(async (tx) => {
      const [r] = await tx.insert(roles).values({ code: input.code, name: input.name }).returning();
      await writeOpLog(tx, actor, { glName: GL, recordId: r!.id, logbook: `新建角色：${r!.name}（${r!.code}）` });
      return { id: r!.id, code: r!.code, name: r!.name, builtin: false, memberCount: 0 };
    });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw conflict('角色编码已存在');
    throw e;
  }
}

export async function updateRole(db: Db, actor: Actor, input: { id: string; name: string }): Promise<Role> {
  const r = await roleById(db, input.id);
  if (r.builtin) throw badRequest('内置角色不可修改');
  await db.transaction(async (tx) => {
    await tx.update(roles).set({ name: input.name }).where(eq(roles.id, r.id));
    await writeOpLog(tx, actor, { glName: GL, recordId: r.id, logbook: `修改角色：${r.name} → ${input.name}` });
  });
  return (await listRoles(db)).find((x) => x.id === r.id)!;
}

export async function deleteRole(db: Db, actor: Actor, id: string): Promise<void> {
  const r = await roleById(db, id);
  if (r.builtin) throw badRequest('内置角色不可删除');
  await db.transaction(async (tx) => {
    await tx.delete(grants).where(and(eq(grants.subjectType, 'role'), eq(grants.subjectId, r.code)));
    await tx.delete(roles).where(eq(roles.id, r.id));
    await writeOpLog(tx, actor, { glName: GL, recordId: r.id, logbook: `删除角色：${r.name}（${r.code}）及其权限` });
  });
}

const briefColumns = {
  id: users.id,
  account: users.account,
  userName: users.userName,
  loginRoleType: users.loginRoleType,
  enterpriseName: enterprises.name,
};

export async function roleMembers(db: Db, roleId: string): Promise<UserBrief[]> {
  const r = await roleById(db, roleId);
  if (r.builtin) throw badRequest('内置角色的成员由账号类型决定');
  return db
    .select(briefColumns)
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(eq(userRoles.roleId, roleId))
    .orderBy(asc(users.account));
}

export async function saveRoleMembers(db: Db, actor: Actor, roleId: string, userIds: string[]): Promise<UserBrief[]> {
  const r = await roleById(db, roleId);
  if (r.builtin) throw badRequest('内置角色的成员由账号类型决定');
  const ids = [...new Set(userIds)];
  if (ids.length) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
    if (found.length !== ids.length) throw badRequest('用户不存在');
  }
  await db.transaction(async (tx) => {
    await tx.delete(userRoles).where(eq(userRoles.roleId, roleId));
    if (ids.length) await tx.insert(userRoles).values(ids.map((userId) => ({ userId, roleId })));
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: r.id,
      logbook: `设置角色成员：${r.name}，共 ${ids.length} 人`,
    });
  });
  return roleMembers(db, roleId);
}

export async function searchUsers(db: Db, q: { keyword?: string; pageNum: number; pageSize: number }) {
  const where = q.keyword
    ? or(ilike(users.account, `%${escapeLike(q.keyword)}%`), ilike(users.userName, `%${escapeLike(q.keyword)}%`))
    : undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const records = await db
    .select(briefColumns)
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(where)
    .orderBy(asc(users.account))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  return { records, total: Number(total?.n ?? 0) };
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export { seesAllNodes };
