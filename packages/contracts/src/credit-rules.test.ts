import { describe, expect, it } from 'vitest';
import {
  CREDIT_DEFAULT_LEVELS,
  CREDIT_MESSAGES,
  computeGrade,
  creditLevelOf,
  creditLevelsProblem,
  creditRecordProblems,
  type GradeRecord,
  validityEnd,
} from './credit-rules';

const rec = (over: Partial<GradeRecord>): GradeRecord => ({
  conduct: 'good',
  score: 5,
  highest: 10,
  startTime: '2026-01-01',
  endTime: '2026-12-31',
  status: 'passed',
  ...over,
});

describe('grade arithmetic', () => {
  const levels = CREDIT_DEFAULT_LEVELS;

  it('adds valid passed good conduct and takes valid passed bad conduct from the base', () => {
    const g = computeGrade(
      80,
      [rec({ score: 5 }), rec({ score: 3 }), rec({ conduct: 'bad', score: 4 })],
      '2026-06-01',
      levels,
    );
    expect(g).toMatchObject({ good: 8, bad: 4, counted: 3, score: 84, level: 'AA' });
  });

  it('caps each record at its standard’s highest score', () => {
    const g = computeGrade(
      80,
      [rec({ score: 15, highest: 10 }), rec({ conduct: 'bad', score: 30, highest: 20 })],
      '2026-06-01',
      levels,
    );
    expect(g).toMatchObject({ good: 10, bad: 20, score: 70, level: 'A' });
  });

  it('counts a record on its first and last day only, and only when passed', () => {
    const records = [
      rec({ startTime: '2026-06-01', endTime: '2026-06-30', score: 2 }),
      rec({ status: 'submitted', score: 7 }),
      rec({ status: 'revoked', score: 7 }),
      rec({ status: 'rejected', score: 7 }),
    ];
    expect(computeGrade(80, records, '2026-05-31', levels).score).toBe(80);
    expect(computeGrade(80, records, '2026-06-01', levels).score).toBe(82);
    expect(computeGrade(80, records, '2026-06-30', levels).score).toBe(82);
    // expired: no longer counts
    expect(computeGrade(80, records, '2026-07-01', levels).score).toBe(80);
  });

  it('holds until the earliest end of a counted record or the day before a passed record starts', () => {
    const records = [
      rec({ endTime: '2026-09-30' }),
      rec({ endTime: '2026-08-15' }),
      rec({ startTime: '2026-07-10', endTime: '2027-07-09' }),
      rec({ endTime: '2026-06-10', status: 'submitted' }),
    ];
    expect(computeGrade(80, records, '2026-06-01', levels).validUntil).toBe('2026-07-09');
    expect(computeGrade(80, records.slice(0, 2), '2026-06-01', levels).validUntil).toBe('2026-08-15');
    expect(computeGrade(80, [], '2026-06-01', levels).validUntil).toBeNull();
  });

  it('never goes below 0 and takes the level of the thresholds', () => {
    expect(computeGrade(10, [rec({ conduct: 'bad', score: 20, highest: 30 })], '2026-06-01', levels)).toMatchObject({
      score: 0,
      level: 'C',
    });
    const custom = [
      { title: '优', minScore: 95 },
      { title: '良', minScore: 85 },
      { title: '差', minScore: 0 },
    ];
    expect(creditLevelOf(95, custom)).toBe('优');
    expect(creditLevelOf(94.99, custom)).toBe('良');
    expect(creditLevelOf(84.99, custom)).toBe('差');
    expect(creditLevelOf(90, levels)).toBe('AAA');
    expect(creditLevelOf(89.99, levels)).toBe('AA');
    expect(creditLevelOf(59.99, levels)).toBe('C');
  });
});

