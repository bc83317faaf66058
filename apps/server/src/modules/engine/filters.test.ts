import { MESSAGES } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';

/** Editable filter definitions (the `filter` flag of a field) and the dictionaries a field editor offers. */

type Body = { code: number; data: any; message: string };

let t: TestApp;
let dev: string;
let user: string;

/** A node without fields in the demo seed; this file configures it. */
const NODE = 'ZBTB_TBWJ';

async function call(token: string, url: string, payload?: object, method: 'POST' | 'PUT' | 'GET' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const save = (fields: object[], version: number) =>
  call(dev, '/ks/config/node/fields', { gnCoding: NODE, fields, version }, 'PUT');
const groups = async (extra: object = {}) => {
  const res = await call(dev, '/ks/array/filter/directory/filter-fields', {
    gnCoding: NODE,
    systemCoding: 'ZBTB',
    ...extra,
  });
  expect(res.status).toBe(200);
  return (res.body.data.displayList as { code: string; dataList: unknown[] }[]).map((g) => g.code);
};
const stored = async () => (await call(dev, '/ks/common/array/fields', { gnCoding: NODE })).body.data;

const list = (...values: string[]) => ({ list: values.map((v) => ({ label: `选项${v}`, value: v })) });
/** a text, four single-value option fields (one hidden), a multi-value field and a switch */
const base = () => [
  { code: 'mc', name: '名称', type: 'text' },
  { code: 'lb', name: '类别', type: 'select', options: list('a', 'b') },
  { code: 'dj', name: '等级', type: 'radio', options: list('1', '2', '3') },
  { code: 'xb', name: '性别', type: 'sex' },
  { code: 'zy', name: '专业', type: 'select-m', options: list('x', 'y') },
  { code: 'yc', name: '隐藏分类', type: 'select', show: false, options: list('p') },
  { code: 'kg', name: '是否公开', type: 'switch' },
];
const flagged = (flags: Record<string, boolean>) =>
  base().map((f) => (f.code in flags ? { ...f, filter: flags[f.code] } : f));

beforeAll(async () => {
  t = await createTestApp();
  [dev, user] = await Promise.all([loginToken(t.app, 'dev', 'D'), loginToken(t.app, 'user1', 'U')]);
  expect((await save(base(), 0)).status).toBe(200);
});
afterAll(async () => t?.close());

describe('filter definitions follow the fields’ filter flags', () => {
  it('without any flag: every shown single-value option field, in field order', async () => {
    expect(await groups()).toEqual(['lb', 'dj', 'xb', 'kg']);
  });

  it('with flags: exactly the fields set to true, in field order (not the order they were flagged), hidden ones too', async () => {
    const v = (await stored()).version;
    const res = await save(flagged({ yc: true, dj: true, lb: false }), v);
    expect(res.status).toBe(200);
    expect(res.body.data.fields.find((f: any) => f.code === 'dj').filter).toBe(true);
    expect(res.body.data.fields.find((f: any) => f.code === 'lb').filter).toBe(false);
    expect(await groups()).toEqual(['dj', 'yc']);
    // the options of a flagged group are its own
    const def = await call(dev, '/ks/array/filter/directory/filter-fields', { gnCoding: NODE, systemCoding: 'ZBTB' });
    expect(def.body.data.displayList[0]).toEqual({
      name: '等级',
      code: 'dj',
      type: 'radio',
      dataList: [
        { label: '选项1', value: '1' },
        { label: '选项2', value: '2' },
        { label: '选项3', value: '3' },
      ],
    });
  });

  it('every flag false: no filter groups; removing the flags brings the default back', async () => {
    let v = (await stored()).version;
    expect((await save(flagged({ lb: false, dj: false, xb: false, kg: false }), v)).status).toBe(200);
    expect(await groups()).toEqual([]);
    v = (await stored()).version;
    expect((await save(base(), v)).status).toBe(200);
    expect(await groups()).toEqual(['lb', 'dj', 'xb', 'kg']);
  });

  it('leaves the header filters and a single field’s group alone', async () => {
    const v = (await stored()).version;
    expect((await save(flagged({ kg: true }), v)).status).toBe(200);
    expect(await groups()).toEqual(['kg']);
    expect(await groups({ displayCode: 'lb' })).toEqual(['lb']);
    expect(await groups({ headerFilter: true })).toEqual([]);
  });

  it('refuses the flag on a field that is not a single-value option field, and a non-boolean flag, with no change', async () => {
    const before = await stored();
    const multi = await save(flagged({ zy: true }), before.version);
    expect(multi.status).toBe(400);
    expect(multi.body.data.fieldErrors['fields.4.filter']).toEqual([MESSAGES.filterType]);
    const text = await save(flagged({ mc: true }), before.version);
    expect(text.body.data.fieldErrors['fields.0.filter']).toEqual([MESSAGES.filterType]);
    const bad = await save(
      base().map((f) => (f.code === 'lb' ? { ...f, filter: 'yes' } : f)),
      before.version,
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fieldErrors)).toEqual(['fields.1.filter']);
    // a false flag on any type is harmless
    expect((await save(flagged({ zy: false }), before.version)).status).toBe(200);
    expect((await stored()).version).toBe(before.version + 1);
  });
});

describe('dictionary codes', () => {
  it('lists the dictionaries with their item counts and first labels, to developers only', async () => {
    const res = await call(dev, '/ks/base/dictionary/config/dic/codes', undefined, 'GET');
    expect(res.status).toBe(200);
    const codes = res.body.data as { code: string; count: number; sample: string[] }[];
    expect(codes.map((c) => c.code)).toEqual([...codes.map((c) => c.code)].sort());
    const region = codes.find((c) => c.code === 'REGION_SX');
    expect(region?.sample).toEqual(['山西省']);
    expect(region!.count).toBeGreaterThan(100);
    const edu = codes.find((c) => c.code === 'EDUCATION');
    expect(edu).toEqual({ code: 'EDUCATION', count: 5, sample: ['中专及以下', '大专', '本科'] });
    expect((await call(user, '/ks/base/dictionary/config/dic/codes', undefined, 'GET')).status).toBe(403);
  });
});
