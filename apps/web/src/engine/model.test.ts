import { type FieldDef, normaliseSearch, SESSION_KEYS } from '@ks/contracts';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { EngineRecord } from '../api/engine';
import { COLUMNS, FIELDS, FORM_BUTTONS, TABLE_BUTTONS } from '../features/engine/testkit';
import { textWidth } from './list/measure';
import {
  defaultColumns,
  displayValue,
  isSortableColumn,
  LIST_VIEW_STORAGE_KEY,
  listAuditSteps,
  listColumns,
  OPERATIONS_COLUMN,
  operationsWidth,
  popupFieldsOf,
  readListView,
  readSearch,
  recordOperations,
  recordRow,
  STATUS_COLUMN,
  searchFieldsOf,
  searchFormValues,
  searchRequest,
  withMinWidths,
  writeListView,
  writeSearch,
} from './model';

const record = (over: Partial<EngineRecord> = {}): EngineRecord => ({
  id: 'r1',
  status: 'draft',
  version: 2,
  ownerId: 'u1',
  createdAt: '2026-03-01T02:00:00.000Z',
  updatedAt: '2026-03-02T03:30:00.000Z',
  values: { xm: '张三', zclb: 'jzs1' },
  operations: TABLE_BUTTONS.filter((b) => ['edit', 'detail', 'delete'].includes(b.code)),
  ...over,
});

describe('values as the list shows them', () => {
  it('option labels, joins, switches, ranges', () => {
    const multi: FieldDef = {
      code: 'zy',
      name: '专业',
      type: 'select-multiple',
      options: {
        list: [
          { label: '建筑', value: 'jz' },
          { label: '市政', value: 'sz' },
        ],
      },
    };
    const tree: FieldDef = {
      code: 'dq',
      name: '地区',
      type: 'cascader',
      options: { list: [{ label: '山西', value: 'sx', children: [{ label: '太原', value: 'ty' }] }] },
    };
    expect(displayValue(FIELDS[2], 'jzs2')).toBe('二级注册建造师');
    expect(displayValue(multi, 'jz;sz')).toBe('建筑;市政');
    expect(displayValue(tree, 'sx/ty')).toBe('山西/太原');
    expect(displayValue({ code: 's', name: '开关', type: 'switch-1' }, '1')).toBe('是');
    expect(displayValue({ code: 's', name: '开关', type: 'switch' }, '0')).toBe('否');
    expect(displayValue({ code: 'r', name: '期限', type: 'daterange' }, '2026-01-01,2026-02-01')).toBe(
      '2026-01-01 至 2026-02-01',
    );
    expect(displayValue(FIELDS[3], '2026-01-05')).toBe('2026-01-05');
    expect(displayValue(FIELDS[0], null)).toBe('');
    // amounts grouped from five digits on; years, small counts and anything else as stored
    const n = (type: 'number' | 'input-number'): FieldDef => ({ code: 'je', name: '合同金额', type });
    expect(displayValue(n('number'), 18653200)).toBe('18,653,200');
    expect(displayValue(n('input-number'), '12345')).toBe('12,345');
    expect(displayValue(n('number'), 2026)).toBe('2026');
    expect(displayValue(n('number'), '12.5')).toBe('12.5');
    // an unknown option value is shown as stored
    expect(displayValue(FIELDS[2], 'zzz')).toBe('zzz');
  });
});

describe('columns', () => {
  it('a node without columns gets its fields, the status, the last change and the operations', () => {
    const cols = defaultColumns(FIELDS);
    expect(cols.map((c) => c.code)).toEqual([
      'xm',
      'xb',
      'zclb',
      'fzrq',
      STATUS_COLUMN,
      'updatedAt',
      OPERATIONS_COLUMN,
    ]);
    expect(cols[0].isSearch).toBe(true);
  });

  it('configured columns are kept; an operations column is added when missing, a status column where required', () => {
    const plain = COLUMNS.filter((c) => c.code === 'xm');
    expect(listColumns(plain, FIELDS).map((c) => c.code)).toEqual(['xm', OPERATIONS_COLUMN]);
    expect(listColumns(plain, FIELDS, { requireStatus: true }).map((c) => c.code)).toEqual([
      'xm',
      STATUS_COLUMN,
      OPERATIONS_COLUMN,
    ]);
    expect(listColumns(COLUMNS, FIELDS, { requireStatus: true })).toEqual(COLUMNS);
  });
});

