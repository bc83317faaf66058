import { api, type MenuItem } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { clearNodeCache, requireNode } from '../../platform/permissions';
import { changedBy, removeById, route, withActor } from '../../platform/route';
import { syncNodeIndexes } from '../engine/schema.service';
import { todoCounts } from '../engine/todos.service';
import * as g from './grants.service';
import * as groups from './groups.service';
import * as menus from './menus.service';
import * as nodes from './nodes.service';
import * as set from './settings.service';
import * as structure from './structure.service';
import { withBadges } from './tree';

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
  route(app, api.structureAdd, withActor(db, structure.addSystem), changedBy(DEV, '系统已生成'));
  route(app, api.systemRename, withActor(db, structure.renameSystem), changedBy(DEV));
  route(app, api.configSystemList, async () => structure.configSystems(db), { roles: CONFIG });
  route(app, api.systemList, async ({ auth }) => {
    const { bySystem } = await todoCounts(db, caller(auth));
    return (await structure.systemsFor(db, caller(auth))).map((x) => ({
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
      if ('id' in query) await menus.deleteMenu(db, auth.actor, query.id);
      else await structure.deleteSystem(db, auth.actor, query.systemCoding);
      return null;
    },
    changedBy(DEV, '删除成功'),
  );
  route(app, api.structureChildMenu, withActor(db, menus.addChildMenu), changedBy(DEV));
  route(app, api.structureEdit, withActor(db, menus.editMenu), changedBy(DEV));
  route(app, api.updatePreview, withActor(db, menus.editMenu), changedBy(DEV));
  route(app, api.structureMove, withActor(db, menus.moveMenu), changedBy(DEV, '操作成功'));
  route(
    app,
    api.updateDataSource,
    async ({ auth, body }) => menus.updateDataSource(db, auth.actor, body.gnCoding, body.dataSource),
    changedBy(DEV),
  );
  // badges: the caller's open to-dos per node, and on a menu the sum of its children's
  // (the tree first: a promise left waiting while another is awaited would reject unhandled if it failed meanwhile)
  const badged = async (auth: Parameters<typeof caller>[0], tree: MenuItem[]) =>
    withBadges(tree, (await todoCounts(db, caller(auth))).byNode);
  route(app, api.mainMenus, async ({ auth, body }) =>
    badged(auth, await menus.menusFor(db, caller(auth), body.systemCoding)),
  );
  route(app, api.submenus, async ({ auth, body }) =>
    badged(auth, await menus.menusFor(db, caller(auth), body.systemCoding, body.parentId)),
  );
  route(app, api.nodeList, async ({ query }) => menus.fullTree(db, query.systemCoding), { roles: CONFIG });
  route(app, api.nodePreviews, async ({ query }) => nodes.preview(db, query.gnCoding), { roles: CONFIG });
  route(app, api.nodeDbList, async () => menus.DATA_SOURCES.map((d) => ({ ...d })), { roles: CONFIG });
  route(app, api.nodeLogos, async () => nodes.menuIcons(), { roles: CONFIG });
  route(app, api.groupIcons, async () => nodes.menuIcons(), { roles: CONFIG });
  route(app, api.nodePullDown, async () => nodes.nodePropertyOptions(), { roles: CONFIG });
  route(app, api.buttonPullDown, async () => nodes.standardButtons(), { roles: CONFIG });
  route(app, api.functionNodes, async ({ body }) => nodes.functionNodes(db, body.systemCoding), { roles: CONFIG });
  route(
    app,
    api.functionList,
    async ({ body }) => nodes.functionsOf(db, (await nodes.nodeByCoding(db, body.gnCoding)).id),
    {
      roles: CONFIG,
    },
  );
  route(
    app,
    api.saveNodeFunctions,
    async ({ auth, body }) => nodes.saveFunctions(db, auth.actor, body.gnCoding, body.functions),
    changedBy(DEV),
  );
  route(
    app,
    api.cacheRefresh,
    async () => ({ nodes: clearNodeCache(), clearedAt: new Date().toISOString() }),
    changedBy(CONFIG, '缓存已刷新'),
  );

  // columns, card style, charts: read by whoever may see the node, written by developers
  /** A node whose configuration the caller reads: one they may see. */
  const visibleNode = async (auth: Parameters<typeof caller>[0], gnCoding: string) => {
    await requireNode(db, caller(auth), gnCoding);
    return nodes.nodeByCoding(db, gnCoding);
  };
  route(app, api.tableColumns, async ({ auth, body }) => nodes.columnsOf(await visibleNode(auth, body.gnCoding)));
  route(
    app,
    api.saveColumns,
    async ({ auth, body }) => {
      const row = await nodes.saveNodeJson(db, auth.actor, body.gnCoding, { columns: body.columns }, '保存列表列');
      // a column made searchable (or no longer) gets (or loses) its index now, not at the next field save
      if (row.dataSource === 'engine' && row.fieldsVersion > 0) await syncNodeIndexes(db, row);
      return nodes.columnsOf(row);
    },
    changedBy(DEV),
  );
  route(app, api.cardSetting, async ({ auth, body }) => nodes.cardStyleOf(await visibleNode(auth, body.gnCoding)));
  route(
    app,
    api.saveCardStyle,
    async ({ auth, body }) => {
      const row = await nodes.saveNodeJson(
        db,
        auth.actor,
        body.gnCoding,
        { cardStyle: body.cardStyle },
        '保存卡片样式',
      );
      return nodes.cardStyleOf(row) ?? body.cardStyle;
    },
    changedBy(DEV),
  );
  route(app, api.nodeCharts, async ({ auth, query }) => nodes.chartsOf(await visibleNode(auth, query.gnCoding)));
  route(
    app,
    api.saveCharts,
    async ({ auth, body }) =>
      nodes.chartsOf(await nodes.saveNodeJson(db, auth.actor, body.gnCoding, { charts: body.charts }, '保存图表')),
    changedBy(DEV),
  );
  route(app, api.styleTemplates, async () => set.templateList(db), { roles: CONFIG });
  route(app, api.styleTemplateCreate, withActor(db, set.createTemplate), changedBy(DEV));
  route(app, api.styleTemplateDelete, removeById(db, set.deleteTemplate), changedBy(DEV, '删除成功'));
  route(
    app,
    api.styleTemplateApply,
    async ({ auth, body }) => set.applyTemplate(db, auth.actor, body.id, body.gnCoding),
    changedBy(DEV, '操作成功'),
  );

  // display groups
  route(app, api.displayGroups, async ({ query }) => groups.groupsOf(db, query.systemCoding), { roles: CONFIG });
  route(app, api.displayGroupCreate, withActor(db, groups.createGroup), changedBy(CONFIG));
  route(app, api.displayGroupUpdate, withActor(db, groups.updateGroup), changedBy(CONFIG));
  route(app, api.displayGroupDelete, removeById(db, groups.deleteGroup), changedBy(CONFIG, '删除成功'));

  // permissions: administrators grant, everyone's buttons come from them
  route(app, api.nodeFunctions, async ({ query }) => g.nodeGrant(db, query), { roles: ADMIN });
  route(app, api.saveFunctions, withActor(db, g.saveNodeGrant), changedBy(ADMIN));
  route(app, api.grantMatrix, async ({ query }) => g.grantMatrix(db, query), { roles: ADMIN });
  route(app, api.saveGrantMatrix, withActor(db, g.saveGrantMatrix), changedBy(ADMIN));
  route(app, api.tableButtons, async ({ auth, body }) => g.buttonsFor(db, caller(auth), body.gnCoding, 'table'));
  route(app, api.formButtons, async ({ auth, body }) => g.buttonsFor(db, caller(auth), body.gnCoding, 'form'));
  // developers read roles and users too: they name the reviewers of audit levels
  route(app, api.roleList, async () => g.listRoles(db), { roles: CONFIG });
  route(app, api.roleCreate, withActor(db, g.createRole), changedBy(ADMIN));
  route(app, api.roleUpdate, withActor(db, g.updateRole), changedBy(ADMIN));
  route(app, api.roleDelete, removeById(db, g.deleteRole), changedBy(ADMIN, '删除成功'));
  route(app, api.roleMembers, async ({ query }) => g.roleMembers(db, query.roleId), { roles: ADMIN });
  route(
    app,
    api.saveRoleMembers,
    async ({ auth, body }) => g.saveRoleMembers(db, auth.actor, body.roleId, body.userIds),
    changedBy(ADMIN),
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
    changedBy(CONFIG),
  );
  route(
    app,
    api.saveAuditWay,
    async ({ auth, body }) => set.saveAuditWays(db, auth.actor, body.gnCoding, body.ways),
    changedBy(CONFIG),
  );
  route(app, api.noticeJumps, async () => set.noticeJumpList(db), { roles: CONFIG });
  route(app, api.saveNoticeJump, withActor(db, set.saveNoticeJump), changedBy(CONFIG));
  route(app, api.deleteNoticeJump, removeById(db, set.deleteNoticeJump), changedBy(CONFIG, '删除成功'));

  // per user: header dropdown and theme
  route(app, api.headerMenus, async ({ auth }) => set.headerMenusFor(db, auth.user.loginRoleType));
  route(app, api.theme, async ({ auth }) => set.themeOf(db, auth.user.id));
  route(app, api.saveTheme, async ({ auth, body }) => set.saveTheme(db, auth.actor, auth.user.id, body), {
    message: '保存成功',
  });
}
