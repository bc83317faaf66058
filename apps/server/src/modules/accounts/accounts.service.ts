import {
  ACCOUNT_MESSAGES as A,
  ACCOUNT_STATUS_LABELS,
  type AccountRoles,
  type AccountRow,
  type AccountStatus,
  LOGIN_ROLE_LABELS,
  type LoginRoleType,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { checkNewPassword, hashPassword, passwordProblem, rememberPassword } from '../../platform/password';
import { revokeUserSessions } from '../auth/auth.repo';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './accounts.repo';

/**
 * Accounts (/system/adminInfo for M and D accounts, /system/personnelInfo for U accounts). Administrators create,
 * enable/disable and reset passwords; disabling or resetting ends the account's sessions at once.
 */

const GL = '账号管理';
const ADMIN_TYPES = ['M', 'D'];
const USER_TYPES = ['U'];

const typeLabel = (t: string) => LOGIN_ROLE_LABELS[t as LoginRoleType] ?? t;

function view(
  row: { user: repo.UserRow; enterpriseName: string | null },
  roles: AccountRow['roles'] = [],
  loginLocks: AccountRow['loginLocks'] = [],
): AccountRow {
  const u = row.user;
  return {
    id: u.id,
    account: u.account,
    userName: u.userName,
    phone: u.phone,
    loginRoleType: u.loginRoleType,
    status: u.status as AccountStatus,
    mustChangePassword: u.mustChangePassword,
    loginLocks,
    enterpriseId: u.enterpriseId,
    enterpriseName: row.enterpriseName,
    roles,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

async function withRoles(db: Db, rows: { user: repo.UserRow; enterpriseName: string | null }[]) {
  const roles = await repo.customRolesOf(
    db,
    rows.filter((r) => r.user.loginRoleType === 'U').map((r) => r.user.id),
  );
  const locks = await repo.loginLocksOf(
    db,
    rows.map((r) => r.user.account),
    new Date(),
  );
  return rows.map((r) => view(r, roles.get(r.user.id) ?? [], locks.get(r.user.account) ?? []));
}

async function accountView(db: Db, id: string): Promise<AccountRow> {
  const row = await repo.findAccount(db, id);
  if (!row) throw notFound(A.notFound);
  const [v] = await withRoles(db, [row]);
  return v!;
}

type ListQuery = Omit<repo.AccountFilter, 'loginRoleTypes'>;

export async function listAdmins(db: Db, q: Omit<ListQuery, 'enterpriseId'>) {
  const { records, total } = await repo.listAccounts(db, { ...q, loginRoleTypes: ADMIN_TYPES });
  return { records: await withRoles(db, records), total };
}

/** Administrators see every U account; a U user sees the staff of their own enterprise only. */
export async function listPersonnel(db: Db, auth: AuthContext, q: Omit<ListQuery, 'loginRoleType'>) {
  let enterpriseId = q.enterpriseId;
  if (auth.user.loginRoleType !== 'M') {
    const own = auth.user.enterpriseId;
    if (enterpriseId && enterpriseId !== own) throw forbidden('只能查看本企业的人员');
    if (!own) return { records: [], total: 0 };
    enterpriseId = own;
  }
  const { records, total } = await repo.listAccounts(db, { ...q, enterpriseId, loginRoleTypes: USER_TYPES });
  return { records: await withRoles(db, records), total };
}

/** The platform's password rule, checked again here whatever the contract said. */
function checkPassword(password: string, account?: string) {
  const problem = passwordProblem(password, account);
  if (problem) throw validationFailed({ password: [problem] });
}

function duplicate() {
  return Object.assign(conflict(A.duplicate), { data: { fieldErrors: { account: [A.duplicate] } } });
}

async function createAccount(
  db: Db,
  actor: Actor,
  input: {
    account: string;
    userName: string;
    phone: string;
    password: string;
    loginRoleType: string;
    enterpriseId: string | null;
  },
): Promise<AccountRow> {
  checkPassword(input.password, input.account);
  const account = input.account.toLowerCase();
  if (await repo.accountExists(db, account)) throw duplicate();
  if (input.enterpriseId && !(await repo.findEnterprise(db, input.enterpriseId))) {
    throw validationFailed({ enterpriseId: [A.enterpriseNotFound] });
  }
  const passwordHash = await hashPassword(input.password);
  const id = await db
    .transaction(async (tx) => {
      const row = await repo.insertAccount(tx, {
        account,
        userName: input.userName,
        phone: input.phone,
        loginRoleType: input.loginRoleType,
        enterpriseId: input.enterpriseId,
        passwordHash,
        status: 'active',
        mustChangePassword: true,
      });
      await writeOpLog(tx, actor, {
        glName: GL,
        recordId: row.id,
        logbook: `新增${typeLabel(row.loginRoleType)}账号：${row.userName}（${row.account}）`,
      });
      return row.id;
    })
    .catch((e: unknown) => {
      if (isUniqueViolation(e)) throw duplicate();
      throw e;
    });
  return accountView(db, id);
}

export function createAdmin(
  db: Db,
  actor: Actor,
  input: { account: string; userName: string; phone: string; password: string; loginRoleType: 'M' | 'D' },
) {
  return createAccount(db, actor, { ...input, enterpriseId: null });
}

export function createPersonnel(
  db: Db,
  actor: Actor,
  input: { account: string; userName: string; phone: string; password: string; enterpriseId: string },
) {
  return createAccount(db, actor, { ...input, loginRoleType: 'U' });
}

export async function updateAccount(
  db: Db,
  actor: Actor,
  input: { id: string; updatedAt: string; userName: string; phone: string },
): Promise<AccountRow> {
  await db.transaction(async (tx) => {
    const row = await repo.updateAccount(
      tx,
      input.id,
      { userName: input.userName, phone: input.phone },
      input.updatedAt,
    );
    if (!row) {
      if (!(await repo.findAccount(tx, input.id))) throw notFound(A.notFound);
      throw conflict(A.stale);
    }
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: row.id,
      logbook: `修改账号信息：${row.userName}（${row.account}）`,
    });
  });
  return accountView(db, input.id);
}

export async function setStatus(
  db: Db,
  auth: AuthContext,
  input: { id: string; status: AccountStatus },
): Promise<AccountRow> {
  if (input.status === 'disabled' && input.id === auth.user.id) {
    throw validationFailed({ status: [A.cannotDisableSelf] }, A.cannotDisableSelf);
  }
  await db.transaction(async (tx) => {
    const existing = await repo.findAccount(tx, input.id);
    if (!existing) throw notFound(A.notFound);
    if (existing.user.status === input.status) return;
    const row = await repo.updateAccount(tx, input.id, { status: input.status });
    // a disabled account is signed out everywhere at once
    if (input.status === 'disabled') await revokeUserSessions(tx, input.id, 'admin', new Date());
    await writeOpLog(tx, auth.actor, {
      glName: GL,
      recordId: input.id,
      logbook: `${input.status === 'disabled' ? '停用' : '启用'}账号：${row!.userName}（${row!.account}），状态改为${ACCOUNT_STATUS_LABELS[input.status]}`,
    });
  });
  return accountView(db, input.id);
}

export async function resetPassword(
  db: Db,
  auth: AuthContext,
  input: { id: string; password: string },
): Promise<AccountRow> {
  if (input.id === auth.user.id) throw badRequest(A.cannotResetSelf);
  const target = await repo.findAccount(db, input.id);
  if (!target) throw notFound(A.notFound);
  await checkNewPassword(db, { id: input.id, account: target.user.account }, input.password, 'password');
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await rememberPassword(tx, input.id, new Date());
    const row = await repo.updateAccount(tx, input.id, { passwordHash, mustChangePassword: true });
    if (!row) throw notFound(A.notFound);
    await revokeUserSessions(tx, input.id, 'admin', new Date());
    await writeOpLog(tx, auth.actor, {
      glName: GL,
      recordId: input.id,
      logbook: `重置密码：${row.userName}（${row.account}），下次登录须修改密码`,
    });
  });
  return accountView(db, input.id);
}

