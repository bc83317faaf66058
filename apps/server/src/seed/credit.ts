import {
  CREDIT_DEFAULT_BASE_SCORE,
  CREDIT_NODE,
  type CreditAppliesTo,
  type CreditConduct,
  dateIn,
  validityEnd,
} from '@ks/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { creditConductRecords, creditRecords, creditStandards, enterprises, practitioners, users } from '../db/schema';
import { regrade } from '../modules/credit/grade.service';
import { SYSTEM_ACTOR, writeOpLog } from '../platform/oplog';
import { rng } from './portal';
import type { EnterpriseKind } from './portal-catalog';

/**
 * Demo credit data (issue 13): Shanxi-style credit standards (good conduct such as 获得省级优质工程奖 +5, highest 10,
 * valid 24 months; bad conduct such as 拖欠农民工工资 −10), and records of every enterprise and practitioner the portal
 * seed made: the decisions published on the portal become retrieved records (passed; those of every ninth enterprise
 * are left for 自动获取 to find, so nothing waits for review in a fresh demo), and records taken over from the previous credit system make the grades spread over
 * every level. Every subject is then graded by the credit module itself, so each grade is exactly its base score plus
 * its valid passed records — the numbers the portal shows. The demo enterprise is at 85.5 here and 88.5 (AA) once the
 * change rounds seed passes the correction of its disputed penalty (DEMO_DISPUTES).
 */

interface StandardSeed {
  code: string;
  group: string;
  name: string;
  conduct: CreditConduct;
  score: number;
  highest: number;
  months: number;
  appliesTo: CreditAppliesTo;
  keywords: string[];
  /** enterprise kinds the item fits (seed only: which items an enterprise's history draws from) */
  kinds?: EnterpriseKind[];
  /** seed only: false — never drawn for the migrated histories (an item the platform itself raises records under) */
  history?: false;
}

const ALL_KINDS: EnterpriseKind[] = ['施工企业', '监理企业', '设计企业', '供应商', '招标代理机构'];

