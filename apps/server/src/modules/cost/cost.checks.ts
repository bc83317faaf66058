import {
  COST_CHECK_LABELS,
  COST_FEE_LABELS,
  type CostBidderResult,
  type CostFileMeta,
  type CostFinding,
  type CostPairResult,
  type CostResults,
  type CostRisk,
  type CostSettings,
  type CostTreeRow,
} from '@ks/contracts';
import type { CostLine } from './cost.parse';
import { costFormatOf, parseCost } from './cost.read';

/**
 * The checks of a cost-file detection (issue 18). A file is read once into a digest — its tree, authoring data, and
 * per priced line its key (unit works and item code) and unit price — and the checks compare digests: each file on
 * its own (totals at every level, fee rates, control price), every pair (identical file, priced lines in common,
 * authoring fingerprints), and each file against the section's medians (unit prices, bid total). Pure functions: the
 * detection job runs them on a worker thread.
 */

export interface CostDigest {
  fileId: string;
  enterpriseId: string;
  enterpriseName: string;
  fileName: string;
  sha256: string;
  meta: CostFileMeta;
  tree: CostTreeRow[];
  bidPrice: number | null;
  controlPrice: number | null;
  /** per unit works (tree id): the sums of its priced lines */
  units: Record<string, { fbfx: number; csxm: number }>;
  /** priced lines whose 合价 is not 工程量 × 综合单价 (the first few) */
  badLines: { line: number; code: string; text: string }[];
  badLineCount: number;
  /** unit works code | item code → unit price */
  prices: Map<string, number>;
  /** unit works code | item code | unit price, of every priced line */
  signatures: Set<string>;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const money = new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const yuan = (v: number) => `¥${money.format(v)}`;
const pct = (v: number) => `${(v * 100).toFixed(2)}%`;
/** amounts are summed from fen-rounded parts: allow a fen per part */
const near = (a: number, b: number, parts: number) => Math.abs(a - b) <= 0.01 * Math.max(1, parts) + 1e-9;
const KEEP_BAD = 10;

/** Reads a cost file into its digest. */
export async function digestOf(
  input: AsyncIterable<Buffer | Uint8Array | string>,
  file: { fileId: string; enterpriseId: string; enterpriseName: string; fileName: string },
): Promise<CostDigest> {
  const units: CostDigest['units'] = {};
  const prices = new Map<string, number>();
  const signatures = new Set<string>();
  const badLines: CostDigest['badLines'] = [];
  let badLineCount = 0;
  /** tree id → unit code (known when the unit opens, before its lines) */
  const unitCodes = new Map<string, string>();
  const onLine = (l: CostLine) => {
    units[l.unitId] ??= { fbfx: 0, csxm: 0 };
    const u = units[l.unitId]!;
    if (l.list === 'fbfx') u.fbfx += l.total;
    else u.csxm += l.total;
    if (!near(round2(l.quantity * l.price), l.total, 1)) {
      badLineCount++;
      if (badLines.length < KEEP_BAD) {
        badLines.push({
          line: l.line,
          code: l.code,
          text: `第 ${l.line} 行 ${l.code} ${l.name}：${l.quantity} × ${yuan(l.price)} = ${yuan(round2(l.quantity * l.price))}，文件中合价为 ${yuan(l.total)}`,
        });
      }
    }
    const key = `${unitCodes.get(l.unitId) ?? l.unitId}|${l.code}`;
    if (!prices.has(key)) prices.set(key, l.price);
    signatures.add(`${key}|${l.price.toFixed(2)}`);
  };
  const parsed = await parseCost(input, costFormatOf(file.fileName) ?? 'xml', {
    onLine,
    onUnit: (id, code) => unitCodes.set(id, code),
  });
  for (const u of Object.values(units)) {
    u.fbfx = round2(u.fbfx);
    u.csxm = round2(u.csxm);
  }
  return {
    ...file,
    sha256: parsed.sha256,
    meta: parsed.meta,
    tree: parsed.tree,
    bidPrice: parsed.bidPrice ?? parsed.tree[0]?.zzj ?? null,
    controlPrice: parsed.controlPrice,
    units,
    badLines,
    badLineCount,
    prices,
    signatures,
  };
}

const finding = (
  check: CostFinding['check'],
  risk: CostRisk,
  text: string,
  evidence: string[],
  nodeIds: string[] = [],
): CostFinding => ({ check, risk, text, evidence, nodeIds });

function* nodes(rows: CostTreeRow[]): Generator<CostTreeRow> {
  for (const r of rows) {
    yield r;
    if (r.children) yield* nodes(r.children);
  }
}

/** Totals at every level, fee rates and the control price: what one file shows on its own. */
export function fileFindings(d: CostDigest, s: CostSettings): CostFinding[] {
  const out: CostFinding[] = [];
  const totals: string[] = [];
  const totalIds: string[] = [];
  const safety: string[] = [];
  const safetyIds: string[] = [];
  const fees: string[] = [];
  const feeIds: string[] = [];
  for (const n of nodes(d.tree)) {
    const label = `${n.code} ${n.name}`;
    if (n.children) {
      // a level's stated fees are the sums of its children
      for (const f of n.stated) {
        const sum = round2(n.children.reduce((a, c) => a + c[f], 0));
        if (!near(n[f], sum, n.children.length)) {
          totals.push(`${label}：${COST_FEE_LABELS[f]} ${yuan(n[f])}，其下各项合计 ${yuan(sum)}（第 ${n.line} 行）`);
          totalIds.push(n.id);
        }
      }
      continue;
    }
    // a unit works: its total, and its lists against their lines
    const parts = round2(n.fbfxf + n.csxmf + n.qtxmf + n.gf + n.sj);
    if (!near(n.zzj, parts, 5)) {
      totals.push(
        `${label}：总造价 ${yuan(n.zzj)}，分部分项 + 措施 + 其他 + 规费 + 税金 = ${yuan(parts)}（第 ${n.line} 行）`,
      );
      totalIds.push(n.id);
    }
    const u = d.units[n.id];
    if (u && n.lineCount) {
      if (!near(n.fbfxf, u.fbfx, n.lineCount)) {
        totals.push(`${label}：分部分项工程费 ${yuan(n.fbfxf)}，清单合价合计 ${yuan(u.fbfx)}（第 ${n.line} 行）`);
        totalIds.push(n.id);
      }
      const measures = round2(u.csxm + n.aqwmsgf);
      if (u.csxm > 0 && !near(n.csxmf, measures, n.lineCount)) {
        totals.push(
          `${label}：措施项目费 ${yuan(n.csxmf)}，措施清单合计加安全文明施工费 ${yuan(measures)}（第 ${n.line} 行）`,
        );
        totalIds.push(n.id);
      }
    }
    const safetyMin = round2(n.fbfxf * s.safetyRateMin);
    if (n.fbfxf > 0 && n.aqwmsgf + 0.005 < safetyMin) {
      safety.push(
        `${label}：安全文明施工费 ${yuan(n.aqwmsgf)}，为分部分项工程费的 ${pct(n.aqwmsgf / n.fbfxf)}，不低于 ${pct(s.safetyRateMin)} 应为 ${yuan(safetyMin)}`,
      );
      safetyIds.push(n.id);
    }
    const base = n.fbfxf + n.csxmf + n.qtxmf;
    const feeMin = round2(base * s.feeRateMin);
    if (base > 0 && n.gf + 0.005 < feeMin) {
      fees.push(
        `${label}：规费 ${yuan(n.gf)}，为计费基数的 ${pct(n.gf / base)}，不低于 ${pct(s.feeRateMin)} 应为 ${yuan(feeMin)}`,
      );
      feeIds.push(n.id);
    }
  }
  if (d.badLineCount) {
    totals.push(...d.badLines.map((b) => b.text));
    if (d.badLineCount > d.badLines.length) totals.push(`……共 ${d.badLineCount} 条清单合价与工程量 × 综合单价不符`);
  }
  if (totals.length) {
    out.push(
      finding('totals', 'medium', `${COST_CHECK_LABELS.totals}：${totals.length} 处`, totals, [...new Set(totalIds)]),
    );
  }
  if (safety.length) {
    out.push(
      finding(
        'safetyRate',
        'medium',
        `${COST_CHECK_LABELS.safetyRate}：${safety.length} 个单位工程`,
        safety,
        safetyIds,
      ),
    );
  }
  if (fees.length) {
    out.push(finding('feeRate', 'medium', `${COST_CHECK_LABELS.feeRate}：${fees.length} 个单位工程`, fees, feeIds));
  }
  if (d.controlPrice !== null && d.bidPrice !== null && d.bidPrice > d.controlPrice + 0.005) {
    out.push(
      finding(
        'controlPrice',
        'high',
        `${COST_CHECK_LABELS.controlPrice} ${yuan(d.bidPrice - d.controlPrice)}`,
        [`投标总价 ${yuan(d.bidPrice)}，招标控制价 ${yuan(d.controlPrice)}`],
        [d.tree[0]?.id ?? ''],
      ),
    );
  }
  return out;
}

/** Identical files, priced lines in common, shared authoring fingerprints: what a pair of bidders shows. */
export function pairResult(a: CostDigest, b: CostDigest, s: CostSettings): CostPairResult {
  const findings: CostFinding[] = [];
  const [small, large] = a.signatures.size <= b.signatures.size ? [a, b] : [b, a];
  let same = 0;
  for (const sig of small.signatures) if (large.signatures.has(sig)) same++;
  const union = a.signatures.size + b.signatures.size - same;
  const score = union ? round2((same / union) * 100) : 0;
  if (a.sha256 === b.sha256) {
    findings.push(
      finding('identicalFile', 'high', `${a.enterpriseName}与${b.enterpriseName}的${COST_CHECK_LABELS.identicalFile}`, [
        `两份文件的 SHA-256 均为 ${a.sha256}`,
      ]),
    );
  } else if (score >= s.similarPct) {
    const examples: string[] = [];
    for (const sig of small.signatures) {
      if (examples.length >= 5) break;
      if (large.signatures.has(sig)) {
        const [unit, code, price] = sig.split('|');
        examples.push(`单位工程 ${unit} 清单 ${code}：两家综合单价同为 ${yuan(Number(price))}`);
      }
    }
    findings.push(
      finding(
        'similarLines',
        score >= 80 ? 'high' : 'medium',
        `${a.enterpriseName}与${b.enterpriseName}${COST_CHECK_LABELS.similarLines}：${same} 条清单综合单价相同，雷同度 ${score}%`,
        examples,
      ),
    );
  }
  const shared: string[] = [];
  if (a.meta.serial && a.meta.serial === b.meta.serial) shared.push(`软件序列号相同：${a.meta.serial}`);
  if (a.meta.machineCode && a.meta.machineCode === b.meta.machineCode) shared.push(`机器码相同：${a.meta.machineCode}`);
  if (a.meta.createdAt && a.meta.createdAt === b.meta.createdAt && a.sha256 !== b.sha256) {
    shared.push(`创建时间相同：${a.meta.createdAt}`);
  }
  if (shared.length) {
    findings.push(
      finding(
        'fingerprint',
        'high',
        `${a.enterpriseName}与${b.enterpriseName}的${COST_CHECK_LABELS.fingerprint}`,
        shared,
      ),
    );
  }
  return {
    a: a.fileId,
    b: b.fileId,
    score,
    sameLines: same,
    risk: riskOf(findings),
    findings,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Unit prices and the bid total against the section's medians (three bidders or more). */
export function marketFindings(
  all: CostDigest[],
  s: CostSettings,
): { medianBid: number | null; byFile: Map<string, CostFinding[]> } {
  const byFile = new Map<string, CostFinding[]>(all.map((d) => [d.fileId, []]));
  if (all.length < 3) return { medianBid: null, byFile };
  const keys = new Set<string>();
  for (const d of all) for (const k of d.prices.keys()) keys.add(k);
  const low = new Map<string, string[]>();
  const high = new Map<string, string[]>();
  for (const key of keys) {
    const ps = all.map((d) => d.prices.get(key)).filter((p): p is number => p !== undefined);
    if (ps.length < 3) continue;
    const m = median(ps);
    if (m <= 0) continue;
    const [unit, code] = key.split('|');
    for (const d of all) {
      const p = d.prices.get(key);
      if (p === undefined) continue;
      const dev = ((p - m) / m) * 100;
      const into = dev <= -s.lowPricePct ? low : dev >= s.highPricePct ? high : null;
      if (!into) continue;
      if (!into.has(d.fileId)) into.set(d.fileId, []);
      into
        .get(d.fileId)!
        .push(
          `单位工程 ${unit} 清单 ${code}：综合单价 ${yuan(p)}，各家中位数 ${yuan(m)}（${dev > 0 ? '+' : ''}${dev.toFixed(1)}%）`,
        );
    }
  }
  // a deviating line is a low risk; a fifth of the bidder's lines or more, a medium one
  const sides = [
    { check: 'lowPrice', lines: low, text: `低于各家中位数 ${s.lowPricePct}% 以上` },
    { check: 'unbalanced', lines: high, text: `高于各家中位数 ${s.highPricePct}% 以上` },
  ] as const;
  for (const d of all) {
    for (const side of sides) {
      const lines = side.lines.get(d.fileId);
      if (!lines?.length) continue;
      byFile
        .get(d.fileId)!
        .push(
          finding(
            side.check,
            lines.length / Math.max(1, d.prices.size) >= 0.2 ? 'medium' : 'low',
            `${COST_CHECK_LABELS[side.check]}：${lines.length} 条${side.text}`,
            lines.slice(0, 20),
          ),
        );
    }
  }
  const bids = all.map((d) => d.bidPrice).filter((p): p is number => p !== null);
  const medianBid = bids.length >= 3 ? round2(median(bids)) : null;
  if (medianBid) {
    for (const d of all) {
      if (d.bidPrice === null) continue;
      const dev = ((d.bidPrice - medianBid) / medianBid) * 100;
      if (dev <= -s.lowTotalPct) {
        byFile
          .get(d.fileId)!
          .push(
            finding('lowTotal', 'medium', `${COST_CHECK_LABELS.lowTotal}：低于各家中位数 ${(-dev).toFixed(1)}%`, [
              `投标总价 ${yuan(d.bidPrice)}，各家中位数 ${yuan(medianBid)}`,
            ]),
          );
      }
    }
  }
  return { medianBid, byFile };
}

export function riskOf(findings: CostFinding[]): CostRisk {
  if (findings.some((f) => f.risk === 'high')) return 'high';
  if (findings.some((f) => f.risk === 'medium')) return 'medium';
  return 'low';
}

/** Every check over a section's digests. `onPair` reports progress of the pairwise step. */
export function detect(all: CostDigest[], s: CostSettings, onPair?: (done: number, of: number) => void): CostResults {
  const pairs: CostPairResult[] = [];
  const of = (all.length * (all.length - 1)) / 2;
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      pairs.push(pairResult(all[i]!, all[j]!, s));
      onPair?.(pairs.length, of);
    }
  }
  const market = marketFindings(all, s);
  const bidders: CostBidderResult[] = all.map((d) => {
    const findings = [...fileFindings(d, s), ...market.byFile.get(d.fileId)!];
    // a pair's high-risk findings concern both of its bidders
    for (const p of pairs) {
      if (p.a !== d.fileId && p.b !== d.fileId) continue;
      findings.push(...p.findings);
    }
    return {
      fileId: d.fileId,
      enterpriseId: d.enterpriseId,
      enterpriseName: d.enterpriseName,
      fileName: d.fileName,
      bidPrice: d.bidPrice,
      risk: riskOf(findings),
      findings,
    };
  });
  return { settings: s, medianBid: market.medianBid, bidders, pairs };
}
