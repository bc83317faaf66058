import { describe, expect, it } from 'vitest';
import { fieldListSchema } from './engine';
import {
  FIELD_MESSAGES,
  fieldDefProblems,
  fieldListProblems,
  MAX_FIELDS,
  uniqueKeyProblems,
  uniqueViolationMessage,
} from './engine-fields';
import { type FieldDef, filterCardFields, MESSAGES } from './engine-rules';

/** The zod-free field-list rules (what the web's field editor runs) agree with the server's zod schema. */

type Input = Partial<FieldDef> & Record<string, unknown>;
const zodKeys = (fields: Input[]) => {
  const r = fieldListSchema.safeParse(fields);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};
const base: Input = { code: 'xm', name: '姓名', type: 'text' };
const one = (over: Input): Input[] => [{ ...base, ...over }];

const BAD: [string, Input[]][] = [
  ['code pattern', one({ code: 'Xm' })],
  ['code with SQL', one({ code: 'x; drop table users' })],
  ['reserved code', one({ code: 'select' })],
  ['empty name', one({ name: '  ' })],
  ['long name', one({ name: '名'.repeat(51) })],
  ['unknown type', one({ type: 'html' as FieldDef['type'] })],
  ['required 3', one({ required: 3 as 0 })],
  ['col 0', one({ col: 0 })],
  ['col 1.5', one({ col: 1.5 })],
  ['col 25', one({ col: 25 })],
  ['length 0', one({ length: 0 })],
  ['length huge', one({ length: 100_001 })],
  ['tips too long', one({ tips: 'x'.repeat(501) })],
  ['prompt too long', one({ prompt: 'x'.repeat(201) })],
  ['bad regex', one({ regex: '(' })],
  ['long regex', one({ regex: 'a'.repeat(501) })],
  ['bad parent list', one({ parentNode: 'a,B' })],
  ['long groupNumber', one({ groupNumber: 'g'.repeat(64) })],
  ['bad date limit', one({ type: 'date', limitStartDate: '2024-13-01' })],
  ['limits out of order', one({ type: 'date', limitStartDate: '2024-02-01', limitEndDate: '2024-01-01' })],
  ['step 0', one({ type: 'datetime', step: 0 })],
  ['step text', one({ type: 'datetime', step: '15m' })],
  ['filter on text', one({ filter: true })],
  ['filter on multi', one({ type: 'select-m', filter: true })],
  ['filter not boolean', one({ type: 'select', filter: 'yes' as unknown as boolean })],
  ['show not boolean', one({ show: 'no' as unknown as boolean })],
  ['option source type', one({ type: 'select', options: { list: [], type: 'sql' } })],
  ['long option label', one({ type: 'select', options: { list: [{ label: 'x'.repeat(501), value: 'x' }] } })],
  ['object option value', one({ type: 'select', options: { list: [{ label: 'x', value: { $gt: '' } as never }] } })],
  [
    'nested option label',
    one({ type: 'cascader', options: { list: [{ label: 'a', value: 'a', children: [{ label: 'b'.repeat(501) }] }] } }),
  ],
  [
    'source without label field',
    one({ type: 'select', options: { list: [], type: 'pull-down', source: { name: 'enterprises' } as never } }),
  ],
  [
    'source with node and name',
    one({
      type: 'select',
      options: {
        list: [],
        type: 'pull-down',
        source: { name: 'enterprises', gnCoding: 'A', labelField: 'name', valueField: 'name' },
      },
    }),
  ],
  [
    'unknown source',
    one({
      type: 'select',
      options: { list: [], type: 'pull-down', source: { name: 'users' as never, labelField: 'a', valueField: 'b' } },
    }),
  ],
  [
    'duplicate codes',
    [
      { code: 'a', name: 'A', type: 'text' },
      { code: ' a ', name: 'B', type: 'text' },
    ],
  ],
  ['orphan parent', [{ code: 'a', name: 'A', type: 'text', parentNode: 'missing' }]],
  ['own parent', [{ code: 'a', name: 'A', type: 'text', childNode: 'a' }]],
  ['unknown validator', one({ validator: 'sql' as never })],
  ['identifier validator on a date', one({ type: 'date', validator: 'idCard' })],
  ['date validator on text', one({ validator: 'notPast' })],
  ['identifier validator on a select', one({ type: 'select', validator: 'mobile', options: { list: [] } })],
];

