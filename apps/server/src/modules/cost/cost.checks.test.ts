import { Readable } from 'node:stream';
import { COST_SETTINGS_DEFAULT, type CostCheck } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import { type CostDigest, detect, digestOf, fileFindings, marketFindings, pairResult } from './cost.checks';
import { type CostSampleOptions, costXml } from './cost.sample';

const S = COST_SETTINGS_DEFAULT;
let n = 0;
async function digest(o: CostSampleOptions | string, name = typeof o === 'string' ? 'x' : o.bidder) {
  const xml = typeof o === 'string' ? o : costXml(o);
  n++;
  return digestOf(Readable.from([Buffer.from(xml)]), {
    fileId: `f${n}`,
    enterpriseId: `e${n}`,
    enterpriseName: name,
    fileName: `${name}.xml`,
  });
}
const checks = (fs: { check: CostCheck }[]) => fs.map((f) => f.check);
const sw = (serial: string, machineCode: string) => ({
  name: '广联达云计价平台 GCCP6.0',
  version: '6.4',
  serial,
  machineCode,
});

describe('one file', () => {
  it('passes a clean file: totals add up, fees at their rates, under the control price', async () => {
    expect(fileFindings(await digest({ bidder: '山西建工集团有限公司', seed: 1 }), S)).toEqual([]);
  });

  it('flags totals that do not add up, at the unit, the single works and the line, with the line of the file', async () => {
    const xml = costXml({ bidder: 'a', seed: 1 });
    const lines = xml.split('\n');
    const unit = lines.findIndex((l) => l.includes('<单位工程'));
    lines[unit] = lines[unit]!.replace(/总造价="[\d.]+"/, '总造价="1.00"');
    const item = lines.findIndex((l) => l.includes('<清单项目'));
    lines[item] = lines[item]!.replace(/合价="[\d.]+"/, '合价="999999.00"');
    const f = fileFindings(await digest(lines.join('\n')), S);
    const totals = f.find((x) => x.check === 'totals')!;
    expect(totals.risk).toBe('medium');
    expect(totals.evidence.join('\n')).toContain(`（第 ${unit + 1} 行）`);
    expect(totals.evidence.join('\n')).toContain(`第 ${item + 1} 行 010101001001 平整场地`);
    // the unit's total no longer adds up, nor its 分部分项 against its lines, nor the single works above it
    expect(totals.nodeIds).toEqual(expect.arrayContaining(['1.1', '1.1.1']));
  });

  it('flags a safety-civilised fee and a regulatory fee below their rates, and not at them', async () => {
    const low = fileFindings(await digest({ bidder: 'b', seed: 2, safetyRate: 0.02, feeRate: 0.01 }), S);
    expect(checks(low)).toEqual(['safetyRate', 'feeRate']);
    expect(low[0]!.nodeIds).toHaveLength(4);
    expect(low[0]!.evidence[0]).toMatch(/安全文明施工费 ¥[\d,.]+，为分部分项工程费的 2\.00%，不低于 3\.00% 应为/);
    const at = fileFindings(await digest({ bidder: 'b', seed: 2, safetyRate: 0.03, feeRate: 0.02 }), S);
    expect(at).toEqual([]);
  });

  it('flags a bid above the control price, and not one below it', async () => {
    const over = fileFindings(await digest({ bidder: 'c', seed: 3, controlPrice: 1_000_000 }), S);
    expect(checks(over)).toEqual(['controlPrice']);
    expect(over[0]!.risk).toBe('high');
    expect(fileFindings(await digest({ bidder: 'c', seed: 3, controlPrice: 99_000_000 }), S)).toEqual([]);
  });
});

