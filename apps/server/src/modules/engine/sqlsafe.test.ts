import { PG_RESERVED_WORDS } from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';
import { createTestDatabase } from '../../test/harness';
import {
  assertFieldCode,
  assertNodeCode,
  type Catalog,
  type Condition,
  columnOf,
  ident,
  likePattern,
  MAX_CONDITIONS,
  normaliseSearchParams,
  orderSql,
  parseSort,
  parseWhereStr,
  quoteIdent,
  RESERVED,
  SYSTEM_COLUMNS,
  searchToConditions,
  tableOf,
  whereSql,
} from './sqlsafe';

const catalog: Catalog = new Map([
  ['name', { kind: 'text', searchable: true, sortable: true }],
  ['remark', { kind: 'text', searchable: false, sortable: false }],
  ['amount', { kind: 'number', searchable: true, sortable: true }],
  ['day', { kind: 'date', searchable: true, sortable: true }],
  ['at', { kind: 'datetime', searchable: true, sortable: false }],
  ['created', { kind: 'datetime', searchable: false, sortable: true, column: 'created_at' }],
]);

const dialect = new PgDialect();
const render = (q: SQL) => dialect.sqlToQuery(q);

/** The AppError a call throws (fails the test when it does not throw one). */
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

function expect400(fn: () => unknown, message?: RegExp) {
  const e = errorOf(fn);
  expect(e.httpStatus).toBe(400);
  expect(e.code).toBe(400);
  expect(e.message).toMatch(/[\u4e00-\u9fff]/); // worded in Chinese
  if (message) expect(e.message).toMatch(message);
  return e;
}

const where = (o: unknown) => parseWhereStr(JSON.stringify(o), catalog);

describe('RESERVED', () => {
  it('holds the PostgreSQL 15 reserved words of both classes, and nothing that is merely a key word', () => {
    // the contracts' list, which the web's field editor reads too
    expect(RESERVED).toBe(PG_RESERVED_WORDS);
    expect(RESERVED.size).toBe(101);
    for (const w of ['select', 'user', 'table', 'order', 'group', 'authorization', 'verbose', 'like', 'system_user']) {
      expect(RESERVED.has(w)).toBe(true);
    }
    for (const w of ['name', 'status', 'data', 'between', 'drop', 'delete', 'type', 'value', 'id']) {
      expect(RESERVED.has(w)).toBe(false);
    }
  });
});

describe('field codes and columns', () => {
  it('accepts a lower-case letter, then lower-case letters, digits or underscores', () => {
    for (const ok of ['a', 'name', 'company_name2', 'x_', 'z'.repeat(61)])
      expect(() => assertFieldCode(ok)).not.toThrow();
  });

  it('refuses SQL, quotes, reserved words, look-alikes, over-long codes and non-strings', () => {
    const bad: unknown[] = [
      '',
      'x; drop table users',
      "a' or '1'='1",
      '"quoted"',
      'select',
      'user',
      'table',
      'Name',
      '1abc',
      '_a',
      '__proto__',
      'a-b',
      'a b',
      'a\nb',
      'nаme', // Cyrillic а
      'ｎａｍｅ', // full-width
      'name\u200b', // zero-width space
      'name\u0000',
      'café',
      'z'.repeat(62),
      'z'.repeat(64),
      ['name'],
      { code: 'name' },
      123,
      null,
      undefined,
    ];
    for (const code of bad) {
      const e = expect400(() => assertFieldCode(code));
      expect(Object.keys((e.data as { fieldErrors: object }).fieldErrors)).toEqual(['code']);
    }
    expect400(() => assertFieldCode('select'), /保留字/);
    expect400(() => assertFieldCode('z'.repeat(64)), /61/);
    const e = expect400(() => assertFieldCode('Name', 'fieldCode'));
    expect(e.data).toEqual({ fieldErrors: { fieldCode: [e.message] } });
  });

  it('derives f_<code>, which never collides with a system column', () => {
    expect(columnOf('name')).toBe('f_name');
    for (const c of SYSTEM_COLUMNS) expect(columnOf(c)).toBe(`f_${c}`);
    expect(columnOf('z'.repeat(61))).toHaveLength(63);
    expect400(() => columnOf('x; drop table users'));
    expect400(() => columnOf('user'));
  });
});

