import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type DrawConditions,
  EXPERT_SPECIALTIES,
  type PoolExpert,
  type PoolSnapshot,
  runDraw,
  SHANXI_CITIES,
  seedCommitment,
  snapshotHash,
  sortPool,
  verifyDraw,
} from '@ks/contracts';
import { machine, pct, root } from './lib';

/**
 * The expert draw at scale (issue 16: < 200 ms over 100,000 experts with avoidance rules). In process, the contracts'
 * code the server and the browser both run: a pool of `POOL` (100,000) experts sorted by id — 12 specialties, 11
 * cities, 400 employers, 8 % suspended, 15 % drawn within the last 60 days —, conditions avoiding 30 employers, 200
 * named experts and everyone drawn within 30 days, over 3 regions; a committee of 4 specialty lines (9 experts).
 * Timed `RUNS` (30) times each with a fresh seed: the draw, a replacement after a decline (the draw re-run one deeper
 * in a line), the verification (seed commitment + snapshot hash + re-run), and the snapshot hash alone.
 */

const POOL = Number(process.env.POOL ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 30);

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const r = lcg(16);
const employers = Array.from({ length: 400 }, (_, i) => `山西示例工程单位${i}有限公司`);
const takenAt = '2026-11-27T02:00:00.000Z';
const experts: PoolExpert[] = [];
for (let i = 0; i < POOL; i++) {
  const h = randomBytes(16).toString('hex');
  experts.push({
    id: `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`,
    specialty: EXPERT_SPECIALTIES[Math.floor(r() * EXPERT_SPECIALTIES.length)]!.value,
    region: SHANXI_CITIES[Math.floor(r() * SHANXI_CITIES.length)]!,
    employer: employers[Math.floor(r() * employers.length)]!,
    available: r() > 0.08,
    lastDrawnAt: r() < 0.15 ? new Date(Date.parse(takenAt) - Math.floor(r() * 60 * 86_400_000)).toISOString() : null,
  });
}
const snapshot: PoolSnapshot = { takenAt, experts: sortPool(experts) };
const conditions: DrawConditions = {
  tendereeReps: 0,
  lines: [
    { specialty: '房屋建筑工程', count: 3 },
    { specialty: '市政公用工程', count: 2 },
    { specialty: '建筑电气与智能化', count: 1 },
    { specialty: '工程造价', count: 3 },
  ],
  regions: ['太原市', '晋中市', '吕梁市'],
  avoidEmployers: employers.slice(0, 30),
  avoidExpertIds: snapshot.experts.filter((_, i) => i % 500 === 0).map((e) => e.id),
  recentDays: 30,
};

function time(fn: () => unknown) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: +pct(s, 50).toFixed(2), p95: +pct(s, 95).toFixed(2), max: +s[s.length - 1]!.toFixed(2) };
}

const draw: number[] = [];
const replace: number[] = [];
const verify: number[] = [];
const hash: number[] = [];
const poolHash = snapshotHash(snapshot);
let eligible: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const seed = randomBytes(32).toString('hex');
  let lines: ReturnType<typeof runDraw> = [];
  draw.push(time(() => (lines = runDraw(seed, snapshot, conditions))));
  eligible = lines.map((l) => l.eligible);
  replace.push(time(() => runDraw(seed, snapshot, conditions, [4, 2, 1, 3])));
  const members = lines.flatMap((l, line) => l.ids.map((expertId, seq) => ({ line, seq, expertId })));
  verify.push(
    time(() => {
      const v = verifyDraw({ seedHex: seed, seedHash: seedCommitment(seed), snapshot, poolHash, conditions, members });
      if (v.problems.length) throw new Error(v.problems.join('; '));
    }),
  );
  hash.push(time(() => snapshotHash(snapshot)));
}

const out = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAtStart: +os.loadavg()[0]!.toFixed(2),
  pool: POOL,
  runs: RUNS,
  eligiblePerLine: eligible,
  drawMs: stats(draw),
  replacementMs: stats(replace),
  verifyMs: stats(verify),
  snapshotHashMs: stats(hash),
};
console.info(JSON.stringify(out, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/experts.json'), `${JSON.stringify(out, null, 2)}\n`);
if (out.drawMs.p95 >= 200) {
  console.error(`draw p95 ${out.drawMs.p95} ms ≥ 200 ms`);
  process.exitCode = 1;
}
