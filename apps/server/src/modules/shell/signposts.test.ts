import { MENU_SCORE_MESSAGES } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';

type MenuLike = { id: string; gnCoding: string; title: string; score: number | null; children: MenuLike[] };

let t: TestApp;
let dev: string;
let admin: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  [dev, admin, user] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
  ]);
});
afterAll(async () => t?.close());

const api = client(() => t);
const call = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  api.call(method, url, token, payload);

const find = (items: MenuLike[], code: string): MenuLike | null => {
  for (const it of items) {
    if (it.gnCoding === code) return it;
    const hit = find(it.children, code);
    if (hit) return hit;
  }
  return null;
};
const menusOf = async (token: string, systemCoding: string) =>
  (await call(token, 'POST', '/ks/menu/v1/menus/main-menus', { systemCoding })).body.data as MenuLike[];

describe('the header dropdown names what each entry opens', () => {
  it('gives administrators 门户公告管理 and names the pages as they are titled', async () => {
    const entries = async (token: string) =>
      (await call(token, 'GET', '/ks/individual/menus')).body.data as { key: string; label: string; path: string }[];
    const byKey = new Map((await entries(admin)).map((e) => [e.key, e]));
    expect(byKey.get('jumpNoticeCfg')).toMatchObject({ label: '消息跳转配置', path: '/system/jumpNoticeCfg' });
    expect(byKey.get('portalNotices')).toMatchObject({ label: '门户公告管理', path: '/system/portalNotices' });
    expect(byKey.get('permissionsSet')?.label).toBe('角色权限');
    expect(byKey.get('permissConfig')?.label).toBe('权限配置');
    expect(byKey.get('managementInfo')?.label).toBe('管理机构');
    expect((await entries(dev)).find((e) => e.key === 'allSystem')?.label).toBe('系统管理');
    // portal notices are administered by administrators only
    for (const token of [dev, user]) expect((await entries(token)).map((e) => e.key)).not.toContain('portalNotices');
  });
});

describe('a node defines the score the sidebar shows (screen 20)', () => {
  it('comes from the node: the demo 信用记录 shows its full marks, other nodes none', async () => {
    const tree = await menusOf(user, 'XYGL');
    expect(find(tree, 'XYGL_XYJL')?.score).toBe(100);
    expect(find(tree, 'XYGL_ZYZC')?.score).toBeNull();
  });

  it('is set and cleared by developers in the menu set-up, validated, and logged', async () => {
    const node = find(await menusOf(dev, 'XYGL'), 'XYGL_ZYZC')!;
    const edit = (score: unknown) =>
      call(dev, 'PUT', '/ks/config/new/structure/edit', {
        id: node.id,
        title: node.title,
        nodeProperties: 'list',
        score,
      });
    expect((await edit(88.5)).status).toBe(200);
    expect(find(await menusOf(user, 'XYGL'), 'XYGL_ZYZC')?.score).toBe(88.5);
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.recordId, node.id), eq(operationLogs.glName, '系统配置')));
    expect(logs.some((l) => l.logbook.includes('分值 88.5'))).toBe(true);

    for (const [bad, message] of [
      [-1, MENU_SCORE_MESSAGES.range],
      [100000, MENU_SCORE_MESSAGES.range],
      [1.234, MENU_SCORE_MESSAGES.precision],
    ] as const) {
      const r = await edit(bad);
      expect(r.status).toBe(400);
      expect(r.body.data.fieldErrors.score).toEqual([message]);
    }
    expect((await edit('九十')).status).toBe(400);
    // nothing was written by the refused edits
    expect(find(await menusOf(user, 'XYGL'), 'XYGL_ZYZC')?.score).toBe(88.5);
    expect((await edit(null)).status).toBe(200);
    expect(find(await menusOf(user, 'XYGL'), 'XYGL_ZYZC')?.score).toBeNull();
  });

  it('is given to a new node at creation', async () => {
    const r = await call(dev, 'POST', '/ks/config/new/structure/child-menu', {
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_SCORE_T',
      title: '良好行为',
      nodeProperties: 'list',
      score: 20,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.score).toBe(20);
    expect(find(await menusOf(dev, 'XYGL'), 'XYGL_SCORE_T')?.score).toBe(20);
  });
});

describe('paths as spec §7 writes them', () => {
  it('answers display-groups with and without the trailing slash', async () => {
    const plain = await call(dev, 'GET', '/ks/config/structure/display-groups?systemCoding=XYGL');
    const slash = await call(dev, 'GET', '/ks/config/structure/display-groups/?systemCoding=XYGL');
    expect(plain.status).toBe(200);
    expect(slash.status).toBe(200);
    expect(slash.body.data).toEqual(plain.body.data);
    // the same rules apply to both forms
    expect((await call(user, 'GET', '/ks/config/structure/display-groups/?systemCoding=XYGL')).status).toBe(403);
    expect((await call(null, 'GET', '/ks/config/structure/display-groups/?systemCoding=XYGL')).status).toBe(401);
  });
});
