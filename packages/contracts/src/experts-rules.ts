/**
 * Expert extraction (专家抽取, issue 16): the rules both sides run, zod-free so the web's verification page runs the
 * very same draw in the browser.
 *
 * - `committeeProblems`: the evaluation committee (《招标投标法》第三十七条): five or more members, an odd number, and
 *   technical and economic experts at least two thirds of the members (the tenderee's representatives are the rest).
 * - `runDraw`: a deterministic draw. Given a seed (32 bytes, hex), a pool snapshot sorted by expert id and the
 *   conditions, each specialty line gets its own random permutation of the experts eligible for it, produced lazily by
 *   a partial Fisher–Yates shuffle driven by an HMAC-SHA-256 counter stream keyed by the seed. The draw takes the
 *   first `count` of each line; a decline is replaced by the next expert of the same line's permutation, so a
 *   replacement follows the same rules and the same committed seed chain and never repeats anyone drawn before.
 * - `sha256` / `hmacSha256`: a small synchronous SHA-256 (FIPS 180-4), so the draw runs the same in Node and in a
 *   browser without WebCrypto's promises.
 */

// ---------------------------------------------------------------------------------------------------------------
// Specialties, regions, statuses

export const EXPERT_CATEGORIES = { technical: '技术', economic: '经济' } as const;
export type ExpertCategory = keyof typeof EXPERT_CATEGORIES;

/** The evaluation specialties of the expert pool (construction works), each technical or economic. */
export const EXPERT_SPECIALTIES = [
  { value: '房屋建筑工程', category: 'technical' },
  { value: '市政公用工程', category: 'technical' },
  { value: '公路工程', category: 'technical' },
  { value: '水利水电工程', category: 'technical' },
  { value: '建筑电气与智能化', category: 'technical' },
  { value: '给排水与暖通', category: 'technical' },
  { value: '岩土与地基基础', category: 'technical' },
  { value: '钢结构工程', category: 'technical' },
  { value: '园林绿化工程', category: 'technical' },
  { value: '工程造价', category: 'economic' },
  { value: '工程经济', category: 'economic' },
  { value: '财务审计', category: 'economic' },
] as const satisfies readonly { value: string; category: ExpertCategory }[];
export type ExpertSpecialty = (typeof EXPERT_SPECIALTIES)[number]['value'];

export const specialtyCategory = (s: string): ExpertCategory | null =>
  EXPERT_SPECIALTIES.find((x) => x.value === s)?.category ?? null;

/** The cities of Shanxi, the pool's regions. */
export const SHANXI_CITIES = [
  '太原市',
  '大同市',
  '阳泉市',
  '长治市',
  '晋城市',
  '朔州市',
  '晋中市',
  '运城市',
  '忻州市',
  '临汾市',
  '吕梁市',
] as const;

/** 在库 experts may be drawn; 暂停 ones are left out. */
export const EXPERT_AVAILABILITY = ['在库', '暂停'] as const;

export const EXTRACTION_STATUSES = [
  { value: 'draft', label: '草稿' },
  { value: 'drawn', label: '已抽取' },
  { value: 'confirmed', label: '已确认' },
  { value: 'published', label: '已公开' },
] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number]['value'];
export const EXTRACTION_STATUS_VALUES = ['draft', 'drawn', 'confirmed', 'published'] as const;
export const extractionStatusLabel = (s: string) => EXTRACTION_STATUSES.find((x) => x.value === s)?.label ?? s;

export const MEMBER_ANSWERS = [
  { value: 'pending', label: '待确认' },
  { value: 'confirmed', label: '确认参加' },
  { value: 'declined', label: '拒绝参加' },
] as const;
export type MemberAnswer = (typeof MEMBER_ANSWERS)[number]['value'];
export const memberAnswerLabel = (s: string) => MEMBER_ANSWERS.find((x) => x.value === s)?.label ?? s;

/** Experts drawn within this many days are left out unless the conditions say otherwise (setting `experts.recentDays`). */
export const DEFAULT_RECENT_DAYS = 30;
export const COMMITTEE_MIN = 5;
/** The most members one committee may have (a sanity bound on input, not a legal rule). */
export const COMMITTEE_MAX = 99;

// ---------------------------------------------------------------------------------------------------------------
// Committee rules

export interface CommitteeLine {
  specialty: string;
  count: number;
}

export interface CommitteeInput {
  /** the tenderee's own representatives on the committee (not drawn) */
  tendereeReps: number;
  lines: readonly CommitteeLine[];
}