export const DEMO_CREDIT_STANDARDS: StandardSeed[] = [
  // 良好行为
  {
    code: 'LH-GC-01',
    group: '工程质量荣誉',
    name: '获得国家级优质工程奖（鲁班奖、国家优质工程奖）',
    conduct: 'good',
    score: 8,
    highest: 10,
    months: 36,
    appliesTo: 'enterprise',
    keywords: ['国家优质工程奖', '鲁班奖'],
    kinds: ['施工企业'],
  },
  {
    code: 'LH-GC-02',
    group: '工程质量荣誉',
    name: '获得省级优质工程奖（“汾水杯”等）',
    conduct: 'good',
    score: 5,
    highest: 10,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['汾水杯', '省级优质工程'],
    kinds: ['施工企业'],
  },
  {
    code: 'LH-GC-03',
    group: '工程质量荣誉',
    name: '获得市级优质工程奖',
    conduct: 'good',
    score: 2,
    highest: 4,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['市级优质工程'],
    kinds: ['施工企业'],
  },
  {
    code: 'LH-AQ-01',
    group: '安全文明施工',
    name: '获评省级建筑施工安全文明标准化工地',
    conduct: 'good',
    score: 3,
    highest: 6,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['安全文明标准化工地'],
    kinds: ['施工企业'],
  },
  {
    code: 'LH-AQ-02',
    group: '安全文明施工',
    name: '获评市级文明工地',
    conduct: 'good',
    score: 1.5,
    highest: 3,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['市级文明工地'],
    kinds: ['施工企业'],
  },
  {
    code: 'LH-QY-01',
    group: '企业荣誉',
    name: '获评山西省守合同重信用企业',
    conduct: 'good',
    score: 2,
    highest: 4,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['守合同重信用'],
    kinds: ALL_KINDS,
  },
  {
    code: 'LH-QY-02',
    group: '企业荣誉',
    name: '纳税信用等级为A级',
    conduct: 'good',
    score: 2,
    highest: 2,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['纳税信用A级', '纳税信用等级为A级'],
    kinds: ALL_KINDS,
  },
  {
    code: 'LH-QY-03',
    group: '企业荣誉',
    name: '获评山西省优秀工程监理企业',
    conduct: 'good',
    score: 3,
    highest: 6,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['优秀工程监理企业'],
    kinds: ['监理企业'],
  },
  {
    code: 'LH-QY-04',
    group: '企业荣誉',
    name: '获得山西省优秀工程勘察设计奖',
    conduct: 'good',
    score: 3,
    highest: 6,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['优秀工程勘察设计奖'],
    kinds: ['设计企业'],
  },
  {
    code: 'LH-QY-05',
    group: '企业荣誉',
    name: '年度招标代理机构信用评价为优秀',
    conduct: 'good',
    score: 3,
    highest: 6,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['信用评价为优秀'],
    kinds: ['招标代理机构'],
  },
  {
    code: 'LH-RY-01',
    group: '人员荣誉',
    name: '获评山西省优秀项目经理',
    conduct: 'good',
    score: 3,
    highest: 5,
    months: 24,
    appliesTo: 'person',
    keywords: ['优秀项目经理'],
  },
  {
    code: 'LH-RY-02',
    group: '人员荣誉',
    name: '获评山西省优秀总监理工程师',
    conduct: 'good',
    score: 3,
    highest: 5,
    months: 24,
    appliesTo: 'person',
    keywords: ['优秀总监理工程师'],
  },
  {
    code: 'LH-RY-03',
    group: '人员荣誉',
    name: '继续教育学时超额完成并考核优秀',
    conduct: 'good',
    score: 1,
    highest: 2,
    months: 12,
    appliesTo: 'person',
    keywords: ['继续教育'],
  },
  // raised by the platform when an enterprise's bid wins (确定中标人, issue 17)
  {
    code: 'LH-JY-01',
    group: '交易行为',
    name: '在平台依法中标（中标结果公告发布）',
    conduct: 'good',
    score: 1,
    highest: 3,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['中标'],
    history: false,
  },
  // 不良行为
  {
    code: 'BL-ZA-01',
    group: '质量安全',
    name: '施工现场安全管理不到位被通报批评',
    conduct: 'bad',
    score: 3,
    highest: 6,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['安全管理不到位'],
    kinds: ['施工企业'],
  },
  {
    code: 'BL-ZA-02',
    group: '质量安全',
    name: '发生一般生产安全事故',
    conduct: 'bad',
    score: 10,
    highest: 15,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['生产安全事故'],
    kinds: ['施工企业'],
  },
  {
    code: 'BL-ZA-03',
    group: '质量安全',
    name: '工程质量不合格被责令返工',
    conduct: 'bad',
    score: 5,
    highest: 10,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['质量不合格'],
    kinds: ['施工企业'],
  },
  {
    code: 'BL-ZA-04',
    group: '质量安全',
    name: '施工图设计文件审查不合格被责令整改',
    conduct: 'bad',
    score: 2,
    highest: 4,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['审查不合格'],
    kinds: ['设计企业'],
  },
  {
    code: 'BL-ZA-05',
    group: '质量安全',
    name: '项目总监理工程师未按规定到岗履职',
    conduct: 'bad',
    score: 3,
    highest: 6,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['未按规定到岗履职'],
    kinds: ['监理企业'],
  },
  {
    code: 'BL-ZB-01',
    group: '招标投标',
    name: '投标文件提供虚假业绩等材料（弄虚作假）',
    conduct: 'bad',
    score: 15,
    highest: 20,
    months: 36,
    appliesTo: 'enterprise',
    keywords: ['虚假业绩', '弄虚作假'],
    kinds: ['施工企业', '监理企业', '设计企业'],
  },
  {
    code: 'BL-ZB-02',
    group: '招标投标',
    name: '串通投标',
    conduct: 'bad',
    score: 20,
    highest: 30,
    months: 36,
    appliesTo: 'enterprise',
    keywords: ['串通投标'],
    kinds: ['施工企业', '供应商'],
  },
  {
    code: 'BL-ZB-03',
    group: '招标投标',
    name: '中标后无正当理由放弃中标或不签订合同',
    conduct: 'bad',
    score: 8,
    highest: 10,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['放弃中标'],
    kinds: ALL_KINDS,
  },
  {
    code: 'BL-ZB-04',
    group: '招标投标',
    name: '政府采购活动中提供虚假材料',
    conduct: 'bad',
    score: 10,
    highest: 15,
    months: 36,
    appliesTo: 'enterprise',
    keywords: ['政府采购活动中提供虚假材料'],
    kinds: ['供应商'],
  },
  {
    code: 'BL-ZB-05',
    group: '招标投标',
    name: '代理项目招标文件设置不合理限制条件被责令改正',
    conduct: 'bad',
    score: 3,
    highest: 6,
    months: 12,
    appliesTo: 'enterprise',
    keywords: ['设置不合理限制条件'],
    kinds: ['招标代理机构'],
  },
  {
    code: 'BL-HT-01',
    group: '合同履约',
    name: '拖欠农民工工资',
    conduct: 'bad',
    score: 10,
    highest: 20,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['拖欠农民工工资'],
    kinds: ['施工企业'],
  },
  {
    code: 'BL-HT-02',
    group: '合同履约',
    name: '违法转包、违法分包',
    conduct: 'bad',
    score: 10,
    highest: 15,
    months: 24,
    appliesTo: 'enterprise',
    keywords: ['转包', '违法分包'],
    kinds: ['施工企业'],
  },
  {
    code: 'BL-RY-01',
    group: '执业行为',
    name: '项目经理（总监）无正当理由不在岗',
    conduct: 'bad',
    score: 5,
    highest: 10,
    months: 12,
    appliesTo: 'person',
    keywords: ['不在岗'],
  },
  {
    code: 'BL-RY-02',
    group: '执业行为',
    name: '出借注册执业证书',
    conduct: 'bad',
    score: 10,
    highest: 20,
    months: 24,
    appliesTo: 'person',
    keywords: ['出借注册'],
  },
];

