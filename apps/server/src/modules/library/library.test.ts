import { rmSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, libraryItems, operationLogs } from '../../db/schema';
import { storedZip } from '../../seed/library';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client, EXE, MP4, md5, otherEnterpriseUser, PDF, tmpDataDir } from '../files/testkit';

let t: TestApp;
let dataDir: string;
let admin: string;
let user: string;
let dev: string;
let other: { token: string };
const api = client(() => t);

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  user = await loginToken(t.app, 'user1', 'U');
  dev = await loginToken(t.app, 'dev', 'D');
  other = await otherEnterpriseUser(t, 'library-other');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const LIST = '/ks/library/v1/items';
const CURRENT = '/ks/library/v1/current';
const ADD = '/ks/library/v1/add';
const SET_CURRENT = '/ks/library/v1/set-current';
const DELETE = '/ks/library/v1/delete';
const UPDATE = '/ks/library/v1/update';
const TASK = '/ks/upload/v1/upload-task';

/** The chunked upload with usage library, as the administration's uploader does it; answers the upload-task reply. */
async function upload(token: string, fileName: string, data: Buffer, usage = 'library') {
  const task = await api.post(TASK, token, { md5: md5(data), fileName, chunk: 1, fileSize: data.length, usage });
  if (task.status !== 200) return { task, fileId: null as string | null };
  if (task.body.data.file) return { task, fileId: task.body.data.file.fileId as string };
  const uploadId = task.body.data.uploadId;
  const chunk = await api.upload('/ks/upload/v1/chunk-upload', token, { chunk: 0, uploadId, md5: md5(data) }, [
    { field: 'file', name: 'blob', data },
  ]);
  expect(chunk.status).toBe(200);
  const merged = await api.post('/ks/upload/v1/file-merge', token, { uploadId, fileName, md5: md5(data) });
  expect(merged.status).toBe(200);
  return { task, fileId: merged.body.data.fileId as string };
}

const currentOf = (series: string, kind = 'template') =>
  api.get(`${CURRENT}?kind=${kind}&series=${encodeURIComponent(series)}`, user);

describe('library: reading', () => {
  it('lists the seeded items for any signed-in user, searches, and answers the current 信用承诺书', async () => {
    const all = await api.get(`${LIST}?kinds=template&pageSize=50`, user);
    expect(all.status).toBe(200);
    const letters = all.body!.data.records.filter((r: any) => r.series === '信用承诺书');
    expect(letters.map((r: any) => [r.version, r.current])).toEqual([
      ['2026.1', true],
      ['2025.2', false],
    ]);
    const tools = await api.get(`${LIST}?kinds=tool,manual`, user);
    expect(tools.body!.data.records.map((r: any) => r.kind).sort()).toEqual(['manual', 'tool']);
    const found = await api.get(`${LIST}?keyword=${encodeURIComponent('施工招标')}`, user);
    expect(found.body!.data.records.map((r: any) => r.series)).toEqual(['招标文件范本']);
    // a keyword is matched literally
    expect((await api.get(`${LIST}?keyword=${encodeURIComponent('%')}`, user)).body!.data.total).toBe(0);
    const cur = await currentOf('信用承诺书');
    expect(cur.body!.data).toMatchObject({ version: '2026.1', current: true, title: '信用承诺书范本（2026 版）' });
    expect((await currentOf('没有的系列')).body!.data).toBeNull();
    const series = await api.get('/ks/library/v1/series?kind=template', user);
    expect(series.body!.data).toContainEqual({ series: '信用承诺书', versions: 2, currentVersion: '2026.1' });
  });

  it('lets another enterprise open a bound seeded file; the seeded tool is a zip archive any unzip reads', async () => {
    const tool = (await api.get(`${LIST}?kinds=tool`, other.token)).body!.data.records[0];
    expect(tool).toMatchObject({ fileName: 'CA驱动安装包-3.2.0.zip', extension: 'zip', current: true });
    // access only (the seeded bytes live in the seed's own store, not this test's)
    expect((await api.get(`/ks/common/common/file/preview-url?fileId=${tool.fileId}`, other.token)).status).toBe(200);
    // read it back the way an unzip tool does: end record → central directory → local header → the stored bytes
    const data = Buffer.from('CA 驱动安装说明');
    const zip = storedZip([{ name: '说明.txt', data }]);
    const end = zip.length - 22;
    expect(zip.readUInt32LE(end)).toBe(0x06054b50);
    const central = zip.readUInt32LE(end + 16);
    expect(zip.readUInt32LE(central)).toBe(0x02014b50);
    const nameLen = zip.readUInt16LE(central + 28);
    expect(zip.subarray(central + 46, central + 46 + nameLen).toString()).toBe('说明.txt');
    const local = zip.readUInt32LE(central + 42);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26);
    const stored = zip.subarray(start, start + zip.readUInt32LE(local + 18));
    expect(stored.equals(data)).toBe(true);
    expect(zip.readUInt32LE(local + 14)).toBe(crc32(data));
  });

  it('refuses bad queries with 400 and anonymous callers with 401', async () => {
    expect((await api.get(`${LIST}?kinds=nope`, user)).status).toBe(400);
    expect((await api.get(`${CURRENT}?kind=template`, user)).status).toBe(400);
    expect((await api.get(LIST, null)).status).toBe(401);
  });
});