describe('column widths', () => {
  it('fit the widest value shown (Chinese 14 px, others 8.5), rounded up to 20 px, at most 320', () => {
    expect(textWidth('张三')).toBe(28);
    expect(textWidth('140105199001011011')).toBe(153);
    const cols = withMinWidths(COLUMNS, FIELDS, 0, [
      { xm: '张三', zclb: '140105199001011011' },
      { xm: ['很长的名字', '另一个'], zclb: null },
    ]);
    const w = Object.fromEntries(cols.map((c) => [c.code, c.width]));
    // 张三 fits its heading; 很长的名字;另一个 is 8 characters and a semicolon
    expect(w.xm).toBe(Math.ceil((8 * 14 + 9 + 17) / 20) * 20);
    expect(w.zclb).toBe(Math.ceil((153 + 17) / 20) * 20);
    const long = withMinWidths(COLUMNS, FIELDS, 0, [{ xm: '长'.repeat(60) }]);
    expect(long.find((c) => c.code === 'xm')?.width).toBe(320);
  });

  it('fit headings, date values and the widest row’s operations; configured widths are kept', () => {
    const cols = withMinWidths(
      [...COLUMNS, { ...COLUMNS[0], code: 'fixed', name: '固定', width: 300, isSearch: false }],
      [...FIELDS, { code: 'yxq', name: '有效期', type: 'daterange' }],
      operationsWidth(TABLE_BUTTONS),
    );
    const w = Object.fromEntries(cols.map((c) => [c.code, c.width]));
    // a heading, its header search icon and (fields and times sort) its sorter arrows
    expect(w.xm).toBe(2 * 14 + 52 + 22);
    expect(w.zclb).toBe(4 * 14 + 52 + 22);
    expect(w.zt).toBe(88);
    // a date column is at least as wide as a date
    expect(withMinWidths([{ ...COLUMNS[2], name: '日' }], FIELDS)[0]?.width).toBe(110);
    expect(w.fzrq).toBe(4 * 14 + 52 + 22);
    expect(w.fixed).toBe(300);
    expect(w.cz).toBe(operationsWidth(TABLE_BUTTONS));
    expect(
      operationsWidth([
        { name: '编辑', show: true },
        { name: '删除', show: false },
      ]),
    ).toBe(24 + 28 + 12);
    expect(
      withMinWidths([{ ...COLUMNS[0], code: 'yxq', name: '期' }], [{ code: 'yxq', name: '期', type: 'daterange' }])[0]
        .width,
    ).toBe(210);
  });
});

describe('rows and operations', () => {
  it('a draft the caller may edit gets 提交 after 编辑 when the node has it; 操作日志 always', () => {
    expect(recordOperations(record(), FORM_BUTTONS).map((o) => o.code)).toEqual([
      'edit',
      'submit',
      'detail',
      'delete',
      'logs',
    ]);
    expect(recordOperations(record({ status: 'rejected' }), FORM_BUTTONS)[1].name).toBe('重新提交');
    // no edit right, or no submit button: no 提交
    expect(recordOperations(record({ operations: [] }), FORM_BUTTONS).map((o) => o.code)).toEqual(['logs']);
    expect(recordOperations(record(), []).some((o) => o.code === 'submit')).toBe(false);
    expect(recordOperations(record({ status: 'pending' }), FORM_BUTTONS).some((o) => o.code === 'submit')).toBe(false);
  });

  it('a row carries labels, the status text and colour under status columns, and the record', () => {
    const row = recordRow(record({ status: 'passed' }), { fields: FIELDS, columns: COLUMNS });
    expect(row.zclb).toBe('一级注册建造师');
    expect(row.zt).toBe('已通过');
    expect(row.statusColor).toBe('success');
    expect(row.__record.id).toBe('r1');
  });

  it('审核流程 shows the level now reviewing a pending record, the outcome of a decided one, nothing for a draft', () => {
    const flow = [{ code: 'shlc', name: '审核流程', type: 'auditFlow', show: true }] as typeof COLUMNS;
    const cell = (over: Partial<EngineRecord>) =>
      recordRow(record(over), { fields: FIELDS, columns: [...COLUMNS, ...flow] }).shlc;
    expect(cell({ status: 'pending', auditLevel: 2 })).toEqual([{ level: 2, name: '第2级审核', result: '审核中' }]);
    expect(cell({ status: 'passed', auditLevel: 0 })).toEqual([{ name: '', result: '审核通过' }]);
    expect(cell({ status: 'rejected', auditLevel: 0 })).toEqual([{ name: '', result: '已驳回' }]);
    expect(cell({ status: 'draft', auditLevel: 0 })).toEqual([]);
    // a history sent with the row wins
    const history = [
      { level: 0, action: 'submit', suggestion: null, userName: '张三', round: 1, time: '2026-03-01T02:00:00Z' },
    ];
    expect(listAuditSteps({ status: 'pending', auditLevel: 1, auditFlow: history })[0]).toMatchObject({
      name: '申请',
      result: '提交',
    });
  });
});

