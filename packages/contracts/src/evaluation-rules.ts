/**
 * The arithmetic of bid evaluation (评标, issue 17; DOMAIN.md "Evaluation"), pure so the server, the expert's browser
 * and the benchmark compute the same numbers:
 *
 * - qualification (资格审查) is pass/fail per item; an item fails a bidder when more than half of the qualification
 *   panel fail it, and a bidder failing any item is out, with the members' reasons;
 * - each scoring panel member's total for a bidder is the sum of their item scores; the panel's score of the bidder is
 *   the mean of its members' totals, after dropping the highest and the lowest total when five or more members score;
 * - the benchmark price (评标基准价) is the mean of the qualified bidders' prices (optionally dropping the highest and
 *   the lowest when five or more are qualified), times the coefficient K; the price score is the price points less
 *   `abovePerPct` for each percent above the benchmark or `belowPerPct` for each percent below, never below zero;
 * - comprehensive method (综合评估法): ranked by total (technical + business + price), ties broken by the lower price,
 *   then the higher technical score, then the reading order drawn in the opening hall; lowest evaluated price method
 *   (经评审的最低投标价法): the qualified bidders ranked by price, ties by the reading order.
 *
 * Scores and money are rounded to two decimals at the end of each step (the report shows each step's numbers).
 */

export const EVAL_METHODS = ['comprehensive', 'lowest'] as const;
export type EvalMethod = (typeof EVAL_METHODS)[number];
export const EVAL_METHOD_LABELS: Record<EvalMethod, string> = {
  comprehensive: '综合评估法',
  lowest: '经评审的最低投标价法',
};

export const EVAL_PANELS = ['ZS', 'JS', 'SW'] as const;
export type EvalPanel = (typeof EVAL_PANELS)[number];
export const EVAL_PANEL_LABELS: Record<EvalPanel, string> = { ZS: '资格评审', JS: '技术评审', SW: '商务评审' };

export const BENCHMARK_RULES = ['mean', 'meanDropExtremes'] as const;
export type BenchmarkRule = (typeof BENCHMARK_RULES)[number];
export const BENCHMARK_RULE_LABELS: Record<BenchmarkRule, string> = {
  mean: '有效投标报价的算术平均值',
  meanDropExtremes: '有效投标报价去掉一个最高、一个最低后的算术平均值（不足 5 家时取全部平均）',
};

export interface QualificationItem {
  id: string;
  name: string;
}
export interface ScoreItem {
  id: string;
  name: string;
  /** the item's highest score */
  max: number;
}
export interface PriceRule {
  /** the price score's highest points (comprehensive method) */
  max: number;
  benchmark: BenchmarkRule;
  /** the coefficient K applied to the mean (评审系数) */
  k: number;
  /** points deducted per percent above the benchmark */
  abovePerPct: number;
  /** points deducted per percent below the benchmark */
  belowPerPct: number;
}
export interface EvalCriteria {
  method: EvalMethod;
  qualification: QualificationItem[];
  technical: ScoreItem[];
  business: ScoreItem[];
  price: PriceRule;
  /** a score further than this share of the item's highest score from the panel's median needs a reason */
  deviation: number;
}

export const round2 = (v: number) => Math.round((v + Number.EPSILON) * 100) / 100;

