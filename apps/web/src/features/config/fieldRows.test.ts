import type { FieldDef } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import {
  cleanDef,
  explicitFilters,
  filterPreview,
  isFilterGroup,
  moveItem,
  previewFields,
  problemsByRow,
  referrers,
  rowsOf,
  sourceText,
  withFilterFlag,
  withoutFilterFlags,
} from './fieldRows';
import { parseOptionLines } from './OptionListEditor';

const f = (code: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
  code,
  name: code.toUpperCase(),
  type,
  ...extra,
});
const list = (...v: string[]) => ({ list: v.map((x) => ({ label: `L${x}`, value: x })) });

describe('filter flags', () => {
  const defs = [f('a', 'text'), f('b', 'select', { options: list('1') }), f('c', 'radio'), f('d', 'select-m')];
  it('the first flag keeps the default groups of the others, so only the clicked field changes', () => {
    expect(explicitFilters(defs)).toBe(false);
    const next = withFilterFlag(defs, 'c', false);
    expect(next.map((x) => x.filter)).toEqual([undefined, true, false, undefined]);
    expect(isFilterGroup(next, 'b')).toBe(true);
    expect(isFilterGroup(next, 'c')).toBe(false);
    expect(withFilterFlag(next, 'c', true).map((x) => x.filter)).toEqual([undefined, true, true, undefined]);
    expect(withoutFilterFlags(next)).toEqual(defs);
  });
  it('previews the groups with the options the editor knows, and says where the rest come from', () => {
    const p = filterPreview('N', [
      ...defs,
      f('e', 'select', { titleCoding: 'EDU', options: { list: [], type: 'dic' } }),
      f('g', 'sex'),
      f('h', 'switch'),
      f('t', 'select', { options: { list: [{ label: '省', value: 's', children: [{ label: '市', value: 'c' }] }] } }),
      f('q', 'filter-select', {
        parentNode: 'e',
        options: {
          list: [],
          type: 'pull-down',
          source: { name: 'enterprises', labelField: 'name', valueField: 'name', parents: { e: 'region' } },
        },
      }),
    ]);
    // as the server gives them: groups without options of their own are left out
    expect(p.definition.displayList.map((g) => [g.code, g.dataList.map((o) => o.value)])).toEqual([
      ['b', ['1']],
      ['e', []],
      ['g', ['男', '女']],
      ['h', ['1', '0']],
    ]);
    expect(p.notes).toEqual([
      { code: 'c', name: 'C', text: '未配置选项，列表的筛选卡片不显示该组' },
      { code: 'e', name: 'E', text: '选项来自字典 EDU，运行时加载' },
      { code: 't', name: 'T', text: '选项有下级，列表中显示为左侧树' },
      { code: 'q', name: 'Q', text: '选项依赖上级字段的取值，列表的筛选卡片不显示该组' },
    ]);
  });
});

describe('rows', () => {
  it('cleans empty optional text and properties that do not apply to the type', () => {
    expect(
      cleanDef({
        ...f(' a ', 'number', { name: ' 名 ' }),
        tips: ' ',
        regex: '',
        parentNode: '',
        readonly: false,
        showPrompt: false,
        filter: true,
        options: list('1'),
      }),
    ).toEqual({ code: 'a', name: '名', type: 'number' });
    expect(cleanDef(f('b', 'radio', { filter: false, options: list('1') }))).toEqual(
      f('b', 'radio', { filter: false, options: list('1') }),
    );
  });
  it('moves, keys and finds referrers', () => {
    expect(moveItem([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
    expect(moveItem([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
    const rows = rowsOf([f('a', 'text'), f('b', 'text')]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
    expect(
      referrers([f('a', 'switch-1', { childNode: 'b, c' }), f('b', 'text'), f('c', 'date', { parentNode: 'a' })], 'b'),
    ).toEqual([f('a', 'switch-1', { childNode: 'b, c' })]);
  });
  it('maps problems to rows by the order they were checked in, the rest to the list', () => {
    const rows = rowsOf([f('a', 'text'), f('b', 'text')]);
    expect(
      problemsByRow(
        { 'fields.1.code': ['x', 'y'], '0.name': 'n', '': '太多', version: ['v'], 'fields.9.code': 'z' },
        rows,
      ),
    ).toEqual({
      byRow: { [rows[1]!.key]: { code: 'x；y' }, [rows[0]!.key]: { name: 'n' } },
      rest: ['太多', 'version：v', '9.code：z'],
    });
  });
  it('previews a source field by its saved definition only', () => {
    const dic = f('e', 'select', { titleCoding: 'EDU', options: { list: [], type: 'dic' } });
    expect(previewFields([dic], [dic])).toEqual({ fields: [dic], pending: [] });
    const changed = { ...dic, titleCoding: 'OTHER' };
    const p = previewFields([changed], [dic]);
    expect(p.pending).toEqual([changed]);
    expect(p.fields[0]!.options).toEqual({ list: [] });
    expect(sourceText(changed)).toBe('字典 OTHER');
    expect(sourceText(f('x', 'select', { options: { list: [], type: 'cert' } }))).toBe('资质树');
  });
});

describe('option lines', () => {
  it('reads 文字 or 文字=值 per line', () => {
    expect(parseOptionLines('本科=bk\n\n 硕士 \n博士,bs\n专科\tzk')).toEqual([
      { label: '本科', value: 'bk' },
      { label: '硕士', value: '硕士' },
      { label: '博士', value: 'bs' },
      { label: '专科', value: 'zk' },
    ]);
    expect(parseOptionLines('甲=1', 'mc', 'dm')).toEqual([{ mc: '甲', dm: '1' }]);
  });
});