describe('node codes and tables', () => {
  it('derives n_<lower(code)> for letters, digits and underscores', () => {
    expect(tableOf('XYGL_XYJL')).toBe('n_xygl_xyjl');
    expect(tableOf('a')).toBe('n_a');
    expect(tableOf('Z'.repeat(61))).toHaveLength(63);
  });

  it('refuses anything else, and codes whose table would pass 63 characters', () => {
    for (const code of [
      '',
      '1abc',
      '_a',
      'x; drop table users',
      "a' or '1'='1",
      '"quoted"',
      'a.b',
      'XYGL-XYJL',
      'Ｘ',
      'Z'.repeat(62),
      'Z'.repeat(64),
      ['XYGL'],
      null,
    ]) {
      expect400(() => tableOf(code as string));
    }
    expect(errorOf(() => assertNodeCode('1')).data).toEqual({ fieldErrors: { gnCoding: [expect.any(String)] } });
    // reserved words are refused in any case, although the n_ prefix would quote them safely
    for (const word of ['select', 'USER', 'Table']) expect400(() => tableOf(word));
  });
});

describe('strict quoting', () => {
  it('quotes only plain lower-case identifiers of at most 63 characters', () => {
    expect(quoteIdent('f_name')).toBe('"f_name"');
    expect(quoteIdent('_x')).toBe('"_x"');
    expect(render(sql`select ${ident('n_t')}.${ident('f_a')}`).sql).toBe('select "n_t"."f_a"');
    for (const bad of ['', 'F', 'a"b', 'a b', 'a;b', '1a', 'ａ', 'a'.repeat(64), 'a\u0000']) {
      expect(() => quoteIdent(bad)).toThrow(/refusing to quote/);
      expect(() => ident(bad)).toThrow(/refusing to quote/);
    }
  });
});

