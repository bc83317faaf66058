import { rmSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentTypes, menuNodes, operationLogs } from '../../db/schema';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { NOT_ENGINE_NODE, sizeOverServerLimit } from './attachment-types.service';
import { type Body, client, PDF, tmpDataDir } from './testkit';

let t: TestApp;
let dataDir: string;
let user: string;
let admin: string;
let dev: string;
const api = client(() => t);
const NODE = 'XYGL_ZYZC';
const SAVE = '/ks/config/node/attachment-types';
const READ = `/ks/common/common/att-description?gnCoding=${NODE}`;

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  [user, admin, dev] = await Promise.all([
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
  ]);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function save(token: string, payload: object) {
  const r = await t.app.inject({
    method: 'PUT',
    url: SAVE,
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  return { status: r.statusCode, body: r.json() as Body };
}

const typesInDb = async () =>
  t.database.db
    .select({ annexNo: attachmentTypes.annexNo, sort: attachmentTypes.sort })
    .from(attachmentTypes)
    .innerJoin(menuNodes, eq(menuNodes.id, attachmentTypes.nodeId))
    .where(eq(menuNodes.gnCoding, NODE))
    .orderBy(attachmentTypes.sort);

const LIST = [
  {
    annexNo: '02',
    annexName: '执业资格证书',
    annexFormat: 'pdf,jpg',
    annexSize: 10,
    isRequired: false,
    fileType: 'pdf',
  },
  {
    annexNo: 'sqb_2026',
    annexName: '注册申请书',
    annexFormat: 'PDF、docx',
    annexSize: 20,
    isRequired: true,
    fileType: 'pdf',
    template: 'zyzc-sqb.pdf',
  },
];

describe('attachment types of a node (developers)', () => {
  it('lets a developer replace the list, in order, and anyone who sees the node read it back; logs the save', async () => {
    const r = await save(dev, { gnCoding: NODE, list: LIST });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('保存成功');
    const read = await api.get(READ, user);
    expect(read.status).toBe(200);
    expect(read.body!.data.list).toEqual([
      {
        annexNo: '02',
        annexName: '执业资格证书',
        annexFormat: 'pdf,jpg',
        annexSize: 10,
        isRequired: false,
        fileType: 'pdf',
        template: null,
        templateName: null,
      },
      {
        annexNo: 'sqb_2026',
        annexName: '注册申请书',
        annexFormat: 'pdf,docx',
        annexSize: 20,
        isRequired: true,
        fileType: 'pdf',
        template: '/ks/common/common/att-template?name=zyzc-sqb.pdf',
        templateName: 'zyzc-sqb.pdf',
      },
    ]);
    expect(r.body.data).toEqual(read.body!.data);
    expect(await typesInDb()).toEqual([
      { annexNo: '02', sort: 0 },
      { annexNo: 'sqb_2026', sort: 1 },
    ]);
    const [node] = await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, NODE));
    const mine = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, NODE), eq(operationLogs.logbook, `保存附件类型：${node!.title}`)));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.userId).not.toBeNull();
    expect(mine[0]!.glName).toBe('系统配置');
  });

  it('refuses users and admins (403) and changes nothing', async () => {
    const before = await typesInDb();
    for (const token of [user, admin]) {
      const r = await save(token, { gnCoding: NODE, list: [] });
      expect(r.status).toBe(403);
    }
    expect(await typesInDb()).toEqual(before);
  });

  it('answers 400 with field errors for bad input and changes nothing', async () => {
    const before = await typesInDb();
    const r = await save(dev, {
      gnCoding: NODE,
      list: [
        { ...LIST[0], annexNo: 'a-1', annexName: '', annexFormat: 'exe,pdf', annexSize: 1.5 },
        { ...LIST[0], annexSize: 0 },
        { ...LIST[0], annexSize: 5000 },
      ],
    });
    expect(r.status).toBe(400);
    const fe = r.body.data.fieldErrors as Record<string, string[]>;
    expect(fe['list.0.annexNo']).toEqual(['附件编号只能包含字母、数字和下划线']);
    expect(fe['list.0.annexName']).toEqual(['请填写附件名称']);
    expect(fe['list.0.annexFormat']?.[0]).toMatch(/^不支持的格式：exe/);
    expect(fe['list.0.annexSize']).toEqual(['附件大小应为 1 到 4096 之间的整数（MB）']);
    expect(fe['list.1.annexSize']).toEqual(['附件大小应为 1 到 4096 之间的整数（MB）']);
    expect(fe['list.2.annexSize']).toEqual(['附件大小应为 1 到 4096 之间的整数（MB）']);

    const dup = await save(dev, { gnCoding: NODE, list: [LIST[0], { ...LIST[1], annexNo: '02' }] });
    expect(dup.status).toBe(400);
    expect(dup.body.data.fieldErrors).toEqual({ 'list.1.annexNo': ['附件编号不能重复'] });

    const tooMany = await save(dev, {
      gnCoding: NODE,
      list: Array.from({ length: 51 }, (_, i) => ({ ...LIST[0], annexNo: `t${i}` })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.fieldErrors.list).toEqual(['附件类型最多 50 个']);

    const badTemplate = await save(dev, { gnCoding: NODE, list: [{ ...LIST[0], template: 'nope.pdf' }] });
    expect(badTemplate.status).toBe(400);
    expect(badTemplate.body.data.fieldErrors['list.0.template']).toEqual(['模板不存在']);
    expect(await typesInDb()).toEqual(before);
  });

  it('allows no type more than the server takes (CHUNKED_UPLOAD_MAX_MB)', async () => {
    const small = await createTestApp({
      database: t.database,
      seed: false,
      env: { CHUNKED_UPLOAD_MAX_MB: '100', SINGLE_SESSION: '0' },
    });
    try {
      const token = await loginToken(small.app, 'dev', 'D');
      const before = await typesInDb();
      const put = (annexSize: number) =>
        small.app.inject({
          method: 'PUT',
          url: SAVE,
          headers: { authorization: `Bearer ${token}` },
          payload: { gnCoding: NODE, list: [{ ...LIST[0], annexSize }] },
        });
      const over = await put(101);
      expect(over.statusCode).toBe(400);
      expect((over.json() as Body).data.fieldErrors).toEqual({ 'list.0.annexSize': [sizeOverServerLimit(100)] });
      expect(await typesInDb()).toEqual(before);
      expect((await put(100)).statusCode).toBe(200);
    } finally {
      await small.app.close();
    }
  });

  it('refuses an unknown node (404) and a node whose data come from a module (400)', async () => {
    const unknown = await save(dev, { gnCoding: 'NO_SUCH_NODE', list: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('节点不存在');
    const [other] = await t.database.db
      .select()
      .from(menuNodes)
      .where(sql`${menuNodes.gnCoding} <> ${NODE} and ${menuNodes.nodeProperties} = 'list'`)
      .limit(1);
    await t.database.db.update(menuNodes).set({ dataSource: 'portal.notices' }).where(eq(menuNodes.id, other!.id));
    try {
      const r = await save(dev, { gnCoding: other!.gnCoding, list: [LIST[0]] });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(NOT_ENGINE_NODE);
    } finally {
      await t.database.db.update(menuNodes).set({ dataSource: other!.dataSource }).where(eq(menuNodes.id, other!.id));
    }
  });

  it('makes submission follow the new list: a newly required type blocks it until a file of it is bound', async () => {
    // only 02 required: a record with an 02 file submits…
    const only02 = [{ ...LIST[0], isRequired: true }];
    expect((await save(dev, { gnCoding: NODE, list: only02 })).status).toBe(200);
    const record = async () => {
      const r = await api.post('/ks/engine/v1/records/save', user, {
        gnCoding: NODE,
        values: { xm: '张建国', xb: '男', sfzh: '14010019800101001X', lxdh: '13800138000', zclb: 'jzs1' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data as { id: string; version: number };
    };
    const bind = async (id: string, annexNo: string) => {
      const f = await api.upload('/ks/common/common/upload/attachment', user, { gnCoding: NODE, dxCode: annexNo }, [
        { name: '材料.pdf', data: PDF() },
      ]);
      expect(f.status, JSON.stringify(f.body)).toBe(200);
      const b = await api.post('/ks/common/common/upload/file-attachment', user, {
        gnCoding: NODE,
        id,
        fileList: [{ fileId: f.body.data.fileId, fileOperationType: 'add' }],
      });
      expect(b.status, JSON.stringify(b.body)).toBe(200);
    };
    const submit = (rec: { id: string; version: number }) =>
      api.post('/ks/engine/v1/records/submit', user, { gnCoding: NODE, id: rec.id, version: rec.version });

    const first = await record();
    await bind(first.id, '02');
    expect((await submit(first)).status).toBe(200);

    // …a new required type blocks the next record until its file is there
    const withNew = [only02[0]!, { ...LIST[1], annexNo: 'xyzm', annexName: '信用承诺书', isRequired: true }];
    expect((await save(dev, { gnCoding: NODE, list: withNew })).status).toBe(200);
    const second = await record();
    await bind(second.id, '02');
    const blocked = await submit(second);
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe('附件为必填项，请上传【信用承诺书】附件！');
    await bind(second.id, 'xyzm');
    const ok = await submit(second);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