describe('pairs', () => {
  it('flags an identical file, with the shared serial and machine code', async () => {
    const p = pairResult(await digest({ bidder: 'x', seed: 7 }, '甲'), await digest({ bidder: 'x', seed: 7 }, '乙'), S);
    expect(checks(p.findings)).toEqual(['identicalFile', 'fingerprint']);
    expect(p).toMatchObject({ score: 100, risk: 'high' });
  });

  it('flags the same unit prices under another name and software as similar lines, and scores the pair', async () => {
    const a = await digest({ bidder: '甲公司', seed: 8, software: sw('A-1', 'M-1') });
    const b = await digest({
      bidder: '乙公司',
      seed: 8,
      software: sw('B-2', 'M-2'),
      createdAt: '2026-11-21T10:00:00+08:00',
    });
    const p = pairResult(a, b, S);
    expect(checks(p.findings)).toEqual(['similarLines']);
    expect(p.score).toBe(100);
    expect(p.findings[0]!.evidence[0]).toMatch(/^单位工程 0101 清单 010101001001：两家综合单价同为 ¥/);
  });

  it('flags a shared machine code between different files, and passes independent bidders', async () => {
    const a = await digest({ bidder: '甲', seed: 11, software: sw('A-1', 'SAME-MACHINE') });
    const b = await digest({ bidder: '乙', seed: 12, software: sw('B-2', 'SAME-MACHINE') });
    const shared = pairResult(a, b, S);
    expect(checks(shared.findings)).toEqual(['fingerprint']);
    expect(shared.findings[0]!.evidence).toEqual(['机器码相同：SAME-MACHINE']);
    const c = await digest({ bidder: '丙', seed: 13, createdAt: '2026-11-22T08:00:00+08:00' });
    const clean = pairResult(a, c, S);
    expect(clean.findings).toEqual([]);
    expect(clean.risk).toBe('low');
    expect(clean.score).toBeLessThan(S.similarPct);
  });
});

describe('against the section', () => {
  const day = (d: number) => `2026-11-${d}T09:00:00+08:00`;
  it('flags abnormally low and unbalanced unit prices and a low total against the medians, not the others', async () => {
    const all: CostDigest[] = [
      await digest({ bidder: '甲', seed: 21, createdAt: day(21) }),
      await digest({ bidder: '乙', seed: 22, createdAt: day(22) }),
      await digest({ bidder: '丙', seed: 23, createdAt: day(23) }),
      await digest({ bidder: '丁', seed: 24, priceFactor: 0.5, createdAt: day(24) }),
      await digest({ bidder: '戊', seed: 25, priceFactor: 1.8, controlPrice: 99_000_000, createdAt: day(25) }),
    ];
    const m = marketFindings(all, S);
    expect(m.medianBid).toBeGreaterThan(0);
    expect(checks(m.byFile.get(all[3]!.fileId)!)).toEqual(['lowPrice', 'lowTotal']);
    expect(checks(m.byFile.get(all[4]!.fileId)!)).toEqual(['unbalanced']);
    for (const d of all.slice(0, 3)) expect(m.byFile.get(d.fileId)).toEqual([]);
    // with two bidders there is no median to speak of
    expect(marketFindings(all.slice(3), S).byFile.get(all[3]!.fileId)).toEqual([]);
  });

  it('detects a section: per bidder and per pair, with a risk level each', async () => {
    const all = [
      await digest({ bidder: '甲', seed: 31, createdAt: day(1) }),
      await digest({ bidder: '乙', seed: 32, createdAt: day(2) }),
      await digest({ bidder: '乙', seed: 32, createdAt: day(2) }, '丙'),
      await digest({ bidder: '丁', seed: 34, safetyRate: 0.02, createdAt: day(4) }),
    ];
    const progress: number[] = [];
    const r = detect(all, S, (done) => progress.push(done));
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.pairs).toHaveLength(6);
    expect(r.bidders.map((b) => b.risk)).toEqual(['low', 'high', 'high', 'medium']);
    expect(checks(r.bidders[1]!.findings)).toContain('identicalFile');
    expect(checks(r.bidders[3]!.findings)).toEqual(['safetyRate']);
  });
});