describe('parseWhereStr', () => {
  it('reads nothing as no conditions', () => {
    for (const s of [undefined, null, '', '   ', '{}', '[]']) expect(parseWhereStr(s, catalog)).toEqual([]);
  });

  it('reads an object as equalities, with values checked and normalised by kind', () => {
    expect(where({ name: 'abc', amount: '12.5', day: '2024-03-01' })).toEqual([
      { field: 'name', op: 'eq', value: 'abc' },
      { field: 'amount', op: 'eq', value: 12.5 },
      { field: 'day', op: 'eq', value: '2024-03-01' },
    ]);
    // a date on a datetime field is the whole day
    expect(where({ at: '2024-03-01' })).toEqual([
      { field: 'at', op: 'between', value: ['2024-03-01 00:00:00', '2024-03-01 23:59:59.999999'] },
    ]);
    expect(where({ name: 42 })).toEqual([{ field: 'name', op: 'eq', value: '42' }]);
  });

  it('reads an array of {field, op, value} with every operator', () => {
    expect(
      where([
        { field: 'name', op: 'ne', value: 'x' },
        { field: 'name', op: 'like', value: '50%_off' },
        { field: 'amount', op: 'in', value: [1, '2', 3.5] },
        { field: 'amount', op: 'gt', value: 1 },
        { field: 'amount', op: 'gte', value: -1 },
        { field: 'amount', op: 'lt', value: 1e3 },
        { field: 'day', op: 'lte', value: '2024-12-31' },
        { field: 'day', op: 'between', value: ['2024-01-01', '2024-01-31'] },
        { field: 'at', op: 'between', value: '2024-01-01 08:00,2024-01-01' },
        { field: 'at', op: 'lte', value: '2024-01-02' },
        { field: 'at', op: 'gte', value: '2024-01-02T08:30:15' },
        { field: 'remark', op: 'isNull' },
        { field: 'remark', op: 'notNull', value: null },
        { field: 'name', value: 'default op is eq' },
      ]),
    ).toEqual([
      { field: 'name', op: 'ne', value: 'x' },
      { field: 'name', op: 'like', value: '50%_off' },
      { field: 'amount', op: 'in', value: [1, 2, 3.5] },
      { field: 'amount', op: 'gt', value: 1 },
      { field: 'amount', op: 'gte', value: -1 },
      { field: 'amount', op: 'lt', value: 1000 },
      { field: 'day', op: 'lte', value: '2024-12-31' },
      { field: 'day', op: 'between', value: ['2024-01-01', '2024-01-31'] },
      { field: 'at', op: 'between', value: ['2024-01-01 08:00:00', '2024-01-01 23:59:59.999999'] },
      { field: 'at', op: 'lte', value: '2024-01-02 23:59:59.999999' },
      { field: 'at', op: 'gte', value: '2024-01-02 08:30:15' },
      { field: 'remark', op: 'isNull' },
      { field: 'remark', op: 'notNull' },
      { field: 'name', op: 'eq', value: 'default op is eq' },
    ]);
  });

  it('keeps SQL in a value as plain data', () => {
    for (const v of ['x; drop table users', "a' or '1'='1", '"quoted"', 'select', "') or 1=1 --", '$1']) {
      expect(where({ name: v })).toEqual([{ field: 'name', op: 'eq', value: v }]);
    }
  });

  it('refuses text that is not JSON, or JSON that is not an object or array', () => {
    for (const s of ['name = 1', "name='a' or '1'='1'", '{name: 1}', "{'name': 1}", '{"name": 1', 'select 1']) {
      expect400(() => parseWhereStr(s, catalog), /JSON/);
    }
    for (const s of ['"name"', '1', 'null', 'true']) expect400(() => parseWhereStr(s, catalog), /对象或数组/);
    expect400(() => parseWhereStr(`{"name":"${'a'.repeat(20_001)}"}`, catalog), /过长/);
    expect400(() => parseWhereStr(123 as unknown as string, catalog));
  });

  it('refuses unknown fields, including SQL, look-alikes and prototype keys', () => {
    for (const field of [
      'nope',
      'x; drop table users',
      "name' or '1'='1",
      'name = name or 1=1 --',
      '"name"',
      'f_name',
      'Name',
      'nаme',
      'select',
      'user',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
    ]) {
      expect400(() => parseWhereStr(`{${JSON.stringify(field)}: "a"}`, catalog), /未知的查询字段/);
      expect400(() => where([{ field, op: 'eq', value: 'a' }]), /未知的查询字段/);
    }
    expect400(() => where([{ op: 'eq', value: 'a' }]), /缺少字段名/);
    expect400(() => where([{ field: ['name'], op: 'eq', value: 'a' }]), /缺少字段名/);
  });

  it('refuses unknown operators and misused ones', () => {
    for (const op of ['or', 'raw', 'sql', '=', 'EQ', 'eq; drop table users', 'ilike', '', 1, ['eq'], { eq: 1 }, null]) {
      expect400(() => where([{ field: 'name', op, value: 'a' }]), /运算符/);
    }
    expect400(() => where([{ field: 'amount', op: 'like', value: '1' }]), /模糊/);
    expect400(() => where([{ field: 'remark', op: 'isNull', value: 'x' }]), /不需要/);
    expect400(() => where([{ field: 'amount', op: 'in', value: [] }]), /非空数组/);
    expect400(() => where([{ field: 'amount', op: 'in', value: 1 }]), /非空数组/);
    expect400(() => where([{ field: 'day', op: 'between', value: ['2024-01-01'] }]), /两个值/);
    expect400(() => where([{ field: 'day', op: 'between', value: '2024-01-01,2024-01-02,2024-01-03' }]), /两个值/);
    expect400(() => where([{ field: 'name', op: 'eq', value: 'a', sql: 'drop table users' }]), /未知的属性/);
  });

  it('refuses nested objects and arrays in place of values or conditions', () => {
    expect400(() => where({ name: { op: 'like', value: 'a' } }), /数组或对象/);
    expect400(() => where({ name: ['a'] }), /数组或对象/);
    expect400(() => where({ name: null }), /不能为空/);
    expect400(() => where([{ field: 'name', op: 'eq', value: ['a'] }]), /数组或对象/);
    expect400(() => where([{ field: 'name', op: 'eq', value: { $ne: 1 } }]), /数组或对象/);
    expect400(() => where([{ field: 'amount', op: 'in', value: [1, [2]] }]), /数组或对象/);
    expect400(() => where([[{ field: 'name', op: 'eq', value: 'a' }]]), /对象/);
    expect400(() => where(['name']), /对象/);
    expect400(() => where([null]), /对象/);
  });

  it('checks values against the field kind', () => {
    const bad: [string, unknown][] = [
      ['name', true],
      ['name', 'a'.repeat(201)],
      ['name', 'nul\u0000byte'],
      ['amount', 'abc'],
      ['amount', '1; drop table users'],
      ['amount', ''],
      ['amount', 'NaN'],
      ['amount', 'Infinity'],
      ['amount', '0x10'],
      ['amount', true],
      ['day', '2024-02-30'],
      ['day', '2024-1-1'],
      ['day', '01/02/2024'],
      ['day', "2024-01-01' or '1'='1"],
      ['day', 20240101],
      ['at', '2024-01-01 24:00'],
      ['at', '2024-01-01 12:60'],
      ['at', '2024-01-01 12'],
    ];
    for (const [field, value] of bad) expect400(() => where({ [field]: value }), new RegExp(`字段 ${field}`));
    // 1e999 parses to Infinity
    expect400(() => parseWhereStr('{"amount": 1e999}', catalog), /数字/);
    expect(where({ name: 'a'.repeat(200) })[0]).toMatchObject({ value: 'a'.repeat(200) });
    expect(where({ day: '2024-02-29 10:00' })[0]).toMatchObject({ value: '2024-02-29' });
  });

  it('limits the number of conditions and of in values', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_CONDITIONS }, (_, i) => [`k${i}`, 1]));
    const big: Catalog = new Map(
      Object.keys(many).map((k) => [k, { kind: 'number', searchable: true, sortable: false }]),
    );
    expect(parseWhereStr(JSON.stringify(many), big)).toHaveLength(20);
    expect400(() => parseWhereStr(JSON.stringify({ ...many, k20: 1 }), big), /过多/);
    expect(where(Array.from({ length: 20 }, () => ({ field: 'name', value: 'a' })))).toHaveLength(20);
    expect400(() => where(Array.from({ length: 21 }, () => ({ field: 'name', value: 'a' }))), /过多/);
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    expect(where([{ field: 'amount', op: 'in', value: hundred }])[0]).toMatchObject({ value: hundred });
    expect400(() => where([{ field: 'amount', op: 'in', value: [...hundred, 100] }]), /100/);
  });
});

