import { type FieldDef, isValidCreditCode, isValidMobile, setAppTimeZone, validateRecord } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, users } from '../../db/schema';
import { DEMO_ENGINE_FIELDS } from '../../seed/engine';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';
import { rowsOf, toRecord } from './record-row';

/**
 * Field rules of issue 11: the platform's zone (APP_TZ) decides "today", dates and times come back in the form they
 * were saved in (so a record loaded into the form saves again unchanged), and the identifier and date validators are
 * enforced on the server with messages naming the field.
 */

type Body = { code: number; data: any; message: string };

const NODE = 'ZBTB_TBWJ';
/** 2026-01-01T17:00Z: 01:00 on 2 January in Beijing, still 1 January in UTC. */
const LATE_EVENING_UTC = new Date('2026-01-01T17:00:00Z');

const FIELDS: FieldDef[] = [
  { code: 'qymc', name: '企业名称', type: 'text', required: 1, length: 50 },
  { code: 'kbrq', name: '开标日期', type: 'date', validator: 'notPast' },
  { code: 'tbrq', name: '递交日期', type: 'date', limitStartDate: 'today' },
  { code: 'kbsj', name: '开标时间', type: 'datetime' },
  { code: 'yxq', name: '有效期', type: 'daterange' },
  { code: 'sfzh', name: '法定代表人身份证号', type: 'text', validator: 'idCard' },
  { code: 'xydm', name: '统一社会信用代码', type: 'text', validator: 'creditCode' },
  { code: 'sj', name: '联系手机', type: 'text', validator: 'mobile' },
  { code: 'jssj', name: '截止时间', type: 'datetime', validator: 'notPast' },
];

async function call(t: TestApp, token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}

let t: TestApp;
let user: string;
let dev: string;
beforeAll(async () => {
  t = await createTestApp();
  dev = await loginToken(t.app, 'dev', 'D');
  user = await loginToken(t.app, 'user1', 'U');
  const res = await call(t, dev, '/ks/config/node/fields', { gnCoding: NODE, fields: FIELDS, version: 0 }, 'PUT');
  expect(res.status).toBe(200);
  t.clock.now = LATE_EVENING_UTC;
});
afterAll(async () => t?.close());

describe('today is the platform’s day (APP_TZ, default Asia/Shanghai), whatever the server’s zone', () => {
  const save = (values: object) => call(t, user, '/ks/engine/v1/records/save', { gnCoding: NODE, values });

  it('at 01:00 on 2 January in Beijing (17:00 UTC on the 1st), 2 January is today and 1 January is past', async () => {
    expect((await save({ qymc: 'A', kbrq: '2026-01-02', tbrq: '2026-01-02' })).status).toBe(200);
    const past = await save({ qymc: 'A', kbrq: '2026-01-01', tbrq: '2026-01-01' });
    expect(past.status).toBe(400);
    expect(past.body.data.fieldErrors).toEqual({
      'values.kbrq': ['「开标日期」不能早于今天（2026-01-02）'],
      'values.tbrq': ['递交日期不能早于2026-01-02'],
    });
  });

  it('a date-time that must not be past is compared with the current minute in the zone', async () => {
    expect((await save({ qymc: 'A', jssj: '2026-01-02 01:00' })).status).toBe(200);
    const past = await save({ qymc: 'A', jssj: '2026-01-02 00:45' });
    expect(past.body.data.fieldErrors['values.jssj']).toEqual(['「截止时间」不能早于当前时间（2026-01-02 01:00）']);
  });

  it('tells the web the zone through the portal configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/home/config' });
    expect(json<Body>(res).data.timeZone).toBe('Asia/Shanghai');
  });
});

