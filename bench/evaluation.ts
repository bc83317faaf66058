import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  defaultCriteria,
  type EvalCriteria,
  type EvalPanel,
  type EvalRoom,
  type EvalScoreInput,
  evaluate,
} from '@ks/contracts';
import { evaluationReportPdf, evaluationReportXlsx } from '../apps/server/src/modules/evaluation/evaluation.report';
import { machine, pct, root } from './lib';

/**
 * Aggregation and report of an evaluation at scale (issue 17: 50 bidders × 9 experts × 100 items < 100 ms server
 * time). In process, the code the server runs for 汇总 (contracts' `evaluate`: qualification majorities, each panel's
 * totals with the highest and lowest dropped, the benchmark price and price scores, ranking) and for the report
 * (`evaluationReportPdf`, `evaluationReportXlsx`: every expert's score of every item of every bidder). `BIDDERS` (50),
 * `EXPERTS` (9, each in every panel), `ITEMS` (100: 10 qualification, 60 technical, 30
 * business), `RUNS` (20).
 */
const BIDDERS = Number(process.env.BIDDERS ?? 50);
const EXPERTS = Number(process.env.EXPERTS ?? 9);
const ITEMS = Number(process.env.ITEMS ?? 100);
const RUNS = Number(process.env.RUNS ?? 20);

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}
const r = lcg(17);

const nq = Math.round(ITEMS * 0.1);
const nt = Math.round(ITEMS * 0.6);
const nb = ITEMS - nq - nt;
const criteria: EvalCriteria = {
  ...defaultCriteria(),
  qualification: Array.from({ length: nq }, (_, i) => ({ id: `q${i}`, name: `资格评审因素${i + 1}` })),
  technical: Array.from({ length: nt }, (_, i) => ({ id: `t${i}`, name: `技术评审因素${i + 1}`, max: 0.5 })),
  business: Array.from({ length: nb }, (_, i) => ({ id: `b${i}`, name: `商务评审因素${i + 1}`, max: 1 / 3 })),
};
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const bids = Array.from({ length: BIDDERS }, (_, i) => ({
  bidId: uuid(i + 1),
  price: Math.round(25_000_000 + r() * 3_000_000),
  readOrder: i + 1,
}));
// every expert in every panel: 50 × 9 × 100 = 45,000 scores
const members = Array.from({ length: EXPERTS }, (_, i) => ({
  id: uuid(1000 + i),
  panels: ['ZS', 'JS', 'SW'] as EvalPanel[],
}));
const scores: EvalScoreInput[] = [];
for (const m of members) {
  for (const b of bids) {
    for (const q of criteria.qualification) {
      const pass = r() > 0.01;
      scores.push({
        memberId: m.id,
        bidId: b.bidId,
        itemId: q.id,
        score: null,
        pass,
        reason: pass ? '' : '证明材料不全',
      });
    }
    for (const it of [...criteria.technical, ...criteria.business]) {
      scores.push({
        memberId: m.id,
        bidId: b.bidId,
        itemId: it.id,
        score: Math.round(it.max * (0.5 + r() * 0.5) * 100) / 100,
        pass: null,
        reason: '',
      });
    }
  }
}

function time<T>(fn: () => T): [number, T] {
  const t = process.hrtime.bigint();
  const v = fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, v];
}
async function timeAsync<T>(fn: () => Promise<T>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: +pct(s, 50).toFixed(2), p95: +pct(s, 95).toFixed(2), max: +s[s.length - 1]!.toFixed(2) };
}

const agg: number[] = [];
const pdf: number[] = [];
const xlsx: number[] = [];
let pdfBytes = 0;
for (let i = 0; i < RUNS; i++) {
  // 汇总 as the server runs it: evaluate, then the stored result (JSON, with the names) and its log payload
  const [ms, result] = time(() => {
    const r = evaluate(criteria, bids, members, scores);
    JSON.stringify({ ...r, names: Object.fromEntries(bids.map((b, k) => [b.bidId, `投标人${k}`])) });
    return r;
  });
  agg.push(ms);
  const room = {
    section: { id: uuid(0), code: 'BD-01', name: '施工标段', projectName: '基准测试项目' },
    status: 'reporting',
    role: 'host',
    now: new Date().toISOString(),
    openingClosed: true,
    drawnK: null,
    extraction: null,
    criteria,
    members: members.map((m, k) => ({
      id: m.id,
      name: `专家${k + 1}`,
      specialty: k % 3 === 2 ? '工程造价' : '房屋建筑工程',
      employer: '',
      panels: m.panels,
      hasAccount: true,
      declaredAt: null,
      recused: false,
      conflict: null,
      signins: { ZS: null, JS: null, SW: null },
      submitted: { ZS: null, JS: null, SW: null },
      chair: k === 0,
      votes: 0,
      reportSignedAt: null,
      dissent: null,
    })),
    me: null,
    bids: bids.map((b, k) => ({
      bidId: b.bidId,
      enterpriseName: `山西示例建设工程第${k + 1}有限公司`,
      price: b.price,
      durationDays: 480,
      quality: '合格',
      manager: '张伟',
      readOrder: b.readOrder,
      fileName: '投标文件.pdf',
    })),
    myScores: [],
    allScores: [],
    result,
    reopens: [],
    clarifications: [],
    anomalies: [],
    outcome: null,
    supervision: [],
    events: [],
    actions: {
      begin: false,
      method: false,
      declare: false,
      signIn: [],
      vote: false,
      score: [],
      reopen: false,
      clarify: false,
      principal: false,
      render: false,
      sign: false,
      export: true,
      publish: false,
      answer: false,
      award: false,
      awardNotice: false,
    },
  } as EvalRoom;
  const all = scores.map((s) => ({
    ...s,
    panel: (s.itemId[0] === 'q' ? 'ZS' : s.itemId[0] === 't' ? 'JS' : 'SW') as EvalPanel,
  }));
  const [pms, buf] = time(() => evaluationReportPdf(room, all, 'Asia/Shanghai'));
  pdf.push(pms);
  pdfBytes = buf.length;
  if (i < 5) xlsx.push(await timeAsync(() => evaluationReportXlsx(room, all, 'Asia/Shanghai')));
}

const out = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAtStart: +os.loadavg()[0]!.toFixed(2),
  bidders: BIDDERS,
  experts: EXPERTS,
  items: ITEMS,
  scores: scores.length,
  runs: RUNS,
  aggregationMs: stats(agg),
  reportPdfMs: stats(pdf),
  reportPdfBytes: pdfBytes,
  reportXlsxMs: stats(xlsx),
};
console.info(JSON.stringify(out, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/evaluation.json'), `${JSON.stringify(out, null, 2)}\n`);
if (out.aggregationMs.p95 >= 100) {
  console.error(`aggregation p95 ${out.aggregationMs.p95} ms ≥ 100 ms`);
  process.exitCode = 1;
}
