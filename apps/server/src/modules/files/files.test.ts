import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, operationLogs } from '../../db/schema';
import { createStorage } from '../../platform/storage';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { ORPHAN_KEEP_MS, sweepOrphans } from './files.service';
import { client, EXE, JPG, MP4, md5, otherEnterpriseUser, PDF, PNG, tmpDataDir } from './testkit';

let t: TestApp;
let dataDir: string;
let user: string;
let admin: string;
let dev: string;
let other: { token: string; userId: string };
let auditor: { token: string; userId: string };
let stranger: { token: string; userId: string };
const api = client(() => t);
const UPLOAD = '/ks/common/common/upload/attachment';
const NODE = 'XYGL_ZYZC';

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, UPLOAD_MAX_MB: '1' } });
  [user, admin, dev] = await Promise.all([
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
  ]);
  other = await otherEnterpriseUser(t, 'other1');
  auditor = await otherEnterpriseUser(t, 'aud1', { auditor: true });
  stranger = await otherEnterpriseUser(t, 'stranger1');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every regular file under the store, relative to DATA_DIR/files. */
function storedFiles(): string[] {
  const root = path.join(dataDir, 'files');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

const uploadPng = (token: string, name = '照片.png', data: Buffer = PNG()) =>
  api.upload(UPLOAD, token, { gnCoding: NODE, systemCoding: 'XYGL' }, [{ name, data }]);

describe('single-request uploads', () => {
  it('stores an image and a PDF under generated names and answers the §3 record with a url', async () => {
    const png = PNG(5000);
    const r = await uploadPng(user, '身份证正面.png', png);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      fileName: '身份证正面.png',
      fileSize: 5000,
      fileType: 'png',
      mime: 'image/png',
      md5: md5(png),
      preview: 'image',
      fileOperationType: 'add',
    });
    expect(r.body.data.url).toBe(`/ks/common/common/file/download?fileId=${r.body.data.fileId}`);
    const [row] = await t.database.db.select().from(files).where(eq(files.id, r.body.data.fileId));
    expect(row!.storageKey).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    expect(readFileSync(path.join(dataDir, 'files', row!.storageKey)).equals(png)).toBe(true);

    const pdf = await api.upload('/ks/upload/v1/file-upload', user, { gnCoding: NODE, fileType: '2' }, [
      { name: '申请表.pdf', data: PDF() },
    ]);
    expect(pdf.status).toBe(200);
    expect(pdf.body.data).toMatchObject({ fileType: 'pdf', preview: 'pdf', fileNo: null });
  });

  it('reads fields sent after the file as well', async () => {
    const r = await api.upload(UPLOAD, user, { gnCoding: NODE }, [{ name: 'late.jpg', data: JPG() }], true);
    expect(r.status).toBe(200);
    expect(r.body.data.gnCoding).toBe(NODE);
  });

  it('stores path-traversal names safely: the name is metadata, the key is generated, nothing escapes the store', async () => {
    const before = new Set(storedFiles());
    const names = ['../../etc/passwd.png', '/etc/passwd.png', '..\\..\\windows\\win.png', 'a\u0000b.png', '....png'];
    for (const name of names) {
      const r = await uploadPng(user, name);
      expect(r.status, name).toBe(200);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL must be gone
      expect(r.body.data.fileName).not.toMatch(/[/\\\u0000]/);
      const [row] = await t.database.db.select().from(files).where(eq(files.id, r.body.data.fileId));
      expect(row!.storageKey).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    }
    const added = storedFiles().filter((f) => !before.has(f));
    expect(added).toHaveLength(names.length);
    for (const f of added) expect(f).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    expect(existsSync(path.join(dataDir, 'etc'))).toBe(false);
    expect(existsSync(path.resolve(dataDir, '..', 'etc', 'passwd.png'))).toBe(false);
  });

  it('refuses formats outside §5 and content that does not match its extension (a .exe renamed .png)', async () => {
    const exe = await uploadPng(user, 'setup.exe', EXE());
    expect(exe.status).toBe(400);
    expect(exe.body.message).toBe('请上传图片或PDF文件');
    const renamed = await uploadPng(user, '发票.png', EXE());
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe('文件内容与扩展名不符，请上传真实的文件');
    const pdfAsPng = await uploadPng(user, '伪装.png', PDF());
    expect(pdfAsPng.status).toBe(400);
    const empty = await uploadPng(user, 'empty.png', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('不能上传空文件');
  });

  it('refuses an oversize file with 413 and keeps nothing', async () => {
    const before = storedFiles().length;
    const big = await uploadPng(user, 'big.png', PNG(1024 * 1024 + 1));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe(413);
    expect(storedFiles().length).toBe(before);
    expect(readdirSync(path.join(dataDir, 'files', '.tmp'))).toEqual([]);
  });

  it('applies the typed attachment rules of the node: name ≤ 64, the type formats, the type size', async () => {
    const long = `${'证'.repeat(61)}.pdf`;
    const r1 = await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '03' }, [{ name: long, data: PDF() }]);
    expect(r1.status).toBe(400);
    expect(r1.body.message).toBe('文件名超过64位字符，请重新命名后上传！');
    const r2 = await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '03' }, [{ name: 'a.png', data: PNG() }]);
    expect(r2.body.message).toBe('格式错误，请上传【pdf】格式');
    const r3 = await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '99' }, [{ name: 'a.pdf', data: PDF() }]);
    expect(r3.body.message).toBe('附件类型不存在');
    const ok = await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '03' }, [{ name: '申请表.pdf', data: PDF() }]);
    expect(ok.status).toBe(200);
    expect(ok.body.data.fileNo).toBe('03');
  });

  it('needs a node the caller sees, a session, and the file field', async () => {
    expect((await uploadPng(stranger.token)).status).toBe(200);
    const hidden = await api.upload(UPLOAD, user, { gnCoding: 'PTGL' }, [{ name: 'a.png', data: PNG() }]);
    expect(hidden.status).toBe(403);
    expect((await api.upload(UPLOAD, null, { gnCoding: NODE }, [{ name: 'a.png', data: PNG() }])).status).toBe(401);
    const noFile = await api.upload(UPLOAD, user, { gnCoding: NODE }, []);
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('请选择要上传的文件');
    const json = await api.post(UPLOAD, user, { gnCoding: NODE });
    expect(json.status).toBe(400);
  });

  it('batch-upload stores up to 3 by default, all or nothing', async () => {
    const ok = await api.upload('/ks/common/common/batch-upload', user, { gnCoding: NODE }, [
      { name: 'a.png', data: PNG() },
      { name: 'b.pdf', data: PDF() },
      { name: 'c.jpg', data: JPG() },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.map((f: { fileName: string }) => f.fileName)).toEqual(['a.png', 'b.pdf', 'c.jpg']);
    const before = storedFiles().length;
    const four = await api.upload(
      '/ks/common/common/batch-upload',
      user,
      { gnCoding: NODE },
      [1, 2, 3, 4].map((i) => ({ name: `${i}.png`, data: PNG() })),
    );
    expect(four.body.message).toBe('最多只能上传3个文件');
    const oneBad = await api.upload('/ks/common/common/batch-upload', user, { gnCoding: NODE }, [
      { name: 'good.png', data: PNG() },
      { name: 'bad.png', data: EXE() },
    ]);
    expect(oneBad.status).toBe(400);
    expect(storedFiles().length).toBe(before);
  });

  it('upload-notice is for administrators and gives a public address', async () => {
    expect(
      (await api.upload('/ks/common/common/upload-notice', user, {}, [{ name: 'a.pdf', data: PDF() }])).status,
    ).toBe(403);
    const r = await api.upload('/ks/common/common/upload-notice', admin, {}, [
      { name: '招标公告附件.pdf', data: PDF() },
    ]);
    expect(r.status).toBe(200);
    const anon = await api.get(r.body.data.url, null);
    expect(anon.status).toBe(200);
  });

  it('writes an operation-log row for every upload', async () => {
    const r = await uploadPng(user, '留痕.png');
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '文件'), eq(operationLogs.recordId, r.body.data.fileId)));
    expect(logs.map((l) => l.logbook)).toEqual([expect.stringContaining('上传文件：留痕.png')]);
    expect(logs[0]!.czrName).toBe('张建国');
  });
});

