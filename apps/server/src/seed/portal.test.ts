import {
  creditGradeOf,
  isValidCreditCode,
  REGION_DIVISION_CODES,
  type REGIONS,
  TRADE_TYPE_LETTERS,
  type TradeType,
} from '@ks/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditRecords, enterprises, notices, organizations, practitioners, qualifications } from '../db/schema';
import { maskCertNo } from '../modules/portal/market.service';
import { projects } from '../modules/tender/project';
import { createTestDatabase } from '../test/harness';
import { generateNotices, orgCodeCheckChar } from './portal';

/**
 * The demo must be believable to a trading centre's staff (issue 11): these are the checks a clerk would make.
 */

type Database = Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase({ seeded: true });
});
afterAll(async () => database?.close());

const db = () => database.db;
type Region = (typeof REGIONS)[number];
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

describe('identifiers', () => {
  it('every unified social credit code is valid and names the region of its holder', async () => {
    const ents = await db().select().from(enterprises);
    expect(ents).toHaveLength(37);
    for (const e of ents) {
      expect(isValidCreditCode(e.creditCode), `${e.name} ${e.creditCode}`).toBe(true);
      expect(e.creditCode.slice(2, 8), e.name).toBe(REGION_DIVISION_CODES[e.region as Region]);
    }
    expect(new Set(ents.map((e) => e.creditCode)).size).toBe(ents.length);
    // generated enterprises also carry a valid organisation code (GB 11714) inside
    for (const e of ents.filter((x) => x.name !== '示例建设工程有限公司')) {
      const org = e.creditCode.slice(8, 17);
      expect(orgCodeCheckChar(org.slice(0, 8)), `${e.name} ${e.creditCode}`).toBe(org[8]);
    }
    for (const o of await db().select().from(organizations)) {
      expect(o.creditCode, o.name).not.toBeNull();
      expect(isValidCreditCode(o.creditCode!), `${o.name} ${o.creditCode}`).toBe(true);
      expect(o.creditCode!.slice(2, 8), o.name).toBe(REGION_DIVISION_CODES[o.region as Region]);
    }
  });

  it('project numbers name the trade type, the region and the year, and are unique per project', async () => {
    // the portal seed's numbers; notices published from five-in-one projects carry the number their side entered
    const entered = new Set((await projects.list(db(), {})).map((p) => p.values.xmbh));
    const rows = (await db().select().from(notices).orderBy(asc(notices.publishedAt))).filter(
      (n) => !entered.has(n.projectCode),
    );
    expect(rows.length).toBeGreaterThan(60);
    const byCode = new Map<string, typeof rows>();
    for (const n of rows) byCode.set(n.projectCode!, [...(byCode.get(n.projectCode!) ?? []), n]);
    for (const [code, list] of byCode) {
      const first = list[0]!;
      expect(code, first.title).toMatch(/^[A-Z]\d{6}\d{4}\d{4}$/);
      expect(code[0], first.title).toBe(TRADE_TYPE_LETTERS[first.tradeType as TradeType]);
      expect(code.slice(1, 7), first.title).toBe(REGION_DIVISION_CODES[first.region as Region]);
      // one project: one name, region and trade type for all its notices
      expect(new Set(list.map((n) => `${n.projectName}|${n.region}|${n.tradeType}`)).size, code).toBe(1);
    }
  });
});

