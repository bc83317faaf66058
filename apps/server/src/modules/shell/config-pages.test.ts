import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';

/**
 * The configuration pages' calls not walked by shell.test.ts: style templates, notice jumps, the grant matrix,
 * function nodes, data sources, display groups and roles — each answer, refusal and log row.
 */

let t: TestApp;
let dev: string;
let admin: string;

const SYS = 'CFGP';
const NODE_A = 'CFGP_A';
const NODE_B = 'CFGP_B';
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  [dev, admin] = await Promise.all([loginToken(t.app, 'dev', 'D'), loginToken(t.app, 'admin', 'M')]);
  expect(
    (
      await call(dev, 'POST', '/ks/config/new/structure/add', {
        systemName: '配置页',
        title: '配置页',
        gnCoding: SYS,
        levels: 0,
      })
    ).status,
  ).toBe(200);
  for (const code of [NODE_A, NODE_B]) {
    const res = await call(dev, 'POST', '/ks/config/new/structure/child-menu', {
      systemCoding: SYS,
      gnCoding: code,
      title: code,
      nodeProperties: 'list',
    });
    expect(res.status).toBe(200);
    ids[code] = res.body.data.id;
  }
});
afterAll(async () => t?.close());

const api = client(() => t);
const call = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  api.call(method, url, token, payload);

async function logged(glName: string, logbook: string) {
  const rows = await t.database.db
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.glName, glName), eq(operationLogs.logbook, logbook)));
  return rows.length;
}

