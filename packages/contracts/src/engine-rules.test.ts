import { describe, expect, it } from 'vitest';
import { isValidDate, isValidDateTime } from './dates';
import { fieldDefSchema, fieldListSchema } from './engine';
import {
  activeFields,
  CASCADER_TYPES,
  compareDates,
  DATE_TYPES,
  dateBounds,
  dependentQueryBlocked,
  FIELD_CODE_PATTERN,
  FIELD_TYPES,
  FIELD_VALIDATOR_CODES,
  FIELD_VALIDATORS,
  type FieldDef,
  fieldCodeProblem,
  fieldRegex,
  fmt,
  isEmpty,
  isNewlyRequired,
  isRequired,
  isRequiredIn,
  isReservedWord,
  joinValue,
  MESSAGES,
  MULTI_VALUE_TYPES,
  normaliseSearch,
  normaliseValues,
  OPTION_TYPES,
  PG_RESERVED_WORDS,
  SWITCH_TYPES,
  splitValue,
  timeStepMinutes,
  validateField,
  validateRecord,
  validationClock,
  validatorFits,
  validatorsFor,
  visibleFields,
} from './engine-rules';
import { idNumberCheckChar } from './identifiers';

const checkOf = (first17: string) => idNumberCheckChar(first17) ?? '';

const f = (code: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
  code,
  name: extra.name ?? code.toUpperCase(),
  type,
  ...extra,
});
const TODAY = '2024-06-15';
const check = (fields: FieldDef[], values: Record<string, unknown>) => validateRecord(fields, values, { today: TODAY });
const one = (field: FieldDef, value: unknown) => check([field], { [field.code]: value })[field.code];

describe('field types', () => {
  it('lists every type of screen 13 verbatim, once', () => {
    expect(FIELD_TYPES).toHaveLength(32);
    expect(new Set(FIELD_TYPES).size).toBe(FIELD_TYPES.length);
    for (const t of ['read-text', 'select-m', 'cascader-3', 'cascaders', 'transfer-1', 'y_n_ent', 'daterange']) {
      expect(FIELD_TYPES).toContain(t);
    }
  });
  it('groups types', () => {
    expect(CASCADER_TYPES).toEqual(['cascader', 'cascader-1', 'cascader-2', 'cascader-3', 'cascaders']);
    expect(DATE_TYPES).toEqual(['datetime', 'date', 'daterange']);
    expect(SWITCH_TYPES).toEqual(['switch', 'switch-1', 'switch-2']);
    expect(MULTI_VALUE_TYPES).toContain('transfer');
    expect(MULTI_VALUE_TYPES).toContain('multi-select');
    for (const t of [...MULTI_VALUE_TYPES, ...CASCADER_TYPES, 'sex', 'radio', 'y_n_ent'])
      expect(OPTION_TYPES).toContain(t);
    for (const t of [...DATE_TYPES, ...SWITCH_TYPES, 'text', 'number']) expect(OPTION_TYPES).not.toContain(t);
  });
});

describe('messages', () => {
  it('keeps the §5 strings verbatim', () => {
    expect(MESSAGES.required).toBe('{name}必填');
    expect(MESSAGES.select).toBe('请选择{name}');
    expect(MESSAGES.dateFormat).toBe('日期格式有误，请重新输入');
    expect(MESSAGES.parentFirst).toBe('请先输入或选择上级条件后查询！');
  });
  it('fmt fills placeholders and leaves unknown ones', () => {
    expect(fmt(MESSAGES.required, { name: '姓名' })).toBe('姓名必填');
    expect(fmt('{a}-{b}-{a}', { a: 1 })).toBe('1-{b}-1');
    expect(fmt('{toString}', {})).toBe('{toString}');
  });
});

describe('isEmpty', () => {
  it('counts empty arrays, blank text and nullish as empty', () => {
    for (const v of [undefined, null, '', '   ', [], ['', null], Number.NaN, {}]) expect(isEmpty(v)).toBe(true);
    for (const v of [0, '0', false, 'a', ['a'], [0], { a: 1 }]) expect(isEmpty(v)).toBe(false);
  });
});