describe('record rules (§5)', () => {
  const standard = { highest: 10, validityMonths: 24 };
  const ok = { score: 5, startTime: '2026-01-15', endTime: '2027-01-14', fileCount: 1 };

  it('accepts a valid record', () => {
    expect(creditRecordProblems(ok, standard, { needsFiles: true })).toEqual({});
  });

  it('refuses a score above the highest, naming the highest (the shorter form on review)', () => {
    expect(creditRecordProblems({ ...ok, score: 10.5 }, standard).score).toBe(
      '分值不能超过该信用标准的最高分10分，请作废本次申报后另行添加其他信用标准项！',
    );
    expect(
      creditRecordProblems({ ...ok, score: 11 }, { highest: 2.5, validityMonths: 12 }, { review: true }).score,
    ).toBe('分值不能超过最高分2.5分');
    expect(creditRecordProblems({ ...ok, score: 10 }, standard)).toEqual({});
  });

  it('refuses a negative score, an end before the start, a validity beyond the standard’s, no evidence', () => {
    expect(creditRecordProblems({ ...ok, score: -1 }, standard).score).toBe(CREDIT_MESSAGES.scoreNegative);
    expect(creditRecordProblems({ ...ok, endTime: '2026-01-14' }, standard).endTime).toBe('结束时间不能早于开始时间');
    expect(creditRecordProblems({ ...ok, endTime: '2028-01-15' }, standard).endTime).toBe(
      '有效期不能超过该信用标准规定的24个月（最晚至2028-01-14）',
    );
    expect(creditRecordProblems({ ...ok, fileCount: 0 }, standard, { needsFiles: true }).fileIds).toBe('请上传附件！');
    expect(creditRecordProblems({ ...ok, score: 1.234 }, standard).score).toBe(CREDIT_MESSAGES.scorePrecision);
    expect(creditRecordProblems({ ...ok, score: null }, null)).toMatchObject({
      score: CREDIT_MESSAGES.scoreRequired,
      standardId: CREDIT_MESSAGES.standardRequired,
    });
  });

  it('ends a validity of whole months the day before the same date, clamped to the month', () => {
    expect(validityEnd('2026-01-15', 24)).toBe('2028-01-14');
    expect(validityEnd('2026-01-01', 12)).toBe('2026-12-31');
    expect(validityEnd('2026-03-31', 1)).toBe('2026-04-30');
    expect(validityEnd('2026-01-31', 1)).toBe('2026-02-28');
    expect(validityEnd('2024-02-29', 12)).toBe('2025-02-28');
  });
});

describe('level thresholds', () => {
  it('accepts ordered, non-overlapping levels down to 0', () => {
    expect(creditLevelsProblem(CREDIT_DEFAULT_LEVELS)).toBeNull();
  });

  it('refuses overlap, disorder, a lowest floor above 0, duplicates and bad sizes', () => {
    const l = (pairs: [string, number][]) => pairs.map(([title, minScore]) => ({ title, minScore }));
    expect(
      creditLevelsProblem(
        l([
          ['A', 80],
          ['B', 80],
          ['C', 0],
        ]),
      ),
    ).toBe('等级须按分数线从高到低排列，且分数线不能重叠：B');
    expect(
      creditLevelsProblem(
        l([
          ['A', 60],
          ['B', 80],
          ['C', 0],
        ]),
      ),
    ).toBe('等级须按分数线从高到低排列，且分数线不能重叠：B');
    expect(
      creditLevelsProblem(
        l([
          ['A', 80],
          ['B', 10],
        ]),
      ),
    ).toBe(CREDIT_MESSAGES.levelLowest);
    expect(
      creditLevelsProblem(
        l([
          ['A', 80],
          ['A', 0],
        ]),
      ),
    ).toBe('等级名称不能重复：A');
    expect(creditLevelsProblem(l([['A', 0]]))).toBe(CREDIT_MESSAGES.levelsCount);
    expect(
      creditLevelsProblem(
        l([
          ['TOOLONGNAME', 80],
          ['B', 0],
        ]),
      ),
    ).toBe(CREDIT_MESSAGES.levelTitle);
    expect(
      creditLevelsProblem(
        l([
          ['A', 80.123],
          ['B', 0],
        ]),
      ),
    ).toBe(CREDIT_MESSAGES.levelScore);
  });
});