describe('parseSort', () => {
  it('is null when nothing is sorted', () => {
    expect(parseSort(undefined, undefined, catalog)).toBeNull();
    expect(parseSort('', 'desc', catalog)).toBeNull();
  });

  it('maps a sortable field to its column and accepts asc/desc and antd names', () => {
    expect(parseSort('amount', 'desc', catalog)).toEqual({ column: 'f_amount', dir: 'desc' });
    expect(parseSort('amount', 'descend', catalog)).toEqual({ column: 'f_amount', dir: 'desc' });
    expect(parseSort('name', 'ascend', catalog)).toEqual({ column: 'f_name', dir: 'asc' });
    expect(parseSort('name', 'asc', catalog)).toEqual({ column: 'f_name', dir: 'asc' });
    expect(parseSort('name', undefined, catalog)).toEqual({ column: 'f_name', dir: 'asc' });
    expect(parseSort('created', 'desc', catalog)).toEqual({ column: 'created_at', dir: 'desc' });
  });

  it('refuses unknown and non-sortable fields and other orders', () => {
    for (const f of ['nope', 'f_amount', 'created_at', 'id', 'amount desc', 'amount; drop table users', '__proto__']) {
      expect400(() => parseSort(f, 'asc', catalog), /未知的排序字段/);
    }
    expect400(() => parseSort('remark', 'asc', catalog), /不支持排序/);
    expect400(() => parseSort('at', 'asc', catalog), /不支持排序/);
    for (const o of ['DESC', 'down', 'desc; drop table users', 'asc nulls first', '1']) {
      expect400(() => parseSort('amount', o, catalog), /排序方式/);
    }
    expect400(() => parseSort(['amount'] as unknown as string, 'asc', catalog));
  });
});