export function median(values: readonly number[]): number {
  if (!values.length) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** A score needs a written reason when at least three scores of the cell exist and it lies too far from their median. */
export function needsReason(own: number, cell: readonly number[], itemMax: number, deviation: number): boolean {
  if (cell.length < 3) return false;
  return Math.abs(own - median(cell)) > deviation * itemMax + 1e-9;
}

/** The panel's score from its members' totals: drop the highest and the lowest when five or more score. */
export function aggregateTotals(totals: readonly number[]): { value: number; dropped: number[] } {
  if (!totals.length) return { value: 0, dropped: [] };
  if (totals.length < 5) return { value: round2(totals.reduce((a, b) => a + b, 0) / totals.length), dropped: [] };
  const s = [...totals].sort((a, b) => a - b);
  const kept = s.slice(1, -1);
  return {
    value: round2(kept.reduce((a, b) => a + b, 0) / kept.length),
    dropped: [s[0] as number, s[s.length - 1] as number],
  };
}

export interface BenchmarkWorking {
  rule: BenchmarkRule;
  /** the qualified bidders' prices, ascending */
  prices: number[];
  /** the prices left out (highest and lowest) */
  dropped: number[];
  mean: number;
  k: number;
  /** the benchmark price: mean × K */
  value: number;
}

/**
 * 评审系数 K drawn in the opening hall (评审系数随机抽取): the candidate at index (the first 52 bits of `digestHex`) mod
 * the number of candidates, where `digestHex` is SHA-256(seed ‖ ":K") of the seed committed when the opening started
 * — anyone who has the revealed seed can recompute it.
 */
export function drawK(digestHex: string, candidates: readonly number[]): number {
  if (!candidates.length) throw new Error('no K candidates');
  const n = Number.parseInt(digestHex.slice(0, 13), 16);
  return candidates[n % candidates.length] as number;
}

/** The K candidates a trading centre offers by default (0.92 to 0.98). */
export const K_CANDIDATES_DEFAULT: readonly number[] = [0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98];

export function benchmarkPrice(prices: readonly number[], rule: BenchmarkRule, k: number): BenchmarkWorking {
  const s = [...prices].sort((a, b) => a - b);
  const drop = rule === 'meanDropExtremes' && s.length >= 5;
  const kept = drop ? s.slice(1, -1) : s;
  const mean = kept.length ? round2(kept.reduce((a, b) => a + b, 0) / kept.length) : 0;
  return {
    rule,
    prices: s,
    dropped: drop ? [s[0] as number, s[s.length - 1] as number] : [],
    mean,
    k,
    value: round2(mean * k),
  };
}

/** The deviation from the benchmark in percent (two decimals) and the price score. */
export function priceScore(price: number, benchmark: number, rule: PriceRule): { deviationPct: number; score: number } {
  if (benchmark <= 0) return { deviationPct: 0, score: 0 };
  const pct = ((price - benchmark) / benchmark) * 100;
  const deduct = pct > 0 ? pct * rule.abovePerPct : -pct * rule.belowPerPct;
  return { deviationPct: round2(pct), score: round2(Math.max(0, rule.max - deduct)) };
}

export interface EvalBidInput {
  bidId: string;
  price: number;
  /** 1-based reading order drawn in the opening hall (the last tie-breaker) */
  readOrder: number;
}
export interface EvalMemberInput {
  id: string;
  panels: readonly EvalPanel[];
}
export interface EvalScoreInput {
  memberId: string;
  bidId: string;
  itemId: string;
  score: number | null;
  pass: boolean | null;
  reason: string;
}

export interface PanelWorking {
  /** each member's total, by member id */
  totals: Record<string, number>;
  /** the totals left out (highest and lowest) */
  dropped: number[];
  value: number;
}

export interface EvalRowResult {
  bidId: string;
  qualified: boolean;
  /** the qualification items the bidder failed, with the members' reasons */
  failures: { itemId: string; name: string; fails: number; of: number; reasons: string[] }[];
  technical: PanelWorking | null;
  business: PanelWorking | null;
  price: number;
  deviationPct: number | null;
  priceScore: number | null;
  total: number | null;
  /** 1-based among the qualified; null for one that failed qualification */
  rank: number | null;
}

export interface EvalResult {
  method: EvalMethod;
  benchmark: BenchmarkWorking | null;
  rows: EvalRowResult[];
}

/** Scores by member, then bid, then item (no string keys: 45,000 scores are looked up many times). */
type ScoreIndex = Map<string, Map<string, Map<string, EvalScoreInput>>>;

function indexScores(scores: readonly EvalScoreInput[]): ScoreIndex {
  const out: ScoreIndex = new Map();
  for (const s of scores) {
    let byBid = out.get(s.memberId);
    if (!byBid) {
      byBid = new Map();
      out.set(s.memberId, byBid);
    }
    let byItem = byBid.get(s.bidId);
    if (!byItem) {
      byItem = new Map();
      byBid.set(s.bidId, byItem);
    }
    byItem.set(s.itemId, s);
  }
  return out;
}

function panelWorking(
  panel: EvalPanel,
  items: readonly ScoreItem[],
  members: readonly EvalMemberInput[],
  bidId: string,
  index: ScoreIndex,
): PanelWorking {
  const totals: Record<string, number> = {};
  const list: number[] = [];
  for (const m of members) {
    if (!m.panels.includes(panel)) continue;
    const byItem = index.get(m.id)?.get(bidId);
    let t = 0;
    if (byItem) for (const it of items) t += byItem.get(it.id)?.score ?? 0;
    t = round2(t);
    totals[m.id] = t;
    list.push(t);
  }
  const agg = aggregateTotals(list);
  return { totals, dropped: agg.dropped, value: agg.value };
}

/** The whole evaluation: qualification, panel scores, benchmark, price scores, totals and ranking. */
export function evaluate(
  criteria: EvalCriteria,
  bids: readonly EvalBidInput[],
  members: readonly EvalMemberInput[],
  scores: readonly EvalScoreInput[],
): EvalResult {
  const index = indexScores(scores);
  const zs = members.filter((m) => m.panels.includes('ZS'));
  const comprehensive = criteria.method === 'comprehensive';

  const rows: EvalRowResult[] = bids.map((b) => {
    const failures: EvalRowResult['failures'] = [];
    for (const it of criteria.qualification) {
      const fails = zs
        .map((m) => index.get(m.id)?.get(b.bidId)?.get(it.id))
        .filter((s): s is EvalScoreInput => s?.pass === false);
      if (fails.length * 2 > zs.length) {
        failures.push({
          itemId: it.id,
          name: it.name,
          fails: fails.length,
          of: zs.length,
          reasons: fails.map((s) => s.reason).filter(Boolean),
        });
      }
    }
    return {
      bidId: b.bidId,
      qualified: failures.length === 0,
      failures,
      technical: comprehensive ? panelWorking('JS', criteria.technical, members, b.bidId, index) : null,
      business: comprehensive ? panelWorking('SW', criteria.business, members, b.bidId, index) : null,
      price: b.price,
      deviationPct: null,
      priceScore: null,
      total: null,
      rank: null,
    };
  });

  const qualified = rows.filter((r) => r.qualified);
  const order = new Map(bids.map((b) => [b.bidId, b.readOrder]));
  let benchmark: BenchmarkWorking | null = null;
  if (comprehensive) {
    benchmark = benchmarkPrice(
      qualified.map((r) => r.price),
      criteria.price.benchmark,
      criteria.price.k,
    );
    for (const r of qualified) {
      const p = priceScore(r.price, benchmark.value, criteria.price);
      r.deviationPct = p.deviationPct;
      r.priceScore = p.score;
      r.total = round2((r.technical?.value ?? 0) + (r.business?.value ?? 0) + p.score);
    }
    qualified.sort(
      (a, b) =>
        (b.total ?? 0) - (a.total ?? 0) ||
        a.price - b.price ||
        (b.technical?.value ?? 0) - (a.technical?.value ?? 0) ||
        (order.get(a.bidId) ?? 0) - (order.get(b.bidId) ?? 0),
    );
  } else {
    qualified.sort((a, b) => a.price - b.price || (order.get(a.bidId) ?? 0) - (order.get(b.bidId) ?? 0));
  }
  qualified.forEach((r, i) => {
    r.rank = i + 1;
  });
  const out = [...qualified, ...rows.filter((r) => !r.qualified)];
  return { method: criteria.method, benchmark, rows: out };
}

/** The problems of a set of criteria (empty: usable). */
export function criteriaProblems(c: EvalCriteria): string[] {
  const out: string[] = [];
  const ids = new Set<string>();
  const all = [...c.qualification, ...c.technical, ...c.business];
  for (const it of all) {
    if (ids.has(it.id)) out.push(`评审因素编号重复：${it.id}`);
    ids.add(it.id);
  }
  if (!c.qualification.length) out.push('至少设置一项资格评审因素');
  if (c.method === 'comprehensive') {
    if (!c.technical.length) out.push('综合评估法至少设置一项技术评审因素');
    const sum = round2(
      c.technical.reduce((a, b) => a + b.max, 0) + c.business.reduce((a, b) => a + b.max, 0) + c.price.max,
    );
    if (sum !== 100) out.push(`技术分、商务分与价格分的满分合计应为 100 分（现为 ${sum} 分）`);
  } else if (c.technical.length || c.business.length) {
    out.push('经评审的最低投标价法不设技术、商务打分因素');
  }
  return out;
}

/** A criteria template a trading centre in Shanxi would start from (house-building construction, 100 points). */
export function defaultCriteria(method: EvalMethod = 'comprehensive'): EvalCriteria {
  const qualification: QualificationItem[] = [
    { id: 'q1', name: '营业执照、资质证书与安全生产许可证有效' },
    { id: 'q2', name: '项目经理具备相应注册建造师资格且无在建项目' },
    { id: 'q3', name: '投标函签字盖章齐全，投标保证金已按要求提交' },
    { id: 'q4', name: '未被列入失信被执行人名单及严重违法失信名单' },
  ];
  const price: PriceRule = { max: 60, benchmark: 'meanDropExtremes', k: 1, abovePerPct: 2, belowPerPct: 1 };
  if (method === 'lowest') return { method, qualification, technical: [], business: [], price, deviation: 0.3 };
  return {
    method,
    qualification,
    technical: [
      { id: 't1', name: '施工方案与技术措施', max: 8 },
      { id: 't2', name: '质量管理体系与措施', max: 5 },
      { id: 't3', name: '安全管理体系与措施', max: 5 },
      { id: 't4', name: '文明施工与环境保护措施', max: 4 },
      { id: 't5', name: '工程进度计划与保证措施', max: 4 },
      { id: 't6', name: '施工总平面布置', max: 4 },
    ],
    business: [
      { id: 'b1', name: '企业近三年类似工程业绩', max: 4 },
      { id: 'b2', name: '项目管理机构配备', max: 3 },
      { id: 'b3', name: '企业信用评价等级', max: 3 },
    ],
    price,
    deviation: 0.3,
  };
}
