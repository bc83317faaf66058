import { describe, expect, it } from 'vitest';
import {
  COMMITTEE_MESSAGES,
  committeeProblems,
  type DrawConditions,
  EXPERT_SPECIALTIES,
  eligibility,
  fromHex,
  hmacSha256,
  normaliseEmployer,
  type PoolExpert,
  type PoolSnapshot,
  runDraw,
  SHANXI_CITIES,
  seedCommitment,
  sha256,
  snapshotHash,
  sortPool,
  toHex,
  utf8,
  verifyDraw,
} from './experts-rules';

/** A deterministic little generator for test pools (not the draw's stream). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const EMPLOYERS = [
  '山西建筑工程集团有限公司',
  '太原理工大学',
  '山西省建筑设计研究院有限公司',
  '大同市市政设计院',
  '长治学院',
];

function pool(n: number, seed = 1): PoolSnapshot {
  const r = lcg(seed);
  const experts: PoolExpert[] = [];
  for (let i = 0; i < n; i++) {
    const hex = (Math.floor(r() * 0xffffffff) >>> 0).toString(16).padStart(8, '0');
    experts.push({
      id: `${hex}-0000-4000-8000-${String(i).padStart(12, '0')}`,
      specialty: EXPERT_SPECIALTIES[Math.floor(r() * EXPERT_SPECIALTIES.length)]!.value,
      region: SHANXI_CITIES[Math.floor(r() * SHANXI_CITIES.length)]!,
      employer: EMPLOYERS[Math.floor(r() * EMPLOYERS.length)]!,
      available: r() > 0.1,
      lastDrawnAt:
        r() < 0.2
          ? new Date(Date.parse('2026-11-27T00:00:00Z') - Math.floor(r() * 60) * 86_400_000).toISOString()
          : null,
    });
  }
  return { takenAt: '2026-11-27T00:00:00.000Z', experts: sortPool(experts) };
}

const conditions = (over: Partial<DrawConditions> = {}): DrawConditions => ({
  tendereeReps: 1,
  lines: [
    { specialty: '房屋建筑工程', count: 3 },
    { specialty: '工程造价', count: 2 },
    { specialty: '建筑电气与智能化', count: 1 },
  ],
  regions: [],
  avoidEmployers: [],
  avoidExpertIds: [],
  recentDays: 30,
  ...over,
});

const randomBytes = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));
const seedOf = () => toHex(randomBytes(32));
const subtle = globalThis.crypto.subtle;
const webSha = async (b: Uint8Array) => toHex(new Uint8Array(await subtle.digest('SHA-256', b)));
async function webHmac(k: Uint8Array, b: Uint8Array) {
  if (k.length === 0) return null; // WebCrypto refuses an empty HMAC key
  const key = await subtle.importKey('raw', k, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(new Uint8Array(await subtle.sign('HMAC', key, b)));
}

describe('sha256 / hmac', () => {
  it('agree with WebCrypto on many lengths', async () => {
    for (const len of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const b = randomBytes(len);
      expect(toHex(sha256(b))).toBe(await webSha(b));
      const k = randomBytes((len % 100) + 1);
      expect(toHex(hmacSha256(k, b))).toBe(await webHmac(k, b));
    }
    const long = randomBytes(80);
    expect(toHex(hmacSha256(long, utf8('x')))).toBe(await webHmac(long, utf8('x')));
    expect(toHex(hmacSha256(randomBytes(80), utf8('x'))).length).toBe(64);
    expect(toHex(sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('the commitment is SHA-256 of the seed bytes', async () => {
    const s = seedOf();
    expect(seedCommitment(s)).toBe(await webSha(fromHex(s)));
  });
});

describe('committee rules', () => {
  it('accepts a lawful committee', () => {
    expect(committeeProblems(conditions())).toEqual([]);
    expect(committeeProblems({ tendereeReps: 0, lines: [{ specialty: '公路工程', count: 5 }] })).toEqual([]);
  });
  it('names the rule it breaks', () => {
    expect(committeeProblems({ tendereeReps: 0, lines: [{ specialty: '公路工程', count: 3 }] })).toEqual([
      COMMITTEE_MESSAGES.min(3),
    ]);
    expect(committeeProblems({ tendereeReps: 1, lines: [{ specialty: '公路工程', count: 5 }] })).toEqual([
      COMMITTEE_MESSAGES.odd(6),
    ]);
    // 7 members with 3 representatives: 4 experts < 5 (two thirds of 7, rounded up)
    expect(committeeProblems({ tendereeReps: 3, lines: [{ specialty: '工程造价', count: 4 }] })).toEqual([
      COMMITTEE_MESSAGES.twoThirds(4, 7, 5),
    ]);
    expect(committeeProblems({ tendereeReps: 0, lines: [] })).toEqual([COMMITTEE_MESSAGES.noLines]);
    expect(
      committeeProblems({
        tendereeReps: 0,
        lines: [
          { specialty: '公路工程', count: 3 },
          { specialty: '公路工程', count: 2 },
        ],
      }),
    ).toEqual([COMMITTEE_MESSAGES.duplicate('公路工程')]);
    expect(committeeProblems({ tendereeReps: 0, lines: [{ specialty: '厨师', count: 5 }] })).toEqual([
      COMMITTEE_MESSAGES.unknown('厨师'),
    ]);
    expect(committeeProblems({ tendereeReps: -1, lines: [{ specialty: '公路工程', count: 0 }] })).toEqual([
      COMMITTEE_MESSAGES.reps,
      COMMITTEE_MESSAGES.count('公路工程'),
    ]);
    expect(COMMITTEE_MESSAGES.odd(6)).toContain('五人以上单数');
    expect(COMMITTEE_MESSAGES.twoThirds(4, 7, 5)).toContain('三分之二');
  });
});

describe('the draw', () => {
  const snap = pool(600);

  it('the same seed and pool give the same draw; another seed another', () => {
    const s = seedOf();
    const a = runDraw(s, snap, conditions());
    const b = runDraw(s, { ...snap, experts: sortPool([...snap.experts].reverse()) }, conditions());
    expect(a).toEqual(b);
    expect(a.map((l) => l.ids.length)).toEqual([3, 2, 1]);
    const other = runDraw(seedOf(), snap, conditions());
    expect(other.flatMap((l) => l.ids)).not.toEqual(a.flatMap((l) => l.ids));
  });

  it('a fixed seed gives a fixed list (the algorithm does not drift)', () => {
    const fixed = runDraw('00'.repeat(32), pool(50, 7), {
      ...conditions(),
      lines: [{ specialty: '房屋建筑工程', count: 2 }],
      recentDays: 0,
    });
    expect(fixed[0]!.ids).toEqual(['1bbc4b31-0000-4000-8000-000000000035', 'b1d30760-0000-4000-8000-000000000044']);
  });

  it('never picks an avoided expert (property over many seeds)', () => {
    const avoidEmployers = ['太原理工大学', ' 长治 学院 '];
    const avoidExpertIds = snap.experts.slice(0, 40).map((e) => e.id);
    const c = conditions({ regions: ['太原市', '大同市', '长治市', '晋中市'], avoidEmployers, avoidExpertIds });
    const byId = new Map(snap.experts.map((e) => [e.id, e]));
    const cutoff = Date.parse(snap.takenAt) - 30 * 86_400_000;
    const avoided = new Set(avoidEmployers.map(normaliseEmployer));
    for (let i = 0; i < 300; i++) {
      const lines = runDraw(seedOf(), snap, c, [8, 8, 8]);
      lines.forEach((l, li) => {
        expect(new Set(l.ids).size).toBe(l.ids.length);
        for (const id of l.ids) {
          const e = byId.get(id)!;
          expect(e.available).toBe(true);
          expect(e.specialty).toBe(c.lines[li]!.specialty);
          expect(c.regions).toContain(e.region);
          expect(avoided.has(normaliseEmployer(e.employer))).toBe(false);
          expect(avoidExpertIds).not.toContain(id);
          expect(e.lastDrawnAt === null || Date.parse(e.lastDrawnAt) <= cutoff).toBe(true);
        }
      });
    }
  });

  it('replacements continue the chain: earlier picks stay, nobody repeats, the line runs out cleanly', () => {
    for (let i = 0; i < 100; i++) {
      const s = seedOf();
      const first = runDraw(s, snap, conditions());
      const more = runDraw(s, snap, conditions(), [6, 5, 4]);
      first.forEach((l, li) => {
        expect(more[li]!.ids.slice(0, l.ids.length)).toEqual(l.ids);
        expect(new Set(more[li]!.ids).size).toBe(more[li]!.ids.length);
      });
    }
    const s = seedOf();
    const all = runDraw(s, snap, conditions(), [10_000, 10_000, 10_000]);
    const check = eligibility(snap.takenAt, conditions());
    all.forEach((l, li) => {
      expect(l.ids.length).toBe(l.eligible);
      expect(l.eligible).toBe(snap.experts.filter((e) => check(e, conditions().lines[li]!.specialty) === null).length);
    });
  });

  it('each eligible expert is about equally likely', () => {
    const small = pool(120, 3);
    const c = conditions({ lines: [{ specialty: '工程造价', count: 1 }], recentDays: 0 });
    const counts = new Map<string, number>();
    const runs = 4000;
    let eligible = 0;
    for (let i = 0; i < runs; i++) {
      const [l] = runDraw(seedOf(), small, c);
      eligible = l!.eligible;
      counts.set(l!.ids[0]!, (counts.get(l!.ids[0]!) ?? 0) + 1);
    }
    const expected = runs / eligible;
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.6);
  });

  it('verification re-runs the draw and catches every tampering', () => {
    const s = seedOf();
    const c = conditions();
    const lines = runDraw(s, snap, c, [4, 2, 1]);
    const members = lines.flatMap((l, line) => l.ids.map((expertId, seq) => ({ line, seq, expertId })));
    const ok = verifyDraw({
      seedHex: s,
      seedHash: seedCommitment(s),
      snapshot: snap,
      poolHash: snapshotHash(snap),
      conditions: c,
      members,
    });
    expect(ok.problems).toEqual([]);
    expect(ok.recomputed).toEqual(members);
    const badSeed = verifyDraw({
      seedHex: seedOf(),
      seedHash: seedCommitment(s),
      snapshot: snap,
      poolHash: snapshotHash(snap),
      conditions: c,
      members,
    });
    expect(badSeed.seedMatches).toBe(false);
    expect(badSeed.listMatches).toBe(false);
    const tampered = { ...snap, experts: snap.experts.map((e, i) => (i === 5 ? { ...e, employer: '某公司' } : e)) };
    expect(
      verifyDraw({
        seedHex: s,
        seedHash: seedCommitment(s),
        snapshot: tampered,
        poolHash: snapshotHash(snap),
        conditions: c,
        members,
      }).poolMatches,
    ).toBe(false);
    const swapped = members.map((m, i) => (i === 0 ? { ...m, expertId: snap.experts[0]!.id } : m));
    expect(
      verifyDraw({
        seedHex: s,
        seedHash: seedCommitment(s),
        snapshot: snap,
        poolHash: snapshotHash(snap),
        conditions: c,
        members: swapped,
      }).listMatches,
    ).toBe(false);
  });
});