export const COMMITTEE_MESSAGES = {
  noLines: '请至少添加一个抽取专业',
  reps: '招标人代表人数须为 0 或正整数',
  count: (s: string) => `「${s}」的抽取人数须为正整数`,
  unknown: (s: string) => `「${s}」不是专家库的评标专业`,
  duplicate: (s: string) => `专业「${s}」重复，请合并为一行`,
  tooMany: `评标委员会成员人数不能超过 ${COMMITTEE_MAX} 人`,
  min: (n: number) => `评标委员会成员人数须为五人以上单数（现为 ${n} 人，不足五人）`,
  odd: (n: number) => `评标委员会成员人数须为五人以上单数（现为 ${n} 人，是双数）`,
  twoThirds: (experts: number, total: number, need: number) =>
    `技术、经济等方面的专家不得少于成员总数的三分之二（成员 ${total} 人，专家 ${experts} 人，至少需 ${need} 人）`,
} as const;

export function committeeTotals(c: CommitteeInput) {
  const experts = c.lines.reduce((s, l) => s + (Number.isInteger(l.count) && l.count > 0 ? l.count : 0), 0);
  const reps = Number.isInteger(c.tendereeReps) && c.tendereeReps > 0 ? c.tendereeReps : 0;
  let technical = 0;
  let economic = 0;
  for (const l of c.lines) {
    const n = Number.isInteger(l.count) && l.count > 0 ? l.count : 0;
    const cat = specialtyCategory(l.specialty);
    if (cat === 'technical') technical += n;
    if (cat === 'economic') economic += n;
  }
  const total = experts + reps;
  return { total, experts, technical, economic, reps, need: Math.ceil((total * 2) / 3) };
}

/** The committee's problems, each naming its rule (empty: the committee is lawful). */
export function committeeProblems(c: CommitteeInput): string[] {
  const out: string[] = [];
  if (!Number.isInteger(c.tendereeReps) || c.tendereeReps < 0) out.push(COMMITTEE_MESSAGES.reps);
  if (c.lines.length === 0) out.push(COMMITTEE_MESSAGES.noLines);
  const seen = new Set<string>();
  for (const l of c.lines) {
    if (!specialtyCategory(l.specialty)) out.push(COMMITTEE_MESSAGES.unknown(l.specialty));
    else if (seen.has(l.specialty)) out.push(COMMITTEE_MESSAGES.duplicate(l.specialty));
    seen.add(l.specialty);
    if (!Number.isInteger(l.count) || l.count < 1) out.push(COMMITTEE_MESSAGES.count(l.specialty));
  }
  if (out.length) return out;
  const t = committeeTotals(c);
  if (t.total > COMMITTEE_MAX) return [COMMITTEE_MESSAGES.tooMany];
  if (t.total < COMMITTEE_MIN) out.push(COMMITTEE_MESSAGES.min(t.total));
  else if (t.total % 2 === 0) out.push(COMMITTEE_MESSAGES.odd(t.total));
  if (t.technical + t.economic < t.need)
    out.push(COMMITTEE_MESSAGES.twoThirds(t.technical + t.economic, t.total, t.need));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// SHA-256 and HMAC

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  const len = data.length;
  const blocks = Math.ceil((len + 9) / 64);
  const buf = new Uint8Array(blocks * 64);
  buf.set(data);
  buf[len] = 0x80;
  const bits = len * 8;
  const dv = new DataView(buf.buffer);
  dv.setUint32(buf.length - 8, Math.floor(bits / 0x100000000));
  dv.setUint32(buf.length - 4, bits >>> 0);
  const H = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const W = new Uint32Array(64);
  for (let b = 0; b < blocks; b++) {
    const off = b * 64;
    for (let i = 0; i < 16; i++) W[i] = dv.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15]!;
      const w2 = W[i - 2]!;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let a = H[0]!;
    let bb = H[1]!;
    let c = H[2]!;
    let d = H[3]!;
    let e = H[4]!;
    let f = H[5]!;
    let g = H[6]!;
    let h = H[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i]! + W[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & bb) ^ (a & c) ^ (bb & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) | 0;
    }
    H[0] = (H[0]! + a) | 0;
    H[1] = (H[1]! + bb) | 0;
    H[2] = (H[2]! + c) | 0;
    H[3] = (H[3]! + d) | 0;
    H[4] = (H[4]! + e) | 0;
    H[5] = (H[5]! + f) | 0;
    H[6] = (H[6]! + g) | 0;
    H[7] = (H[7]! + h) | 0;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, H[i]!);
  return out;
}