describe('search', () => {
  it('search fields: isSearch columns (dates as a range), else the first three searchable fields', () => {
    expect(searchFieldsOf(FIELDS, COLUMNS).map((f) => [f.code, f.type])).toEqual([
      ['xm', 'text'],
      ['zclb', 'select'],
      ['fzrq', 'daterange'],
    ]);
    expect(searchFieldsOf(FIELDS, []).map((f) => f.code)).toEqual(['xm', 'xb', 'zclb']);
    // sex gets its two options
    expect(popupFieldsOf(FIELDS).find((f) => f.code === 'xb')?.options?.list).toHaveLength(2);
  });

  it('the request: bar and header searches on fields only; tags eq / in and the tree as whereStr', () => {
    expect(
      searchRequest(
        {
          bar: { xm: '张', nope: 'x' },
          header: { zclb: 'jzs1', zt: '草稿', xb: '  ' },
          tags: [
            { code: 'zclb', name: '注册类别', bianma: 'jzs1', val: '一级' },
            { code: 'zclb', name: '注册类别', bianma: 'jzs2', val: '二级' },
            { code: 'xb', name: '性别', bianma: '女', val: '女' },
            { code: 'drop', name: '?', bianma: '1', val: '1' },
          ],
          tree: { code: 'fzrq', value: '2026-01-01' },
        },
        FIELDS,
      ),
    ).toEqual({
      search: { xm: '张', zclb: 'jzs1' },
      whereStr: JSON.stringify([
        { field: 'zclb', op: 'in', value: ['jzs1', 'jzs2'] },
        { field: 'xb', op: 'eq', value: '女' },
        { field: 'fzrq', op: 'eq', value: '2026-01-01' },
      ]),
    });
    expect(searchRequest({ bar: {}, header: {}, tags: [], tree: null }, FIELDS)).toEqual({});
  });

  it('§5 normalisation round trip: a range joins with a comma and comes back as two dates', () => {
    const fields = searchFieldsOf(FIELDS, COLUMNS);
    const sent = normaliseSearch({ xm: ' a ', zclb: '', fzrq: ['2026-01-01', '2026-01-31'], x: ['p', 'q'] });
    expect(sent).toEqual({ xm: 'a', fzrq: '2026-01-01,2026-01-31', x: 'q' });
    const back = searchFormValues(sent, fields);
    expect(back.xm).toBe('a');
    const [a, b] = back.fzrq as dayjs.Dayjs[];
    expect([a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD')]).toEqual(['2026-01-01', '2026-01-31']);
    expect(dayjs.isDayjs(a)).toBe(true);
  });

  it('the kept search per list, malformed parts dropped', () => {
    writeSearch('dynamic:A', { bar: { xm: '张' }, header: {}, tags: [], tree: null });
    expect(readSearch('dynamic:A').bar).toEqual({ xm: '张' });
    expect(readSearch('dynamic:B')).toEqual({ bar: {}, header: {}, tags: [], tree: null });
    sessionStorage.setItem(
      SESSION_KEYS.searchParams,
      JSON.stringify({ X: { bar: { a: 1, b: 'ok' }, header: 'no', tags: [{ code: 1 }], tree: { code: 'c' } } }),
    );
    expect(readSearch('X')).toEqual({ bar: { b: 'ok' }, header: {}, tags: [], tree: null });
    sessionStorage.setItem(SESSION_KEYS.searchParams, '{not json');
    expect(readSearch('X').bar).toEqual({});
  });

  it('sorting: fields and times sort, other columns not; the sort goes as sortField / order and is kept', () => {
    const codes = new Set(FIELDS.map((f) => f.code));
    const sortable = [...COLUMNS, ...defaultColumns(FIELDS)].filter((c) => isSortableColumn(c, codes));
    expect([...new Set(sortable.map((c) => c.code))]).toEqual(['xm', 'zclb', 'fzrq', 'xb', 'updatedAt']);
    const base = { bar: {}, header: {}, tags: [], tree: null };
    expect(searchRequest({ ...base, sort: { field: 'fzrq', order: 'descend' } }, FIELDS)).toEqual({
      sortField: 'fzrq',
      order: 'desc',
    });
    expect(searchRequest({ ...base, sort: { field: 'updatedAt', order: 'ascend' } }, FIELDS)).toEqual({
      sortField: 'updatedAt',
      order: 'asc',
    });
    // a column that is no field (any more) is never sent
    expect(searchRequest({ ...base, sort: { field: 'gone', order: 'ascend' } }, FIELDS)).toEqual({});
    writeSearch('dynamic:S', { ...base, sort: { field: 'xm', order: 'ascend' } });
    expect(readSearch('dynamic:S').sort).toEqual({ field: 'xm', order: 'ascend' });
    sessionStorage.setItem(SESSION_KEYS.searchParams, JSON.stringify({ T: { sort: { field: 'xm', order: 'up' } } }));
    expect(readSearch('T').sort).toBeUndefined();
  });
});

describe('table or cards', () => {
  it('remembers the view per node; anything else stored is no view', () => {
    expect(readListView('A')).toBeNull();
    writeListView('A', 'card');
    writeListView('B', 'table');
    expect([readListView('A'), readListView('B')]).toEqual(['card', 'table']);
    localStorage.setItem(LIST_VIEW_STORAGE_KEY, JSON.stringify({ A: 'grid' }));
    expect(readListView('A')).toBeNull();
    localStorage.setItem(LIST_VIEW_STORAGE_KEY, '[1');
    expect(readListView('A')).toBeNull();
  });
});
