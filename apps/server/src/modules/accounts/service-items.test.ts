import { Code, SERVICE_ITEM_MESSAGES } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessSystems } from '../../db/schema';
import { DEMO_SERVICE_ITEMS } from '../../seed/accounts';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { opLogs, qs } from './testkit';

let t: TestApp;
const { get, post, put, del } = client(() => t);
let admin: string;
let dev: string;
let user1: string;

const ITEMS = '/ks/config/v1/service-items';
const input = {
  name: '中标通知书领取',
  systemCoding: 'ZBTB',
  description: '中标结果公示期满无异议后，中标人在线领取电子中标通知书。<b>纯文本</b>',
  materials: ['中标人授权委托书', '  法定代表人身份证明  '],
  timeLimitDays: 2,
  enabled: true,
  sort: 70,
};

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => t?.close());

describe('/system/transact: 办理事项', () => {
  it('everyone signed in lists the six seeded items across the demo systems, each opening the node it names', async () => {
    for (const token of [admin, dev, user1]) {
      const r = await get(ITEMS, token);
      expect(r.status).toBe(200);
      expect(r.body.data.total).toBe(6);
      expect(r.body.data.records.map((i: any) => i.name)).toEqual(DEMO_SERVICE_ITEMS.map((i) => i.name));
    }
    const first = (await get(ITEMS, user1)).body.data.records[0];
    expect(first).toMatchObject({
      systemCoding: 'XYGL',
      systemName: '信用管理系统',
      gnCoding: 'XYGL_BGSQ',
      nodeTitle: '信用变更申请',
      // 去办理 opens the node's page as the sidebar does (an apply list), not the system chooser
      link: '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL',
      enabled: true,
    });
    const links = (await get(ITEMS, user1)).body.data.records.map((i: any) => i.link);
    expect(links.every((l: string) => !l.startsWith('/judge'))).toBe(true);
    // the venue node opens the calendar for administrators (spec §2 sidebar routing), the booking page for others
    const venue = async (token: string) =>
      (await get(`${ITEMS}?${qs({ systemCoding: 'CDYY' })}`, token)).body.data.records[0].link;
    expect(await venue(user1)).toBe('/meetingVenue/booking?gnCoding=CDYY_CDYY&systemCoding=CDYY');
    expect(await venue(admin)).toBe('/meetingVenue/meeting?gnCoding=CDYY_CDYY&systemCoding=CDYY');
    expect(first.materials.length).toBeGreaterThan(0);
    const systems = new Set((await get(ITEMS, user1)).body.data.records.map((i: any) => i.systemCoding));
    expect([...systems].sort()).toEqual(['CDYY', 'DZBH', 'XYGL', 'ZBTB', 'ZJCQ']);
    expect((await get(ITEMS, null)).status).toBe(401);
  });

  it('filters by keyword and system; sorts only by whitelisted fields', async () => {
    const xygl = (await get(`${ITEMS}?${qs({ systemCoding: 'XYGL' })}`, user1)).body.data;
    expect(xygl.total).toBe(2);
    const kw = (await get(`${ITEMS}?${qs({ keyword: '保函' })}`, user1)).body.data;
    expect(kw.records.map((i: any) => i.name)).toEqual(['投标保函在线办理']);
    const byDays = (await get(`${ITEMS}?${qs({ sortField: 'timeLimitDays', order: 'desc' })}`, user1)).body.data;
    expect(byDays.records[0].timeLimitDays).toBe(5);
    for (const params of [
      { sortField: 'description' },
      { systemCoding: '1x' },
      { pageSize: 15 },
      { enabled: 'maybe' },
    ] as Record<string, string | number>[]) {
      expect((await get(`${ITEMS}?${qs(params)}`, admin)).status, JSON.stringify(params)).toBe(400);
    }
  });

  it('only administrators create, edit and delete (403 for D and U, whatever the body)', async () => {
    for (const token of [dev, user1]) {
      for (const r of [
        await post(ITEMS, token, input),
        await put(ITEMS, token, {}),
        await del(`${ITEMS}?id=x`, token),
      ]) {
        expect(r.status).toBe(403);
        expect(r.body.code).toBe(Code.FORBIDDEN);
      }
    }
  });

  it('validates the input', async () => {
    for (const [patch, field] of [
      [{ name: '' }, 'name'],
      [{ systemCoding: '' }, 'systemCoding'],
      [{ systemCoding: 'NOPE' }, 'systemCoding'],
      [{ description: 'x'.repeat(501) }, 'description'],
      [{ description: 'a\u0000' }, 'description'],
      [{ materials: ['a\u0000'] }, 'materials.0'],
      [{ materials: ['ok', ''] }, 'materials.1'],
      [{ materials: Array.from({ length: 21 }, (_, i) => `材料${i}`) }, 'materials'],
      [{ timeLimitDays: -1 }, 'timeLimitDays'],
      [{ timeLimitDays: 1.5 }, 'timeLimitDays'],
      [{ timeLimitDays: '3' }, 'timeLimitDays'],
      [{ gnCoding: 'drop table' }, 'gnCoding'],
      // a node of another system, or no node at all
      [{ gnCoding: 'XYGL_BGSQ' }, 'gnCoding'],
      [{ gnCoding: 'ZBTB_NOPE' }, 'gnCoding'],
    ] as const) {
      const r = await post(ITEMS, admin, { ...input, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body.data.fieldErrors[field], JSON.stringify(patch)).toBeDefined();
    }
    const unknown = await post(ITEMS, admin, { ...input, systemCoding: 'NOPE' });
    expect(unknown.body.data.fieldErrors.systemCoding).toEqual([SERVICE_ITEM_MESSAGES.systemNotFound]);
    const foreign = await post(ITEMS, admin, { ...input, gnCoding: 'XYGL_BGSQ' });
    expect(foreign.body.data.fieldErrors.gnCoding).toEqual([SERVICE_ITEM_MESSAGES.nodeNotInSystem]);
  });

  it('an item naming a node of its system opens that node; without one (or once the node is gone) the system chooser', async () => {
    const named = await post(ITEMS, admin, { ...input, name: '招标公告查阅', gnCoding: 'ZBTB_ZBGG' });
    expect(named.status).toBe(200);
    expect(named.body.data).toMatchObject({
      gnCoding: 'ZBTB_ZBGG',
      nodeTitle: '招标公告',
      link: '/dynamicPage/dynamicIndex?gnCoding=ZBTB_ZBGG&systemCoding=ZBTB',
    });
    // a directory names no page: the system chooser
    const dir = await post(ITEMS, admin, { ...input, name: '招标管理指引', gnCoding: 'ZBTB_ZBGL' });
    expect(dir.body.data.link).toBe('/judge?systemCoding=ZBTB');
    const none = await post(ITEMS, admin, { ...input, name: '无节点事项', gnCoding: null });
    expect(none.body.data).toMatchObject({ gnCoding: null, nodeTitle: null, link: '/judge?systemCoding=ZBTB' });
    for (const r of [named, dir, none])
      expect((await del(`${ITEMS}?${qs({ id: r.body.data.id })}`, admin)).status).toBe(200);
  });

  it('creates an item (description kept as plain text, materials trimmed), refuses a duplicate name with 409', async () => {
    const r = await post(ITEMS, admin, input);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: input.name,
      systemName: '招标投标交易系统',
      description: input.description,
      materials: ['中标人授权委托书', '法定代表人身份证明'],
      version: 1,
      link: '/judge?systemCoding=ZBTB',
    });
    expect(await opLogs(t, '办理事项', r.body.data.id)).toHaveLength(1);
    const dup = await post(ITEMS, admin, { ...input, systemCoding: 'XYGL' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(SERVICE_ITEM_MESSAGES.duplicate);
    expect((await get(ITEMS, user1)).body.data.total).toBe(7);
  });

  it('a disabled item disappears for everyone but administrators; stale edits are 409', async () => {
    const item = (await get(`${ITEMS}?${qs({ keyword: '中标通知书' })}`, admin)).body.data.records[0];
    const r = await put(ITEMS, admin, { ...input, id: item.id, version: item.version, enabled: false });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ enabled: false, version: item.version + 1 });
    expect((await get(ITEMS, user1)).body.data.records.map((i: any) => i.name)).not.toContain(input.name);
    // asking for disabled items changes nothing for a user: still only enabled ones
    const asked = (await get(`${ITEMS}?${qs({ enabled: false })}`, user1)).body.data;
    expect(asked.total).toBe(6);
    expect(asked.records.every((i: any) => i.enabled)).toBe(true);
    const disabled = (await get(`${ITEMS}?${qs({ enabled: false })}`, admin)).body.data;
    expect(disabled.records.map((i: any) => i.name)).toEqual([input.name]);

    const stale = await put(ITEMS, admin, { ...input, id: item.id, version: item.version });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(SERVICE_ITEM_MESSAGES.stale);
    const rename = await put(ITEMS, admin, {
      ...input,
      name: '信用承诺书签署',
      id: item.id,
      version: item.version + 1,
    });
    expect(rename.status).toBe(409);
    expect((await put(ITEMS, admin, { ...input, id: '00000000-0000-4000-8000-000000000000', version: 1 })).status).toBe(
      404,
    );
    expect((await opLogs(t, '办理事项', item.id)).length).toBe(2);
  });

  it('hides the items of a disabled business system from users, not from administrators', async () => {
    await t.database.db.update(businessSystems).set({ enabled: false }).where(eq(businessSystems.gnCoding, 'CDYY'));
    try {
      expect((await get(ITEMS, user1)).body.data.records.map((i: any) => i.systemCoding)).not.toContain('CDYY');
      expect((await get(ITEMS, admin)).body.data.records.map((i: any) => i.systemCoding)).toContain('CDYY');
    } finally {
      await t.database.db.update(businessSystems).set({ enabled: true }).where(eq(businessSystems.gnCoding, 'CDYY'));
    }
  });

  it('deletes an item (404 the second time) and logs it', async () => {
    const item = (await get(`${ITEMS}?${qs({ keyword: '中标通知书' })}`, admin)).body.data.records[0];
    expect((await del(`${ITEMS}?${qs({ id: item.id })}`, admin)).status).toBe(200);
    expect((await del(`${ITEMS}?${qs({ id: item.id })}`, admin)).status).toBe(404);
    expect((await opLogs(t, '办理事项', item.id)).some((l) => l.logbook.includes('删除'))).toBe(true);
  });
});
