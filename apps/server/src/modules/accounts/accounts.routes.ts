import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import * as accounts from './accounts.service';
import * as enterprise from './enterprise.service';
import * as organizations from './organizations.service';
import * as items from './service-items.service';

/**
 * The administration pages' endpoints. Login role types are checked before the input is read: M administers
 * everything here (and decides enterprises' information changes); D reads organisations; U reads the staff of their own
 * enterprise and proposes changes to its information.
 */
const ADMIN = ['M'];
const ADMIN_OR_DEV = ['M', 'D'];
const ADMIN_OR_USER = ['M', 'U'];

export function accountsRoutes(app: FastifyInstance, db: Db) {
  // accounts
  route(app, api.adminAccountList, async ({ query }) => accounts.listAdmins(db, query), { roles: ADMIN });
  route(app, api.adminAccountCreate, async ({ auth, body }) => accounts.createAdmin(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.personnelList, async ({ auth, query }) => accounts.listPersonnel(db, auth, query), {
    roles: ADMIN_OR_USER,
  });
  route(app, api.personnelCreate, async ({ auth, body }) => accounts.createPersonnel(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.accountUpdate, async ({ auth, body }) => accounts.updateAccount(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.accountStatus, async ({ auth, body }) => accounts.setStatus(db, auth, body), {
    roles: ADMIN,
    message: '操作成功',
  });
  route(app, api.accountUnlock, async ({ auth, body }) => accounts.unlock(db, auth, body), {
    roles: ADMIN,
    message: '已解除锁定',
  });
  route(app, api.accountPassword, async ({ auth, body }) => accounts.resetPassword(db, auth, body), {
    roles: ADMIN,
    message: '密码已重置',
  });
  route(app, api.accountRoles, async ({ query }) => accounts.rolesOf(db, query.id), { roles: ADMIN });
  route(app, api.saveAccountRoles, async ({ auth, body }) => accounts.saveRoles(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });

  // 管理机构
  route(app, api.organizationList, async ({ query }) => organizations.list(db, query), { roles: ADMIN_OR_DEV });
  route(app, api.organizationCreate, async ({ auth, body }) => organizations.create(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.organizationUpdate, async ({ auth, body }) => organizations.update(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.organizationDelete, async ({ auth, query }) => organizations.remove(db, auth.actor, query.id), {
    roles: ADMIN,
    message: '删除成功',
  });

  // 企业信息
  route(app, api.enterpriseInfo, async ({ auth, query }) => enterprise.info(db, auth, query.id), {
    roles: ADMIN_OR_USER,
  });
  route(app, api.enterpriseInfoUpdate, async ({ auth, body }) => enterprise.update(db, auth, body), {
    roles: ADMIN_OR_USER,
    message: (auth) => (auth ? enterprise.updateMessage(auth) : '保存成功'),
  });
  route(app, api.enterpriseInfoList, async ({ query }) => enterprise.list(db, query), { roles: ADMIN });
  route(app, api.enterpriseChangeList, async ({ query }) => enterprise.listChanges(db, query), { roles: ADMIN });
  route(app, api.enterpriseChangeAudit, async ({ auth, body }) => enterprise.audit(db, auth, body), {
    roles: ADMIN,
    message: '操作成功',
  });

  // 办理事项
  route(app, api.serviceItemList, async ({ auth, query }) => items.list(db, auth, query));
  route(app, api.serviceItemCreate, async ({ auth, body }) => items.create(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.serviceItemUpdate, async ({ auth, body }) => items.update(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.serviceItemDelete, async ({ auth, query }) => items.remove(db, auth.actor, query.id), {
    roles: ADMIN,
    message: '删除成功',
  });
}