describe('notices', () => {
  /** What kind of trade a project's name says it is. */
  const KEYWORDS: [RegExp, TradeType][] = [
    [/工程$|建设项目$|改造项目$|基础设施项目$/, '工程建设'],
    [/(设备|服务)采购项目$/, '政府采购'],
    [/地块国有建设用地使用权$|采矿权$/, '土地矿业'],
    [/股权$|报废公交车辆$/, '国有产权'],
    [/医用耗材/, '医药采购'],
    [/特许经营权$|使用权$/, '其他交易'],
  ];

  it('trade types match the projects (a 110 kV line is construction, a land parcel is land)', async () => {
    for (const n of await db().select().from(notices)) {
      const kind = KEYWORDS.find(([re]) => re.test(n.projectName ?? ''));
      expect(kind, n.projectName ?? n.title).toBeDefined();
      expect(n.tradeType, n.title).toBe(kind![1]);
      expect(n.title.startsWith(n.projectName!), n.title).toBe(true);
    }
    const line = (await db().select().from(notices)).filter((n) => n.title.includes('千伏'));
    for (const n of line) expect(n.tradeType).toBe('工程建设');
  });

  it("a project's notices come in the order of its stages, each category where its trade has it", async () => {
    const rows = await db()
      .select()
      .from(notices)
      .where(eq(notices.status, 'published'))
      .orderBy(asc(notices.publishedAt));
    const order: Record<string, number> = {
      招标公告: 0,
      资格预审公告: 0,
      变更公告: 1,
      中标候选人公示: 2,
      中标结果公告: 3,
      终止公告: 3,
    };
    const byCode = new Map<string, typeof rows>();
    for (const n of rows) byCode.set(n.projectCode!, [...(byCode.get(n.projectCode!) ?? []), n]);
    for (const list of byCode.values()) {
      const steps = list.map((n) => order[n.category]!);
      expect(steps, list[0]!.title).toEqual([...steps].sort());
      expect(['招标公告', '资格预审公告'], list[0]!.title).toContain(list[0]!.category);
      // candidates are public for at least 3 days before the result
      const cand = list.find((n) => n.category === '中标候选人公示');
      const result = list.find((n) => n.category === '中标结果公告');
      if (cand && result) {
        expect(result.publishedAt!.getTime() - cand.publishedAt!.getTime()).toBeGreaterThanOrEqual(3 * 86_400_000);
      }
    }
    // candidate publicity is a construction stage only
    expect(rows.filter((n) => n.category === '中标候选人公示').every((n) => n.tradeType === '工程建设')).toBe(true);
  });

  it('the winner of a construction result is a registered contractor holding the qualification the notice asks', async () => {
    const results = await db()
      .select()
      .from(notices)
      .where(eq(notices.category, '中标结果公告'))
      .then((r) => r.filter((n) => n.tradeType === '工程建设'));
    expect(results.length).toBeGreaterThan(0);
    const ents = await db().select().from(enterprises);
    const quals = await db().select().from(qualifications);
    for (const n of results) {
      const tender = await db()
        .select()
        .from(notices)
        .where(eq(notices.projectCode, n.projectCode!))
        .then((r) => r.find((x) => x.category === '招标公告' || x.category === '资格预审公告'));
      const asked = /须具备(.+?施工总承包|.+?专业承包)/.exec(tender!.bodyHtml)?.[1];
      const winner = ents.find((e) => n.bodyHtml.includes(`<td>${e.name}</td>`));
      expect(winner, n.title).toBeDefined();
      expect(winner!.enterpriseType).toBe('施工企业');
      expect(
        quals.some((q) => q.ownerId === winner!.id && q.name === asked),
        `${winner!.name} ${asked}`,
      ).toBe(true);
      // the amount of the result is the winning price
      expect(n.bodyHtml).toContain(`${Number(n.amount).toLocaleString('zh-CN')}元`);
    }
  });

  it('generates exactly the number asked for, each project at most once per place (benchmarks too)', () => {
    const rows = generateNotices(500, { seed: 42, days: 365 });
    expect(rows).toHaveLength(500);
    const projects = new Map<string, string>();
    for (const n of rows) {
      const seen = projects.get(n.projectName!);
      if (seen) expect(seen, n.projectName!).toBe(n.projectCode);
      projects.set(n.projectName!, n.projectCode!);
    }
  });
});