/** HMAC-SHA-256 (RFC 2104). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  let k = key.length > 64 ? sha256(key) : key;
  const padded = new Uint8Array(64);
  padded.set(k);
  k = padded;
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = k[i]! ^ 0x36;
    outer[i] = k[i]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

const encoder = new TextEncoder();
export const utf8 = (s: string): Uint8Array => encoder.encode(s);

export function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

const HEX64 = /^[0-9a-f]{64}$/;
export const isSeedHex = (s: unknown): s is string => typeof s === 'string' && HEX64.test(s);

export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export const sha256Hex = (s: string | Uint8Array): string => toHex(sha256(typeof s === 'string' ? utf8(s) : s));

/** The commitment published before a draw: SHA-256 of the seed's 32 bytes, hex. */
export const seedCommitment = (seedHex: string): string => toHex(sha256(fromHex(seedHex)));

// ---------------------------------------------------------------------------------------------------------------
// Pool snapshot and the draw

/** One expert as the draw sees them (no name, no phone: the snapshot is published with the seed). */
export interface PoolExpert {
  id: string;
  specialty: string;
  region: string;
  employer: string;
  available: boolean;
  /** when the expert was last drawn for another extraction (ISO instant), or null */
  lastDrawnAt: string | null;
}

export interface PoolSnapshot {
  /** the instant the snapshot was taken (ISO): the "last N days" count back from it */
  takenAt: string;
  /** sorted by id */
  experts: PoolExpert[];
}

export interface DrawConditions extends CommitteeInput {
  /** empty: any region */
  regions: readonly string[];
  /** the employers to avoid (the tenderee's, the registered bidders', …), compared after `normaliseEmployer` */
  avoidEmployers: readonly string[];
  /** experts avoided by name (a declared conflict), by id */
  avoidExpertIds: readonly string[];
  /** experts drawn within this many days before the snapshot are left out (0: nobody is left out for it) */
  recentDays: number;
}

/** Employer names compare without spaces and with full-width brackets as half-width ones. */
export const normaliseEmployer = (s: string) =>
  s.replace(/\s+/g, '').replace(/（/g, '(').replace(/）/g, ')').toLowerCase();

export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The snapshot sorted by id (the order the draw relies on). */
export function sortPool(experts: PoolExpert[]): PoolExpert[] {
  return [...experts].sort((a, b) => compareIds(a.id, b.id));
}

/** The canonical text of a snapshot: what its hash is taken of (one line per expert, fields tab-separated). */
export function snapshotText(s: PoolSnapshot): string {
  const clean = (v: string) => v.replace(/[\t\n\r]/g, ' ');
  const lines = [`ks-expert-pool/v1\t${s.takenAt}`];
  for (const e of s.experts) {
    lines.push(
      [e.id, clean(e.specialty), clean(e.region), clean(e.employer), e.available ? '1' : '0', e.lastDrawnAt ?? ''].join(
        '\t',
      ),
    );
  }
  return lines.join('\n');
}

export const snapshotHash = (s: PoolSnapshot): string => sha256Hex(snapshotText(s));

/** Why an expert cannot be drawn for a line (null: eligible). */
export type AvoidReason = 'unavailable' | 'specialty' | 'region' | 'employer' | 'named' | 'recent';

export function eligibility(
  takenAt: string,
  c: Pick<DrawConditions, 'regions' | 'avoidEmployers' | 'avoidExpertIds' | 'recentDays'>,
) {
  const regions = new Set(c.regions);
  const employers = new Set(c.avoidEmployers.map(normaliseEmployer).filter((x) => x.length > 0));
  const named = new Set(c.avoidExpertIds);
  const cutoff = c.recentDays > 0 ? Date.parse(takenAt) - c.recentDays * 86_400_000 : Number.POSITIVE_INFINITY;
  return (e: PoolExpert, specialty: string): AvoidReason | null => {
    if (!e.available) return 'unavailable';
    if (e.specialty !== specialty) return 'specialty';
    if (regions.size > 0 && !regions.has(e.region)) return 'region';
    if (employers.size > 0 && employers.has(normaliseEmployer(e.employer))) return 'employer';
    if (named.has(e.id)) return 'named';
    if (e.lastDrawnAt && Date.parse(e.lastDrawnAt) > cutoff) return 'recent';
    return null;
  };
}

