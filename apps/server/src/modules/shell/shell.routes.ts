import { api, type MenuItem } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { clearNodeCache, requireNode } from '../../platform/permissions';
import { route } from '../../platform/route';
import { syncNodeIndexes } from '../engine/schema.service';
import { todoCounts } from '../engine/todos.service';
import * as g from './grants.service';
import * as set from './settings.service';
import * as s from './structure.service';

const DEV = ['D'];
const ADMIN = ['M'];
const CONFIG = ['M', 'D'];

/** The configurable shell (spec §7 Configuration): systems, menus, nodes, functions, permissions, themes. */
export function shellRoutes(app: FastifyInstance, db: Db) {
  const caller = (auth: { user: { id: string; loginRoleType: string } }) => ({
    id: auth.user.id,
    loginRoleType: auth.user.loginRoleType,
  });

  // systems (developers build them; the code is immutable)
  route(app, api.structureAdd, async ({ auth, body }) => s.addSystem(db, auth.actor, body), {
    roles: DEV,
    message: '系统已生成',
  });
  route(app, api.systemRename, async ({ auth, body }) => s.renameSystem(db, auth.actor, body), {
    roles: DEV,
    message: '保存成功',
  });
  route(app, api.configSystemList, async () => s.configSystems(db), { roles: CONFIG });
  route(app, api.systemList, async ({ auth }) => {
    const { bySystem } = await todoCounts(db, caller(auth));
    return (await s.systemsFor(db, caller(auth))).map((x) => ({
      systemName: x.systemName,
      systemCoding: x.gnCoding,
      title: x.title,
      // the caller's open to-dos in the system
      todoCount: bySystem.get(x.id) ?? 0,
    }));
  });

  // menus and nodes
  route(
    app,
    api.structureDel,
    async ({ auth, query }) => {
      if ('id' in query) await s.deleteMenu(db, auth.actor, query.id);
      else await s.deleteSystem(db, auth.actor, query.systemCoding);
      return null;
    },
    { roles: DEV, message: '删除成功' },
  );
  route(
    app,
    api.structureChildMenu,
    async ({ auth, body }) => s.addChildMenu(db, auth.actor, s.normaliseChild(body as never)),
    { roles: DEV, message: '保存成功' },
  );
  route(app, api.structureEdit, async ({ auth, body }) => s.editMenu(db, auth.actor, body), {
    roles: DEV,
    message: '保存成功',
  });
  route(app, api.updatePreview, async ({ auth, body }) => s.editMenu(db, auth.actor, body), {
    roles: DEV,
    message: '保存成功',
  });
  route(app, api.structureMove, async ({ auth, body }) => s.moveMenu(db, auth.actor, body), {
    roles: DEV,
    message: '操作成功',
  });
  route(
    app,
    api.updateDataSource,
    async ({ auth, body }) => s.updateDataSource(db, auth.actor, body.gnCoding, body.dataSource),
    { roles: DEV, message: '保存成功' },
  );
  // badges: the caller's open to-dos per node, and on a menu the sum of its children's
  // (the tree first: a promise left waiting while another is awaited would reject unhandled if it failed meanwhile)
  const badged = async (auth: Parameters<typeof caller>[0], tree: MenuItem[]) => {
    const { byNode } = await todoCounts(db, caller(auth));
    const mark = (list: MenuItem[]): number =>
      list.reduce((sum, m) => {
        m.badge = (byNode.get(m.id) ?? 0) + mark(m.children);
        return sum + m.badge;
      }, 0);
    mark(tree);
    return tree;
  };
  route(app, api.mainMenus, async ({ auth, body }) =>
    badged(auth, await s.menusFor(db, caller(auth), body.systemCoding)),
  );
  route(app, api.submenus, async ({ auth, body }) =>
    badged(auth, await s.menusFor(db, caller(auth), body.systemCoding, body.parentId)),
  );
  route(app, api.nodeList, async ({ query }) => s.fullTree(db, query.systemCoding), { roles: CONFIG });
  route(app, api.nodePreviews, async ({ query }) => s.preview(db, query.gnCoding), { roles: CONFIG });
  route(app, api.nodeDbList, async () => s.DATA_SOURCES.map((d) => ({ ...d })), { roles: CONFIG });
  route(app, api.nodeLogos, async () => s.menuIcons(), { roles: CONFIG });
  route(app, api.groupIcons, async () => s.menuIcons(), { roles: CONFIG });
  route(app, api.nodePullDown, async () => s.nodePropertyOptions(), { roles: CONFIG });
  route(app, api.buttonPullDown, async () => s.standardButtons(), { roles: CONFIG });
  route(app, api.functionNodes, async ({ body }) => s.functionNodes(db, body.systemCoding), { roles: CONFIG });
  route(app, api.functionList, async ({ body }) => s.functionsOf(db, (await s.nodeByCoding(db, body.gnCoding)).id), {
    roles: CONFIG,
  });
  route(
    app,
    api.saveNodeFunctions,
    async ({ auth, body }) => s.saveFunctions(db, auth.actor, body.gnCoding, body.functions),
    {
      roles: DEV,
      message: '保存成功',
    },
  );
  route(app, api.cacheRefresh, async () => ({ nodes: clearNodeCache(), clearedAt: new Date().toISOString() }), {
    roles: CONFIG,
    message: '缓存已刷新',
  });

  // columns, card style, charts: read by whoever may see the node, written by developers
  route(app, api.tableColumns, async ({ auth, body }) => {
    await requireNode(db, caller(auth), body.gnCoding);
    return s.columnsOf(await s.nodeByCoding(db, body.gnCoding));
  });
  route(
    app,
    api.saveColumns,
    async ({ auth, body }) => {
      const row = await s.saveNodeJson(db, auth.actor, body.gnCoding, { columns: body.columns }, '保存列表列');
      // a column made searchable (or no longer) gets (or loses) its index now, not at the next field save
      if (row.dataSource === 'engine' && row.fieldsVersion > 0) await syncNodeIndexes(db, row);
      return s.columnsOf(row);
    },
    { roles: DEV, message: '保存成功' },
  );
  route(app, api.cardSetting, async ({ auth, body }) => {
    await requireNode(db, caller(auth), body.gnCoding);
    return s.cardStyleOf(await s.nodeByCoding(db, body.gnCoding));
  });
  route(
    app,
    api.saveCardStyle,
    async ({ auth, body }) => {
      const row = await s.saveNodeJson(db, auth.actor, body.gnCoding, { cardStyle: body.cardStyle }, '保存卡片样式');
      return s.cardStyleOf(row) ?? body.cardStyle;
    },
    { roles: DEV, message: '保存成功' },
  );
  route(app, api.nodeCharts, async ({ auth, query }) => {
    await requireNode(db, caller(auth), query.gnCoding);
    return s.chartsOf(await s.nodeByCoding(db, query.gnCoding));
  });
  route(
    app,
    api.saveCharts,
    async ({ auth, body }) =>
      s.chartsOf(await s.saveNodeJson(db, auth.actor, body.gnCoding, { charts: body.charts }, '保存图表')),
    { roles: DEV, message: '保存成功' },
  );
  route(app, api.styleTemplates, async () => set.templateList(db), { roles: CONFIG });
  route(app, api.styleTemplateCreate, async ({ auth, body }) => set.createTemplate(db, auth.actor, body), {
    roles: DEV,
    message: '保存成功',
  });
  route(
    app,
    api.styleTemplateDelete,
    async ({ auth, query }) => {
      await set.deleteTemplate(db, auth.actor, query.id);
      return null;
    },
    { roles: DEV, message: '删除成功' },
  );
  route(
    app,
    api.styleTemplateApply,
    async ({ auth, body }) => set.applyTemplate(db, auth.actor, body.id, body.gnCoding),
    {
      roles: DEV,
      message: '操作成功',
    },
  );

  // display groups
  route(app, api.displayGroups, async ({ query }) => s.groupsOf(db, query.systemCoding), { roles: CONFIG });
  route(app, api.displayGroupCreate, async ({ auth, body }) => s.createGroup(db, auth.actor, body), {
    roles: CONFIG,
    message: '保存成功',
  });
  route(app, api.displayGroupUpdate, async ({ auth, body }) => s.updateGroup(db, auth.actor, body), {
    roles: CONFIG,
    message: '保存成功',
  });
  route(
    app,
    api.displayGroupDelete,
    async ({ auth, query }) => {
      await s.deleteGroup(db, auth.actor, query.id);
      return null;
    },
    { roles: CONFIG, message: '删除成功' },
  );

  // permissions: administrators grant, everyone's buttons come from them
  route(app, api.nodeFunctions, async ({ query }) => g.nodeGrant(db, query), { roles: ADMIN });
  route(app, api.saveFunctions, async ({ auth, body }) => g.saveNodeGrant(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.grantMatrix, async ({ query }) => g.grantMatrix(db, query), { roles: ADMIN });
  route(app, api.saveGrantMatrix, async ({ auth, body }) => g.saveGrantMatrix(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.tableButtons, async ({ auth, body }) => g.buttonsFor(db, caller(auth), body.gnCoding, 'table'));
  route(app, api.formButtons, async ({ auth, body }) => g.buttonsFor(db, caller(auth), body.gnCoding, 'form'));
  // developers read roles and users too: they name the reviewers of audit levels
  route(app, api.roleList, async () => g.listRoles(db), { roles: CONFIG });
  route(app, api.roleCreate, async ({ auth, body }) => g.createRole(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(app, api.roleUpdate, async ({ auth, body }) => g.updateRole(db, auth.actor, body), {
    roles: ADMIN,
    message: '保存成功',
  });
  route(
    app,
    api.roleDelete,
    async ({ auth, query }) => {
      await g.deleteRole(db, auth.actor, query.id);
      return null;
    },
    { roles: ADMIN, message: '删除成功' },
  );
  route(app, api.roleMembers, async ({ query }) => g.roleMembers(db, query.roleId), { roles: ADMIN });
  route(
    app,
    api.saveRoleMembers,
    async ({ auth, body }) => g.saveRoleMembers(db, auth.actor, body.roleId, body.userIds),
    {
      roles: ADMIN,
      message: '保存成功',
    },
  );
  route(app, api.userSearch, async ({ query }) => g.searchUsers(db, query), { roles: CONFIG });

  // audit levels and ways, notice jumps
  route(app, api.auditConfig, async ({ query }) => set.auditConfigWithReviewers(db, query.gnCoding), {
    roles: CONFIG,
  });
  route(
    app,
    api.saveAuditLevels,
    async ({ auth, body }) => set.saveAuditLevels(db, auth.actor, body.gnCoding, body.levels),
    {
      roles: CONFIG,
      message: '保存成功',
    },
  );
  route(app, api.saveAuditWay, async ({ auth, body }) => set.saveAuditWays(db, auth.actor, body.gnCoding, body.ways), {
    roles: CONFIG,
    message: '保存成功',
  });
  route(app, api.noticeJumps, async () => set.noticeJumpList(db), { roles: CONFIG });
  route(app, api.saveNoticeJump, async ({ auth, body }) => set.saveNoticeJump(db, auth.actor, body), {
    roles: CONFIG,
    message: '保存成功',
  });
  route(
    app,
    api.deleteNoticeJump,
    async ({ auth, query }) => {
      await set.deleteNoticeJump(db, auth.actor, query.id);
      return null;
    },
    { roles: CONFIG, message: '删除成功' },
  );

  // per user: header dropdown and theme
  route(app, api.headerMenus, async ({ auth }) => set.headerMenusFor(db, auth.user.loginRoleType));
  route(app, api.theme, async ({ auth }) => set.themeOf(db, auth.user.id));
  route(app, api.saveTheme, async ({ auth, body }) => set.saveTheme(db, auth.actor, auth.user.id, body), {
    message: '保存成功',
  });
}