describe('whereSql and orderSql', () => {
  it('binds every value as a parameter, cast to the column type', () => {
    const conditions = where([
      { field: 'name', op: 'eq', value: "a' or '1'='1" },
      { field: 'name', op: 'ne', value: 'x' },
      { field: 'amount', op: 'in', value: [1, 2] },
      { field: 'day', op: 'between', value: ['2024-01-01', '2024-01-31'] },
      { field: 'remark', op: 'isNull' },
      { field: 'created', op: 'gte', value: '2024-01-01' },
    ]);
    const q = render(whereSql(conditions, catalog));
    expect(q.sql).toBe(
      '("f_name" = $1::text) and ("f_name" is distinct from $2::text) and ("f_amount" in ($3::numeric, $4::numeric))' +
        ' and ("f_day" between $5::date and $6::date) and ("f_remark" is null)' +
        ' and ("created_at" >= $7::timestamp)',
    );
    expect(q.params).toEqual(["a' or '1'='1", 'x', 1, 2, '2024-01-01', '2024-01-31', '2024-01-01 00:00:00']);
    expect(q.sql).not.toContain("'");
  });

  it('escapes % _ and \\ in like patterns', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    const q = render(whereSql(where([{ field: 'name', op: 'like', value: '100%' }]), catalog));
    expect(q.sql).toBe('("f_name" like $1::text)');
    expect(q.params).toEqual(['%100\\%%']);
  });

  it('is true without conditions, and refuses a condition outside the catalogue', () => {
    expect(render(whereSql([], catalog)).sql).toBe('true');
    const forged = [{ field: 'x"; drop table users; --', op: 'isNull' }] as Condition[];
    expect(() => whereSql(forged, catalog)).toThrow(/outside the catalogue/);
    const odd: Catalog = new Map([['x', { kind: 'text', searchable: true, sortable: true, column: 'X"; drop' }]]);
    expect(() => whereSql([{ field: 'x', op: 'isNull' }], odd)).toThrow(/refusing to quote/);
  });

  it('orders by the sort with the id as tie-breaker, newest first by default', () => {
    expect(render(orderSql(null)).sql).toBe('"created_at" desc, "id" desc');
    expect(render(orderSql({ column: 'f_amount', dir: 'asc' })).sql).toBe('"f_amount" asc, "id" asc');
    expect(render(orderSql({ column: 'id', dir: 'desc' })).sql).toBe('"id" desc');
    expect(() => orderSql({ column: 'f_amount desc; drop table users', dir: 'asc' })).toThrow(/refusing to quote/);
  });
});

describe('search forms (§5)', () => {
  it('drops empty values, joins date ranges with a comma, takes the last element of other arrays', () => {
    expect(
      normaliseSearchParams({
        name: '  abc ',
        empty: '',
        blank: '   ',
        missing: null,
        undef: undefined,
        none: [],
        day: ['2024-01-01', '2024-01-31'],
        at: ['2024-01-01 08:00:00', '2024-01-02 18:00:00'],
        from: ['2024-01-01', null],
        to: ['', '2024-01-31'],
        area: ['110000', '110100', '110101'],
        pair: ['a', 'b'],
        amount: 12,
        active: true,
      }),
    ).toEqual({
      name: 'abc',
      day: '2024-01-01,2024-01-31',
      at: '2024-01-01 08:00:00,2024-01-02 18:00:00',
      from: '2024-01-01,',
      to: ',2024-01-31',
      area: '110101',
      pair: 'b',
      amount: '12',
      active: 'true',
    });
    expect(normaliseSearchParams(undefined)).toEqual({});
  });

  it('refuses objects, and keeps prototype keys as plain data', () => {
    expect400(() => normaliseSearchParams({ name: { $ne: '' } }));
    expect400(() => normaliseSearchParams({ name: [{ a: 1 }] }));
    expect400(() => normaliseSearchParams({ name: [['a']] }));
    expect400(() => normaliseSearchParams(['name']));
    expect400(() => normaliseSearchParams('name=1'));
    expect400(() => normaliseSearchParams(JSON.parse('{"__proto__": {"polluted": "1"}}')));
    const p = normaliseSearchParams(JSON.parse('{"__proto__": "1", "constructor": "x"}'));
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(p)).toEqual(['__proto__', 'constructor']);
    expect400(() => searchToConditions(p, catalog), /未知的查询字段/);
  });

  it('turns ranges into between, searchable text into like, the rest into eq', () => {
    const params = normaliseSearchParams({
      name: 'ab_c',
      remark: 'exact',
      amount: '5',
      day: ['2024-01-01', '2024-01-31'],
      at: ['2024-01-01', '2024-01-02'],
    });
    expect(searchToConditions(params, catalog)).toEqual([
      { field: 'name', op: 'like', value: 'ab_c' },
      { field: 'remark', op: 'eq', value: 'exact' },
      { field: 'amount', op: 'eq', value: 5 },
      { field: 'day', op: 'between', value: ['2024-01-01', '2024-01-31'] },
      { field: 'at', op: 'between', value: ['2024-01-01 00:00:00', '2024-01-02 23:59:59.999999'] },
    ]);
    expect(searchToConditions({ day: '2024-01-01,' }, catalog)).toEqual([
      { field: 'day', op: 'gte', value: '2024-01-01' },
    ]);
    expect(searchToConditions({ day: ',2024-01-31' }, catalog)).toEqual([
      { field: 'day', op: 'lte', value: '2024-01-31' },
    ]);
    expect(searchToConditions({ day: '2024-01-05' }, catalog)).toEqual([
      { field: 'day', op: 'eq', value: '2024-01-05' },
    ]);
  });

  it('refuses unknown fields and bad values', () => {
    expect400(() => searchToConditions({ nope: 'a' }, catalog), /未知的查询字段/);
    expect400(() => searchToConditions({ 'name; drop table users': 'a' }, catalog), /未知的查询字段/);
    expect400(() => searchToConditions({ day: '2024-01-01,2024-01-02,2024-01-03' }, catalog), /日期范围/);
    expect400(() => searchToConditions({ day: ',' }, catalog), /日期范围/);
    expect400(() => searchToConditions({ day: "2024-01-01' or '1'='1" }, catalog), /日期/);
    expect400(() => searchToConditions({ amount: '1,2' }, catalog), /数字/);
    const many = Object.fromEntries(
      Array.from({ length: 21 }, () => ['name', 'a']).map(([k, v], i) => [`${k}${i}`, v]),
    );
    expect400(() => searchToConditions(many, catalog), /过多/);
  });
});

