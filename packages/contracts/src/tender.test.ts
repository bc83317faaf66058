import { describe, expect, it } from 'vitest';
import {
  daysBetween,
  sectionTimelineProblems,
  TENDER_LEGAL,
  TENDER_SETTINGS_DEFAULTS,
  tenderSectionInputSchema,
  tenderSettingsSchema,
} from './tender';

const TZ = 'Asia/Shanghai';
/** A section that meets every legal minimum exactly: 5 sale days, 20 days from issue to the deadline, 2% deposit. */
const ok = {
  estimate: 12_500_000,
  deposit: 250_000,
  docSaleStart: '2027-03-01',
  docSaleEnd: '2027-03-05',
  // 09:30 in Shanghai on 2027-03-21
  bidDeadline: '2027-03-21T01:30:00.000Z',
};

describe('the timeline rules', () => {
  it('accept a section at exactly the legal minimums', () => {
    expect(sectionTimelineProblems(ok, TENDER_SETTINGS_DEFAULTS, TZ)).toEqual([]);
  });

  it('count the sale period with both its ends, and name the rule when it is too short', () => {
    const p = sectionTimelineProblems({ ...ok, docSaleEnd: '2027-03-04' }, TENDER_SETTINGS_DEFAULTS, TZ);
    expect(p).toEqual([
      {
        field: 'docSaleEnd',
        rule: 'docSaleDays',
        message: '招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日',
      },
    ]);
  });

  it('refuse fewer than 20 days from the first issue to the deadline, on the centre’s calendar', () => {
    // 2027-03-20 23:30 in Shanghai is 15:30 UTC: 19 days on the centre's calendar
    const p = sectionTimelineProblems({ ...ok, bidDeadline: '2027-03-20T15:30:00.000Z' }, TENDER_SETTINGS_DEFAULTS, TZ);
    expect(p.map((x) => x.rule)).toEqual(['issueToDeadlineDays']);
    expect(p[0]!.message).toContain('招标投标法第二十四条');
    expect(p[0]!.message).toContain('当前为 19 日');
    // 2027-03-20 16:30 UTC is 00:30 on the 21st in Shanghai: 20 days, allowed
    expect(
      sectionTimelineProblems({ ...ok, bidDeadline: '2027-03-20T16:30:00.000Z' }, TENDER_SETTINGS_DEFAULTS, TZ),
    ).toEqual([]);
  });

  it('refuse a deposit above 2% of the estimate, to the cent', () => {
    const p = sectionTimelineProblems({ ...ok, deposit: 250_000.01 }, TENDER_SETTINGS_DEFAULTS, TZ);
    expect(p).toEqual([
      {
        field: 'deposit',
        rule: 'depositMaxPercent',
        message: '投标保证金不得超过标段估算价的 2%（招标投标法实施条例第二十六条），上限为 250000.00 元',
      },
    ]);
    expect(
      sectionTimelineProblems({ ...ok, estimate: 1_234_567.89, deposit: 24_691.35 }, TENDER_SETTINGS_DEFAULTS, TZ),
    ).toEqual([]);
    expect(
      sectionTimelineProblems({ ...ok, estimate: 1_234_567.89, deposit: 24_691.36 }, TENDER_SETTINGS_DEFAULTS, TZ).map(
        (x) => x.rule,
      ),
    ).toEqual(['depositMaxPercent']);
  });

  it('follow stricter settings of the centre', () => {
    const strict = { ...TENDER_SETTINGS_DEFAULTS, docSaleDays: 7, issueToDeadlineDays: 25, depositMaxPercent: 1.5 };
    const p = sectionTimelineProblems(ok, strict, TZ);
    expect(p.map((x) => x.rule).sort()).toEqual(['depositMaxPercent', 'docSaleDays', 'issueToDeadlineDays']);
    expect(p.find((x) => x.rule === 'docSaleDays')!.message).toContain('不得少于 7 日');
  });

  it('refuse a sale that ends before it starts or after the deadline', () => {
    expect(
      sectionTimelineProblems({ ...ok, docSaleEnd: '2027-02-28' }, TENDER_SETTINGS_DEFAULTS, TZ).map((x) => x.message),
    ).toContain('招标文件发售截止日期不能早于开始日期');
    expect(
      sectionTimelineProblems({ ...ok, docSaleEnd: '2027-03-22' }, TENDER_SETTINGS_DEFAULTS, TZ).map((x) => x.message),
    ).toContain('招标文件发售截止日期不能晚于投标截止日期');
  });

  it('count days across months and years', () => {
    expect(daysBetween('2027-02-27', '2027-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2027-03-05', '2027-03-01')).toBe(-4);
  });
});

describe('the settings', () => {
  it('default to the legal values', () => {
    // the legal values, and the K candidates, for which the law has none
    expect(TENDER_SETTINGS_DEFAULTS).toEqual({
      ...TENDER_LEGAL,
      kCandidates: [0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98],
    });
    expect(tenderSettingsSchema.safeParse(TENDER_SETTINGS_DEFAULTS).success).toBe(true);
  });

  it('may be stricter than the law, never looser', () => {
    expect(
      tenderSettingsSchema.safeParse({ docSaleDays: 7, issueToDeadlineDays: 30, depositMaxPercent: 1, clarifyDays: 20 })
        .success,
    ).toBe(true);
    const looser = tenderSettingsSchema.safeParse({
      docSaleDays: 4,
      issueToDeadlineDays: 19,
      depositMaxPercent: 2.5,
      clarifyDays: 14,
    });
    expect(looser.success).toBe(false);
    expect(looser.error!.issues.map((i) => i.message)).toEqual([
      '招标文件发售期不得少于法定的 5 日',
      '自招标文件发出至投标截止不得少于法定的 20 日',
      '投标保证金比例上限不得高于法定的 2%',
      '影响投标文件编制的澄清或修改距投标截止不得少于法定的 15 日',
    ]);
  });
});

describe('a section as entered', () => {
  const input = { projectId: '3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11', code: 'BD-01', name: '一标段', ...ok };
  it('is accepted when complete', () => {
    expect(tenderSectionInputSchema.safeParse(input).success).toBe(true);
  });
  it('refuses bad codes, negative money, more than two decimals, impossible dates and unknown fields', () => {
    const bad = (patch: object) => tenderSectionInputSchema.safeParse({ ...input, ...patch }).success;
    expect(bad({ code: '一标段' })).toBe(false);
    expect(bad({ deposit: -1 })).toBe(false);
    expect(bad({ estimate: 1.005 })).toBe(false);
    expect(bad({ docSaleStart: '2027-02-30' })).toBe(false);
    expect(bad({ bidDeadline: '2027-03-21 09:30' })).toBe(false);
    expect(bad({ owner: 'x' })).toBe(false);
  });
});