/** A counter stream of uniform numbers: HMAC-SHA-256(seed, "ks-expert-draw/v1/line/<i>/block/<j>"). */
class Stream {
  private words: Uint32Array = new Uint32Array(0);
  private pos = 0;
  private block = 0;
  constructor(
    private readonly key: Uint8Array,
    private readonly line: number,
  ) {}
  private next32(): number {
    if (this.pos >= this.words.length) {
      const mac = hmacSha256(this.key, utf8(`ks-expert-draw/v1/line/${this.line}/block/${this.block++}`));
      const dv = new DataView(mac.buffer, mac.byteOffset, mac.byteLength);
      this.words = new Uint32Array(8);
      for (let i = 0; i < 8; i++) this.words[i] = dv.getUint32(i * 4);
      this.pos = 0;
    }
    return this.words[this.pos++]!;
  }
  /** uniform in [0, n), by rejection (no modulo bias) */
  below(n: number): number {
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const u = this.next32();
      if (u < limit) return u % n;
    }
  }
}

export interface DrawLineResult {
  specialty: string;
  /** the experts of the line in draw order: the first `count`, then one per replacement asked */
  ids: string[];
  /** how many experts were eligible for the line */
  eligible: number;
}

/**
 * The draw: for each line of the conditions, the first `take[i]` experts (default the line's count) of the line's
 * permutation of its eligible experts; fewer when the line runs out. Deterministic in (seed, snapshot, conditions).
 */
export function runDraw(
  seedHex: string,
  snapshot: PoolSnapshot,
  conditions: DrawConditions,
  take?: readonly number[],
): DrawLineResult[] {
  if (!isSeedHex(seedHex)) throw new Error('the seed must be 64 lower-case hex digits');
  const key = fromHex(seedHex);
  const eligible = eligibility(snapshot.takenAt, conditions);
  // one pass over the pool: the eligible experts of each asked specialty, in id order
  const wanted = new Map<string, string[]>(conditions.lines.map((l) => [l.specialty, []]));
  for (const e of snapshot.experts) {
    const bucket = wanted.get(e.specialty);
    if (bucket && eligible(e, e.specialty) === null) bucket.push(e.id);
  }
  return conditions.lines.map((line, i) => {
    const pool = [...wanted.get(line.specialty)!];
    const want = Math.min(take?.[i] ?? line.count, pool.length);
    const stream = new Stream(key, i);
    // partial Fisher–Yates: position k takes a uniform pick of the positions k..end
    for (let k = 0; k < want; k++) {
      const j = k + stream.below(pool.length - k);
      const t = pool[k]!;
      pool[k] = pool[j]!;
      pool[j] = t;
    }
    return { specialty: line.specialty, ids: pool.slice(0, want), eligible: pool.length };
  });
}

export interface DrawnMember {
  line: number;
  /** position in the line's permutation (0-based) */
  seq: number;
  expertId: string;
}

export interface VerifyOutcome {
  seedMatches: boolean;
  poolMatches: boolean;
  listMatches: boolean;
  /** the draw re-run from the seed, flattened in (line, seq) order */
  recomputed: DrawnMember[];
  problems: string[];
}

/**
 * Re-runs a recorded draw: the seed must hash to the commitment, the snapshot to its recorded hash, and the draw with
 * as many experts per line as were recorded must give exactly the recorded members in order.
 */
export function verifyDraw(input: {
  seedHex: string;
  seedHash: string;
  snapshot: PoolSnapshot;
  poolHash: string;
  conditions: DrawConditions;
  members: readonly DrawnMember[];
}): VerifyOutcome {
  const problems: string[] = [];
  const seedMatches = isSeedHex(input.seedHex) && seedCommitment(input.seedHex) === input.seedHash;
  if (!seedMatches) problems.push('公开的种子与抽取前公布的承诺值（SHA-256）不符');
  const poolMatches = snapshotHash(input.snapshot) === input.poolHash;
  if (!poolMatches) problems.push('专家库快照与记录的快照哈希不符');
  const take = input.conditions.lines.map((_, i) => input.members.filter((m) => m.line === i).length);
  const recomputed: DrawnMember[] = [];
  if (isSeedHex(input.seedHex)) {
    runDraw(input.seedHex, input.snapshot, input.conditions, take).forEach((r, line) => {
      r.ids.forEach((expertId, seq) => {
        recomputed.push({ line, seq, expertId });
      });
    });
  }
  const recorded = [...input.members].sort((a, b) => a.line - b.line || a.seq - b.seq);
  const listMatches =
    recorded.length === recomputed.length &&
    recorded.every(
      (m, i) =>
        m.line === recomputed[i]!.line && m.seq === recomputed[i]!.seq && m.expertId === recomputed[i]!.expertId,
    );
  if (!listMatches) problems.push('按公开的种子重新抽取的名单与记录的名单不一致');
  return { seedMatches, poolMatches, listMatches, recomputed, problems };
}
