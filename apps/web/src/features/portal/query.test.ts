import { describe, expect, it } from 'vitest';
import {
  isUuid,
  isValidDate,
  marketFiltersToSearch,
  noticeFiltersToSearch,
  parseMarketFilters,
  parseNoticeFilters,
} from './query';

const sp = (s: string) => new URLSearchParams(s);

describe('notice filters in the URL', () => {
  it('reads every filter and the page', () => {
    expect(
      parseNoticeFilters(
        sp(
          'category=变更公告&tradeType=政府采购&region=太原市&startDate=2026-01-01&endDate=2026-02-01&keyword=%20医院%20&pageNum=3&pageSize=20',
        ),
      ),
    ).toEqual({
      category: '变更公告',
      tradeType: '政府采购',
      region: '太原市',
      startDate: '2026-01-01',
      endDate: '2026-02-01',
      keyword: '医院',
      pageNum: 3,
      pageSize: 20,
    });
  });

  it('drops values the server would refuse', () => {
    expect(
      parseNoticeFilters(
        sp('category=其他&tradeType=x&region=北京市&startDate=2026-02-30&endDate=x&pageNum=-1&pageSize=15'),
      ),
    ).toEqual({
      category: undefined,
      tradeType: undefined,
      region: undefined,
      startDate: undefined,
      endDate: undefined,
      keyword: undefined,
      pageNum: 1,
      pageSize: 10,
    });
    expect(parseNoticeFilters(sp(`keyword=${'字'.repeat(60)}`)).keyword).toHaveLength(50);
  });

  it('puts a reversed date range in order', () => {
    const f = parseNoticeFilters(sp('startDate=2026-03-01&endDate=2026-01-01'));
    expect([f.startDate, f.endDate]).toEqual(['2026-01-01', '2026-03-01']);
  });

  it('writes only what differs from the defaults, and reads back the same filters', () => {
    const f = parseNoticeFilters(sp('category=招标公告&pageNum=2'));
    const search = noticeFiltersToSearch(f);
    expect(search.toString()).toBe(new URLSearchParams({ category: '招标公告', pageNum: '2' }).toString());
    expect(parseNoticeFilters(search)).toEqual(f);
    expect(noticeFiltersToSearch(parseNoticeFilters(sp(''))).toString()).toBe('');
  });
});

describe('market filters in the URL', () => {
  it('defaults to enterprises and keeps only the type filter of the kind', () => {
    expect(parseMarketFilters(sp('')).kind).toBe('enterprise');
    expect(parseMarketFilters(sp('kind=x')).kind).toBe('enterprise');
    const p = parseMarketFilters(
      sp('kind=practitioner&enterpriseType=施工企业&practiceArea=一级建造师&creditGrade=AA'),
    );
    expect(p).toMatchObject({
      kind: 'practitioner',
      enterpriseType: undefined,
      practiceArea: '一级建造师',
      creditGrade: 'AA',
    });
    // any level title administrators may set (1 to 8 characters); a longer one names no level
    expect(parseMarketFilters(sp('creditGrade=优秀')).creditGrade).toBe('优秀');
    const e = parseMarketFilters(
      sp('kind=enterprise&enterpriseType=施工企业&practiceArea=x&creditGrade=九个字符的等级名称'),
    );
    expect(e).toMatchObject({ enterpriseType: '施工企业', practiceArea: undefined, creditGrade: undefined });
    expect(marketFiltersToSearch(e).toString()).toBe(
      new URLSearchParams({ kind: 'enterprise', enterpriseType: '施工企业' }).toString(),
    );
  });
});

describe('validators', () => {
  it('accepts real dates and UUIDs only', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2024-1-1')).toBe(false);
    expect(isUuid('f31a39b8-be4a-440e-9d2b-bd5d5133f23c')).toBe(true);
    expect(isUuid('1')).toBe(false);
    expect(isUuid(null)).toBe(false);
  });
});
