import {
  AGENCY_TYPE,
  CREDIT_GRADES,
  creditCodeCheckChar,
  creditGradeOf,
  type NoticeCategory,
  REGION_DIVISION_CODES,
  REGIONS,
  TRADE_TYPE_LETTERS,
  type TradeType,
} from '@ks/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { creditRecords, enterprises, notices, performances, practitioners, qualifications } from '../db/schema';
import { sanitizeRichText } from '../platform/sanitize';
import {
  AREA_CODES,
  CONDUCT,
  CONTRACTOR_LINE_WEIGHTS,
  DISTRICTS,
  type EnterpriseKind,
  FLOW_OF,
  type Flow,
  GIVEN_NAMES,
  KIND_COUNTS,
  LINES,
  type Line,
  OUTSIDE_BUYERS,
  PREFIXES,
  PROJECT_KINDS,
  type ProjectKind,
  placeOf,
  type Qual,
  type Region,
  ROADS,
  SURNAMES,
  shortOf,
  TITLE_SUFFIX,
} from './portal-catalog';

/**
 * The portal's demo data: enterprises of every kind with qualifications that fit their kind and registered capital,
 * credit records whose valid items make up their score and grade, practitioners registered with enterprises that
 * employ their profession, and transaction notices that follow real projects through their stages (tender →
 * clarification → candidates → result, or termination), each in the words of its trade, with project numbers of
 * their region and amounts that add up. Deterministic: every demo database looks the same for the same day.
 */