describe('download', () => {
  let fileId: string;
  let data: Buffer<ArrayBufferLike>;
  beforeAll(async () => {
    data = PNG(100_000);
    fileId = (await uploadPng(user, '投标"文件"(最终版)；v2.png', data)).body.data.fileId;
  });
  const url = () => `/ks/common/common/file/download?fileId=${fileId}`;

  it('needs the bearer token and sends the bytes with a safe RFC 5987 name for a Chinese name with quotes', async () => {
    expect((await api.get(url(), null)).status).toBe(401);
    const r = await api.get(url(), user);
    expect(r.status).toBe(200);
    expect(r.res.rawPayload.equals(data)).toBe(true);
    const cd = String(r.res.headers['content-disposition']);
    expect(cd).toBe(
      `attachment; filename="______(___)_v2.png"; filename*=UTF-8''${encodeURIComponent('投标"文件"(最终版)；v2.png').replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
    expect(cd).not.toMatch(/[\r\n]/);
    expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe('投标"文件"(最终版)；v2.png');
    expect(r.res.headers['content-type']).toBe('application/octet-stream');
    expect(r.res.headers['x-content-type-options']).toBe('nosniff');
    expect(r.res.headers['accept-ranges']).toBe('bytes');
  });

  it('previews images inline with their type and nosniff', async () => {
    const r = await api.get(`${url()}&inline=1`, user);
    expect(r.res.headers['content-type']).toBe('image/png');
    expect(String(r.res.headers['content-disposition'])).toMatch(/^inline; /);
    expect(r.res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers byte ranges with 206, suffix ranges, and 416 past the end', async () => {
    const r = await api.get(url(), user, { range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.res.headers['content-range']).toBe(`bytes 100-199/${data.length}`);
    expect(r.res.rawPayload.equals(data.subarray(100, 200))).toBe(true);
    const tail = await api.get(url(), user, { range: 'bytes=-10' });
    expect(tail.res.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);
    const open = await api.get(url(), user, { range: 'bytes=99990-' });
    expect(open.res.rawPayload.equals(data.subarray(99990))).toBe(true);
    const past = await api.get(url(), user, { range: `bytes=${data.length}-` });
    expect(past.status).toBe(416);
    expect(past.res.headers['content-range']).toBe(`bytes */${data.length}`);
  });

  it('lets the owner enterprise and admins read; another enterprise, a developer and a stranger get 404', async () => {
    expect((await api.get(url(), admin)).status).toBe(200);
    for (const token of [other.token, stranger.token, dev]) {
      const r = await api.get(url(), token);
      expect(r.status).toBe(404);
      expect(r.body?.message).toBe('文件不存在');
    }
    expect((await api.get('/ks/common/common/file/download?fileId=not-a-uuid', user)).status).toBe(400);
  });

  it('gives a short-lived preview address that works without a token, and only for the signed file', async () => {
    const p = await api.get(`/ks/common/common/file/preview-url?fileId=${fileId}`, user);
    expect(p.status).toBe(200);
    const signed = p.body!.data.url as string;
    const r = await api.get(signed, null, { range: 'bytes=0-9' });
    expect(r.status).toBe(206);
    expect(r.res.headers['content-type']).toBe('image/png');
    const other2 = (await uploadPng(user)).body.data.fileId;
    expect((await api.get(signed.replace(fileId, other2), null)).status).toBe(403);
    expect((await api.get(`/ks/common/common/file/preview-url?fileId=${fileId}`, other.token)).status).toBe(404);
    // the address ends with the file's name, which a browser's PDF viewer shows as the document title
    const long = `${'营业执照副本扫描件'.repeat(6)}.pdf`;
    const pdf = (
      await api.upload(UPLOAD, user, { gnCoding: NODE, systemCoding: 'XYGL' }, [{ name: long, data: PDF() }])
    ).body.data.fileId as string;
    const named = (await api.get(`/ks/common/common/file/preview-url?fileId=${pdf}`, user)).body!.data.url as string;
    expect(new URL(named, 'http://x').pathname).toBe(`/ks/common/common/file/download/${encodeURIComponent(long)}`);
    const viewed = await api.get(named, null);
    expect(viewed.status).toBe(200);
    expect(viewed.res.headers['content-type']).toBe('application/pdf');
    expect(String(viewed.res.headers['content-disposition'])).toMatch(/^inline;/);
    // the name segment names nothing: another name with the same signature serves the same file, a bad one is refused
    expect((await api.get(named.replace(encodeURIComponent(long), 'x.pdf'), null)).status).toBe(200);
    expect((await api.get(named.replace(pdf, fileId), null)).status).toBe(403);
    t.clock.advance(11 * 60_000);
    expect((await api.get(signed, null)).status).toBe(403);
  });
});

describe('attachment types and templates', () => {
  it('lists the node types (§3) with a public template address', async () => {
    const r = await api.get(`/ks/common/common/att-description?gnCoding=${NODE}&systemCoding=XYGL`, user);
    expect(r.status).toBe(200);
    const list = r.body!.data.list;
    expect(list.map((x: { annexNo: string }) => x.annexNo)).toEqual(['01', '02', '03', '04']);
    expect(list[2]).toMatchObject({
      annexName: '执业注册申请表（盖章）',
      annexFormat: 'pdf',
      annexSize: 10,
      isRequired: true,
      template: '/ks/common/common/att-template?name=zyzc-sqb.pdf',
    });
    expect(r.body!.data.template).toBe('/ks/common/common/att-template?name=zyzc-sqb.pdf');
    const tpl = await api.get(list[2].template, null);
    expect(tpl.status).toBe(200);
    expect(tpl.res.headers['content-type']).toBe('application/pdf');
    expect(tpl.res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const bh = await api.get('/ks/common/common/att-description?gnCoding=DZBH_BHSQ', user);
    expect(bh.body!.data.list).toHaveLength(4);
  });

  it('serves only templates that a type names', async () => {
    expect((await api.get('/ks/common/common/att-template?name=../../package.json', null)).status).toBe(400);
    expect((await api.get('/ks/common/common/att-template?name=generate.pdf', null)).status).toBe(404);
  });
});

async function newRecord(token: string) {
  const r = await api.post('/ks/engine/v1/records/save', token, {
    gnCoding: NODE,
    values: { xm: '张建国', xb: '男', sfzh: '14010019800101001X', lxdh: '13800138000', zclb: 'jzs1' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: string; version: number };
}

describe('attachments of a record (§4 add / del / empty)', () => {
  it('binds uploads to a record, lists them by type, removes them, and logs each change in the record log', async () => {
    const rec = await newRecord(user);
    const a = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '01' }, [{ name: '身份证.jpg', data: JPG() }]))
      .body.data;
    const b = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '03' }, [{ name: '申请表.pdf', data: PDF() }]))
      .body.data;
    const bound = await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [
        { fileId: a.fileId, fileOperationType: 'add' },
        { fileId: b.fileId, fileOperationType: 'add' },
      ],
    });
    expect(bound.status).toBe(200);
    const list = bound.body.data as { annexNo: string; url: string | null; isRequired: boolean; fileName: string }[];
    expect(list.map((x) => [x.annexNo, x.url ? x.fileName : null, x.isRequired])).toEqual([
      ['01', '身份证.jpg', true],
      ['02', null, true],
      ['03', '申请表.pdf', true],
      ['04', null, false],
    ]);
    const fj = await api.get(`/ks/common/common/fj-list?gnCoding=${NODE}&id=${rec.id}`, user);
    expect(fj.body!.data.map((f: { fileId: string }) => f.fileId).sort()).toEqual([a.fileId, b.fileId].sort());
    // another enterprise sees neither the list nor the files
    expect((await api.get(`/ks/common/common/fj-list?gnCoding=${NODE}&id=${rec.id}`, other.token)).status).toBe(404);
    expect((await api.get(`/ks/common/common/attachment/list?gnCoding=${NODE}&id=${rec.id}`, other.token)).status).toBe(
      404,
    );
    // a file of another enterprise cannot be attached
    const foreign = (await uploadPng(other.token)).body.data.fileId;
    const steal = await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [{ fileId: foreign, fileOperationType: 'add' }],
    });
    expect(steal.status).toBe(404);
    // admins see attachments read-only
    expect((await api.get(`/ks/common/common/attachment/list?gnCoding=${NODE}&id=${rec.id}`, admin)).status).toBe(200);
    const adminEdit = await api.post('/ks/common/common/upload/file-attachment', admin, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [{ fileId: a.fileId, fileOperationType: 'del' }],
    });
    expect(adminEdit.status).toBe(403);
    expect(adminEdit.body.message).toBe('管理员只能查看附件');

    const [row] = await t.database.db.select().from(files).where(eq(files.id, a.fileId));
    const removed = await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [
        { fileId: a.fileId, fileOperationType: 'del' },
        { fileId: b.fileId, fileOperationType: '' },
      ],
    });
    expect(removed.status).toBe(200);
    expect(existsSync(path.join(dataDir, 'files', row!.storageKey))).toBe(false);
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, NODE), eq(operationLogs.recordId, rec.id)));
    expect(logs.map((l) => l.logbook)).toEqual([
      '新增记录',
      '新增附件：身份证.jpg（身份证（正反面））',
      '新增附件：申请表.pdf（执业注册申请表（盖章））',
      '删除附件：身份证.jpg',
    ]);
  });

  it('refuses a submission without every required attachment type (§5), naming the missing ones', async () => {
    const rec = await newRecord(user);
    const f = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '02' }, [{ name: '证书.pdf', data: PDF() }]))
      .body.data;
    await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [{ fileId: f.fileId, fileOperationType: 'add' }],
    });
    const sub = await api.post('/ks/engine/v1/records/submit', user, {
      gnCoding: NODE,
      id: rec.id,
      version: rec.version,
    });
    expect(sub.status).toBe(400);
    expect(sub.body.message).toBe('附件为必填项，请上传【身份证（正反面）、执业注册申请表（盖章）】附件！');
    const [row] = await t.database.db
      .execute(sql`select status from n_xygl_zyzc where id = ${rec.id}`)
      .then((r) => (r as unknown as { rows: { status: string }[] }).rows);
    expect(row?.status).toBe('draft');
  });

  it('lets the record reviewers read its files once submitted, and freezes its attachments', async () => {
    const rec = await newRecord(user);
    const f = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '02' }, [{ name: '证书.pdf', data: PDF() }]))
      .body.data;
    const id = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '01' }, [{ name: '身份证.jpg', data: JPG() }]))
      .body.data;
    const form = (
      await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '03' }, [{ name: '申请表.pdf', data: PDF() }])
    ).body.data;
    await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [f, id, form].map((x) => ({ fileId: x.fileId, fileOperationType: 'add' })),
    });
    const url = `/ks/common/common/file/download?fileId=${f.fileId}`;
    expect((await api.get(url, auditor.token)).status).toBe(404);
    const sub = await api.post('/ks/engine/v1/records/submit', user, {
      gnCoding: NODE,
      id: rec.id,
      version: rec.version,
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect((await api.get(url, auditor.token)).status).toBe(200);
    expect((await api.get(`/ks/common/common/fj-list?gnCoding=${NODE}&id=${rec.id}`, auditor.token)).status).toBe(200);
    expect((await api.get(url, stranger.token)).status).toBe(404);
    const late = await api.post('/ks/common/common/attachment/delete', user, { fileId: f.fileId });
    expect(late.status).toBe(403);
    expect(late.body.message).toBe('记录已提交审核或已办结，附件不能修改');
  });
});

describe('deleting files', () => {
  it('deletes an own unattached file with its bytes and a log row; others cannot', async () => {
    const f = (await uploadPng(user, '待删除.png')).body.data;
    const [row] = await t.database.db.select().from(files).where(eq(files.id, f.fileId));
    const key = path.join(dataDir, 'files', row!.storageKey);
    expect(statSync(key).size).toBeGreaterThan(0);
    expect((await api.post('/ks/common/common/attachment/delete', other.token, { fileId: f.fileId })).status).toBe(404);
    expect((await api.post('/ks/common/common/attachment/delete', admin, { fileId: f.fileId })).status).toBe(403);
    const r = await api.post('/ks/common/common/attachment/delete', user, { fileId: f.fileId });
    expect(r.status).toBe(200);
    expect(existsSync(key)).toBe(false);
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '文件'), eq(operationLogs.recordId, f.fileId)));
    expect(logs.map((l) => l.logbook)).toContain('删除文件：待删除.png');
  });
});

describe('unattached record uploads', () => {
  it("a deleted draft's files and uploads nobody attached are swept after a day, bytes and all; editor images stay", async () => {
    const rec = await newRecord(user);
    const kept = (await api.upload(UPLOAD, user, { gnCoding: NODE, dxCode: '02' }, [{ name: '证书.pdf', data: PDF() }]))
      .body.data;
    await api.post('/ks/common/common/upload/file-attachment', user, {
      gnCoding: NODE,
      id: rec.id,
      fileList: [{ fileId: kept.fileId, fileOperationType: 'add' }],
    });
    const loose = (await uploadPng(user, '未保存表单.png')).body.data;
    const del = await api.post('/ks/engine/v1/records/delete', user, { gnCoding: NODE, id: rec.id });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const [detached] = await t.database.db.select().from(files).where(eq(files.id, kept.fileId));
    expect(detached?.recordId).toBeNull();

    const deps = {
      db: t.database.db,
      storage: createStorage(t.config),
      spoolDir: path.join(dataDir, 'files', '.tmp'),
      uploadMaxBytes: t.config.files.uploadMaxBytes,
      chunkedMaxBytes: t.config.files.chunkedMaxBytes,
      taskTtlMs: t.config.files.taskTtlMs,
      now: () => new Date(),
    };
    // younger than a day: kept (a form may still be being filled in)
    await sweepOrphans(deps);
    expect(await t.database.db.select().from(files).where(eq(files.id, loose.fileId))).toHaveLength(1);

    const keys = (
      await t.database.db
        .select()
        .from(files)
        .where(inArray(files.id, [kept.fileId, loose.fileId]))
    ).map((f) => path.join(dataDir, 'files', f.storageKey));
    const editorImages = await t.database.db.select().from(files).where(isNull(files.gnCoding));
    expect(await sweepOrphans({ ...deps, now: () => new Date(Date.now() + ORPHAN_KEEP_MS + 60_000) })).toBeGreaterThan(
      0,
    );
    expect(
      await t.database.db
        .select()
        .from(files)
        .where(inArray(files.id, [kept.fileId, loose.fileId])),
    ).toEqual([]);
    for (const k of keys) expect(existsSync(k)).toBe(false);
    expect(await t.database.db.select().from(files).where(isNull(files.gnCoding))).toHaveLength(editorImages.length);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, loose.fileId));
    expect(logs.map((l) => l.logbook)).toContain('清理未关联的文件：未保存表单.png');
  });
});

describe('rich-text editor image upload (/dev-api/common/upload)', () => {
  const EDITOR = '/dev-api/common/upload';
  it("answers wangEditor's shape with a public image address", async () => {
    const r = await api.upload(EDITOR, user, {}, [{ field: 'custom-fileName', name: '插图.png', data: PNG() }]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ errno: 0, data: { alt: '插图.png', href: '' } });
    const url = (r.body as unknown as { data: { url: string } }).data.url;
    expect(url).toMatch(/^\/ks\/common\/common\/file\/download\?fileId=/);
    const img = await api.get(url, null);
    expect(img.status).toBe(200);
    expect(img.res.headers['content-type']).toBe('image/png');
  });

  it('answers errno 1 with a message: no token, not an image, a renamed file, the wrong field', async () => {
    const anon = await api.upload(EDITOR, null, {}, [{ field: 'custom-fileName', name: 'a.png', data: PNG() }]);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ errno: 1, message: '未登录' });
    const pdf = await api.upload(EDITOR, user, {}, [{ field: 'custom-fileName', name: 'a.pdf', data: PDF() }]);
    expect(pdf.body).toEqual({ errno: 1, message: '请上传图片文件' });
    const video = await api.upload(EDITOR, user, {}, [{ field: 'custom-fileName', name: 'a.mp4', data: MP4() }]);
    expect((video.body as unknown as { errno: number }).errno).toBe(1);
    const fake = await api.upload(EDITOR, user, {}, [{ field: 'custom-fileName', name: 'a.png', data: EXE() }]);
    expect(fake.body).toEqual({ errno: 1, message: '文件内容与扩展名不符，请上传真实的文件' });
    const wrong = await api.upload(EDITOR, user, {}, [{ field: 'file', name: 'a.png', data: PNG() }]);
    expect(wrong.status).toBe(400);
    expect((wrong.body as unknown as { errno: number }).errno).toBe(1);
  });
});

describe('health', () => {
  it('tells anyone it is up, and only administrators the build and the store', async () => {
    const r = await api.get('/ks/health', null);
    expect(r.body!.data).toEqual({ status: 'up' });
    const u = await api.get('/ks/health', user);
    expect(u.body!.data).toEqual({ status: 'up' });
    const a = await api.get('/ks/health', await loginToken(t.app, 'admin', 'M'));
    expect(a.body!.data).toMatchObject({
      status: 'up',
      version: expect.any(String),
      storage: { ok: true, kind: 'local' },
    });
    // how full each in-process cache is: the sessions just read are in it, within its bound
    const caches = (a.body!.data as { caches: Record<string, { size: number; max: number }> }).caches;
    expect(Object.keys(caches)).toEqual(
      expect.arrayContaining(['auth.sessions', 'permissions.nodes', 'permissions.lastStates', 'files.runningHashes']),
    );
    expect(caches['auth.sessions']!.size).toBeGreaterThanOrEqual(1);
    expect(caches['auth.sessions']!.size).toBeLessThanOrEqual(caches['auth.sessions']!.max);
    expect(u.body!.data).not.toHaveProperty('caches');
    expect(JSON.stringify(r.body)).not.toContain(t.config.dataDir);
  });
});