describe('library: administration', () => {
  it('is for administrators only (403), uploads included', async () => {
    const cur = (await currentOf('信用承诺书')).body!.data;
    for (const token of [user, dev]) {
      expect((await api.post(SET_CURRENT, token, { id: cur.id })).status).toBe(403);
      expect((await api.post(DELETE, token, { id: cur.id })).status).toBe(403);
      expect((await api.post(UPDATE, token, { id: cur.id, title: 'x' })).status).toBe(403);
      const data = PDF(3000);
      expect((await upload(token, '范本.pdf', data)).task.status).toBe(403);
    }
    const add = { kind: 'tool', series: 'X', title: 'X', version: '1.0', fileId: cur.fileId };
    expect((await api.post(ADD, user, add)).status).toBe(403);
    expect((await api.post(ADD, dev, add)).status).toBe(403);
  });

  it('refuses a wrong extension (400), a file of the wrong kind (400) and a taken version (409)', async () => {
    const bad = await upload(admin, '手册.txt', PDF(2000));
    expect(bad.task.status).toBe(400);
    // a renamed file: the content must match its extension
    const { fileId: fake } = await upload(admin, 'setup.exe', EXE(3000));
    expect(fake).toBeTruthy();
    const mp4 = await upload(admin, '演示.mp4', MP4(4000));
    const asTemplate = await api.post(ADD, admin, {
      kind: 'template',
      series: '信用承诺书',
      title: '视频',
      version: '9.9',
      fileId: mp4.fileId,
    });
    expect(asTemplate.status).toBe(400);
    expect(asTemplate.body.message).toContain('标准文件只能是');
    const taken = await api.post(ADD, admin, {
      kind: 'template',
      series: '信用承诺书',
      title: '重复版本',
      version: '2026.1',
      fileId: (await upload(admin, '重复.pdf', PDF(2100))).fileId,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('「信用承诺书」已有版本 2026.1，请更换版本号');
    // an ordinary (attachment) upload cannot be added
    const plain = await upload(admin, '普通附件.pdf', PDF(2200), 'attachment');
    const notLibrary = await api.post(ADD, admin, {
      kind: 'manual',
      series: '手册',
      title: 'x',
      version: '1',
      fileId: plain.fileId,
    });
    expect(notLibrary.status).toBe(400);
    expect(notLibrary.body.message).toBe('请先上传资料文件');
    // an exe is a tool; the same file cannot be added twice
    const att = await api.post(ADD, admin, { kind: 'tool', series: 'CA 驱动', title: 'x', version: '1', fileId: fake });
    expect(att.status).toBe(200);
    const twice = await api.post(ADD, admin, {
      kind: 'tool',
      series: 'CA 驱动',
      title: 'x',
      version: '2',
      fileId: fake,
    });
    expect(twice.status).toBe(400);
    expect((await api.post(DELETE, admin, { id: att.body.data.id })).status).toBe(200);
    expect(
      (await api.post(ADD, admin, { kind: 'video', series: '', title: 'x', version: '1', fileId: fake })).status,
    ).toBe(400);
  });

  it('keeps an unbound upload private, then a new version is readable by all, current on request', async () => {
    const data = PDF(5000);
    const { fileId } = await upload(admin, '信用承诺书范本-2026.2.pdf', data);
    // not yet in the library: another user cannot read it
    expect((await api.get(`/ks/common/common/file/download?fileId=${fileId}`, user)).status).toBe(404);
    const added = await api.post(ADD, admin, {
      kind: 'template',
      series: '信用承诺书',
      title: '信用承诺书范本（2026 修订版）',
      version: '2026.2',
      description: '修订',
      fileId,
    });
    expect(added.status).toBe(200);
    // a later version is not current unless asked
    expect(added.body.data.current).toBe(false);
    expect((await currentOf('信用承诺书')).body!.data.version).toBe('2026.1');
    const dl = await api.get(added.body.data.url, other.token);
    expect(dl.status).toBe(200);
    expect(dl.res.rawPayload.equals(data)).toBe(true);

    const set = await api.post(SET_CURRENT, admin, { id: added.body.data.id });
    expect(set.status).toBe(200);
    expect(set.body.data.current).toBe(true);
    expect((await currentOf('信用承诺书')).body!.data.version).toBe('2026.2');

    const edited = await api.post(UPDATE, admin, {
      id: added.body.data.id,
      title: '信用承诺书范本（2026.2）',
      description: '',
    });
    expect(edited.body.data.title).toBe('信用承诺书范本（2026.2）');
    expect((await api.post(UPDATE, admin, { id: added.body.data.id, title: '' })).status).toBe(400);

    // deleting the current one makes the newest remaining one current
    expect((await api.post(DELETE, admin, { id: added.body.data.id })).status).toBe(200);
    expect((await currentOf('信用承诺书')).body!.data.version).toBe('2026.1');
    expect((await api.post(DELETE, admin, { id: added.body.data.id })).status).toBe(404);
    // its file is private again
    expect((await api.get(`/ks/common/common/file/download?fileId=${fileId}`, user)).status).toBe(404);

    const logs = await t.database.db
      .select({ logbook: operationLogs.logbook })
      .from(operationLogs)
      .where(eq(operationLogs.glName, '资料库'));
    const texts = logs.map((l) => l.logbook).join('\n');
    for (const s of [
      '上传资料：标准文件「信用承诺书」2026.2',
      '设为当前版本：标准文件「信用承诺书」2026.2',
      '修改资料',
      '删除资料：标准文件「信用承诺书」2026.2；2026.1 成为当前版本',
    ])
      expect(texts).toContain(s);
  });

  it('makes the first version of a new series current, and keeps one current under concurrent set-current calls', async () => {
    const ids: string[] = [];
    for (const v of ['1.0', '1.1', '1.2']) {
      const { fileId } = await upload(admin, `承诺函-${v}.pdf`, PDF(2500 + ids.length));
      const r = await api.post(ADD, admin, {
        kind: 'template',
        series: '投标承诺函',
        title: `投标承诺函 ${v}`,
        version: v,
        fileId,
      });
      expect(r.status).toBe(200);
      expect(r.body.data.current).toBe(ids.length === 0);
      ids.push(r.body.data.id);
    }
    const [a, b] = await Promise.all([
      api.post(SET_CURRENT, admin, { id: ids[1] }),
      api.post(SET_CURRENT, admin, { id: ids[2] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.database.db
      .select({ id: libraryItems.id })
      .from(libraryItems)
      .where(and(eq(libraryItems.series, '投标承诺函'), eq(libraryItems.current, true)));
    expect(rows).toHaveLength(1);
    // deleting every version leaves no current one and no bound file
    for (const id of ids) expect((await api.post(DELETE, admin, { id })).status).toBe(200);
    expect((await currentOf('投标承诺函')).body!.data).toBeNull();
    const bound = await t.database.db.select({ id: files.id }).from(files).where(eq(files.gnCoding, 'KS_LIBRARY'));
    expect(bound.length).toBe(6);
  });
});