describe('on the test database', () => {
  let database: Database;
  const table = tableOf('SQLSAFE_Probe');
  const rowsOf = async <T>(q: SQL) => ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;
  const ids = async (whereStr: string | undefined, sortField?: string, order?: string) => {
    const w = whereSql(parseWhereStr(whereStr, catalog), catalog);
    const o = orderSql(parseSort(sortField, order, catalog));
    const rows = await rowsOf<{ id: number }>(sql`select id from ${ident(table)} where ${w} order by ${o}`);
    return rows.map((r) => Number(r.id));
  };
  const search = async (values: unknown) => {
    const w = whereSql(searchToConditions(normaliseSearchParams(values), catalog), catalog);
    const rows = await rowsOf<{ id: number }>(sql`select id from ${ident(table)} where ${w} order by id`);
    return rows.map((r) => Number(r.id));
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const col = (code: string) => quoteIdent(columnOf(code));
    // DDL from validated identifiers only, as the engine builds it
    await database.db.execute(
      sql.raw(
        `create table ${quoteIdent(table)} (id integer primary key, created_at timestamp not null, ` +
          `${col('name')} text, ${col('remark')} text, ${col('amount')} numeric, ${col('day')} date, ` +
          `${col('at')} timestamp)`,
      ),
    );
    const rows: [number, string, string, string | null, number | null, string | null, string | null][] = [
      [1, '2024-01-01 09:00', 'alpha', 'r1', 10, '2024-01-01', '2024-01-01 08:00'],
      [2, '2024-01-02 09:00', '100%', null, 20, '2024-01-15', '2024-01-01 23:30'],
      [3, '2024-01-03 09:00', '1000', 'r3', 20, '2024-01-31', '2024-01-02 00:00'],
      [4, '2024-01-04 09:00', 'a_b', 'r4', 5.5, '2024-02-01', null],
      [5, '2024-01-05 09:00', 'axb', null, null, null, '2024-01-03 10:00'],
      [6, '2024-01-06 09:00', "o'brien", 'r6', -3, '2023-12-31', '2023-12-31 23:59'],
    ];
    for (const [id, created, name, remark, amount, day, at] of rows) {
      await database.db.execute(
        sql`insert into ${ident(table)} (id, created_at, ${ident(columnOf('name'))}, ${ident(columnOf('remark'))},
          ${ident(columnOf('amount'))}, ${ident(columnOf('day'))}, ${ident(columnOf('at'))})
          values (${id}, ${created}, ${name}, ${remark}, ${amount}, ${day}, ${at})`,
      );
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it('knows every reserved word this database reports', async () => {
    const words = await rowsOf<{ word: string }>(
      sql`select word from pg_get_keywords() where catcode in ('R', 'T') order by word`,
    );
    expect(words.length).toBeGreaterThanOrEqual(100);
    expect(words.map((w) => w.word).filter((w) => !RESERVED.has(w))).toEqual([]);
  });

  it('selects the right rows with each operator', async () => {
    expect(await ids(undefined)).toEqual([6, 5, 4, 3, 2, 1]); // newest first
    expect(await ids('{"name": "alpha"}')).toEqual([1]);
    expect(await ids('{"name": "o\'brien"}')).toEqual([6]);
    expect(await ids('[{"field": "name", "op": "like", "value": "100%"}]')).toEqual([2]);
    expect(await ids('[{"field": "name", "op": "like", "value": "a_b"}]')).toEqual([4]);
    expect(await ids('[{"field": "name", "op": "like", "value": "\'"}]')).toEqual([6]);
    expect(await ids('[{"field": "remark", "op": "ne", "value": "r1"}]', 'amount', 'asc')).toEqual([6, 4, 2, 3, 5]);
    expect(await ids('[{"field": "remark", "op": "isNull"}]', 'amount', 'asc')).toEqual([2, 5]);
    expect(await ids('[{"field": "amount", "op": "notNull"}, {"field": "remark", "op": "notNull"}]')).toEqual([
      6, 4, 3, 1,
    ]);
    expect(await ids('[{"field": "amount", "op": "in", "value": [20, "5.5"]}]', 'amount', 'desc')).toEqual([3, 2, 4]);
    expect(await ids('[{"field": "amount", "op": "gt", "value": 10}]', 'amount', 'asc')).toEqual([2, 3]);
    expect(await ids('[{"field": "amount", "op": "gte", "value": 10}]', 'amount', 'asc')).toEqual([1, 2, 3]);
    expect(await ids('[{"field": "amount", "op": "lt", "value": 10}]', 'amount', 'asc')).toEqual([6, 4]);
    expect(await ids('[{"field": "amount", "op": "lte", "value": 10.0}]', 'amount', 'asc')).toEqual([6, 4, 1]);
    expect(
      await ids('[{"field": "day", "op": "between", "value": ["2024-01-01", "2024-01-31"]}]', 'day', 'asc'),
    ).toEqual([1, 2, 3]);
    expect(await ids('{"amount": 20}', 'created', 'asc')).toEqual([2, 3]);
    // a date on a datetime field covers the whole day; lte a date includes that day
    expect(await ids('{"at": "2024-01-01"}', 'created', 'asc')).toEqual([1, 2]);
    expect(await ids('[{"field": "at", "op": "lte", "value": "2024-01-02"}]', 'created', 'asc')).toEqual([1, 2, 3, 6]);
    expect(await ids('[{"field": "at", "op": "gt", "value": "2024-01-01 08:00"}]', 'created', 'asc')).toEqual([
      2, 3, 5,
    ]);
  });

  it('sorts by the whitelisted column with a stable tie-breaker', async () => {
    expect(await ids(undefined, 'amount', 'descend')).toEqual([5, 3, 2, 1, 4, 6]); // nulls first when descending
    expect(await ids(undefined, 'amount', 'ascend')).toEqual([6, 4, 1, 2, 3, 5]);
    expect(await ids(undefined, 'name', 'asc')).toHaveLength(6);
  });

  it('runs search forms', async () => {
    expect(await search({ name: 'a', day: ['2024-01-01', '2024-01-31'] })).toEqual([1]);
    expect(await search({ name: '', day: ['2024-01-15', null], active: [] })).toEqual([2, 3, 4]);
    expect(await search({ at: ['2024-01-01', '2024-01-02'], remark: 'r3' })).toEqual([3]);
    expect(await search({ name: '%' })).toEqual([2]);
  });

  it('treats a hostile value as data: nothing matches and the table survives', async () => {
    const hostile = [
      `x'); drop table ${table}; --`,
      `'; delete from ${table}; --`,
      "a' or '1'='1",
      '" or ""="',
      `$1; drop table ${table}`,
    ];
    for (const v of hostile) {
      expect(await ids(JSON.stringify({ name: v }))).toEqual([]);
      expect(await ids(JSON.stringify([{ field: 'name', op: 'like', value: v }]))).toEqual([]);
      expect(await ids(JSON.stringify([{ field: 'name', op: 'in', value: [v, 'alpha'] }]))).toEqual([1]);
      expect(await search({ name: v, remark: v })).toEqual([]);
    }
    const count = await rowsOf<{ n: number }>(sql`select count(*)::int as n from ${ident(table)}`);
    expect(Number(count[0]?.n)).toBe(6);
  });
});