describe('enterprises and people', () => {
  const RANK: Record<string, number> = { 特级: 4, 一级: 3, 二级: 2, 三级: 1 };

  it('qualifications fit the kind of enterprise and its registered capital', async () => {
    const ents = await db().select().from(enterprises);
    const quals = await db().select().from(qualifications).where(eq(qualifications.ownerKind, 'enterprise'));
    const kindOf: Record<string, RegExp> = {
      施工企业: /施工总承包$|专业承包$/,
      监理企业: /监理/,
      设计企业: /^工程设计/,
      供应商: /经营许可证$|信息系统建设和服务能力等级$/,
      招标代理机构: /^工程咨询单位资信评价/,
    };
    for (const q of quals) {
      const e = ents.find((x) => x.id === q.ownerId)!;
      expect(q.name, `${e.name} ${q.name}`).toMatch(kindOf[e.enterpriseType]!);
      const capitalWan = Number(e.registeredCapital) / 10_000;
      if (q.name.endsWith('施工总承包')) {
        // 特级 needs hundreds of millions, 一级 about 100 million, 二级 40 million
        const floor = { 4: 30_000, 3: 10_000, 2: 4_000, 1: 0 }[RANK[q.level]!]!;
        expect(capitalWan, `${e.name} ${q.name}${q.level}`).toBeGreaterThanOrEqual(floor);
        // certificates of 特级/一级 are the ministry's (D1…), 二级 the province's (D2…), 三级 the city's (D3…)
        expect(q.certNo[1], q.certNo).toBe(String(RANK[q.level]! >= 3 ? 1 : 4 - RANK[q.level]!));
      }
    }
    // every enterprise but pure traders holds something
    for (const e of ents.filter((x) => x.enterpriseType !== '供应商')) {
      expect(
        quals.some((q) => q.ownerId === e.id),
        e.name,
      ).toBe(true);
    }
  });

  it('grades match scores, and scores are made of the records that are still valid', async () => {
    const ents = await db().select().from(enterprises);
    for (const e of ents) {
      expect(e.creditGrade === null, e.name).toBe(e.creditScore === null);
      if (e.creditScore !== null)
        expect(e.creditGrade, `${e.name} ${e.creditScore}`).toBe(creditGradeOf(Number(e.creditScore)));
    }
    for (const p of await db().select().from(practitioners)) {
      expect(p.creditGrade, `${p.name} ${p.creditScore}`).toBe(creditGradeOf(Number(p.creditScore)));
    }
    const [demo] = ents.filter((e) => e.name === '示例建设工程有限公司');
    const records = await db().select().from(creditRecords).where(eq(creditRecords.ownerId, demo!.id));
    const valid = records.filter((c) => !c.endDate || c.endDate >= today()).reduce((s, c) => s + Number(c.score), 0);
    expect(records.some((c) => c.endDate !== null && c.endDate < today())).toBe(true);
    expect(Number(demo!.creditScore)).toBe(83.5 + valid);
    expect(demo!.creditGrade).toBe('AA');
  });

  it('practitioners work where their profession belongs and in their enterprise’s region; masks hide their number', async () => {
    const ents = await db().select().from(enterprises);
    const pracs = await db().select().from(practitioners);
    expect(pracs).toHaveLength(24);
    const fits: Record<string, string[]> = {
      一级建造师: ['施工企业'],
      二级建造师: ['施工企业'],
      注册监理工程师: ['监理企业'],
      一级注册建筑师: ['设计企业'],
      一级注册造价工程师: ['招标代理机构'],
    };
    for (const p of pracs) {
      const e = ents.find((x) => x.id === p.enterpriseId)!;
      expect(fits[p.practiceArea], `${p.name} ${p.practiceArea} @ ${e.name}`).toContain(e.enterpriseType);
      expect(p.region, p.name).toBe(e.region);
      const masked = maskCertNo(p.certNo);
      expect(masked).toMatch(/\*{4,}/);
      expect(masked.slice(0, 4)).toBe(p.certNo.slice(0, 4));
      expect(masked.slice(-2)).toBe(p.certNo.slice(-2));
    }
    expect(pracs.find((p) => p.name === '张建国')?.enterpriseId).toBe(
      ents.find((e) => e.name === '示例建设工程有限公司')!.id,
    );
  });

  it('some qualifications have lapsed, as in real life, and are marked expired on the portal', async () => {
    const quals = await db().select().from(qualifications);
    const lapsed = quals.filter((q) => q.validUntil !== null && q.validUntil < today());
    expect(lapsed.length).toBeGreaterThan(0);
    expect(lapsed.length).toBeLessThan(quals.length / 3);
  });
});
