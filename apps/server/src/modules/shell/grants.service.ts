import { type GrantMatrixRow, type Operation, type Role, SUPERVISE_FUNCTION, type UserBrief } from '@ks/contracts';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { BUILTIN_ROLES, type Caller, isAdmin, nodeState, requireNode } from '../../platform/permissions';
import * as repo from './grants.repo';
import { functionsOfNodes, nodesOfSystem } from './nodes.repo';
import { functionsOf, nodeByCoding, toNodeFunction } from './nodes.service';
import { systemByCoding } from './structure.service';

/** Permissions (spec §7): what roles and users were granted on nodes, roles and their members. */

const GL = '权限配置';
type Subject = repo.Subject;

async function subjectLabel(db: Db, s: Subject): Promise<string> {
  if (s.subjectType === 'role') {
    const r = await repo.findRoleByCode(db, s.subjectId);
    if (!r) throw notFound('角色不存在');
    return `角色 ${r.name}`;
  }
  if (!/^[0-9a-f-]{36}$/i.test(s.subjectId)) throw notFound('用户不存在');
  const u = await repo.findUserName(db, s.subjectId);
  if (!u) throw notFound('用户不存在');
  return `用户 ${u.userName}（${u.account}）`;
}

export async function nodeGrant(db: Db, s: Subject & { gnCoding: string }) {
  await subjectLabel(db, s);
  const n = await nodeByCoding(db, s.gnCoding);
  const g = (await repo.grantsOfSubject(db, s, [n.id])).get(n.id) ?? new Set<string>();
  const fns = await functionsOf(db, n.id);
  return {
    gnCoding: n.gnCoding,
    visible: g.size > 0,
    functions: fns.map((f) => ({ ...f, granted: g.has(f.code) })),
  };
}

/** Replaces a subject's grants on the given nodes inside `tx`; every function code must exist on its node. */
async function replaceGrants(
  tx: Tx,
  s: Subject,
  items: { nodeId: string; visible: boolean; functionCodes: string[]; known: Set<string>; gnCoding: string }[],
) {
  for (const it of items) {
    const unknown = it.functionCodes.filter((c) => !it.known.has(c));
    if (unknown.length) throw badRequest(`节点 ${it.gnCoding} 没有按钮：${unknown.join('、')}`);
  }
  const values = items.flatMap((it) => {
    const visible = it.visible || it.functionCodes.length > 0;
    if (!visible) return [];
    return ['', ...new Set(it.functionCodes)].map((functionCode) => ({ nodeId: it.nodeId, functionCode }));
  });
  await repo.replaceGrantsOfSubject(
    tx,
    s,
    items.map((i) => i.nodeId),
    values,
  );
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
  const g = await repo.grantsOfSubject(db, s, ids);
  const fns = await functionsOfNodes(db, ids);
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
        functions: (byNode.get(r.id) ?? []).map((f) => ({ ...toNodeFunction(f), granted: set.has(f.code) })),
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
  const fns = await functionsOfNodes(
    db,
    rows.map((r) => r.id),
  );
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
  // 监督查看 is a grant to read, never a button
  const fns = (state?.functions ?? []).filter((f) => f.kind === kind && f.show && f.code !== SUPERVISE_FUNCTION);
  const pick = ({ code, name, color, show }: Operation) => ({ code, name, color, show });
  if (isAdmin(caller)) return fns.map(pick);
  // what canCall would answer for each: granted, on a node that is not disabled
  if (node.disabled) return [];
  return fns.filter((f) => state?.granted.has(f.code)).map(pick);
}

// ── roles ────────────────────────────────────────────────────────────────────

export async function listRoles(db: Db): Promise<Role[]> {
  const rows = await repo.rolesWithMemberCounts(db);
  const byType = await repo.accountsByLoginType(db);
  return rows.map(({ role: r, members }) => {
    const builtin = BUILTIN_ROLES.find((b) => b.code === r.code && r.builtin);
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      builtin: r.builtin,
      memberCount: builtin ? (byType.get(builtin.loginRoleType) ?? 0) : members,
    };
  });
}

async function roleById(db: Db, id: string) {
  const r = await repo.findRoleById(db, id);
  if (!r) throw notFound('角色不存在');
  return r;
}

export async function createRole(db: Db, actor: Actor, input: { code: string; name: string }): Promise<Role> {
  if (await repo.roleCodeTaken(db, input.code)) throw conflict('角色编码已存在');
  try {
    return await db.transaction(async (tx) => {
      const r = await repo.insertRole(tx, { code: input.code, name: input.name });
      await writeOpLog(tx, actor, { glName: GL, recordId: r.id, logbook: `新建角色：${r.name}（${r.code}）` });
      return { id: r.id, code: r.code, name: r.name, builtin: false, memberCount: 0 };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('角色编码已存在');
    throw e;
  }
}

export async function updateRole(db: Db, actor: Actor, input: { id: string; name: string }): Promise<Role> {
  const r = await roleById(db, input.id);
  if (r.builtin) throw badRequest('内置角色不可修改');
  await db.transaction(async (tx) => {
    await repo.renameRole(tx, r.id, input.name);
    await writeOpLog(tx, actor, { glName: GL, recordId: r.id, logbook: `修改角色：${r.name} → ${input.name}` });
  });
  return (await listRoles(db)).find((x) => x.id === r.id)!;
}

export async function deleteRole(db: Db, actor: Actor, id: string): Promise<void> {
  const r = await roleById(db, id);
  if (r.builtin) throw badRequest('内置角色不可删除');
  await db.transaction(async (tx) => {
    await repo.deleteRole(tx, r);
    await writeOpLog(tx, actor, { glName: GL, recordId: r.id, logbook: `删除角色：${r.name}（${r.code}）及其权限` });
  });
}

export async function roleMembers(db: Db, roleId: string): Promise<UserBrief[]> {
  const r = await roleById(db, roleId);
  if (r.builtin) throw badRequest('内置角色的成员由账号类型决定');
  return repo.membersOfRole(db, roleId);
}

export async function saveRoleMembers(db: Db, actor: Actor, roleId: string, userIds: string[]): Promise<UserBrief[]> {
  const r = await roleById(db, roleId);
  if (r.builtin) throw badRequest('内置角色的成员由账号类型决定');
  const ids = [...new Set(userIds)];
  if (!(await repo.usersExist(db, ids))) throw badRequest('用户不存在');
  await db.transaction(async (tx) => {
    await repo.replaceMembersOfRole(tx, roleId, ids);
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: r.id,
      logbook: `设置角色成员：${r.name}，共 ${ids.length} 人`,
    });
  });
  return roleMembers(db, roleId);
}

export const searchUsers = repo.searchUsers;
