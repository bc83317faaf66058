import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { changedBy, removeById, route, withActor, withAuth } from '../../platform/route';
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
  route(app, api.adminAccountCreate, withActor(db, accounts.createAdmin), changedBy(ADMIN));
  route(app, api.personnelList, async ({ auth, query }) => accounts.listPersonnel(db, auth, query), {
    roles: ADMIN_OR_USER,
  });
  route(app, api.personnelCreate, withActor(db, accounts.createPersonnel), changedBy(ADMIN));
  route(app, api.accountUpdate, withActor(db, accounts.updateAccount), changedBy(ADMIN));
  route(app, api.accountStatus, withAuth(db, accounts.setStatus), changedBy(ADMIN, '操作成功'));
  route(app, api.accountUnlock, withAuth(db, accounts.unlock), changedBy(ADMIN, '已解除锁定'));
  route(app, api.accountPassword, withAuth(db, accounts.resetPassword), changedBy(ADMIN, '密码已重置'));
  route(app, api.accountRoles, async ({ query }) => accounts.rolesOf(db, query.id), { roles: ADMIN });
  route(app, api.saveAccountRoles, withActor(db, accounts.saveRoles), changedBy(ADMIN));

  // 管理机构
  route(app, api.organizationList, async ({ query }) => organizations.list(db, query), { roles: ADMIN_OR_DEV });
  route(app, api.organizationCreate, withActor(db, organizations.create), changedBy(ADMIN));
  route(app, api.organizationUpdate, withActor(db, organizations.update), changedBy(ADMIN));
  route(app, api.organizationDelete, removeById(db, organizations.remove), changedBy(ADMIN, '删除成功'));

  // 企业信息
  route(app, api.enterpriseInfo, async ({ auth, query }) => enterprise.info(db, auth, query.id), {
    roles: ADMIN_OR_USER,
  });
  route(app, api.enterpriseInfoUpdate, withAuth(db, enterprise.update), {
    roles: ADMIN_OR_USER,
    message: (auth) => (auth ? enterprise.updateMessage(auth) : '保存成功'),
  });
  route(app, api.enterpriseInfoList, async ({ query }) => enterprise.list(db, query), { roles: ADMIN });
  route(app, api.enterpriseChangeList, async ({ query }) => enterprise.listChanges(db, query), { roles: ADMIN });
  route(app, api.enterpriseChangeAudit, withAuth(db, enterprise.audit), changedBy(ADMIN, '操作成功'));

  // 办理事项
  route(app, api.serviceItemList, async ({ auth, query }) => items.list(db, auth, query));
  route(app, api.serviceItemCreate, withActor(db, items.create), changedBy(ADMIN));
  route(app, api.serviceItemUpdate, withActor(db, items.update), changedBy(ADMIN));
  route(app, api.serviceItemDelete, removeById(db, items.remove), changedBy(ADMIN, '删除成功'));
}
