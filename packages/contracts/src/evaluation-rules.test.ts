import { describe, expect, it } from 'vitest';
import {
  aggregateTotals,
  benchmarkPrice,
  criteriaProblems,
  defaultCriteria,
  drawK,
  type EvalCriteria,
  type EvalScoreInput,
  evaluate,
  median,
  needsReason,
  priceScore,
} from './evaluation-rules';

describe('evaluation arithmetic', () => {
  it('takes the median and asks a reason only for a score far from it among three or more', () => {
    expect(median([8, 2, 8])).toBe(8);
    expect(median([1, 2, 3, 10])).toBe(2.5);
    expect(needsReason(2, [8, 8, 2], 10, 0.3)).toBe(true);
    expect(needsReason(8, [8, 8, 2], 10, 0.3)).toBe(false);
    // exactly at the threshold is allowed
    expect(needsReason(5, [8, 8, 5], 10, 0.3)).toBe(false);
    expect(needsReason(2, [8, 2], 10, 0.3)).toBe(false);
  });

  it('drops the highest and lowest total from five members on, not before', () => {
    expect(aggregateTotals([30, 32, 34, 36, 40])).toEqual({ value: 34, dropped: [30, 40] });
    expect(aggregateTotals([15, 15, 16])).toEqual({ value: 15.33, dropped: [] });
    expect(aggregateTotals([])).toEqual({ value: 0, dropped: [] });
  });

  it('computes the benchmark price and the price score as by hand', () => {
    expect(benchmarkPrice([1000, 100, 300, 200, 400], 'meanDropExtremes', 0.9)).toEqual({
      rule: 'meanDropExtremes',
      prices: [100, 200, 300, 400, 1000],
      dropped: [100, 1000],
      mean: 300,
      k: 0.9,
      value: 270,
    });
    // fewer than five: all of them
    expect(benchmarkPrice([900_000, 1_000_000, 1_100_000], 'meanDropExtremes', 0.95).value).toBe(950_000);
    const rule = { max: 40, benchmark: 'mean' as const, k: 1, abovePerPct: 2, belowPerPct: 1 };
    // 1,000,000 against 950,000: +5.263…% → 40 − 10.526… = 29.47
    expect(priceScore(1_000_000, 950_000, rule)).toEqual({ deviationPct: 5.26, score: 29.47 });
    // 900,000: −5.263…% → 40 − 5.263… = 34.74
    expect(priceScore(900_000, 950_000, rule)).toEqual({ deviationPct: -5.26, score: 34.74 });
    // far above: never below zero
    expect(priceScore(2_000_000, 950_000, rule).score).toBe(0);
  });

  it('ranks a hand-computed comprehensive evaluation and leaves out a bidder that failed qualification', () => {
    const criteria: EvalCriteria = {
      method: 'comprehensive',
      qualification: [{ id: 'q1', name: '资质有效' }],
      technical: [
        { id: 't1', name: '施工方案', max: 20 },
        { id: 't2', name: '质量措施', max: 20 },
      ],
      business: [{ id: 'b1', name: '业绩', max: 20 }],
      price: { max: 40, benchmark: 'meanDropExtremes', k: 0.95, abovePerPct: 2, belowPerPct: 1 },
      deviation: 0.3,
    };
    const bids = [
      { bidId: 'A', price: 1_000_000, readOrder: 2 },
      { bidId: 'B', price: 1_100_000, readOrder: 1 },
      { bidId: 'C', price: 900_000, readOrder: 3 },
      { bidId: 'D', price: 800_000, readOrder: 4 },
    ];
    const members = [
      { id: 'm1', panels: ['ZS', 'JS', 'SW'] as const },
      { id: 'm2', panels: ['ZS', 'JS', 'SW'] as const },
      { id: 'm3', panels: ['ZS', 'JS', 'SW'] as const },
      { id: 'm4', panels: ['ZS', 'JS'] as const },
      { id: 'm5', panels: ['ZS', 'JS'] as const },
    ];
    const technical: Record<string, number[]> = {
      A: [30, 32, 34, 36, 40],
      B: [20, 25, 25, 25, 30],
      C: [35, 35, 35, 35, 35],
      D: [20, 20, 20, 20, 20],
    };
    const business: Record<string, number[]> = { A: [10, 11, 12], B: [15, 15, 16], C: [12, 12, 12], D: [5, 5, 5] };
    const scores: EvalScoreInput[] = [];
    const s = (memberId: string, bidId: string, itemId: string, score: number | null, pass: boolean | null = null) =>
      scores.push({ memberId, bidId, itemId, score, pass, reason: pass === false ? `${memberId}：资质证书过期` : '' });
    for (const b of bids) {
      members.forEach((m, i) => {
        s(m.id, b.bidId, 'q1', null, !(b.bidId === 'D' && i < 3));
        s(m.id, b.bidId, 't1', (technical[b.bidId]?.[i] ?? 0) / 2);
        s(m.id, b.bidId, 't2', (technical[b.bidId]?.[i] ?? 0) / 2);
        if (i < 3) s(m.id, b.bidId, 'b1', business[b.bidId]?.[i] ?? 0);
      });
    }
    const r = evaluate(criteria, bids, members, scores);
    // D (3 of 5 failed q1) is out, so the benchmark is mean(A, B, C) × 0.95 = 950,000
    expect(r.benchmark?.value).toBe(950_000);
    expect(r.rows.map((x) => [x.bidId, x.rank, x.total])).toEqual([
      ['C', 1, 81.74], // 35 + 12 + 34.74
      ['A', 2, 74.47], // 34 (30 and 40 dropped) + 11 + 29.47
      ['B', 3, 48.75], // 25 + 15.33 + 8.42
      ['D', null, null],
    ]);
    const a = r.rows.find((x) => x.bidId === 'A');
    expect(a?.technical).toEqual({ totals: { m1: 30, m2: 32, m3: 34, m4: 36, m5: 40 }, dropped: [30, 40], value: 34 });
    expect(a?.business?.totals).toEqual({ m1: 10, m2: 11, m3: 12 });
    const d = r.rows.find((x) => x.bidId === 'D');
    expect(d?.qualified).toBe(false);
    expect(d?.failures).toEqual([
      {
        itemId: 'q1',
        name: '资质有效',
        fails: 3,
        of: 5,
        reasons: ['m1：资质证书过期', 'm2：资质证书过期', 'm3：资质证书过期'],
      },
    ]);
  });

  it('breaks ties by the lower price, then the technical score, then the reading order', () => {
    const criteria: EvalCriteria = {
      ...defaultCriteria(),
      qualification: [{ id: 'q1', name: '资质' }],
      technical: [{ id: 't1', name: '方案', max: 40 }],
      business: [],
      price: { max: 60, benchmark: 'mean', k: 1, abovePerPct: 0, belowPerPct: 0 },
    };
    const members = [{ id: 'm', panels: ['ZS', 'JS'] as const }];
    const score = (bidId: string, t: number): EvalScoreInput[] => [
      { memberId: 'm', bidId, itemId: 'q1', score: null, pass: true, reason: '' },
      { memberId: 'm', bidId, itemId: 't1', score: t, pass: null, reason: '' },
    ];
    // every price scores 60 (no deductions): X and Y tie on total; Y is cheaper
    const r = evaluate(
      criteria,
      [
        { bidId: 'X', price: 200, readOrder: 1 },
        { bidId: 'Y', price: 100, readOrder: 2 },
        { bidId: 'Z', price: 200, readOrder: 3 },
      ],
      members,
      [...score('X', 30), ...score('Y', 30), ...score('Z', 30)],
    );
    expect(r.rows.map((x) => x.bidId)).toEqual(['Y', 'X', 'Z']);
  });

  it('ranks the lowest evaluated price method by price among the qualified', () => {
    const criteria = defaultCriteria('lowest');
    const members = [{ id: 'm', panels: ['ZS'] as const }];
    const pass = (bidId: string, ok: boolean): EvalScoreInput[] =>
      criteria.qualification.map((q) => ({
        memberId: 'm',
        bidId,
        itemId: q.id,
        score: null,
        pass: ok || q.id !== 'q2',
        reason: ok || q.id !== 'q2' ? '' : '项目经理有在建项目',
      }));
    const r = evaluate(
      criteria,
      [
        { bidId: 'P', price: 5_000_000, readOrder: 1 },
        { bidId: 'Q', price: 4_000_000, readOrder: 2 },
        { bidId: 'R', price: 4_800_000, readOrder: 3 },
        { bidId: 'S', price: 4_800_000, readOrder: 0 },
      ],
      members,
      [...pass('P', true), ...pass('Q', false), ...pass('R', true), ...pass('S', true)],
    );
    expect(r.benchmark).toBeNull();
    expect(r.rows.map((x) => [x.bidId, x.rank])).toEqual([
      ['S', 1],
      ['R', 2],
      ['P', 3],
      ['Q', null],
    ]);
    expect(r.rows[3]?.failures[0]?.reasons).toEqual(['项目经理有在建项目']);
  });

  it('checks criteria: 100 points, unique items, no scoring items for the lowest price method', () => {
    expect(criteriaProblems(defaultCriteria())).toEqual([]);
    expect(criteriaProblems(defaultCriteria('lowest'))).toEqual([]);
    const c = defaultCriteria();
    expect(criteriaProblems({ ...c, price: { ...c.price, max: 50 } })).toEqual([
      '技术分、商务分与价格分的满分合计应为 100 分（现为 90 分）',
    ]);
    expect(criteriaProblems({ ...c, business: [...c.business, { id: 't1', name: 'x', max: 0 }] })).toContain(
      '评审因素编号重复：t1',
    );
    expect(criteriaProblems({ ...defaultCriteria('lowest'), technical: c.technical })).toContain(
      '经评审的最低投标价法不设技术、商务打分因素',
    );
  });
});

describe('drawK', () => {
  it('takes the candidate at the first 13 hex digits modulo their number', () => {
    const ks = [0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98];
    // 0x0000000000007 = 7 → 7 mod 7 = 0; 0x000000000000a = 10 → 3; the digits after the 13th do not count
    expect(drawK(`0000000000007${'f'.repeat(51)}`, ks)).toBe(0.92);
    expect(drawK(`000000000000a${'0'.repeat(51)}`, ks)).toBe(0.95);
    expect(drawK(`fffffffffffff${'0'.repeat(51)}`, [0.9, 1])).toBe(1);
    expect(() => drawK('00', [])).toThrow();
  });
});