describe('fieldListProblems agrees with fieldListSchema', () => {
  it.each(BAD)('refuses %s, with the same property named', (_name, fields) => {
    const expected = zodKeys(fields);
    const got = fieldListProblems(fields);
    expect(expected.length).toBeGreaterThan(0);
    for (const key of expected) expect(Object.keys(got)).toContain(key);
    if (expected.length === 1) expect(Object.keys(got)).toEqual(expected);
  });

  it('gives the same messages where both name one problem', () => {
    for (const [, fields] of BAD) {
      const r = fieldListSchema.safeParse(fields);
      if (r.success || r.error.issues.length !== 1) continue;
      const issue = r.error.issues[0]!;
      expect(fieldListProblems(fields)[issue.path.join('.')]).toBe(issue.message);
    }
  });

  it('accepts what the schema accepts', () => {
    const good: Input[] = [
      { code: 'xm', name: ' 姓名 ', type: 'text', required: 1, length: 20, regex: '^\\S+$', prompt: '不能有空格' },
      { code: 'kg', name: '是否', type: 'switch-1', childNode: 'dq, rq', filter: true },
      {
        code: 'dq',
        name: '地区',
        type: 'cascader',
        parentNode: 'kg',
        options: { list: [{ label: '山西', value: 'sx', children: [{ label: '太原', value: 'ty' }] }] },
      },
      { code: 'rq', name: '日期', type: 'datetime', parentNode: 'kg', limitStartDate: 'today', step: '00:30' },
      {
        code: 'lb',
        name: '类别',
        type: 'select',
        filter: false,
        titleCoding: 'REG_CATEGORY',
        options: { list: [], type: 'dic' },
      },
      {
        code: 'qy',
        name: '企业',
        type: 'filter-select',
        options: {
          list: [],
          type: 'pull-down',
          source: { name: 'enterprises', labelField: 'name', valueField: 'name' },
        },
      },
      { code: 'bz', name: '备注', type: 'textarea', col: 24, tips: '选填', length: 500 },
      { code: 'sfzh', name: '身份证号', type: 'text', validator: 'idCard' },
      { code: 'xydm', name: '信用代码', type: 'select-edit', validator: 'creditCode', options: { list: [] } },
      { code: 'sj', name: '手机', type: 'text', validator: 'mobile' },
      { code: 'kbsj', name: '开标时间', type: 'datetime', validator: 'notPast' },
      { code: 'yxq', name: '有效期', type: 'daterange', validator: 'notPast' },
      { code: 'fzrq', name: '发证日期', type: 'date', validator: 'notFuture' },
    ];
    expect(fieldListSchema.safeParse(good).success).toBe(true);
    expect(fieldListProblems(good)).toEqual({});
  });

  it('names every problem at once, and the list’s own size', () => {
    const problems = fieldListProblems([
      { code: 'select', name: '', type: 'text' },
      { code: 'ok', name: 'OK', type: 'radio', filter: true, parentNode: 'nope' },
    ]);
    expect(problems).toEqual({
      '0.code': fmtReserved('select'),
      '0.name': FIELD_MESSAGES.nameRequired,
      '1.parentNode': '关联字段不存在：nope',
    });
    const many = Array.from({ length: MAX_FIELDS + 1 }, (_, i) => ({ code: `f${i}`, name: `字段${i}`, type: 'text' }));
    expect(fieldListProblems(many as Input[])['']).toBe(FIELD_MESSAGES.fieldsMax);
    expect(zodKeys(many as Input[])).toEqual(['']);
  });

  it('checks one field alone', () => {
    expect(fieldDefProblems({ code: 'user', name: '用户', type: 'text' })).toEqual({ code: fmtReserved('user') });
    expect(
      fieldDefProblems({
        code: 'ok',
        name: '日期',
        type: 'date',
        limitStartDate: '2025-01-02',
        limitEndDate: '2025-01-01',
      }),
    ).toEqual({
      limitEndDate: FIELD_MESSAGES.dateOrder,
    });
  });
});

const fmtReserved = (code: string) => MESSAGES.codeReserved.replace('{code}', code);

describe('filterCardFields', () => {
  const f = (code: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
    code,
    name: code,
    type,
    ...extra,
  });
  const fields = [
    f('a', 'text'),
    f('b', 'select'),
    f('c', 'radio'),
    f('d', 'select-m'),
    f('e', 'switch', { show: false }),
    f('g', 'sex'),
  ];
  it('without flags: every shown single-value option field', () => {
    expect(filterCardFields(fields).map((x) => x.code)).toEqual(['b', 'c', 'g']);
  });
  it('with flags: exactly those set to true, in field order, shown or not; a flag on another type is ignored', () => {
    const flagged = fields.map((x) =>
      x.code === 'g' || x.code === 'e' || x.code === 'd'
        ? { ...x, filter: true }
        : x.code === 'b'
          ? { ...x, filter: false }
          : x,
    );
    expect(filterCardFields(flagged).map((x) => x.code)).toEqual(['e', 'g']);
    expect(filterCardFields(fields.map((x) => ({ ...x, filter: false })))).toEqual([]);
  });
});

describe('unique keys (uniqueKeyProblems)', () => {
  const fields = [
    { code: 'xm', name: '姓名', type: 'text' as const },
    { code: 'sfzh', name: '身份证号', type: 'text' as const },
    { code: 'bz', name: '备注', type: 'textarea' as const },
  ];
  it('accepts keys of distinct single-value fields, and names each problem', () => {
    expect(
      uniqueKeyProblems(fields, [{ fields: ['sfzh'] }, { fields: ['xm', 'sfzh'], withinEnterprise: true }]),
    ).toEqual({});
    expect(
      uniqueKeyProblems(fields, [
        { fields: ['bz'] },
        { fields: ['nope'] },
        { fields: ['xm', 'xm'] },
        { fields: [] },
        { fields: ['sfzh', 'xm'] },
        { fields: ['xm', 'sfzh'] },
      ]),
    ).toEqual({
      '0.fields': '字段「备注」的类型不能设为唯一（多选、级联、日期范围、多行文本和富文本不能）',
      '1.fields': '唯一约束的字段不存在：nope',
      '2.fields': '唯一约束中字段「姓名」重复',
      '3.fields': '唯一约束至少包含一个字段',
      '5.fields': '与第 5 个唯一约束相同',
    });
  });
  it('words a violation with the fields’ titles', () => {
    expect(uniqueViolationMessage(fields, { fields: ['sfzh'] })).toBe('「身份证号」已存在');
    expect(uniqueViolationMessage(fields, { fields: ['xm', 'sfzh'], withinEnterprise: true })).toBe(
      '本企业已有「姓名」「身份证号」的组合相同的记录',
    );
  });
});