describe('style templates', () => {
  it('are taken from a node, applied to another, and deleted, each logged; a node without columns is refused', async () => {
    const bare = await call(dev, 'POST', '/ks/config/style-templates', {
      name: '空',
      kind: 'table',
      fromGnCoding: NODE_A,
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('该节点还没有配置列表列');

    const made = await call(dev, 'POST', '/ks/config/style-templates', {
      name: '信用记录列',
      kind: 'table',
      fromGnCoding: 'XYGL_XYJL',
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name: '信用记录列', kind: 'table', cardStyle: null });
    const source = (await call(dev, 'GET', '/ks/config/new/node/previews?gnCoding=XYGL_XYJL')).body.data;
    expect(made.body.data.columns).toEqual(source.columns);
    expect(await logged('系统配置', '新建样式模板：信用记录列（取自 信用记录）')).toBe(1);

    const list = (await call(dev, 'GET', '/ks/config/style-templates')).body.data as { id: string }[];
    expect(list.map((x) => x.id)).toContain(made.body.data.id);

    const applied = await call(dev, 'POST', '/ks/config/style-templates/apply', {
      id: made.body.data.id,
      gnCoding: NODE_A,
    });
    expect(applied.status).toBe(200);
    expect(applied.body.data.columns).toEqual(source.columns);
    expect(await logged('系统配置', `应用样式模板 信用记录列：${NODE_A}`)).toBe(1);

    expect((await call(dev, 'DELETE', `/ks/config/style-templates?id=${made.body.data.id}`)).status).toBe(200);
    expect(await logged('系统配置', '删除样式模板：信用记录列')).toBe(1);
    const again = await call(dev, 'DELETE', `/ks/config/style-templates?id=${made.body.data.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('模板不存在');
  });
});

describe('notice jumps', () => {
  it('are saved, changed, listed with their page and deleted; a node of another system is refused', async () => {
    const wrong = await call(admin, 'POST', '/ks/config/notice-jump', {
      name: '错系统',
      msgType: 'todo',
      systemCoding: SYS,
      gnCoding: 'XYGL_XYJL',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('跳转节点不属于所选系统');

    const made = await call(admin, 'POST', '/ks/config/notice-jump', {
      name: '待办跳转',
      msgType: 'todo',
      systemCoding: SYS,
      gnCoding: NODE_A,
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      name: '待办跳转',
      msgType: 'todo',
      systemCoding: SYS,
      gnCoding: NODE_A,
      enabled: true,
    });
    expect(made.body.data.path).toEqual(expect.any(String));

    const changed = await call(admin, 'POST', '/ks/config/notice-jump', {
      id: made.body.data.id,
      name: '驳回跳转',
      msgType: 'rejected',
      systemCoding: SYS,
      gnCoding: NODE_B,
      enabled: false,
    });
    expect(changed.body.data).toMatchObject({
      id: made.body.data.id,
      name: '驳回跳转',
      gnCoding: NODE_B,
      enabled: false,
    });
    expect(await logged('系统配置', `修改消息跳转：驳回跳转（rejected）→ ${NODE_B}`)).toBe(1);

    const unknown = await call(admin, 'POST', '/ks/config/notice-jump', {
      id: '00000000-0000-4000-8000-000000000000',
      name: '无',
      msgType: 'todo',
      systemCoding: SYS,
      gnCoding: NODE_A,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('配置不存在');

    const list = (await call(admin, 'GET', '/ks/config/notice-jump')).body.data as { id: string }[];
    expect(list.filter((j) => j.id === made.body.data.id)).toHaveLength(1);
    expect((await call(admin, 'DELETE', `/ks/config/notice-jump?id=${made.body.data.id}`)).status).toBe(200);
    expect(await logged('系统配置', '删除消息跳转：驳回跳转')).toBe(1);
    expect((await call(admin, 'DELETE', `/ks/config/notice-jump?id=${made.body.data.id}`)).status).toBe(404);
  });
});

describe('functions, data sources and the grant matrix', () => {
  it('lists the nodes with functions, drops the grants of a removed function, and replaces a whole system', async () => {
    const fns = [
      { code: 'add', name: '新增', color: '#409EFF', show: true, kind: 'table' },
      { code: 'edit', name: '编辑', color: '#409EFF', show: true, kind: 'table' },
    ];
    expect((await call(dev, 'PUT', '/ks/config/new/node/functions', { gnCoding: NODE_A, functions: fns })).status).toBe(
      200,
    );
    const dup = await call(dev, 'PUT', '/ks/config/new/node/functions', {
      gnCoding: NODE_A,
      functions: [fns[0], fns[0]],
    });
    expect(dup.status).toBe(400);
    expect((await call(dev, 'POST', '/ks/config/new/node/function-nodes', { systemCoding: SYS })).body.data).toEqual([
      { gnCoding: NODE_A, title: NODE_A, count: 2 },
    ]);

    const role = await call(admin, 'POST', '/ks/authority/v1/roles', { code: 'cfgp_role', name: '配置页角色' });
    expect(role.status).toBe(200);
    const subject = { subjectType: 'role', subjectId: 'cfgp_role' };
    const matrix = async () =>
      (
        await call(
          admin,
          'GET',
          `/ks/authority/v1/node/matrix?systemCoding=${SYS}&subjectType=role&subjectId=cfgp_role`,
        )
      ).body.data as {
        gnCoding: string;
        depth: number;
        visible: boolean;
        functions: { code: string; granted: boolean }[];
      }[];

    const unknownFn = await call(admin, 'PUT', '/ks/authority/v1/node/save-matrix', {
      ...subject,
      systemCoding: SYS,
      grants: [{ gnCoding: NODE_A, visible: true, functionCodes: ['nope'] }],
    });
    expect(unknownFn.status).toBe(400);
    expect(unknownFn.body.message).toBe(`节点 ${NODE_A} 没有按钮：nope`);
    const foreign = await call(admin, 'PUT', '/ks/authority/v1/node/save-matrix', {
      ...subject,
      systemCoding: SYS,
      grants: [{ gnCoding: 'XYGL_XYJL', visible: true, functionCodes: [] }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('节点 XYGL_XYJL 不属于该系统');

    const saved = await call(admin, 'PUT', '/ks/authority/v1/node/save-matrix', {
      ...subject,
      systemCoding: SYS,
      grants: [
        { gnCoding: NODE_A, visible: false, functionCodes: ['add', 'edit'] },
        { gnCoding: NODE_B, visible: true, functionCodes: [] },
      ],
    });
    expect(saved.status).toBe(200);
    expect(await logged('权限配置', '保存权限 角色 配置页角色：系统 配置页，可见节点 2 个，按钮 2 个')).toBe(1);
    let rows = await matrix();
    expect(rows.map((r) => [r.gnCoding, r.depth, r.visible])).toEqual([
      [NODE_A, 0, true],
      [NODE_B, 0, true],
    ]);
    expect(rows[0]!.functions.map((f) => [f.code, f.granted])).toEqual([
      ['add', true],
      ['edit', true],
    ]);

    // a function removed takes its grants along; the node stays visible
    await call(dev, 'PUT', '/ks/config/new/node/functions', { gnCoding: NODE_A, functions: [fns[0]] });
    const one = await call(
      admin,
      'GET',
      `/ks/authority/v1/node/functions?gnCoding=${NODE_A}&subjectType=role&subjectId=cfgp_role`,
    );
    expect(one.body.data).toMatchObject({
      gnCoding: NODE_A,
      visible: true,
      functions: [{ code: 'add', granted: true }],
    });

    // the whole system is replaced: a node left out loses its grants
    await call(admin, 'PUT', '/ks/authority/v1/node/save-matrix', {
      ...subject,
      systemCoding: SYS,
      grants: [{ gnCoding: NODE_B, visible: true, functionCodes: [] }],
    });
    rows = await matrix();
    expect(rows.map((r) => [r.gnCoding, r.visible])).toEqual([
      [NODE_A, false],
      [NODE_B, true],
    ]);
  });

  it('changes a data source to one on the list only', async () => {
    const bad = await call(dev, 'POST', '/ks/config/new/node/update-data-source', {
      gnCoding: NODE_B,
      dataSource: 'users',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.dataSource).toEqual(['数据来源不在可选范围内']);
    const ok = await call(dev, 'POST', '/ks/config/new/node/update-data-source', {
      gnCoding: NODE_B,
      dataSource: 'enterprises',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ gnCoding: NODE_B, dataSource: 'enterprises', systemCoding: SYS });
    expect(await logged('系统配置', '修改数据来源：engine → enterprises')).toBe(1);
  });
});

describe('display groups', () => {
  it('refuse a name twice in a system; menus follow a rename and lose a deleted group', async () => {
    const made = await call(dev, 'POST', '/ks/config/structure/display-groups', {
      systemCoding: SYS,
      name: '常用',
      sort: 1,
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ systemCoding: SYS, name: '常用', icon: null, sort: 1 });
    const twice = await call(dev, 'POST', '/ks/config/structure/display-groups', { systemCoding: SYS, name: '常用' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('分组名称已存在');

    const menu = await call(dev, 'POST', '/ks/config/new/structure/child-menu', {
      systemCoding: SYS,
      gnCoding: 'CFGP_G',
      title: '分组菜单',
      nodeProperties: 'list',
      groupName: '常用',
    });
    expect(menu.body.data.groupName).toBe('常用');
    const groupOf = async () =>
      (
        (await call(dev, 'GET', `/ks/config/new/node/node-list?systemCoding=${SYS}`)).body.data as {
          gnCoding: string;
          groupName: string | null;
        }[]
      ).find((m) => m.gnCoding === 'CFGP_G')?.groupName;

    const other = await call(dev, 'POST', '/ks/config/structure/display-groups', { systemCoding: SYS, name: '其他' });
    const clash = await call(dev, 'PUT', '/ks/config/structure/display-groups', {
      id: other.body.data.id,
      name: '常用',
    });
    expect(clash.status).toBe(409);

    const renamed = await call(dev, 'PUT', '/ks/config/structure/display-groups', {
      id: made.body.data.id,
      name: '高频',
      sort: 2,
    });
    expect(renamed.body.data).toMatchObject({ id: made.body.data.id, systemCoding: SYS, name: '高频', sort: 2 });
    expect(await groupOf()).toBe('高频');
    expect(await logged('系统配置', '修改分组：常用 → 高频')).toBe(1);

    expect((await call(dev, 'DELETE', `/ks/config/structure/display-groups?id=${made.body.data.id}`)).status).toBe(200);
    expect(await groupOf()).toBeNull();
    const groups = (await call(dev, 'GET', `/ks/config/structure/display-groups?systemCoding=${SYS}`)).body.data;
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['其他']);
    const gone = await call(dev, 'PUT', '/ks/config/structure/display-groups', { id: made.body.data.id, name: 'x' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('分组不存在');
  });
});

describe('roles', () => {
  it('refuse a code taken in any case, rename and delete custom roles, and leave built-in ones alone', async () => {
    const made = await call(admin, 'POST', '/ks/authority/v1/roles', { code: 'cfgp_x', name: '临时' });
    expect(made.body.data).toMatchObject({ code: 'cfgp_x', name: '临时', builtin: false, memberCount: 0 });
    const twice = await call(admin, 'POST', '/ks/authority/v1/roles', { code: 'CFGP_X', name: '临时' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('角色编码已存在');

    const renamed = await call(admin, 'PUT', '/ks/authority/v1/roles', { id: made.body.data.id, name: '正式' });
    expect(renamed.body.data).toMatchObject({ id: made.body.data.id, name: '正式' });
    expect(await logged('权限配置', '修改角色：临时 → 正式')).toBe(1);

    const roles = (await call(admin, 'GET', '/ks/authority/v1/roles')).body.data as {
      id: string;
      code: string;
      builtin: boolean;
      memberCount: number;
    }[];
    const adminRole = roles.find((r) => r.code === 'admin')!;
    expect(adminRole.builtin).toBe(true);
    expect(adminRole.memberCount).toBeGreaterThan(0);
    const builtin = await call(admin, 'DELETE', `/ks/authority/v1/roles?id=${adminRole.id}`);
    expect(builtin.status).toBe(400);
    expect(builtin.body.message).toBe('内置角色不可删除');
    expect((await call(admin, 'PUT', '/ks/authority/v1/roles', { id: adminRole.id, name: 'x' })).status).toBe(400);

    expect((await call(admin, 'DELETE', `/ks/authority/v1/roles?id=${made.body.data.id}`)).status).toBe(200);
    expect(await logged('权限配置', '删除角色：正式（cfgp_x）及其权限')).toBe(1);
    expect((await call(admin, 'DELETE', `/ks/authority/v1/roles?id=${made.body.data.id}`)).status).toBe(404);
  });
});