describe('with APP_TZ=UTC the same instant is still 1 January', () => {
  let utc: TestApp;
  beforeAll(async () => {
    utc = await createTestApp({ env: { APP_TZ: 'UTC' } });
    const utcDev = await loginToken(utc.app, 'dev', 'D');
    const res = await call(
      utc,
      utcDev,
      '/ks/config/node/fields',
      { gnCoding: NODE, fields: FIELDS, version: 0 },
      'PUT',
    );
    expect(res.status).toBe(200);
    utc.clock.now = LATE_EVENING_UTC;
  });
  afterAll(async () => {
    await utc?.close();
    // building an app sets the process's zone: back to the one the other tests' app runs with
    setAppTimeZone(t.config.timeZone);
  });

  it('accepts 1 January as today', async () => {
    const utcUser = await loginToken(utc.app, 'user1', 'U');
    const res = await call(utc, utcUser, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      values: { qymc: 'A', kbrq: '2026-01-01', tbrq: '2026-01-01' },
    });
    expect(res.status).toBe(200);
  });
});

describe('dates and times survive load → edit → save unchanged', () => {
  const VALUES = {
    qymc: '示例建设工程有限公司',
    kbrq: '2026-03-02',
    tbrq: '2026-02-27',
    kbsj: '2026-03-02 09:30',
    yxq: '2026-02-27,2026-06-30',
    jssj: '2026-02-27 17:45',
  };

  it('answers each date type in the form it was saved in: save, detail and the form all agree', async () => {
    const saved = await call(t, user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: VALUES });
    expect(saved.status).toBe(200);
    expect(saved.body.data.values).toMatchObject(VALUES);
    const { id } = saved.body.data;
    const detail = await call(t, user, '/ks/engine/v1/records/detail', { gnCoding: NODE, id });
    expect(detail.body.data.values).toMatchObject(VALUES);
    const form = await call(t, user, '/ks/info/v1/form/details', { gnCoding: NODE, systemCoding: 'ZBTB', id });
    expect(form.body.data.values).toMatchObject(VALUES);
    const list = await call(t, user, '/ks/engine/v1/records/list', { gnCoding: NODE, pageNum: 1, pageSize: 10 });
    expect(list.body.data.records.find((r: any) => r.id === id).values).toMatchObject(VALUES);

    // the form's values sent back untouched: accepted, and nothing changes
    const again = await call(t, user, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      id,
      version: form.body.data.version,
      values: form.body.data.values,
    });
    expect(again.status).toBe(200);
    expect(again.body.data.values).toEqual(saved.body.data.values);
    const third = await call(t, user, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      id,
      version: again.body.data.version,
      values: again.body.data.values,
    });
    expect(third.status).toBe(200);
    expect(third.body.data.values).toEqual(saved.body.data.values);

    // stored as wall-clock values, which is what the answer shows
    const [row] = rowsOf(
      await t.database.db.execute(
        sql`select f_kbrq::text as d, f_kbsj::text as dt, f_jssj::text as dt2 from n_zbtb_tbwj where id = ${id}`,
      ),
    );
    expect(row).toEqual({ d: '2026-03-02', dt: '2026-03-02 09:30:00', dt2: '2026-02-27 17:45:00' });
  });

  it('toRecord: column text of either driver becomes the stored form', () => {
    const fields: FieldDef[] = [
      { code: 'd', name: 'D', type: 'date' },
      { code: 't', name: 'T', type: 'datetime' },
      { code: 'n', name: 'N', type: 'number' },
    ];
    const row = {
      id: 'x',
      status: 'draft',
      version: '1',
      owner_id: 'o',
      created_at: '2026-01-01 17:00:00.5+00',
      updated_at: '2026-01-01 17:00:00+00',
      f_d: '2026-01-02',
      f_t: '2026-01-02 09:15:00',
      f_n: '12',
    };
    expect(toRecord(row, fields, []).values).toEqual({ d: '2026-01-02', t: '2026-01-02 09:15', n: 12 });
  });
});