const DAY = 86_400_000;
const dayOf = (d: Date) => dateIn(d);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);
/** A working-hours instant on a calendar day (CST). */
const at = (day: string, minutes: number) => new Date(new Date(`${day}T09:00:00+08:00`).getTime() + minutes * 60_000);

/** Where each level's targets lie (score bands with base 80 and the default thresholds). */
const BANDS: Record<string, [number, number]> = {
  AAA: [90, 99],
  AA: [80, 89.5],
  A: [70, 79.5],
  B: [60, 69.5],
  C: [42, 59.5],
};
/**
 * Records of the demo enterprise the change rounds seed (seed/changes.ts) works on: a penalty recorded at 8 points that
 * the enterprise disputes (round 1 rejected, round 2 passed: corrected to the standard's 5), a second 通报批评 whose
 * round waits for review, and a 鲁班奖 that balances them — 85.5 before the passed round, 88.5 (AA) after it.
 */
export const DEMO_DISPUTES = {
  quality: {
    code: 'BL-ZA-03',
    title: '龙城大街东延道路工程（二标段）排水管道闭水试验不合格被责令返工',
    issuer: '太原市住房和城乡建设局',
    score: 8,
    corrected: 5,
    daysAgo: 75,
  },
  safety: {
    code: 'BL-ZA-01',
    title: '晋源区姚村安置房项目施工现场临边防护不到位被通报批评',
    issuer: '太原市建筑工程质量安全监督站',
    score: 3,
    daysAgo: 40,
  },
  award: {
    code: 'LH-GC-01',
    title: '太原市儿童医院门诊综合楼工程获国家优质工程奖',
    issuer: '中国施工企业管理协会',
    score: 8,
    daysAgo: 120,
  },
} as const;