/** Deterministic pseudo-random numbers, so every demo database looks the same. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}
type Rng = ReturnType<typeof rng>;

const DAY = 86_400_000;
const CST = 8 * 3600_000;

// ---- identifiers ---------------------------------------------------------------------------------------------------

const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

/** The check character of an 8-character organisation code (GB 11714): digits as themselves, letters A=10 … Z=35. */
export function orgCodeCheckChar(body: string): string {
  const sum = [...body].reduce((s, ch, i) => s + ORG_WEIGHTS[i]! * Number.parseInt(ch, 36), 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

/**
 * A unified social credit code (GB 32100): registering authority (9 industry and commerce, 1 government, …) and
 * type, the region's division code, the organisation code with its own check character, and the check character.
 * Enterprises registered since the 2015 reform carry an `MA…` organisation code, older ones a numeric one.
 */
export function creditCodeFor(r: Rng, prefix: string, region: Region, modern: boolean): string {
  let body = modern ? 'MA' : '';
  while (body.length < 8) body += modern ? CODE_CHARS[r.int(0, 30)] : String(r.int(0, 9));
  const first17 = `${prefix}${REGION_DIVISION_CODES[region]}${body}${orgCodeCheckChar(body)}`;
  return `${first17}${creditCodeCheckChar(first17)}`;
}

// ---- helpers -------------------------------------------------------------------------------------------------------

/** CST calendar day of an instant, YYYY-MM-DD. */
const ymd = (d: Date) => new Date(d.getTime() + CST).toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);
/** 2026年6月3日 */
const cn = (d: Date) => {
  const c = new Date(d.getTime() + CST);
  return `${c.getUTCFullYear()}年${c.getUTCMonth() + 1}月${c.getUTCDate()}日`;
};
/** Yuan with thousands separators (the amounts are whole yuan here). */
const yuan = (n: number) => `${Math.round(n).toLocaleString('zh-CN')}元`;
/** A CST working-hours instant on the day `d` falls on. */
function atWorkHour(r: Rng, d: Date): Date {
  const day = new Date(`${ymd(d)}T00:00:00+08:00`);
  return new Date(day.getTime() + (r.int(9 * 60, 17 * 60 + 30) * 60 + r.int(0, 59)) * 1000);
}
/** A phone number of the region: area code and a seven- (0349 …) or eight-digit (0351) number. */
const phoneOf = (r: Rng, region: Region) => {
  const area = AREA_CODES[region];
  return `${area}-${area === '0351' ? r.int(2000_0000, 8999_9999) : r.int(200_0000, 899_9999)}`;
};

function nameMaker(r: Rng, taken: Set<string>) {
  return () => {
    for (;;) {
      const name = `${r.pick(SURNAMES)}${r.pick(GIVEN_NAMES)}`;
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  };
}

// ---- enterprises ---------------------------------------------------------------------------------------------------

export interface DemoEnterprise {
  id?: string;
  name: string;
  kind: EnterpriseKind;
  line: Line;
  region: Region;
  capitalWan: number;
  quals: Qual[];
}

const QUAL_RANK: Record<string, number> = { 特级: 4, 综合: 4, 甲级: 3, 一级: 3, 二级: 2, 乙级: 2, 三级: 1 };

/** Certificate numbers: D construction, E supervision, A design, then issuer (1 ministry, 2 province, 3 city) and 14. */
function certNoOf(r: Rng, q: Qual, kind: EnterpriseKind, region: Region, year: number): string {
  const six = String(r.int(0, 999_999)).padStart(6, '0');
  if (kind === '施工企业') return `D${q.issuer}14${six}`;
  if (kind === '监理企业') return `E${q.issuer}14${six}`;
  if (kind === '设计企业') return `A${q.issuer}14${six}`;
  if (q.name.startsWith('医疗器械'))
    return `晋${shortOf(region).slice(0, 1)}食药监械经营许${year}${String(r.int(1, 9999)).padStart(4, '0')}号`;
  if (q.name.startsWith('药品')) return `晋AA${String(r.int(1000, 9999))}${String(r.int(100, 999))}`;
  if (q.name.startsWith('信息系统')) return `${q.level}-1400-${six}`;
  return `${q.level.slice(0, 1)}${String(year).slice(2)}1400${six}`;
}

/** A kind's lines in the demo's proportions (contractors: every line at least twice). */
function linesOf(kind: EnterpriseKind): Line[] {
  const lines = LINES.filter((l) => l.kind === kind);
  if (kind !== '施工企业') return lines;
  return lines.flatMap((l) => Array<Line>(CONTRACTOR_LINE_WEIGHTS[l.word] ?? 1).fill(l));
}

interface CreditItem {
  kind: '良好' | '不良';
  title: string;
  score: number;
  issuer: string;
  startDate: string;
  endDate: string;
}

/**
 * Credit records over the last two years (valid one year from the decision) and the score they make: a base score
 * plus the valid items; expired items are kept and shown but no longer count. Grade by the score (creditGradeOf).
 */
function creditOf(r: Rng, kind: EnterpriseKind, region: Region, now: Date, base: number) {
  const items: CreditItem[] = [];
  for (let k = 0, n = r.int(0, 3); k < n; k++) {
    const good = r.next() < 0.6;
    const [score, title, issuer] = r.pick(good ? CONDUCT[kind].good : CONDUCT[kind].bad);
    const start = addDays(now, -r.int(10, 700));
    items.push({
      kind: good ? '良好' : '不良',
      title,
      score,
      issuer: issuer.replace('{city}', placeOf(region)),
      startDate: ymd(start),
      endDate: ymd(addDays(start, 365)),
    });
  }
  const today = ymd(now);
  const valid = items.filter((c) => c.endDate >= today).reduce((s, c) => s + c.score, 0);
  const score = Math.max(0, Math.min(100, Math.round((base + valid) * 10) / 10));
  return { items, score, grade: creditGradeOf(score) };
}

// ---- notices -------------------------------------------------------------------------------------------------------

type NoticeRow = typeof notices.$inferInsert;

interface Bidders {
  /** enterprises that may bid for a kind of project (qualified for it), best first */
  eligible(kind: ProjectKind, budgetWan: number): string[];
  agencies: string[];
}

/** Level a works project asks of its contractor: 一级 for ≥ 100 million, 二级 for ≥ 20 million, else 三级. */
const requiredRank = (budgetWan: number) => (budgetWan >= 10_000 ? 3 : budgetWan >= 2_000 ? 2 : 1);
const RANK_TEXT: Record<number, string> = { 1: '三级', 2: '二级', 3: '一级' };

interface Stage {
  category: NoticeCategory;
  day: number;
  amount: number | null;
  /** when it is (or will be) published: working hours of its day */
  at?: Date;
}

interface Project {
  kind: ProjectKind;
  flow: Flow;
  region: Region;
  place: string;
  name: string;
  sectionName: string | null;
  /** number of sections (标段) the project is divided into */
  sections: number;
  code: string;
  tenderer: string;
  agency: string | null;
  budget: number;
  start: Date;
  stages: Stage[];
  deadline: Date;
  newDeadline: Date | null;
  candidates: { name: string; price: number; days: number; manager: string }[];
  winner: { name: string; price: number } | null;
  contact: string;
  phone: string;
  agencyPhone: string;
}

/** The stages a project goes through and when (days after its first notice), by trade; the law's minimum periods hold. */
function stagesOf(r: Rng, flow: Flow, budget: number, terminated: boolean) {
  const first: NoticeCategory = flow === 'works' && budget >= 10_000 ? '资格预审公告' : '招标公告';
  const stages: Stage[] = [{ category: first, day: 0, amount: budget * 10_000 }];
  // bids at least 20 days after the documents are out; land and equity disclose longer
  const deadlineDay = flow === 'land' ? r.int(30, 33) : flow === 'equity' ? r.int(28, 32) : r.int(20, 26);
  let finalDay = deadlineDay;
  let changedDay: number | null = null;
  if ((flow === 'works' || flow === 'gp' || flow === 'drug') && r.next() < 0.35) {
    changedDay = r.int(5, 9);
    // a change that may affect bid preparation comes at least 15 days before the deadline, which moves
    finalDay = Math.max(deadlineDay + r.int(3, 10), changedDay + 15);
    stages.push({ category: '变更公告', day: changedDay, amount: null });
  }
  if (terminated) {
    stages.push({ category: '终止公告', day: (changedDay ?? 5) + r.int(3, 8), amount: null });
  } else if (flow === 'works') {
    const cand = finalDay + r.int(1, 3);
    stages.push({ category: '中标候选人公示', day: cand, amount: null });
    // candidates are public at least 3 days before the result
    stages.push({ category: '中标结果公告', day: cand + r.int(4, 6), amount: 0 });
  } else {
    stages.push({ category: '中标结果公告', day: finalDay + r.int(1, 5), amount: 0 });
  }
  return { stages, deadlineDay, finalDay, changedDay };
}

function projectOf(
  r: Rng,
  kind: ProjectKind,
  start: Date,
  bidders: Bidders,
  people: () => string,
  terminated: boolean,
): Project {
  const flow = FLOW_OF[kind.tradeType];
  const region: Region = kind.province ? '省本级' : r.pick(REGIONS.slice(1));
  const place = placeOf(region);
  const name = kind.name(place, r.pick, region);
  const budget = r.int(kind.budget[0] / 10, kind.budget[1] / 10) * 10;
  // large works are divided into two sections, purchases into lots
  const sections = flow === 'works' ? (budget >= 10_000 ? 2 : 1) : flow === 'gp' ? 2 : 0;
  const sectionName =
    flow === 'works'
      ? sections === 2
        ? r.pick(['施工一标段', '施工二标段'])
        : '施工标段'
      : flow === 'gp'
        ? r.pick(['第1包', '第2包'])
        : null;
  const { stages, deadlineDay, finalDay, changedDay } = stagesOf(r, flow, budget, terminated);
  for (const st of stages) st.at = atWorkHour(r, addDays(start, st.day));
  const deadline = addDays(start, deadlineDay);
  const newDeadline = changedDay === null ? null : addDays(start, finalDay);

  // bids: three qualified candidates for works, a winner for the others
  const pool = kind.bidder ? bidders.eligible(kind, budget) : [];
  const candidates: Project['candidates'] = [];
  if (flow === 'works') {
    const ranked = [...pool].sort(() => r.next() - 0.5).slice(0, 3);
    for (const cand of ranked) {
      candidates.push({
        name: cand,
        price: Math.round(budget * 10_000 * (0.88 + r.next() * 0.09)),
        days: r.pick([180, 210, 240, 270, 365]),
        manager: people(),
      });
    }
  }
  let winner: Project['winner'] = null;
  if (candidates[0]) winner = { name: candidates[0].name, price: candidates[0].price };
  else if (pool.length) winner = { name: r.pick(pool), price: Math.round(budget * 10_000 * (0.86 + r.next() * 0.11)) };
  else if (!kind.bidder) {
    const outside = OUTSIDE_BUYERS[flow as 'land' | 'equity' | 'other'];
    winner = {
      name: `山西${r.pick(PREFIXES)}${r.pick(outside)}`,
      price: Math.round(budget * 10_000 * (1 + r.int(0, 30) / 100)),
    };
  }
  for (const s of stages) if (s.category === '中标结果公告') s.amount = winner?.price ?? null;
  return {
    kind,
    flow,
    region,
    place,
    name,
    sectionName,
    sections,
    // numbered once the projects are known, in the order they started
    code: '',
    tenderer: kind.tenderer(place, shortOf(region)),
    agency: flow === 'works' || flow === 'gp' ? r.pick(bidders.agencies) : null,
    budget,
    start,
    stages,
    deadline,
    newDeadline,
    candidates,
    winner,
    contact: people(),
    phone: phoneOf(r, region),
    agencyPhone: phoneOf(r, region),
  };
}

function titleOf(p: Project, category: NoticeCategory): string {
  const section = p.sectionName && p.sections > 1 ? `（${p.sectionName}）` : '';
  return `${p.name}${section}${TITLE_SUFFIX[p.flow][category] ?? category}`;
}

function contacts(p: Project): string {
  const lines = [
    `${p.flow === 'gp' ? '采购人' : p.flow === 'works' ? '招标人' : '出让（转让）方'}：${p.tenderer}　联系人：${p.contact}　电话：${p.phone}`,
  ];
  if (p.agency) {
    lines.push(`${p.flow === 'gp' ? '采购代理机构' : '招标代理机构'}：${p.agency}　电话：${p.agencyPhone}`);
  }
  lines.push(`交易服务：${p.region === '省本级' ? '山西省' : p.place}公共资源交易中心`);
  return `<h3>联系方式</h3><p>${lines.join('<br>')}</p>`;
}

/** The body of a notice, in the words of its trade and stage. */
function bodyOf(p: Project, stage: Stage, at: Date): string {
  const parts: string[] = [];
  const budget = p.budget * 10_000;
  const deposit = Math.min(800_000, Math.floor((budget * 0.02) / 1000) * 1000);
  const district = DISTRICTS[p.region][p.code.charCodeAt(p.code.length - 1) % DISTRICTS[p.region].length]!;
  const deadline = p.newDeadline ?? p.deadline;
  const c = stage.category;
  if (p.flow === 'works') {
    const rank = requiredRank(p.budget);
    const qual = p.kind.bidder?.qual ?? '相应';
    if (c === '招标公告' || c === '资格预审公告') {
      parts.push(
        `<h3>一、招标条件</h3><p>本招标项目${p.name}已由${p.place}发展和改革委员会批准建设，项目业主为${p.tenderer}，建设资金来自财政资金及自筹资金，项目已具备招标条件，现对该项目的施工进行公开招标${c === '资格预审公告' ? '，特邀请有兴趣的潜在投标人提出资格预审申请' : ''}。</p>`,
        `<h3>二、项目概况与招标范围</h3><p>建设地点：${p.place}${district}；标段划分：${p.sections > 1 ? `本项目划分为${p.sections}个标段，本次招标为${p.sectionName}` : '本项目划分为1个标段'}；最高投标限价：${yuan(budget)}；计划工期：${p.budget >= 10_000 ? 540 : 240}日历天；招标范围：施工图纸及工程量清单所含全部内容。</p>`,
        `<h3>三、投标人资格要求</h3><p>投标人须具备${qual}${RANK_TEXT[rank]}及以上资质，具有有效的安全生产许可证，近三年无重大质量安全事故，未被列入失信被执行人名单；拟派项目经理须具备${p.kind.field ?? '建筑工程'}专业${rank >= 3 ? '一级' : '二级及以上'}注册建造师执业资格和安全生产考核合格证书（B证），且未担任其他在建工程项目的项目经理。本标段不接受联合体投标。资格审查方式：${c === '资格预审公告' ? '资格预审' : '资格后审'}。</p>`,
        `<h3>四、${c === '资格预审公告' ? '资格预审文件' : '招标文件'}的获取</h3><p>获取时间：${cn(at)}至${cn(addDays(at, 5))}（不少于5日）；获取方式：登录本平台下载电子文件，不收取费用。</p>`,
        `<h3>五、投标文件的递交</h3><p>投标截止时间（开标时间）：${cn(p.deadline)} 9时30分（自招标文件开始发出之日起不少于20日）。本项目实行不见面开标，投标人在开标大厅在线签到，并在规定时间内解密投标文件；逾期未解密的投标文件视为撤回。</p>`,
        `<h3>六、投标保证金</h3><p>投标保证金：${yuan(deposit)}（不超过估算价的2%），可以银行保函或电子保函形式提交。</p>`,
      );
    } else if (c === '变更公告') {
      parts.push(
        `<h3>一、原公告情况</h3><p>${p.name}（项目编号：${p.code}）招标公告已于${cn(p.start)}在本平台发布。</p>`,
        `<h3>二、澄清与修改内容</h3><p>1. 工程量清单中部分项目特征描述调整，以本次发布的修改后工程量清单为准；<br>2. 投标截止时间（开标时间）由${cn(p.deadline)} 9时30分顺延至${cn(deadline)} 9时30分（澄清或修改距投标截止时间不少于15日）。</p><p>其他内容不变。本澄清与修改是招标文件的组成部分，对所有投标人具有约束力。</p>`,
      );
    } else if (c === '中标候选人公示') {
      const rows = p.candidates
        .map(
          (x, i) =>
            `<tr><td>${i + 1}</td><td>${x.name}</td><td>${yuan(x.price)}</td><td>${x.days}日历天</td><td>${x.manager}</td></tr>`,
        )
        .join('');
      parts.push(
        `<h3>一、评标情况</h3><p>${p.name}${p.sections > 1 ? `（${p.sectionName}）` : ''}于${cn(deadline)}在本平台开标，评标委员会由5人组成（技术、经济专家不少于三分之二），采用综合评估法评审，推荐中标候选人如下：</p>`,
        `<table><tr><th>排序</th><th>中标候选人</th><th>投标报价</th><th>工期</th><th>项目经理</th></tr>${rows}</table>`,
        `<h3>二、公示期</h3><p>${cn(at)}至${cn(addDays(at, 3))}（不少于3日）。投标人或其他利害关系人对评标结果有异议的，应当在公示期间以书面形式向招标人提出。</p>`,
      );
    } else if (c === '中标结果公告') {
      const w = p.candidates[0];
      parts.push(
        `<h3>一、中标结果</h3><p>经评标委员会评审、中标候选人公示期满无异议，招标人确定中标人如下：</p>`,
        `<table><tr><th>中标人</th><th>中标价</th><th>工期</th><th>项目经理</th></tr><tr><td>${w?.name ?? ''}</td><td>${w ? yuan(w.price) : ''}</td><td>${w?.days ?? ''}日历天</td><td>${w?.manager ?? ''}</td></tr></table>`,
        '<h3>二、其他</h3><p>招标人和中标人应当自中标通知书发出之日起30日内订立书面合同，中标人应按招标文件要求提交不超过中标合同金额10%的履约保证金。</p>',
      );
    } else {
      parts.push(
        `<h3>一、终止原因</h3><p>${p.name}（项目编号：${p.code}）招标公告发布后，因项目建设规模及内容发生重大调整，经招标人研究决定终止本次招标活动，后续将重新组织招标。</p>`,
        '<h3>二、其他</h3><p>已获取招标文件的潜在投标人，所提交的投标保证金将在5日内原路退还。</p>',
      );
    }
  } else if (p.flow === 'gp') {
    if (c === '招标公告') {
      parts.push(
        `<h3>一、项目基本情况</h3><p>项目编号：${p.code}<br>采购方式：公开招标<br>预算金额：${yuan(budget)}（最高限价同预算）<br>采购需求：${p.name.replace(/采购项目$/, '')}（${p.sectionName}），具体技术参数详见招标文件<br>合同履行期限：合同签订后60日内交付并验收</p>`,
        '<h3>二、申请人的资格要求</h3><p>满足《中华人民共和国政府采购法》第二十二条规定；落实政府采购促进中小企业发展等政策；未被列入“信用中国”失信被执行人、重大税收违法失信主体及政府采购严重违法失信行为记录名单。本项目不接受联合体投标。</p>',
        `<h3>三、获取招标文件</h3><p>时间：${cn(at)}至${cn(addDays(at, 7))}（不少于5个工作日）；方式：登录本平台免费下载。</p>`,
        `<h3>四、提交投标文件截止时间、开标时间和地点</h3><p>${cn(p.deadline)} 9时30分（自招标文件开始发出之日起不少于20日），本平台开标大厅不见面开标。</p>`,
        '<h3>五、公告期限</h3><p>自本公告发布之日起5个工作日。</p>',
      );
    } else if (c === '变更公告') {
      parts.push(
        `<h3>一、原公告信息</h3><p>原公告发布日期：${cn(p.start)}；项目编号：${p.code}</p>`,
        `<h3>二、更正内容</h3><p>技术参数第3.2条调整；提交投标文件截止时间及开标时间更正为${cn(deadline)} 9时30分。</p><h3>三、其他</h3><p>其他内容不变。</p>`,
      );
    } else if (c === '中标结果公告') {
      parts.push(
        `<h3>一、中标（成交）信息</h3><p>供应商名称：${p.winner?.name ?? ''}<br>中标（成交）金额：${p.winner ? yuan(p.winner.price) : ''}</p>`,
        `<h3>二、主要标的信息</h3><p>${p.name.replace(/采购项目$/, '')}（${p.sectionName}），详见招标文件技术要求。</p>`,
        '<h3>三、公告期限</h3><p>自本公告发布之日起1个工作日。各有关当事人对中标（成交）结果有异议的，可在公告期限届满之日起7个工作日内以书面形式提出质疑。</p>',
      );
    } else {
      parts.push(
        `<h3>一、终止原因</h3><p>${p.name}（项目编号：${p.code}）因提交投标文件的供应商不足三家，依据《中华人民共和国政府采购法》第三十六条予以废标，采购人将重新组织采购。</p>`,
      );
    }
  } else if (p.flow === 'land') {
    const area = (p.code.charCodeAt(p.code.length - 1) % 9) * 4_300 + 12_600;
    const mining = p.name.includes('采矿权');
    if (c === '招标公告') {
      parts.push(
        `<p>经${p.place}人民政府批准，${p.tenderer}决定以挂牌方式出让下列${mining ? '采矿权' : '国有建设用地使用权'}。</p>`,
        `<table><tr><th>编号</th><th>位置</th><th>${mining ? '矿区面积' : '出让面积'}（平方米）</th><th>用途</th><th>出让年限</th><th>起始价</th><th>竞买保证金</th></tr><tr><td>${p.code}</td><td>${p.place}${district}</td><td>${area.toLocaleString('zh-CN')}</td><td>${mining ? '建筑用砂石开采' : '城镇住宅用地'}</td><td>${mining ? '10年' : '70年'}</td><td>${yuan(budget)}</td><td>${yuan(budget * 0.2)}</td></tr></table>`,
        `<h3>挂牌时间</h3><p>公告期：${cn(at)}至${cn(addDays(at, 20))}（不少于20日）；挂牌期：${cn(addDays(at, 20))}至${cn(p.deadline)}（不少于10个工作日），在本平台网上交易系统进行。</p>`,
      );
    } else if (c === '中标结果公告') {
      parts.push(
        `<p>${p.name}挂牌出让活动已于${cn(p.deadline)}结束，结果如下：</p><table><tr><th>编号</th><th>竞得人</th><th>成交价</th></tr><tr><td>${p.code}</td><td>${p.winner?.name ?? ''}</td><td>${p.winner ? yuan(p.winner.price) : ''}</td></tr></table><p>公示期：${cn(at)}至${cn(addDays(at, 10))}。</p>`,
      );
    } else {
      parts.push(
        `<p>因规划条件调整，经${p.place}人民政府同意，${p.tenderer}决定终止${p.name}挂牌出让活动。已缴纳的竞买保证金不计利息全额退还。</p>`,
      );
    }
  } else if (p.flow === 'equity') {
    if (c === '招标公告') {
      parts.push(
        `<h3>一、转让标的</h3><p>${p.name}，转让方为${p.tenderer}，本次转让已经有关国有资产监督管理机构批准。</p>`,
        `<h3>二、挂牌价格与保证金</h3><p>挂牌价格：${yuan(budget)}；交易保证金：${yuan(budget * 0.3)}。</p>`,
        `<h3>三、信息披露期</h3><p>${cn(at)}至${cn(p.deadline)}（不少于20个工作日）。信息披露期满产生两个及以上符合条件的意向受让方的，采取网络竞价方式确定受让方。</p>`,
      );
    } else if (c === '中标结果公告') {
      parts.push(
        `<p>${p.name}（项目编号：${p.code}）已通过网络竞价成交。</p><table><tr><th>转让方</th><th>受让方</th><th>成交价</th></tr><tr><td>${p.tenderer}</td><td>${p.winner?.name ?? ''}</td><td>${p.winner ? yuan(p.winner.price) : ''}</td></tr></table>`,
      );
    } else {
      parts.push(`<p>经转让方申请并报国有资产监督管理机构同意，${p.name}转让项目终止挂牌。</p>`);
    }
  } else if (p.flow === 'drug') {
    if (c === '招标公告') {
      parts.push(
        `<h3>一、采购品种与范围</h3><p>${p.name.replace(/(集中带量采购|集中采购项目)$/, '')}，以医疗机构报送的年度需求量为约定采购量，采购周期两年。</p>`,
        '<h3>二、申报企业资格</h3><p>取得相应产品医疗器械注册证的生产企业或其授权的经营企业；具备保障供应和配送能力；近两年无医药购销领域商业贿赂不良记录。</p>',
        `<h3>三、申报时间</h3><p>${cn(at)}至${cn(p.deadline)}，在本平台医药采购系统在线申报。</p>`,
      );
    } else if (c === '变更公告') {
      parts.push(
        `<p>${p.name}采购公告发布后，根据企业咨询情况，对产品分组规则作如下补充：同一注册证下不同规格型号按同一产品组申报。申报截止时间调整为${cn(deadline)}。</p>`,
      );
    } else {
      parts.push(
        `<p>${p.name}经专家评审及价格确认，拟中选结果如下：</p><table><tr><th>拟中选企业</th><th>拟中选金额</th></tr><tr><td>${p.winner?.name ?? ''}</td><td>${p.winner ? yuan(p.winner.price) : ''}</td></tr></table><p>公示期：${cn(at)}至${cn(addDays(at, 3))}。</p>`,
      );
    }
  } else {
    if (c === '招标公告') {
      parts.push(
        `<h3>一、出让标的</h3><p>${p.name}，出让期限5年，出让方为${p.tenderer}。</p>`,
        `<h3>二、起始价与保证金</h3><p>起始价：${yuan(budget)}；竞买保证金：${yuan(budget * 0.2)}。</p>`,
        `<h3>三、竞价时间</h3><p>报名截止：${cn(addDays(p.deadline, -2))}；网络竞价：${cn(p.deadline)} 10时00分，价高者得。</p>`,
      );
    } else {
      parts.push(
        `<p>${p.name}出让已于${cn(p.deadline)}通过网络竞价完成。</p><table><tr><th>竞得人</th><th>成交价</th></tr><tr><td>${p.winner?.name ?? ''}</td><td>${p.winner ? yuan(p.winner.price) : ''}</td></tr></table>`,
      );
    }
  }
  parts.push(contacts(p));
  return sanitizeRichText(parts.join(''));
}

/** The stages a project has reached by `now`. */
const reached = (p: Project, now: Date) => p.stages.filter((s) => s.at!.getTime() <= now.getTime());

/** Project number: trade letter, the region's division code, the year it started, its sequence number that year. */
function numberProjects(list: Project[], seqs: Map<string, number>) {
  for (const p of [...list].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const year = new Date(p.start.getTime() + CST).getUTCFullYear();
    const letter = TRADE_TYPE_LETTERS[p.kind.tradeType];
    const key = `${letter}${p.region}${year}`;
    const n = (seqs.get(key) ?? 0) + 1;
    seqs.set(key, n);
    p.code = `${letter}${REGION_DIVISION_CODES[p.region]}${year}${String(n).padStart(4, '0')}`;
  }
}

function noticeRows(p: Project, stages: Stage[]): NoticeRow[] {
  const rows: NoticeRow[] = [];
  for (const s of stages) {
    const at = s.at!;
    rows.push({
      title: titleOf(p, s.category),
      category: s.category,
      tradeType: p.kind.tradeType,
      region: p.region,
      projectCode: p.code,
      projectName: p.name,
      sectionName: p.sectionName,
      tenderer: p.tenderer,
      amount: s.amount === null ? null : String(s.amount),
      bodyHtml: bodyOf(p, s, at),
      attachments: [],
      status: 'published',
      publishedAt: at,
      createdAt: at,
      updatedAt: at,
    });
  }
  return rows;
}

/** Trade types in the demo's proportions: mostly construction, then purchases, land, medicine, equity, others. */
const TRADE_WEIGHTS: [TradeType, number][] = [
  ['工程建设', 18],
  ['政府采购', 6],
  ['土地矿业', 3],
  ['医药采购', 3],
  ['国有产权', 2],
  ['其他交易', 2],
];
const WEIGHT_SUM = TRADE_WEIGHTS.reduce((s, [, w]) => s + w, 0);

function pickKind(r: Rng): ProjectKind {
  let x = r.next() * WEIGHT_SUM;
  let type = TRADE_WEIGHTS[0]![0];
  for (const [t, w] of TRADE_WEIGHTS) {
    type = t;
    x -= w;
    if (x < 0) break;
  }
  return r.pick(PROJECT_KINDS.filter((k) => k.tradeType === type));
}

/** Bidders from outside a database (benchmarks): made-up but well-formed names of every kind. */
function syntheticBidders(r: Rng): Bidders {
  const names = (word: string) => PREFIXES.slice(0, 8).map((p) => `山西${p}${word}有限公司`);
  return {
    eligible: (kind) =>
      names(kind.bidder?.kind === '供应商' ? (kind.bidder.words?.[0] ?? '商贸') : '建设工程').sort(
        () => r.next() - 0.5,
      ),
    agencies: names('招标代理'),
  };
}

/**
 * Notices of projects started over the `days` before `now`, newest project first, until `count` published notices:
 * each project's notices as far as its stages have come by `now`. A project that would overshoot is skipped for a
 * smaller one, so the count is exact.
 */
export function generateNotices(
  count: number,
  opts: {
    seed?: number;
    now?: Date;
    days?: number;
    bidders?: Bidders;
    people?: () => string;
    /** project sequence numbers already given (shared so that two calls never give one number twice) */
    sequences?: Map<string, number>;
    /** each project's first notice only (drafts of new projects) */
    firstOnly?: boolean;
    /** projects already named (shared so that one kind of project runs once per place) */
    names?: Set<string>;
  } = {},
): NoticeRow[] {
  const r = rng(opts.seed ?? 2026);
  const now = opts.now ?? new Date();
  const days = opts.days ?? 120;
  const bidders = opts.bidders ?? syntheticBidders(r);
  const people = opts.people ?? nameMaker(r, new Set());
  const names = opts.names ?? new Set<string>();
  const chosen: { project: Project; stages: Stage[] }[] = [];
  let total = 0;
  // spread the projects' starts evenly over the window, with some jitter
  const perProject = 2.6;
  const spacing = Math.max(0.01, days / Math.max(1, count / perProject));
  let slot = 0;
  for (let misses = 0; total < count && misses < 500; ) {
    // after a miss (a project with more notices than are left) try one that started in the last few days
    const back = misses ? r.next() * 4 : Math.min(days, slot * spacing + r.next() * spacing);
    const start = new Date(now.getTime() - back * DAY);
    // every 13th project is called off (at least one 终止公告 in any window of a few weeks)
    const project = projectOf(r, pickKind(r), start, bidders, people, slot % 13 === 8 || r.next() < 0.04);
    const stages = reached(project, now).slice(0, opts.firstOnly ? 1 : undefined);
    // one project of a kind per place at a time
    if (!stages.length || names.has(project.name)) continue;
    if (total + stages.length > count) {
      misses++;
      continue;
    }
    misses = 0;
    slot++;
    names.add(project.name);
    chosen.push({ project, stages });
    total += stages.length;
  }
  numberProjects(
    chosen.map((c) => c.project),
    opts.sequences ?? new Map(),
  );
  return chosen.flatMap((c) => noticeRows(c.project, c.stages));
}

// ---- the demo ------------------------------------------------------------------------------------------------------

/**
 * Enterprises (incl. agencies), practitioners and their public records, 72 published notices of believable projects,
 * two drafts and one withdrawn notice. The demo enterprise (created by the caller) gets its qualifications and
 * records here, and its score and grade from them.
 */
export async function seedPortal(db: Db, opts: { demoEnterpriseId: string; adminId: string; now?: Date }) {
  const r = rng(1949);
  const now = opts.now ?? new Date();
  const today = ymd(now);
  const takenPeople = new Set<string>(['张建国', '李明华']);
  const person = nameMaker(r, takenPeople);

  // enterprises by kind, each line in its proportion, regions across the province
  const ents: (DemoEnterprise & { row: typeof enterprises.$inferInsert; credit: CreditItem[] })[] = [];
  const names = new Set<string>(['示例建设工程有限公司']);
  const codes = new Set<string>();
  for (const kind of Object.keys(KIND_COUNTS) as EnterpriseKind[]) {
    const lines = linesOf(kind);
    for (let i = 0; i < KIND_COUNTS[kind]; i++) {
      const line = lines[i % lines.length]!;
      let name = '';
      while (!name || names.has(name)) {
        name = `山西${r.pick(PREFIXES)}${line.word}${r.next() < 0.25 && kind === '施工企业' ? '集团' : ''}有限公司`;
      }
      names.add(name);
      const region = r.pick(REGIONS.slice(1));
      const capitalWan = r.int(line.capital[0] / 100, line.capital[1] / 100) * 100;
      const established = `${r.int(1996, 2022)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
      let creditCode = '';
      while (!creditCode || codes.has(creditCode))
        creditCode = creditCodeFor(r, '91', region, established >= '2015-10-01');
      codes.add(creditCode);
      const graded = r.next() < 0.9;
      const credit = creditOf(r, kind, region, now, r.int(700, 900) / 10);
      ents.push({
        name,
        kind,
        line,
        region,
        capitalWan,
        quals: line.quals(capitalWan),
        credit: credit.items,
        row: {
          name,
          creditCode,
          enterpriseType: kind,
          legalPerson: person(),
          region,
          address: `${placeOf(region)}${r.pick(DISTRICTS[region])}${r.pick(ROADS)}${r.int(1, 399)}号`,
          registeredCapital: String(capitalWan * 10_000),
          establishedAt: established,
          // not yet evaluated: no grade and no score
          creditGrade: graded ? credit.grade : null,
          creditScore: graded ? credit.score.toFixed(1) : null,
        },
      });
    }
  }
  const inserted = await db
    .insert(enterprises)
    .values(ents.map((e) => e.row))
    .returning({ id: enterprises.id });
  ents.forEach((e, i) => {
    e.id = inserted[i]!.id;
  });

  // the demo enterprise: a 二级 general contractor of 太原 with 80 million yuan of capital
  const demoLine = LINES.find((l) => l.word === '建设工程')!;
  const demo: DemoEnterprise & { credit: CreditItem[] } = {
    id: opts.demoEnterpriseId,
    name: '示例建设工程有限公司',
    kind: '施工企业',
    line: demoLine,
    region: '太原市',
    capitalWan: 8_000,
    quals: [
      { name: '建筑工程施工总承包', level: '二级', issuer: 2 },
      { name: '市政公用工程施工总承包', level: '二级', issuer: 2 },
    ],
    credit: [
      {
        kind: '良好',
        title: '承建项目获评山西省建筑施工安全文明标准化工地',
        score: 2,
        issuer: '山西省住房和城乡建设厅',
        startDate: ymd(addDays(now, -120)),
        endDate: ymd(addDays(now, 245)),
      },
      {
        kind: '良好',
        title: '承建工程获评山西省建设工程“汾水杯”质量奖',
        score: 3,
        issuer: '山西省建筑业协会',
        startDate: ymd(addDays(now, -300)),
        endDate: ymd(addDays(now, 65)),
      },
      {
        kind: '不良',
        title: '施工现场安全管理不到位被通报批评',
        score: -3,
        issuer: '太原市住房和城乡建设局',
        startDate: ymd(addDays(now, -500)),
        endDate: ymd(addDays(now, -135)),
      },
    ],
  };
  // base 83.5 + the two valid good records = 88.5 (AA); the expired bad record no longer counts
  const demoScore = 83.5 + demo.credit.filter((c) => c.endDate >= today).reduce((s, c) => s + c.score, 0);
  await db
    .update(enterprises)
    .set({ creditScore: demoScore.toFixed(1), creditGrade: creditGradeOf(demoScore) })
    .where(eq(enterprises.id, opts.demoEnterpriseId));
  const all = [...ents, demo];

  // qualifications: valid five years from issue; a few have lapsed and show as expired
  const quals: (typeof qualifications.$inferInsert)[] = [];
  for (const e of all) {
    for (const q of e.quals) {
      const issued = addDays(now, -r.int(60, 2000));
      quals.push({
        ownerKind: 'enterprise',
        ownerId: e.id!,
        name: q.name,
        level: q.level,
        certNo: certNoOf(r, q, e.kind, e.region, new Date(issued.getTime() + CST).getUTCFullYear()),
        validUntil: ymd(addDays(issued, 5 * 365)),
      });
    }
  }

  // credit records
  const credits: (typeof creditRecords.$inferInsert)[] = all.flatMap((e) =>
    e.credit.map((c) => ({ ownerKind: 'enterprise', ownerId: e.id!, ...c, score: String(c.score) })),
  );

  // performances: completed projects their qualification allows
  const perfs: (typeof performances.$inferInsert)[] = [];
  const worksKinds = PROJECT_KINDS.filter((k) => k.tradeType === '工程建设');
  for (const e of all) {
    const rank = Math.max(...e.quals.map((q) => QUAL_RANK[q.level] ?? 1), 1);
    const fits = (k: ProjectKind) =>
      e.kind === '施工企业'
        ? e.quals.some((q) => q.name === k.bidder?.qual) && requiredRank(k.budget[0]) <= rank
        : e.kind === '供应商'
          ? k.bidder?.kind === '供应商' && (k.bidder.words ?? []).includes(e.line.word)
          : k.tradeType === '工程建设';
    const kinds = (e.kind === '供应商' ? PROJECT_KINDS : worksKinds).filter(fits);
    for (let k = 0, n = kinds.length ? r.int(1, 4) : 0; k < n; k++) {
      const kind = r.pick(kinds);
      const region = kind.province ? '省本级' : r.pick(REGIONS.slice(1));
      const maxWan =
        e.kind === '施工企业' ? (rank >= 3 ? kind.budget[1] : Math.min(kind.budget[1], 9_900)) : kind.budget[1];
      const amountWan = r.int(kind.budget[0], Math.max(kind.budget[0], maxWan));
      perfs.push({
        ownerKind: 'enterprise',
        ownerId: e.id!,
        projectName: kind.name(placeOf(region), r.pick, region),
        role: {
          施工企业: e.line.word === '装饰工程' ? '专业承包' : '施工总承包',
          监理企业: '施工监理',
          设计企业: '工程设计',
          供应商: '货物供应',
          招标代理机构: '招标代理',
        }[e.kind],
        amount: String(amountWan * 10_000),
        completedAt: ymd(addDays(now, -r.int(60, 1800))),
      });
    }
  }

  // practitioners: the professions each kind of enterprise employs, registered where their enterprise is
  const profession = (e: DemoEnterprise): { area: string; level: string } => {
    if (e.kind === '施工企业') {
      const rank = Math.max(...e.quals.map((q) => QUAL_RANK[q.level] ?? 1));
      return { area: rank >= 3 || r.next() < 0.4 ? '一级建造师' : '二级建造师', level: e.line.field };
    }
    if (e.kind === '监理企业') return { area: '注册监理工程师', level: '房屋建筑工程' };
    if (e.kind === '设计企业') return { area: '一级注册建筑师', level: '建筑' };
    return { area: '一级注册造价工程师', level: '土木建筑工程' };
  };
  const employers = all.filter((e) => e.kind !== '供应商');
  const pracRows: (typeof practitioners.$inferInsert & { level: string; field: string })[] = [];
  const certs = new Set<string>();
  for (let i = 0; i < 24; i++) {
    // 张建国 (user1) is a registered constructor of the demo enterprise
    const e = i === 0 ? demo : employers[(i * 7) % employers.length]!;
    const { area, level } = i === 0 ? { area: '二级建造师', level: '建筑工程' } : profession(e);
    const grade = creditOf(r, e.kind, e.region, now, r.int(700, 880) / 10);
    let certNo = '';
    while (!certNo || certs.has(certNo)) {
      const yy = String(r.int(10, 24));
      certNo =
        area === '一级建造师'
          ? `晋114${yy}${String(r.int(0, 9_999_999)).padStart(7, '0')}`
          : area === '二级建造师'
            ? `晋214${yy}${String(r.int(0, 9_999_999)).padStart(7, '0')}`
            : area === '注册监理工程师'
              ? `14${yy}${String(r.int(0, 999_999)).padStart(6, '0')}`
              : area === '一级注册建筑师'
                ? `1140${yy}${String(r.int(0, 9_999)).padStart(4, '0')}`
                : `建［造］1${yy}14${String(r.int(0, 99_999)).padStart(5, '0')}`;
    }
    certs.add(certNo);
    pracRows.push({
      name: i === 0 ? '张建国' : person(),
      certNo,
      practiceArea: area,
      enterpriseId: e.id!,
      region: e.region,
      creditGrade: grade.grade,
      creditScore: grade.score.toFixed(1),
      level,
      field: e.kind,
    });
  }
  const pracs = await db
    .insert(practitioners)
    .values(pracRows.map(({ level: _l, field: _f, ...p }) => p))
    .returning({ id: practitioners.id });
  pracRows.forEach((p, i) => {
    const id = pracs[i]!.id;
    quals.push({
      ownerKind: 'practitioner',
      ownerId: id,
      name: p.practiceArea,
      level: p.level,
      certNo: p.certNo,
      // registrations are renewed every three years
      validUntil: ymd(addDays(now, r.int(i % 9 === 4 ? -90 : 60, 1095))),
    });
    if (r.next() < 0.7) {
      const region = r.pick(REGIONS.slice(1));
      const kind = r.pick(worksKinds);
      perfs.push({
        ownerKind: 'practitioner',
        ownerId: id,
        projectName: kind.name(placeOf(region), r.pick, region),
        role: p.practiceArea.includes('建造师')
          ? '项目经理'
          : p.practiceArea === '注册监理工程师'
            ? '总监理工程师'
            : p.practiceArea === '一级注册建筑师'
              ? '设计负责人'
              : '造价咨询负责人',
        amount: String(r.int(kind.budget[0], kind.budget[1]) * 10_000),
        completedAt: ymd(addDays(now, -r.int(60, 1500))),
      });
    }
  });
  await db.insert(qualifications).values(quals);
  if (perfs.length) await db.insert(performances).values(perfs);
  if (credits.length) await db.insert(creditRecords).values(credits);

  // notices: bidders are the enterprises qualified for each project, best grade first
  const gradeRank = (name: string) => {
    const e = ents.find((x) => x.name === name);
    return CREDIT_GRADES.indexOf((e?.row.creditGrade ?? 'C') as (typeof CREDIT_GRADES)[number]);
  };
  const bidders: Bidders = {
    eligible(kind, budgetWan) {
      const b = kind.bidder;
      if (!b) return [];
      const holders = all.filter((e) => {
        if (e.kind !== b.kind) return false;
        if (b.words && !b.words.includes(e.line.word)) return false;
        return !b.qual || e.quals.some((q) => q.name === b.qual);
      });
      const need = requiredRank(budgetWan);
      const able = holders.filter((e) => e.quals.some((q) => q.name === b.qual && (QUAL_RANK[q.level] ?? 0) >= need));
      return (b.qual && able.length ? able : holders).map((e) => e.name).sort((x, y) => gradeRank(x) - gradeRank(y));
    },
    agencies: ents.filter((e) => e.kind === AGENCY_TYPE).map((e) => e.name),
  };
  const sequences = new Map<string, number>();
  const projects = new Set<string>();
  const published = generateNotices(72, {
    seed: 7,
    now,
    days: 90,
    bidders,
    people: person,
    sequences,
    names: projects,
  });
  await db.insert(notices).values(published.map((n) => ({ ...n, createdBy: opts.adminId })));
  // not public: two drafts being prepared and one notice withdrawn after publication
  const pending = generateNotices(3, {
    seed: 99,
    now,
    days: 6,
    bidders,
    people: person,
    sequences,
    names: projects,
    firstOnly: true,
  }).map((n, i) => ({
    ...n,
    createdBy: opts.adminId,
    status: i === 2 ? 'withdrawn' : 'draft',
    publishedAt: i === 2 ? n.publishedAt : null,
  }));
  await db.insert(notices).values(pending);
}