/** Lift the sign-in locks of an account (every address) and forget its failures so far. */
export async function unlock(db: Db, auth: AuthContext, input: { id: string }): Promise<AccountRow> {
  const row = await repo.findAccount(db, input.id);
  if (!row) throw notFound(A.notFound);
  await db.transaction(async (tx) => {
    const lifted = await repo.unlockAccount(tx, input.id, row.user.account, new Date());
    await writeOpLog(tx, auth.actor, {
      glName: GL,
      recordId: input.id,
      logbook: `解除登录锁定：${row.user.userName}（${row.user.account}）${lifted ? `，解除 ${lifted} 个地址的锁定` : '，失败次数清零'}`,
    });
  });
  return accountView(db, input.id);
}

async function requireUserAccount(db: Db, id: string) {
  const row = await repo.findAccount(db, id);
  if (!row) throw notFound(A.notFound);
  if (row.user.loginRoleType !== 'U') throw badRequest('只能为企业/个人账号分配角色');
  return row;
}

export async function rolesOf(db: Db, id: string): Promise<AccountRoles> {
  await requireUserAccount(db, id);
  const assigned = (await repo.customRolesOf(db, [id])).get(id) ?? [];
  return { roles: await repo.assignableRoles(db), roleIds: assigned.map((r) => r.id) };
}

export async function saveRoles(db: Db, actor: Actor, input: { id: string; roleIds: string[] }): Promise<AccountRoles> {
  const row = await requireUserAccount(db, input.id);
  const ids = [...new Set(input.roleIds)];
  const assignable = await repo.assignableRoles(db);
  const unknown = ids.filter((id) => !assignable.some((r) => r.id === id));
  if (unknown.length) throw validationFailed({ roleIds: ['角色不存在或为内置角色，不能分配'] });
  await db.transaction(async (tx) => {
    await repo.replaceUserRoles(tx, input.id, ids);
    const names = assignable.filter((r) => ids.includes(r.id)).map((r) => r.name);
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: input.id,
      logbook: `设置角色：${row.user.userName}（${row.user.account}）→ ${names.length ? names.join('、') : '无'}`,
    });
  });
  return rolesOf(db, input.id);
}