/** What the passed round adds to the demo enterprise's score (its penalty corrected); the award is worth the corrected
 * penalties (5 + 3 = 8), so the disputes take exactly this off the 88.5 until the round passes. */
export const DEMO_DISPUTE_GAIN = DEMO_DISPUTES.quality.score - DEMO_DISPUTES.quality.corrected;

/** The order the levels are dealt in (the shares of a real register: most in AA and A). */
const DEAL = ['AA', 'A', 'AAA', 'AA', 'B', 'A', 'AA', 'C', 'A', 'AA', 'AAA', 'B'];

type RecordInsert = typeof creditConductRecords.$inferInsert;

export async function seedCredit(
  tx: Db,
  opts: { demoEnterpriseId: string; adminId: string; now?: Date },
): Promise<{ standards: number; records: number; graded: number }> {
  const now = opts.now ?? new Date();
  const today = dayOf(now);
  const r = rng(2013);
  const inserted = await tx
    .insert(creditStandards)
    .values(
      DEMO_CREDIT_STANDARDS.map((s, i) => ({
        code: s.code,
        xxGrouping: s.group,
        name: s.name,
        conduct: s.conduct,
        score: String(s.score),
        highest: String(s.highest),
        validityMonths: s.months,
        appliesTo: s.appliesTo,
        keywords: s.keywords,
        sort: i,
      })),
    )
    .returning({ id: creditStandards.id, code: creditStandards.code });
  const idOf = new Map(inserted.map((s) => [s.code, s.id]));
  const [admin] = await tx.select({ name: users.userName }).from(users).where(eq(users.id, opts.adminId));
  const reviewer = { id: opts.adminId, name: admin?.name ?? '平台管理员' };

  const ents = await tx.select().from(enterprises).orderBy(asc(enterprises.name), asc(enterprises.id));
  const decisions = await tx
    .select()
    .from(creditRecords)
    .where(eq(creditRecords.isPublic, true))
    .orderBy(asc(creditRecords.startDate), asc(creditRecords.id));
  const rows: RecordInsert[] = [];

  const decided = (start: string, status: 'passed' | 'rejected' | 'revoked' = 'passed') => {
    const submittedAt = at(start < today ? start : today, r.int(0, 400));
    const auditedAt = new Date(Math.min(now.getTime() - 3600_000, submittedAt.getTime() + r.int(1, 6) * DAY));
    return {
      status,
      createdByName: '系统',
      createdAt: submittedAt,
      updatedAt: auditedAt,
      submittedByName: '系统',
      submittedAt,
      auditedBy: reviewer.id,
      auditedByName: reviewer.name,
      auditedAt,
    };
  };
  const matchOf = (title: string, conduct: CreditConduct, applies: 'enterprise' | 'person') =>
    DEMO_CREDIT_STANDARDS.find(
      (s) =>
        s.conduct === conduct &&
        (s.appliesTo === applies || s.appliesTo === 'both') &&
        s.keywords.some((k) => title.includes(k)),
    );

  // the portal's published decisions: retrieved and passed (some left for 自动获取 to find)
  const pointsOf = new Map<string, number>();
  const entIndex = new Map(ents.map((e, i) => [e.id, i]));
  for (const d of decisions) {
    if (d.ownerKind !== 'enterprise') continue;
    const i = entIndex.get(d.ownerId);
    if (i === undefined) continue;
    const demo = d.ownerId === opts.demoEnterpriseId;
    // every 9th enterprise: its decisions are not retrieved yet (自动获取 finds them)
    if (!demo && i % 9 === 4) continue;
    const conduct: CreditConduct = d.kind === '良好' ? 'good' : 'bad';
    const s = matchOf(d.title, conduct, 'enterprise');
    if (!s) continue;
    const latest = validityEnd(d.startDate, s.months);
    const end = d.endDate && d.endDate < latest ? d.endDate : latest;
    const score = Math.min(Math.abs(Number(d.score)), s.highest);
    rows.push({
      subjectKind: 'enterprise',
      subjectId: d.ownerId,
      enterpriseId: d.ownerId,
      standardId: idOf.get(s.code)!,
      score: String(score),
      startTime: d.startDate,
      endTime: end,
      title: d.title,
      issuer: d.issuer,
      remark: '来自平台已公开的认定结果',
      source: 'retrieved',
      sourceRef: d.id,
      ...decided(d.startDate),
    });
    if (d.startDate <= today && end >= today)
      pointsOf.set(d.ownerId, (pointsOf.get(d.ownerId) ?? 0) + (conduct === 'good' ? score : -score));
  }

  /** Records taken over from the previous system, adding up to `delta` (valid today), of items fitting the kind. */
  const history = (
    subject: { kind: 'enterprise' | 'person'; id: string; enterpriseId: string; type: EnterpriseKind | null },
    delta: number,
  ) => {
    let left = Math.round(delta * 2) / 2;
    const conduct: CreditConduct = left >= 0 ? 'good' : 'bad';
    const fits = DEMO_CREDIT_STANDARDS.filter(
      (s) =>
        s.history !== false &&
        s.conduct === conduct &&
        s.appliesTo === subject.kind &&
        (subject.type === null || !s.kinds || s.kinds.includes(subject.type)),
    );
    let guard = 0;
    while (Math.abs(left) >= 0.5 && fits.length && guard++ < 20) {
      const s = r.pick(fits);
      const points = Math.min(Math.abs(left), s.highest);
      left = conduct === 'good' ? left - points : left + points;
      const start = dayOf(addDays(now, -r.int(20, Math.min(300, s.months * 30 - 40))));
      rows.push({
        subjectKind: subject.kind,
        subjectId: subject.id,
        enterpriseId: subject.enterpriseId,
        personId: subject.kind === 'person' ? subject.id : null,
        standardId: idOf.get(s.code)!,
        score: String(points),
        startTime: start,
        endTime: validityEnd(start, s.months),
        title: s.name,
        issuer: conduct === 'good' ? '山西省住房和城乡建设厅' : '山西省公共资源交易监督管理局',
        remark: '原信用管理系统迁移数据',
        source: 'imported',
        ...decided(start),
      });
    }
  };
  /** An older record that has run out: shown in the history, no longer counted. */
  const lapsed = (subject: {
    kind: 'enterprise' | 'person';
    id: string;
    enterpriseId: string;
    type: EnterpriseKind | null;
  }) => {
    const s = r.pick(
      DEMO_CREDIT_STANDARDS.filter(
        (x) =>
          x.history !== false &&
          x.appliesTo === subject.kind &&
          (subject.type === null || !x.kinds || x.kinds.includes(subject.type)),
      ),
    );
    const start = dayOf(addDays(now, -(s.months * 31 + r.int(30, 200))));
    rows.push({
      subjectKind: subject.kind,
      subjectId: subject.id,
      enterpriseId: subject.enterpriseId,
      personId: subject.kind === 'person' ? subject.id : null,
      standardId: idOf.get(s.code)!,
      score: String(s.score),
      startTime: start,
      endTime: validityEnd(start, s.months),
      title: s.name,
      issuer: '山西省住房和城乡建设厅',
      remark: '原信用管理系统迁移数据',
      source: 'imported',
      ...decided(start),
    });
  };

  // enterprises: a level each, history to reach it
  let dealt = 0;
  for (const e of ents) {
    const demo = e.id === opts.demoEnterpriseId;
    const net = pointsOf.get(e.id) ?? 0;
    const band = BANDS[DEAL[dealt++ % DEAL.length]!]!;
    // the demo enterprise: 88.5 without DEMO_DISPUTES, whose award balances its penalties once the one is corrected
    const target = demo ? 88.5 : band[0] + Math.round(r.next() * (band[1] - band[0]) * 2) / 2;
    const subject = {
      kind: 'enterprise' as const,
      id: e.id,
      enterpriseId: e.id,
      type: e.enterpriseType as EnterpriseKind,
    };
    history(subject, target - CREDIT_DEFAULT_BASE_SCORE - net);
    if (!demo && r.next() < 0.5) lapsed(subject);
  }
  // a record passed, then revoked when the award was withdrawn
  const revokedOf = ents.find((e) => e.id !== opts.demoEnterpriseId && e.enterpriseType === '施工企业');
  if (revokedOf) {
    const start = dayOf(addDays(now, -200));
    const d = decided(start);
    rows.push({
      subjectKind: 'enterprise',
      subjectId: revokedOf.id,
      enterpriseId: revokedOf.id,
      standardId: idOf.get('LH-GC-03')!,
      score: '2',
      startTime: start,
      endTime: validityEnd(start, 12),
      title: '承建工程获评市级优质工程奖',
      issuer: '太原市住房和城乡建设局',
      remark: '原信用管理系统迁移数据',
      source: 'imported',
      ...d,
      status: 'revoked',
      revokedBy: reviewer.id,
      revokedByName: reviewer.name,
      revokedAt: new Date(d.auditedAt.getTime() + 30 * DAY),
      revokeReason: '发证机关已撤销该奖项，经复核撤销本条记录',
    });
  }

  // practitioners: spread too, from their own history
  const pracs = await tx.select().from(practitioners).orderBy(asc(practitioners.name), asc(practitioners.id));
  for (const p of pracs) {
    if (!p.enterpriseId) continue;
    const band = BANDS[DEAL[dealt++ % DEAL.length]!]!;
    const target = band[0] + Math.round(r.next() * (band[1] - band[0]) * 2) / 2;
    const subject = { kind: 'person' as const, id: p.id, enterpriseId: p.enterpriseId, type: null };
    history(subject, target - CREDIT_DEFAULT_BASE_SCORE);
    if (r.next() < 0.3) lapsed(subject);
  }

  // the demo enterprise's disputed penalties and the award that balances them (no random draws: the other subjects'
  // histories stay as they were)
  for (const d of Object.values(DEMO_DISPUTES)) {
    const s = DEMO_CREDIT_STANDARDS.find((x) => x.code === d.code)!;
    const start = dayOf(addDays(now, -d.daysAgo));
    const submittedAt = at(start, 45);
    const auditedAt = at(dayOf(addDays(now, 2 - d.daysAgo)), 120);
    rows.push({
      subjectKind: 'enterprise',
      subjectId: opts.demoEnterpriseId,
      enterpriseId: opts.demoEnterpriseId,
      standardId: idOf.get(s.code)!,
      score: String(d.score),
      startTime: start,
      endTime: validityEnd(start, s.months),
      title: d.title,
      issuer: d.issuer,
      remark: '原信用管理系统迁移数据',
      source: 'imported',
      status: 'passed',
      createdByName: '系统',
      createdAt: submittedAt,
      updatedAt: auditedAt,
      submittedByName: '系统',
      submittedAt,
      auditedBy: reviewer.id,
      auditedByName: reviewer.name,
      auditedAt,
    });
  }

  if (rows.length) await tx.insert(creditConductRecords).values(rows);
  for (const e of ents) await regrade(tx, { kind: 'enterprise', id: e.id }, now);
  for (const p of pracs) if (p.enterpriseId) await regrade(tx, { kind: 'person', id: p.id }, now);
  const graded = ents.length + pracs.filter((p) => p.enterpriseId).length;
  await writeOpLog(tx, SYSTEM_ACTOR, {
    glName: '信用等级',
    gnCoding: CREDIT_NODE,
    logbook: `初始化信用数据：信用标准 ${inserted.length} 项，信用记录 ${rows.length} 条，评定 ${graded} 个主体`,
  });
  return { standards: inserted.length, records: rows.length, graded };
}