describe('joinValue / splitValue', () => {
  it('joins multi-value types with ; and cascaders with /', () => {
    expect(joinValue('multi-select', ['a', 'b'])).toBe('a;b');
    expect(joinValue('transfer', ['a', '', 'b'])).toBe('a;b');
    expect(joinValue('checkbox', ['x'])).toBe('x');
    expect(joinValue('cascader', ['61', '6101', '610102'])).toBe('61/6101/610102');
    expect(joinValue('cascader-2', ['a', 'b'])).toBe('a/b');
    expect(
      joinValue('cascaders', [
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a/b;c/d');
    expect(joinValue('daterange', ['2024-01-01', '2024-02-01'])).toBe('2024-01-01,2024-02-01');
    expect(joinValue('text', 'plain')).toBe('plain');
    expect(joinValue('number', 3)).toBe('3');
    expect(joinValue('text', null)).toBe('');
  });
  it('splits them back', () => {
    expect(splitValue('multi-select', 'a;b')).toEqual(['a', 'b']);
    expect(splitValue('transfer-1', ' a ; ;b')).toEqual(['a', 'b']);
    expect(splitValue('cascader', '61/6101')).toEqual(['61', '6101']);
    expect(splitValue('cascaders', 'a/b;c/d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(splitValue('daterange', '2024-01-01,2024-02-01')).toEqual(['2024-01-01', '2024-02-01']);
    expect(splitValue('select', 'x')).toEqual(['x']);
    expect(splitValue('select', '')).toEqual([]);
    expect(splitValue('multi-select', ['a', '', 'b'])).toEqual(['a', 'b']);
    expect(splitValue('cascaders', [['a', 'b'], 'c/d'])).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
  it('round-trips', () => {
    for (const [type, v] of [
      ['selects', ['1', '2', '3']],
      ['cascader-3', ['a', 'b', 'c']],
      ['daterange', ['2024-01-01', '2024-01-02']],
    ] as const) {
      expect(splitValue(type, joinValue(type, v))).toEqual(v);
    }
  });
});

describe('required', () => {
  it('1 or 2 means required', () => {
    expect(isRequired({ required: 1 })).toBe(true);
    expect(isRequired({ required: 2 })).toBe(true);
    expect(isRequired({ required: 0 })).toBe(false);
    expect(isRequired({})).toBe(false);
  });
  it('says {name}必填 for every required field, option types too (§5; an empty array is empty)', () => {
    expect(one(f('xm', 'text', { name: '姓名', required: 1 }), '')).toBe('姓名必填');
    expect(one(f('xm', 'textarea', { name: '说明', required: 2 }), '  ')).toBe('说明必填');
    expect(one(f('sl', 'number', { name: '数量', required: 1 }), undefined)).toBe('数量必填');
    expect(one(f('rq', 'date', { name: '日期', required: 1 }), null)).toBe('日期必填');
    expect(one(f('lx', 'select', { name: '类型', required: 1 }), '')).toBe('类型必填');
    expect(one(f('lx', 'checkbox', { name: '范围', required: 1 }), [])).toBe('范围必填');
    expect(one(f('lx', 'cascader', { name: '地区', required: 2 }), [])).toBe('地区必填');
    expect(one(f('xb', 'sex', { name: '性别', required: 1 }), undefined)).toBe('性别必填');
  });
  it('does not require optional, hidden (show false) or read-text fields', () => {
    expect(one(f('a', 'text'), '')).toBeUndefined();
    expect(one(f('a', 'text', { required: 1, show: false }), '')).toBeUndefined();
    expect(one(f('a', 'read-text', { required: 1 }), '')).toBeUndefined();
  });
});

describe('switch-1 and switch-2 (§4)', () => {
  const sw = f('has_agent', 'switch-1', { name: '是否代理' });
  const agent = f('agent_name', 'text', { name: '代理人', parentNode: 'has_agent' });
  const agentPhone = f('agent_phone', 'text', { name: '代理人电话', parentNode: 'has_agent', required: 1 });
  const other = f('other', 'text');
  const fields = [sw, agent, agentPhone, other];

  it('shows children only when the switch is 1', () => {
    expect(visibleFields(fields, { has_agent: '0' }).map((x) => x.code)).toEqual(['has_agent', 'other']);
    expect(visibleFields(fields, {}).map((x) => x.code)).toEqual(['has_agent', 'other']);
    expect(visibleFields(fields, { has_agent: '1' }).map((x) => x.code)).toEqual([
      'has_agent',
      'agent_name',
      'agent_phone',
      'other',
    ]);
    expect(visibleFields(fields, { has_agent: 1 })).toHaveLength(4);
  });
  it('also takes children from the switch childNode', () => {
    const s = f('s', 'switch-1', { childNode: 'c' });
    const c = f('c', 'text');
    expect(visibleFields([s, c], { s: '0' }).map((x) => x.code)).toEqual(['s']);
    expect(isRequiredIn(c, [s, c])).toBe(true);
  });
  it('hides grandchildren of a hidden switch', () => {
    const outer = f('outer', 'switch-1');
    const inner = f('inner', 'switch-1', { parentNode: 'outer' });
    const leaf = f('leaf', 'text', { parentNode: 'inner' });
    expect(activeFields([outer, inner, leaf], { outer: '0', inner: '1' }).map((x) => x.code)).toEqual(['outer']);
    expect(activeFields([outer, inner, leaf], { outer: '1', inner: '1' })).toHaveLength(3);
  });
  it('survives a cycle of switches', () => {
    const a = f('a', 'switch-1', { parentNode: 'b' });
    const b = f('b', 'switch-1', { parentNode: 'a' });
    expect(activeFields([a, b], { a: '1', b: '1' })).toHaveLength(2);
  });
  it('makes shown children required: 请选择{name} when newly required, {name}必填 when already required', () => {
    const errors = check(fields, { has_agent: '1' });
    expect(errors).toEqual({ agent_name: '请选择代理人', agent_phone: '代理人电话必填' });
    expect(isNewlyRequired(agent, fields)).toBe(true);
    expect(isNewlyRequired(fields[2] as FieldDef, fields)).toBe(false);
    expect(isNewlyRequired(sw, fields)).toBe(false);
  });
  it('neither validates nor keeps hidden children', () => {
    expect(check(fields, { has_agent: '0', agent_name: 'x'.repeat(9999) })).toEqual({});
    expect(normaliseValues(fields, { has_agent: '0', agent_name: '张三', other: ' o ' })).toEqual({
      has_agent: '0',
      agent_name: null,
      agent_phone: null,
      other: 'o',
    });
  });
  it('switch-2 is always 1; switches are 1 or 0', () => {
    const s2 = f('agree', 'switch-2');
    const s = f('flag', 'switch');
    expect(normaliseValues([s2, s], {})).toEqual({ agree: '1', flag: '0' });
    expect(normaliseValues([s2, s], { agree: '0', flag: true })).toEqual({ agree: '1', flag: '1' });
    expect(normaliseValues([s], { flag: 1 })).toEqual({ flag: '1' });
    expect(normaliseValues([s], { flag: 'yes' })).toEqual({ flag: '0' });
  });
  it('refuses switch values other than 1 / 0', () => {
    const s = f('flag', 'switch', { name: '开关' });
    expect(one(s, '1')).toBeUndefined();
    expect(one(s, 0)).toBeUndefined();
    expect(one(s, '2')).toBe('开关只能为1或0');
    expect(one(s, true)).toBe('开关只能为1或0');
    expect(one(f('s2', 'switch-2', { name: 'S' }), 'on')).toBe('S只能为1或0');
  });
});

describe('normaliseValues', () => {
  it('trims text, also inside arrays, and drops keys outside the schema', () => {
    const fields = [f('a', 'text'), f('b', 'multi-select'), f('c', 'number')];
    expect(normaliseValues(fields, { a: '  x ', b: [' p ', 'q'], c: 5, evil: 'drop table' })).toEqual({
      a: 'x',
      b: ['p', 'q'],
      c: 5,
    });
  });
  it('keeps sex only as 男 or 女', () => {
    const sex = f('xb', 'sex');
    expect(normaliseValues([sex], { xb: ' 男 ' })).toEqual({ xb: '男' });
    expect(normaliseValues([sex], { xb: '女' })).toEqual({ xb: '女' });
    expect(normaliseValues([sex], { xb: 'M' })).toEqual({ xb: '' });
    expect(normaliseValues([sex], {})).toEqual({});
  });
  it('leaves absent fields absent', () => {
    expect(normaliseValues([f('a', 'text'), f('b', 'date')], { a: 'x' })).toEqual({ a: 'x' });
  });
});

describe('text: length and regex', () => {
  it('enforces the max length in characters', () => {
    const t = f('mc', 'text', { name: '名称', length: 4 });
    expect(one(t, '一二三四')).toBeUndefined();
    expect(one(t, '一二三四五')).toBe('名称不能超过4个字符');
    expect(one(t, ' abcd ')).toBeUndefined();
    expect(one(f('bz', 'textarea', { name: '备注', length: 2 }), 'abc')).toBe('备注不能超过2个字符');
  });
  it('shows the prompt when the regex fails, else {name}格式不正确', () => {
    const phone = f('tel', 'text', { name: '电话', regex: '^1\\d{10}$', prompt: '请输入正确的手机号' });
    expect(one(phone, '13800138000')).toBeUndefined();
    expect(one(phone, '1380013800')).toBe('请输入正确的手机号');
    expect(one(f('code', 'text', { name: '代码', regex: '/^[a-z]+$/i' }), 'ABC')).toBeUndefined();
    expect(one(f('code', 'text', { name: '代码', regex: '^[a-z]+$' }), 'ABC')).toBe('代码格式不正确');
  });
  it('does not run the regex on an empty optional value', () => {
    expect(one(f('tel', 'text', { regex: '^1\\d{10}$' }), '')).toBeUndefined();
  });
  it('parses regexes: plain, literal with flags, g dropped, invalid ignored', () => {
    expect(fieldRegex({ regex: '^a$' })?.test('a')).toBe(true);
    const g = fieldRegex({ regex: '/a/g' })!;
    expect(g.flags).toBe('');
    expect(g.test('a') && g.test('a')).toBe(true);
    expect(fieldRegex({ regex: '(' })).toBeNull();
    expect(fieldRegex({})).toBeNull();
    expect(one(f('x', 'text', { regex: '(' }), 'anything')).toBeUndefined();
  });
  it('refuses a non-text value for a text field', () => {
    expect(one(f('x', 'text', { name: 'X' }), { a: 1 })).toBe('X格式不正确');
    expect(one(f('x', 'text', { name: 'X' }), 12)).toBeUndefined();
  });
});

describe('numbers: min 1, step 1, precision 0', () => {
  for (const type of ['number', 'input-number'] as const) {
    it(`${type} takes integers ≥ 1`, () => {
      const n = f('sl', type, { name: '数量' });
      for (const ok of [1, 2, 999, '3', ' 4 ']) expect(one(n, ok)).toBeUndefined();
      for (const bad of [0, -1, 1.5, '1.0', 'abc', '-2', Number.POSITIVE_INFINITY, 2 ** 60, '1e3']) {
        expect(one(n, bad)).toBe('数量须为不小于1的整数');
      }
    });
  }
});

describe('dates', () => {
  it('checks the calendar', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2024-2-1')).toBe(false);
    expect(isValidDateTime('2024-02-29 23:45')).toBe(true);
    expect(isValidDateTime('2024-02-29 24:00')).toBe(false);
    expect(isValidDateTime('2024-02-29 10:60')).toBe(false);
    expect(isValidDateTime('2024-02-29 10:00:00')).toBe(false);
  });
  it('date and datetime formats (YYYY-MM-DD, YYYY-MM-DD HH:mm)', () => {
    const d = f('rq', 'date');
    expect(one(d, '2024-01-31')).toBeUndefined();
    for (const bad of ['2024/01/31', '2024-01-32', '20240131', '2024-01-31 10:00']) {
      expect(one(d, bad)).toBe('日期格式有误，请重新输入');
    }
    const dt = f('sj', 'datetime');
    expect(one(dt, '2024-01-31 09:15')).toBeUndefined();
    expect(one(dt, '2024-01-31')).toBe('日期格式有误，请重新输入');
  });
  it('datetime minutes on a 15-minute step (or the field step)', () => {
    const dt = f('sj', 'datetime', { name: '时间' });
    for (const ok of ['2024-01-01 00:00', '2024-01-01 00:15', '2024-01-01 13:30', '2024-01-01 23:45']) {
      expect(one(dt, ok)).toBeUndefined();
    }
    expect(one(dt, '2024-01-01 10:10')).toBe('时间的时间须按15分钟间隔选择');
    expect(one(f('sj', 'datetime', { name: 'T', step: '00:30' }), '2024-01-01 10:15')).toBe(
      'T的时间须按30分钟间隔选择',
    );
    expect(one(f('sj', 'datetime', { step: 5 }), '2024-01-01 10:10')).toBeUndefined();
    expect(timeStepMinutes({})).toBe(15);
    expect(timeStepMinutes({ step: '01:00' })).toBe(60);
    expect(timeStepMinutes({ step: 'bad' })).toBe(15);
  });
  it('limitStartDate / limitEndDate, with today', () => {
    const d = f('rq', 'date', { name: '日期', limitStartDate: '2024-01-01', limitEndDate: '2024-12-31' });
    expect(one(d, '2024-01-01')).toBeUndefined();
    expect(one(d, '2024-12-31')).toBeUndefined();
    expect(one(d, '2023-12-31')).toBe('日期不能早于2024-01-01');
    expect(one(d, '2025-01-01')).toBe('日期不能晚于2024-12-31');
    const fromToday = f('rq', 'date', { name: '日期', limitStartDate: 'today' });
    expect(one(fromToday, TODAY)).toBeUndefined();
    expect(one(fromToday, '2024-06-14')).toBe(`日期不能早于${TODAY}`);
    const dt = f('sj', 'datetime', { name: '时间', limitEndDate: '2024-06-15' });
    expect(one(dt, '2024-06-15 23:45')).toBeUndefined();
    expect(one(dt, '2024-06-16 00:00')).toBe('时间不能晚于2024-06-15');
  });
  it('defaults today to the platform’s date', () => {
    expect(validateRecord([f('d', 'date', { limitStartDate: 'today' })], { d: '2000-01-01' })).toHaveProperty('d');
  });
  it('a date is not before its parent date field', () => {
    const start = f('start_time', 'date', { name: '开始时间' });
    const end = f('end_time', 'date', { name: '结束时间', parentNode: 'start_time' });
    const fields = [start, end];
    expect(check(fields, { start_time: '2024-03-01', end_time: '2024-03-01' })).toEqual({});
    expect(check(fields, { start_time: '2024-03-01', end_time: '2024-02-28' })).toEqual({
      end_time: '结束时间不能早于开始时间',
    });
    expect(check(fields, { end_time: '2024-02-28' })).toEqual({});
    const dtStart = f('a', 'datetime', { name: 'A' });
    const dtEnd = f('b', 'datetime', { name: 'B', parentNode: 'a' });
    expect(check([dtStart, dtEnd], { a: '2024-03-01 10:00', b: '2024-03-01 09:45' })).toEqual({ b: 'B不能早于A' });
    expect(check([dtStart, dtEnd], { a: '2024-03-01 10:00', b: '2024-03-01 10:00' })).toEqual({});
    // a non-date parent is ignored
    expect(check([f('p', 'text'), f('d', 'date', { parentNode: 'p' })], { p: '2099-01-01', d: '2024-01-01' })).toEqual(
      {},
    );
  });
  it('dateBounds: the picker range from the limits and the active parent dates', () => {
    const start = f('start_time', 'date', { name: '开始时间' });
    const end = f('end_time', 'date', {
      parentNode: 'start_time',
      limitStartDate: '2024-01-01',
      limitEndDate: 'today',
    });
    const fields = [start, end];
    const opts = { today: TODAY };
    expect(dateBounds(end, fields, {}, opts)).toEqual({ min: '2024-01-01', max: TODAY });
    expect(dateBounds(end, fields, { start_time: '2024-03-01' }, opts)).toEqual({ min: '2024-03-01', max: TODAY });
    // a parent before the limit does not widen the range; an invalid parent value is ignored
    expect(dateBounds(end, fields, { start_time: '2023-03-01' }, opts).min).toBe('2024-01-01');
    expect(dateBounds(end, fields, { start_time: '2024-3-1' }, opts).min).toBe('2024-01-01');
    // a parent hidden by its switch-1 does not count
    const sw = f('sw', 'switch-1');
    const hiddenStart = f('start_time', 'date', { parentNode: 'sw' });
    expect(dateBounds(end, [sw, hiddenStart, end], { sw: '0', start_time: '2024-05-01' }, opts).min).toBe('2024-01-01');
    expect(dateBounds(end, [sw, hiddenStart, end], { sw: '1', start_time: '2024-05-01' }, opts).min).toBe('2024-05-01');
    // a datetime parent on the limit's day keeps its time
    const dtStart = f('a', 'datetime');
    const dtEnd = f('b', 'datetime', { parentNode: 'a', limitStartDate: '2024-03-01' });
    expect(dateBounds(dtEnd, [dtStart, dtEnd], { a: '2024-03-01 10:15' }, opts).min).toBe('2024-03-01 10:15');
    expect(dateBounds(f('x', 'date'), [], {}, opts)).toEqual({ min: null, max: null });
  });
  it('compares dates by day unless both carry a time', () => {
    expect(compareDates('2024-01-01', '2024-01-01 10:00')).toBe(0);
    expect(compareDates('2024-01-01 09:00', '2024-01-01 10:00')).toBe(-1);
    expect(compareDates('2024-01-02', '2024-01-01')).toBe(1);
  });
  it('daterange: two dates joined by a comma, start ≤ end', () => {
    const r = f('qj', 'daterange', { name: '区间' });
    expect(one(r, '2024-01-01,2024-01-31')).toBeUndefined();
    expect(one(r, ['2024-01-01', '2024-01-01'])).toBeUndefined();
    expect(one(r, '2024-02-01,2024-01-31')).toBe('区间的开始日期不能晚于结束日期');
    expect(one(r, '2024-01-01')).toBe('日期格式有误，请重新输入');
    expect(one(r, '2024-01-01,2024-13-01')).toBe('日期格式有误，请重新输入');
    expect(one(r, '2024-01-01;2024-01-31')).toBe('日期格式有误，请重新输入');
    const limited = f('qj', 'daterange', { name: '区间', limitStartDate: '2024-01-01', limitEndDate: '2024-12-31' });
    expect(one(limited, '2023-12-01,2024-01-31')).toBe('区间不能早于2024-01-01');
    expect(one(limited, '2024-12-01,2025-01-31')).toBe('区间不能晚于2024-12-31');
  });
});

describe('options', () => {
  const list = [
    { label: '甲', value: 'a' },
    { label: '乙', value: 'b' },
    { label: '丙', value: 3 },
  ];
  it('values must be among options.list when given', () => {
    const s = f('lx', 'select', { name: '类型', options: { list } });
    expect(one(s, 'a')).toBeUndefined();
    expect(one(s, '3')).toBeUndefined();
    expect(one(s, 'z')).toBe('类型的值不在可选范围内');
    expect(one(s, ['a'])).toBe('类型的值不在可选范围内');
    expect(one(f('lx', 'radio', { options: { list } }), 'b')).toBeUndefined();
  });
  it('skips the check without a list, and for select-edit', () => {
    expect(one(f('lx', 'select'), 'anything')).toBeUndefined();
    expect(one(f('lx', 'select', { options: { list: [] } }), 'anything')).toBeUndefined();
    expect(one(f('lx', 'select-edit', { options: { list } }), 'free text')).toBeUndefined();
  });
  it('uses valueKey', () => {
    const s = f('lx', 'select', {
      name: 'L',
      options: { list: [{ dm: '01', mc: '一' }], valueKey: 'dm', labelKey: 'mc' },
    });
    expect(one(s, '01')).toBeUndefined();
    expect(one(s, '一')).toBe('L的值不在可选范围内');
  });
  it('checks every value of multi-value types, as array or joined text', () => {
    const m = f('fw', 'multi-select', { name: '范围', options: { list } });
    expect(one(m, ['a', 'b'])).toBeUndefined();
    expect(one(m, 'a;b')).toBeUndefined();
    expect(one(m, ['a', 'x'])).toBe('范围的值不在可选范围内');
    expect(one(f('fw', 'transfer', { options: { list } }), 'a;x')).toBeTruthy();
    expect(one(f('fw', 'checkbox', { options: { list } }), ['b'])).toBeUndefined();
  });
  it('checks cascader paths against the tree', () => {
    const tree = [
      {
        label: '陕西',
        value: '61',
        children: [{ label: '西安', value: '6101', children: [{ label: '新城', value: '610102' }] }],
      },
      { label: '山西', value: '14' },
    ];
    const c = f('dq', 'cascader', { name: '地区', options: { list: tree } });
    expect(one(c, ['61', '6101', '610102'])).toBeUndefined();
    expect(one(c, '61/6101')).toBeUndefined();
    expect(one(c, '610102')).toBeUndefined(); // a single leaf value
    expect(one(c, ['14', '6101'])).toBe('地区的值不在可选范围内');
    expect(one(c, '99')).toBe('地区的值不在可选范围内');
    const cs = f('dq', 'cascaders', { name: '地区', options: { list: tree } });
    expect(one(cs, [['61', '6101'], ['14']])).toBeUndefined();
    expect(one(cs, '61/6101;14')).toBeUndefined();
    expect(one(cs, '61/6101;14/1')).toBe('地区的值不在可选范围内');
  });
  it('sex takes only 男 / 女', () => {
    const s = f('xb', 'sex', { name: '性别' });
    expect(one(s, '男')).toBeUndefined();
    expect(one(s, '女')).toBeUndefined();
    expect(one(s, '1')).toBe('性别的值不在可选范围内');
  });
});

describe('validateRecord', () => {
  it('returns the first problem per field, keyed by code', () => {
    const fields = [
      f('mc', 'text', { name: '名称', required: 1, length: 3, regex: '^\\d+$', prompt: '只能输入数字' }),
      f('sl', 'number', { name: '数量', required: 1 }),
      f('rq', 'date', { name: '日期' }),
    ];
    expect(check(fields, {})).toEqual({ mc: '名称必填', sl: '数量必填' });
    expect(check(fields, { mc: 'abcd', sl: 0, rq: 'x' })).toEqual({
      mc: '名称不能超过3个字符',
      sl: '数量须为不小于1的整数',
      rq: '日期格式有误，请重新输入',
    });
    expect(check(fields, { mc: 'ab', sl: 2 })).toEqual({ mc: '只能输入数字' });
    expect(check(fields, { mc: '12', sl: 2, rq: '2024-01-01' })).toEqual({});
  });
  it('validateField gives one field’s message for blur / change', () => {
    const sw = f('s', 'switch-1');
    const child = f('c', 'select', { name: '子项', parentNode: 's' });
    expect(validateField(child, [sw, child], { s: '1' })).toBe('请选择子项');
    expect(validateField(child, [sw, child], { s: '0' })).toBeNull();
  });
});

describe('search (§5)', () => {
  it('drops empty values, joins date ranges with a comma, takes the last element of other arrays', () => {
    expect(
      normaliseSearch({
        name: ' 张三 ',
        empty: '',
        blank: '  ',
        none: null,
        list: [],
        range: ['2024-01-01', '2024-01-31'],
        timeRange: ['2024-01-01 00:00', '2024-01-31 23:45'],
        area: ['61', '6101', '610102'],
        pair: ['a', 'b'],
        zero: 0,
      }),
    ).toEqual({
      name: '张三',
      range: '2024-01-01,2024-01-31',
      timeRange: '2024-01-01 00:00,2024-01-31 23:45',
      area: '610102',
      pair: 'b',
      zero: '0',
    });
  });
  it('drops an array whose last element is empty', () => {
    expect(normaliseSearch({ a: ['x', ''] })).toEqual({});
  });
});

describe('dependent select (§5)', () => {
  const dep = f('city', 'select', { groupNumber: 'g1_x', parentNode: 'province' });
  it('blocks the query while a parent has no value', () => {
    expect(dependentQueryBlocked(dep, {})).toBe('请先输入或选择上级条件后查询！');
    expect(dependentQueryBlocked(dep, { province: [] })).toBe(MESSAGES.parentFirst);
    expect(dependentQueryBlocked(dep, { province: '61' })).toBeNull();
  });
  it('needs every parent', () => {
    const two = f('x', 'select', { groupNumber: 'a_x', parentNode: 'p1,p2' });
    expect(dependentQueryBlocked(two, { p1: '1' })).toBe(MESSAGES.parentFirst);
    expect(dependentQueryBlocked(two, { p1: '1', p2: '2' })).toBeNull();
  });
  it('does not block without _x', () => {
    expect(dependentQueryBlocked(f('city', 'select', { groupNumber: 'g1', parentNode: 'province' }), {})).toBeNull();
    expect(dependentQueryBlocked(f('city', 'select', { parentNode: 'province' }), {})).toBeNull();
  });
});

describe('field codes', () => {
  it('are lower-case identifiers of at most 63 characters', () => {
    for (const ok of ['a', 'start_time', 'xx_grouping', 'a1', `a${'b'.repeat(62)}`]) {
      expect(FIELD_CODE_PATTERN.test(ok)).toBe(true);
      expect(fieldCodeProblem(ok)).toBeNull();
    }
    for (const bad of [
      '',
      '1a',
      '_a',
      'Name',
      'a-b',
      'a b',
      `a${'b'.repeat(63)}`,
      'x; drop table users',
      "a'",
      'a"b',
    ]) {
      expect(fieldCodeProblem(bad)).toBe(MESSAGES.codeFormat);
    }
    expect(fieldCodeProblem(undefined)).toBe(MESSAGES.codeFormat);
  });
  it('refuse PostgreSQL reserved words', () => {
    for (const w of ['select', 'user', 'order', 'table', 'limit', 'authorization', 'tablesample', 'verbose', 'is']) {
      expect(isReservedWord(w)).toBe(true);
      expect(fieldCodeProblem(w)).toBe(`字段编码不能使用数据库保留字：${w}`);
    }
    expect(isReservedWord('SELECT')).toBe(true);
    // non-reserved key words may be column names
    for (const w of ['name', 'type', 'text', 'date', 'status', 'merge', 'between', 'value', 'comment']) {
      expect(isReservedWord(w)).toBe(false);
    }
    // PostgreSQL 15's 100, and system_user (reserved from 16 on)
    expect(PG_RESERVED_WORDS.size).toBe(101);
    expect(isReservedWord('system_user')).toBe(true);
  });
  it('take extra reserved names', () => {
    expect(fieldCodeProblem('id', ['id', 'created_at'])).toBe('字段编码不能使用数据库保留字：id');
    expect(fieldCodeProblem('idx', ['id'])).toBeNull();
  });
});

describe('zod schemas (engine.ts)', () => {
  it('parses a developer field with defaults', () => {
    const parsed = fieldDefSchema.parse({ code: 'xm', name: ' 姓名 ', type: 'text' });
    expect(parsed).toMatchObject({ code: 'xm', name: '姓名', type: 'text', show: true, required: 0 });
  });
  it('refuses bad codes, types, regexes and limits', () => {
    const bad = (input: Record<string, unknown>) =>
      fieldDefSchema.safeParse({ code: 'xm', name: 'X', type: 'text', ...input });
    expect(bad({ code: 'x; drop table users' }).success).toBe(false);
    expect(bad({ code: 'select' }).error?.issues[0]?.message).toBe('字段编码不能使用数据库保留字：select');
    expect(bad({ type: 'html' }).success).toBe(false);
    expect(bad({ required: 3 }).success).toBe(false);
    expect(bad({ regex: '(' }).success).toBe(false);
    expect(bad({ regex: '^\\d+$' }).success).toBe(true);
    expect(bad({ limitStartDate: '2024-13-01' }).success).toBe(false);
    expect(bad({ limitStartDate: 'today', limitEndDate: '2030-01-01' }).success).toBe(true);
    expect(bad({ limitStartDate: '2024-02-01', limitEndDate: '2024-01-01' }).success).toBe(false);
    expect(bad({ step: '00:15' }).success).toBe(true);
    expect(bad({ step: 0 }).success).toBe(false);
    expect(bad({ parentNode: 'a,B' }).success).toBe(false);
    expect(bad({ bianma: 'Robert"); drop' }).success).toBe(false);
  });
  it('parses nested options with custom keys', () => {
    const parsed = fieldDefSchema.parse({
      code: 'dq',
      name: '地区',
      type: 'cascader',
      options: {
        list: [{ dm: '61', mc: '陕西', children: [{ dm: '6101', mc: '西安' }] }],
        valueKey: 'dm',
        labelKey: 'mc',
      },
    });
    expect(parsed.options?.list[0]?.children?.[0]?.dm).toBe('6101');
  });
  it('field lists: unique codes and existing parents', () => {
    const ok = fieldListSchema.safeParse([
      { code: 'has_agent', name: '是否代理', type: 'switch-1', childNode: 'agent' },
      { code: 'agent', name: '代理人', type: 'text', parentNode: 'has_agent' },
    ]);
    expect(ok.success).toBe(true);
    const dup = fieldListSchema.safeParse([
      { code: 'a', name: 'A', type: 'text' },
      { code: 'a', name: 'B', type: 'text' },
    ]);
    expect(dup.error?.issues[0]?.message).toBe('字段编码不能重复：a');
    expect(dup.error?.issues[0]?.path).toEqual([1, 'code']);
    const orphan = fieldListSchema.safeParse([{ code: 'a', name: 'A', type: 'text', parentNode: 'missing' }]);
    expect(orphan.success).toBe(false);
    const self = fieldListSchema.safeParse([{ code: 'a', name: 'A', type: 'text', parentNode: 'a' }]);
    expect(self.success).toBe(false);
  });
  it('parsed fields validate records', () => {
    const fields = fieldListSchema.parse([
      { code: 'xm', name: '姓名', type: 'text', required: 1 },
      { code: 'xb', name: '性别', type: 'sex', required: 2 },
    ]);
    expect(validateRecord(fields, {})).toEqual({ xm: '姓名必填', xb: '性别必填' });
  });
});

describe('field validators', () => {
  // 2026-01-02 01:00 in Beijing
  const clock = { today: '2026-01-02', now: '2026-01-02 01:00' };
  const fails = (field: FieldDef, value: unknown) =>
    validateRecord([field], { [field.code]: value }, clock)[field.code];

  it('offers each validator for the types it fits', () => {
    expect(validatorsFor('text')).toEqual(['idCard', 'creditCode', 'mobile']);
    expect(validatorsFor('select-edit')).toEqual(['idCard', 'creditCode', 'mobile']);
    for (const t of DATE_TYPES) expect(validatorsFor(t)).toEqual(['notPast', 'notFuture']);
    expect(validatorsFor('textarea')).toEqual([]);
    expect(validatorsFor('select')).toEqual([]);
    expect(validatorFits('idCard', 'date')).toBe(false);
    expect(validatorFits('drop table', 'text')).toBe(false);
    expect(FIELD_VALIDATOR_CODES).toHaveLength(Object.keys(FIELD_VALIDATORS).length);
  });

  it('idCard: GB 11643 shape, birth date and check digit, naming the field', () => {
    const sfzh = f('sfzh', 'text', { name: '身份证号', validator: 'idCard' });
    expect(fails(sfzh, '140105199001011238')).toBeUndefined();
    expect(fails(sfzh, '11010519491231002x')).toBeUndefined(); // a lower-case x is the same X
    expect(fails(sfzh, '140105199001011234')).toBe('「身份证号」不是有效的身份证号码（校验位不符）');
    expect(fails(sfzh, '140105199002301237')).toBe('「身份证号」不是有效的身份证号码（出生日期无效）');
    // born tomorrow (2026-01-03), with the right check digit
    expect(fails(sfzh, `14010520260103123${checkOf('14010520260103123')}`)).toBe(
      '「身份证号」不是有效的身份证号码（出生日期晚于今天）',
    );
    expect(fails(sfzh, '1401051990')).toBe('「身份证号」不是有效的身份证号码（应为18位，前17位为数字，末位为数字或X）');
    // empty and not required: nothing to check
    expect(fails(sfzh, '')).toBeUndefined();
    expect(normaliseValues([sfzh], { sfzh: ' 11010519491231002x ' })).toEqual({ sfzh: '11010519491231002X' });
  });

  it('creditCode: GB 32100 with its check character', () => {
    const xydm = f('xydm', 'text', { name: '统一社会信用代码', validator: 'creditCode' });
    expect(fails(xydm, '91110000802100433B')).toBeUndefined();
    expect(fails(xydm, '91110000802100433b')).toBeUndefined();
    expect(fails(xydm, '91110000802100433C')).toBe('「统一社会信用代码」不是有效的统一社会信用代码（校验位不符）');
    expect(fails(xydm, '91110000802100433I')).toBe(
      '「统一社会信用代码」不是有效的统一社会信用代码（应为18位数字或大写字母，不含I、O、S、V、Z）',
    );
  });

  it('mobile: 11 digits starting with 1', () => {
    const sj = f('sj', 'text', { name: '联系电话', validator: 'mobile' });
    expect(fails(sj, '13800138000')).toBeUndefined();
    expect(fails(sj, '0351-5218800')).toBe('「联系电话」不是有效的手机号码（应为以1开头的11位数字）');
    expect(fails(sj, '1380013800')).toBe('「联系电话」不是有效的手机号码（应为以1开头的11位数字）');
  });

  it('a regex is checked first, then the validator', () => {
    const sj = f('sj', 'text', { name: '联系电话', validator: 'mobile', regex: '^\\d+$', prompt: '只能是数字' });
    expect(fails(sj, '138-0013')).toBe('只能是数字');
    expect(fails(sj, '23800138000')).toBe('「联系电话」不是有效的手机号码（应为以1开头的11位数字）');
  });

  it('notPast / notFuture on dates: today in the platform’s zone', () => {
    const kb = f('kbrq', 'date', { name: '开标日期', validator: 'notPast' });
    expect(fails(kb, '2026-01-02')).toBeUndefined();
    expect(fails(kb, '2026-01-01')).toBe('「开标日期」不能早于今天（2026-01-02）');
    const fz = f('fzrq', 'date', { name: '发证日期', validator: 'notFuture' });
    expect(fails(fz, '2026-01-02')).toBeUndefined();
    expect(fails(fz, '2026-01-03')).toBe('「发证日期」不能晚于今天（2026-01-02）');
  });

  it('notPast / notFuture on datetimes: the current minute', () => {
    const kb = f('kbsj', 'datetime', { name: '开标时间', validator: 'notPast' });
    expect(fails(kb, '2026-01-02 01:00')).toBeUndefined();
    expect(fails(kb, '2026-01-02 00:45')).toBe('「开标时间」不能早于当前时间（2026-01-02 01:00）');
    const dj = f('djsj', 'datetime', { name: '登记时间', validator: 'notFuture' });
    expect(fails(dj, '2026-01-02 01:15')).toBe('「登记时间」不能晚于当前时间（2026-01-02 01:00）');
  });

  it('notPast / notFuture on date ranges: the start / the end', () => {
    const yxq = f('yxq', 'daterange', { name: '保函有效期', validator: 'notPast' });
    expect(fails(yxq, '2026-01-02,2026-06-30')).toBeUndefined();
    expect(fails(yxq, '2026-01-01,2026-06-30')).toBe('「保函有效期」不能早于今天（2026-01-02）');
    const past = f('qj', 'daterange', { name: '期间', validator: 'notFuture' });
    expect(fails(past, '2025-01-01,2026-01-02')).toBeUndefined();
    expect(fails(past, '2025-01-01,2026-01-03')).toBe('「期间」不能晚于今天（2026-01-02）');
  });

  it('dateBounds: the picker disables the days the validator refuses', () => {
    const kb = f('kbrq', 'date', { validator: 'notPast', limitStartDate: '2025-01-01' });
    expect(dateBounds(kb, [kb], {}, clock)).toEqual({ min: '2026-01-02', max: null });
    const fz = f('fzrq', 'date', { validator: 'notFuture', limitEndDate: '2030-01-01' });
    expect(dateBounds(fz, [fz], {}, clock)).toEqual({ min: null, max: '2026-01-02' });
    const dt = f('kbsj', 'datetime', { validator: 'notPast' });
    expect(dateBounds(dt, [dt], {}, clock).min).toBe('2026-01-02 01:00');
    // a fixed limit past today still wins
    const later = f('x', 'date', { validator: 'notPast', limitStartDate: '2026-03-01' });
    expect(dateBounds(later, [later], {}, clock).min).toBe('2026-03-01');
  });

  it('validationClock: today and now of an instant in a zone', () => {
    const at = new Date('2026-01-01T17:00:00Z');
    expect(validationClock(at, 'Asia/Shanghai')).toEqual({ today: '2026-01-02', now: '2026-01-02 01:00' });
    expect(validationClock(at, 'UTC')).toEqual({ today: '2026-01-01', now: '2026-01-01 17:00' });
  });

  it('the zod schema takes a validator only where it fits', () => {
    expect(fieldDefSchema.safeParse({ code: 'sfzh', name: 'ID', type: 'text', validator: 'idCard' }).success).toBe(
      true,
    );
    const wrong = fieldDefSchema.safeParse({ code: 'rq', name: '日期', type: 'date', validator: 'idCard' });
    expect(wrong.error?.issues[0]).toMatchObject({ path: ['validator'], message: '该校验规则不适用于此字段类型' });
    expect(fieldDefSchema.safeParse({ code: 'x', name: 'X', type: 'text', validator: 'eval' }).success).toBe(false);
  });
});
