import { describe, expect, it } from 'vitest';
import { parsePublicFilters, publicFiltersToSearch, publicListParams, totalText, validityText } from './query';

const sp = (s: string) => new URLSearchParams(s);

describe('the public list filters in the URL', () => {
  it('reads defaults from an empty query and refuses what the server would refuse', () => {
    expect(parsePublicFilters(sp(''))).toEqual({ match: 'prefix', pageNum: 1, pageSize: 10 });
    expect(parsePublicFilters(sp('pageNum=0&pageSize=13&match=regex'))).toEqual({
      match: 'prefix',
      pageNum: 1,
      pageSize: 10,
    });
    // the server reads at most 100 pages of a search
    expect(parsePublicFilters(sp('pageNum=250')).pageNum).toBe(100);
    expect(parsePublicFilters(sp('keyword=%20%20&level=')).keyword).toBeUndefined();
  });

  it('writes only what differs from the defaults and keeps the page’s other parameters', () => {
    const f = parsePublicFilters(sp('keyword=山西&match=contains&level=AA&pageNum=3&pageSize=20'));
    expect(f).toEqual({ keyword: '山西', match: 'contains', level: 'AA', pageNum: 3, pageSize: 20 });
    const out = publicFiltersToSearch({ ...f, pageNum: 1 }, sp('systemCoding=XYGL&gnCoding=XYGL_XYDJ&pageNum=3'));
    expect(Object.fromEntries(out)).toEqual({
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_XYDJ',
      keyword: '山西',
      match: 'contains',
      level: 'AA',
      pageSize: '20',
    });
    expect(publicFiltersToSearch({ match: 'prefix', pageNum: 1, pageSize: 10 }).toString()).toBe('');
  });

  it('sends the match only with a keyword', () => {
    expect(publicListParams({ match: 'contains', pageNum: 2, pageSize: 10 })).toEqual({
      keyword: undefined,
      match: undefined,
      level: undefined,
      pageNum: 2,
      pageSize: 10,
    });
    expect(publicListParams({ keyword: '建设', match: 'contains', pageNum: 1, pageSize: 10 }).match).toBe('contains');
  });

  it('says a capped total and the validity as the list shows them', () => {
    expect(totalText(1000, true)).toBe('1000+');
    expect(totalText(37, false)).toBe('37');
    expect(validityText('2027-06-30', '2026-11-20')).toBe('2027-06-30');
    expect(validityText(null, '2026-11-20')).toBe('至下次评定');
    expect(validityText(null, null)).toBe('—');
  });
});