describe('identifier validators on the server', () => {
  const save = (values: object) =>
    call(t, user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: 'A', ...values } });
  const count = async () =>
    Number(rowsOf(await t.database.db.execute(sql`select count(*)::int as n from n_zbtb_tbwj`))[0]?.n);

  it('refuses a bad value with a 400 naming the field, and writes nothing', async () => {
    const before = await count();
    const cases: [object, string, string][] = [
      [{ sfzh: '140105199001011234' }, 'sfzh', '「法定代表人身份证号」不是有效的身份证号码（校验位不符）'],
      [{ sfzh: '140105199002301237' }, 'sfzh', '「法定代表人身份证号」不是有效的身份证号码（出生日期无效）'],
      [{ sfzh: '14010520990101123X' }, 'sfzh', '「法定代表人身份证号」不是有效的身份证号码（出生日期晚于今天）'],
      [{ xydm: '91110000802100433C' }, 'xydm', '「统一社会信用代码」不是有效的统一社会信用代码（校验位不符）'],
      [{ sj: '0351-5218800' }, 'sj', '「联系手机」不是有效的手机号码（应为以1开头的11位数字）'],
    ];
    for (const [values, code, message] of cases) {
      const res = await save(values);
      expect(res.status, JSON.stringify(values)).toBe(400);
      expect(res.body.data.fieldErrors).toEqual({ [`values.${code}`]: [message] });
    }
    expect(await count()).toBe(before);
  });

  it('accepts valid identifiers, a lower-case x stored as X', async () => {
    const ok = await save({ sfzh: '11010519491231002x', xydm: '91110000802100433B', sj: '13800138000' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.values).toMatchObject({ sfzh: '11010519491231002X', xydm: '91110000802100433B' });
  });

  it('refuses a validator that does not fit the field type when a developer saves the fields', async () => {
    const res = await call(
      t,
      dev,
      '/ks/config/node/fields',
      {
        gnCoding: NODE,
        fields: [...FIELDS, { code: 'bz', name: '备注', type: 'textarea', validator: 'idCard' }],
        version: 1,
      },
      'PUT',
    );
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors['fields.9.validator']).toEqual(['该校验规则不适用于此字段类型']);
  });
});

describe('the demo data passes the validators', () => {
  it('the demo nodes use them: ID numbers, mobile numbers, the credit code and the dates', () => {
    const v = (node: string, code: string) => DEMO_ENGINE_FIELDS[node]!.find((f) => f.code === code)?.validator;
    expect(v('XYGL_CYRY', 'sfzh')).toBe('idCard');
    expect(v('XYGL_CYRY', 'lxdh')).toBe('mobile');
    expect(v('XYGL_ZYZC', 'sfzh')).toBe('idCard');
    expect(v('XYGL_ZYZC', 'fzrq')).toBe('notFuture');
    expect(v('DZBH_BHSQ', 'sqdwdm')).toBe('creditCode');
    expect(v('DZBH_BHSQ', 'kbsj')).toBe('notPast');
    expect(v('DZBH_BHSQ', 'yxq')).toBe('notPast');
  });

  it('every seeded enterprise has a valid credit code and every seeded mobile number is one', async () => {
    const ents = await t.database.db.select({ name: enterprises.name, code: enterprises.creditCode }).from(enterprises);
    expect(ents.length).toBeGreaterThan(0);
    for (const e of ents) if (e.code !== null) expect(isValidCreditCode(e.code), `${e.name} ${e.code}`).toBe(true);
    const phones = (await t.database.db.select({ phone: users.phone }).from(users)).map((u) => u.phone);
    for (const p of phones) if (p) expect(isValidMobile(p), p).toBe(true);
  });

  it('every record seeded into a demo engine node passes its node’s rules', async () => {
    for (const [node, fields] of Object.entries(DEMO_ENGINE_FIELDS)) {
      const rows = rowsOf(await t.database.db.execute(sql.raw(`select * from n_${node.toLowerCase()}`)));
      for (const row of rows) {
        const { values } = toRecord(row, fields, []);
        // dates of seeded records are judged on the day they were created
        const today = String(row.created_at).slice(0, 10);
        const problems = validateRecord(fields, values, { today, now: `${today} 23:59` });
        // option values are checked against dictionaries on save; here the field rules that need none
        const own = Object.fromEntries(
          Object.entries(problems).filter(([code]) => !fields.find((f) => f.code === code)?.options),
        );
        expect(own, `${node} ${row.id}`).toEqual({});
      }
    }
  });
});
