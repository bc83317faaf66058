import { creditCodeCheckChar, type LoginRoleType } from '@ks/contracts';
import { and, asc, count, eq, inArray, like, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businessSystems, enterprises, practiceStatuses, roles, userRoles, users } from '../db/schema';
import { seedAttachmentTypes } from '../modules/files/files.seed';
import { PLATFORM_SETTING_KEYS } from '../modules/portal/portal.service';
import { SYSTEM_ACTOR, writeOpLog } from '../platform/oplog';
import { hashPassword } from '../platform/password';
import { requestMemo } from '../platform/permissions';
import { putSetting } from '../platform/settings';
import type { Storage } from '../platform/storage';
import { seedAccounts } from './accounts';
import { seedBids, seedOpeningBids } from './bids';
import { seedChanges } from './changes';
import { seedCostDemo } from './cost';
import { seedCredit } from './credit';
import { seedDeposits } from './deposits';
import { seedDex } from './dex';
import { seedEngine } from './engine';
import { seedEvaluationDemo } from './evaluation';
import { type Evidence, evidenceStore } from './evidence';
import { seedExperts, seedExtraction } from './experts';
import { seedFeedback } from './feedback';
import { seedHelp } from './help';
import { seedLibrary } from './library';
import { seedMaterialPrices } from './material';
import { seedPeople } from './people';
import { seedPerformance } from './performance';
import { seedPortal } from './portal';
import { seedRegistration } from './register';
import { seedServiceDesk } from './service-desk';
import { AGENCY_ROLE, SUPERVISOR_ROLE, seedShell } from './shell';
import { seedStats } from './stats';
import { seedSystemNotices } from './system-notices';
import { seedOpeningProject, seedTender } from './tender';
import { seedTenderFiles } from './tender-files';
import { seedVenue } from './venue';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_ENTERPRISE_NAME = '示例建设工程有限公司';
/** Where the demo reviewer works: the trading centre, not an enterprise (reviewers are never of an applicant's side). */
export const DEMO_REVIEW_CENTRE = '太原市公共资源交易中心';
export const DEMO_SUPERVISION_OFFICE = '山西省公共资源交易监督管理局';

const base = '91140100MA0K8G2J7';
export const DEMO_CREDIT_CODE = `${base}${creditCodeCheckChar(base)}`;

export const DEMO_ACCOUNTS = [
  { account: 'admin', userName: '平台管理员', loginRoleType: 'M', note: '管理员' },
  { account: 'dev', userName: '系统开发者', loginRoleType: 'D', note: '开发者' },
  { account: 'user1', userName: '张建国', loginRoleType: 'U', note: `企业/个人，${DEMO_ENTERPRISE_NAME}员工` },
  {
    account: 'auditor',
    userName: '王晓燕',
    loginRoleType: 'U',
    note: `企业/个人，${DEMO_REVIEW_CENTRE}审核员（审核员角色），审核从业人员登记、保函申请等业务`,
  },
  {
    account: 'agent',
    userName: '赵立新',
    loginRoleType: 'U',
    note: '企业/个人，招标代理机构项目经理（招标代理角色），办理项目进场登记、标段、场地预约、招标公告与招标文件',
  },
  {
    account: 'supervisor',
    userName: '李振华',
    loginRoleType: 'U',
    note: `企业/个人，${DEMO_SUPERVISION_OFFICE}监督员（监督角色），只读查看招标项目、公告、专家抽取与保函申请`,
  },
  {
    account: 'bid2',
    userName: '刘志强',
    loginRoleType: 'U',
    note: '企业/个人，另一家施工企业的投标专员：与 user1 同在「忻州市忻府区第三中学学生公寓楼」施工标段投标，开标大厅中解密投标文件',
  },
  {
    account: 'bid3',
    userName: '陈海燕',
    loginRoleType: 'U',
    note: '企业/个人，第三家施工企业的投标专员：同一标段的第三家投标人',
  },
] as const;

const DEMO_PHONES: Record<string, string> = {
  user1: '13800138000',
  auditor: '13934567890',
  agent: '13803456721',
  supervisor: '13935101234',
  bid2: '13903517788',
  bid3: '13603512266',
};

/** The business systems of §1, so the shell has something real to enter. */
export const DEMO_SYSTEMS = [
  { systemName: '信用管理系统', title: '信用管理', gnCoding: 'XYGL' },
  { systemName: '招标投标交易系统', title: '招标投标', gnCoding: 'ZBTB' },
  { systemName: '开评标系统', title: '开评标', gnCoding: 'KPB' },
  { systemName: '专家抽取系统', title: '专家抽取', gnCoding: 'ZJCQ' },
  { systemName: '场地预约系统', title: '场地预约', gnCoding: 'CDYY' },
  { systemName: '电子保函系统', title: '电子保函', gnCoding: 'DZBH' },
  { systemName: '统计分析系统', title: '统计分析', gnCoding: 'TJFX' },
] as const;

/** The advisory lock the demo seed runs under (the migrations take 7301001). */
const SEED_LOCK = 7301002;

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row?.n ?? 0) === 0;
}

/**
 * Seed the demo dataset into an empty database, in one transaction. Returns false when there was data already. The
 * demo's evidence files go to `storage` (the platform's file store); when the transaction fails, they are removed.
 */
export async function seedDemo(db: Db, opts: { storage: Storage }): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const evidence = await evidenceStore(opts.storage);
  let seeded = false;
  try {
    await db.transaction(async (tx) => {
      // Several processes may start at once on an empty database: one seeds while the others wait on this lock (it
      // ends with the seeding transaction), then find the data there and serve it.
      await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
      if (!(await isEmpty(tx))) return;
      await seedAll(tx, passwordHash, evidence.on(tx));
      seeded = true;
    });
  } catch (e) {
    await evidence.discard();
    throw e;
  } finally {
    await evidence.close();
  }
  if (!seeded) return false;
  // Fresh statistics for the planner after the bulk insert.
  await db.execute(sql`analyze`);
  return true;
}

async function seedAll(tx: Db, passwordHash: string, evidence: Evidence) {
  {
    const [ent] = await tx
      .insert(enterprises)
      .values({
        name: DEMO_ENTERPRISE_NAME,
        creditCode: DEMO_CREDIT_CODE,
        enterpriseType: '施工企业',
        legalPerson: '李明华',
        region: '太原市',
        address: '太原市小店区长治路 227 号',
        registeredCapital: '80000000',
        establishedAt: '2008-06-18',
        creditGrade: 'AA',
        creditScore: '88.5',
      })
      .returning();
    const ids: Record<string, string> = {};
    for (const a of DEMO_ACCOUNTS) {
      const [u] = await tx
        .insert(users)
        .values({
          account: a.account,
          userName: a.userName,
          loginRoleType: a.loginRoleType,
          passwordHash,
          // the reviewer is trading-centre staff: no enterprise
          enterpriseId: a.account === 'user1' ? ent!.id : null,
          phone: DEMO_PHONES[a.account] ?? null,
        })
        .returning();
      ids[a.account] = u!.id;
    }
    await tx.insert(practiceStatuses).values([
      { userId: ids.user1!, region: '太原市', status: 2, reason: '' },
      {
        userId: ids.user1!,
        region: '大同市',
        status: 1,
        reason: '注册证书有效期已届满，未按期办理延续注册手续，暂停执业',
      },
      { userId: ids.user1!, region: '晋中市', status: 0, reason: '变更注册审核中' },
    ]);
    await tx.insert(businessSystems).values(DEMO_SYSTEMS.map((s, i) => ({ ...s, levels: 0, sort: i + 1 })));
    await putSetting(
      tx,
      PLATFORM_SETTING_KEYS.describe,
      '公共资源交易与信用管理平台为工程建设、政府采购等公共资源交易提供招标投标、开标评标、专家抽取、场地预约、电子保函及信用管理等一站式服务。',
    );
    await putSetting(tx, PLATFORM_SETTING_KEYS.filingsCoding, '晋ICP备20260001号-1');
    await putSetting(tx, PLATFORM_SETTING_KEYS.phone, '0351-12345678');
    await seedPortal(tx, { demoEnterpriseId: ent!.id, adminId: ids.admin! });
    await seedShell(tx);
    // the demo reviewer holds the 审核员 role, so every demo workflow has someone to review it
    const [auditorRole] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.code, 'auditor'));
    await tx.insert(userRoles).values({ userId: ids.auditor!, roleId: auditorRole!.id });
    // the demo supervisor holds the 监督 role: reads the tendering records, acts on none
    const [supervisorRole] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.code, SUPERVISOR_ROLE));
    await tx.insert(userRoles).values({ userId: ids.supervisor!, roleId: supervisorRole!.id });
    // the demo agent works for the market's first tender agency (招标代理机构 of the portal's enterprises) and holds
    // the 招标代理 role: enters projects and keeps their sections, notices and documents
    const [agency] = await tx
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(and(eq(enterprises.enterpriseType, '招标代理机构'), like(enterprises.name, '%招标代理%')))
      .orderBy(asc(enterprises.creditCode))
      .limit(1);
    await tx.update(users).set({ enterpriseId: agency!.id }).where(eq(users.id, ids.agent!));
    const [agencyRole] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.code, AGENCY_ROLE));
    await tx.insert(userRoles).values({ userId: ids.agent!, roleId: agencyRole!.id });
    // the two other demo bidders work for the market's first two other general building contractors
    const builders = await tx
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(and(eq(enterprises.enterpriseType, '施工企业'), ne(enterprises.id, ent!.id)))
      .orderBy(asc(enterprises.creditCode))
      .limit(2);
    await tx.update(users).set({ enterpriseId: builders[0]!.id }).where(eq(users.id, ids.bid2!));
    await tx.update(users).set({ enterpriseId: builders[1]!.id }).where(eq(users.id, ids.bid3!));
    await seedEngine(tx);
    // @seed:accounts
    await seedAccounts(tx);
    // @seed:files
    await seedAttachmentTypes(tx);
    // @seed:credit
    await seedCredit(tx, { demoEnterpriseId: ent!.id, adminId: ids.admin! });
    // @seed:workflows — people of the demo enterprise and its change rounds, through the modules' own services
    const who = await demoCallers(tx, ids);
    await seedPeople(tx, who, evidence);
    // @seed:performance — 企业业绩 of the demo enterprise, declared and reviewed through the engine (issue 19)
    await seedPerformance(tx, who);
    await seedChanges(tx, who, evidence, { enterpriseId: ent!.id });
    // @seed:system-notices
    await seedSystemNotices(tx, who.admin.actor);
    // @seed:feedback — answers of the feedback surveys, through the module's service
    await seedFeedback(tx);
    // @seed:help — help files and FAQ of the credit system, through the help module's services
    await seedHelp(tx, who.admin, evidence);
    // @seed:library — 资料库: standard files (信用承诺书 in two versions …), a manual and a client tool (issue 19)
    await seedLibrary(tx, who.admin, evidence);
    // @seed:service-desk — an administrator's message and a customer-service conversation, through the services
    await seedServiceDesk(tx, { admin: ids.admin!, user: ids.user1!, auditor: ids.auditor! });
    // @seed:register — the registration review and one enterprise application waiting in it
    await seedRegistration(tx, passwordHash, evidence);
    // @seed:tender — projects of the five-in-one entry and their sections (issue 16)
    const tenderIds = await seedTender(tx, who);
    // @seed:deposits — user1's deposits on demo sections and one issued guarantee letter (demo history)
    await seedDeposits(tx, who, evidence, { school: tenderIds[0]!, dredge: tenderIds[1]! });
    // @seed:venue — the rooms of 场地管理 and this week's bookings (issue 16)
    await seedVenue(tx);
    // @seed:experts — the expert pool (专家库) and an extraction done through the module's service
    await seedExperts(tx, who.admin);
    await seedExtraction(tx, who.admin);
    // @seed:bids — user1's passphrase-protected bid key and a sealed bid on 第二实验小学 BD-01 (issue 16)
    await seedBids(tx, evidence.deps.storage, who);
    // @seed:opening — the agency's project whose deadline has just passed: three sealed bids, its hall due (issue 17)
    await seedOpeningDemo(tx, evidence.deps.storage, who, DEMO_ENTERPRISE_NAME);
    // @seed:evaluation — a section opened two hours ago, its committee of five (zj1…zj5) about to sit (issue 17)
    await seedEvaluationDemo(tx, evidence.deps.storage, who, passwordHash, DEMO_ENTERPRISE_NAME);
    // @seed:cost — the evaluation demo's cost files and a finished detection (issue 18)
    await seedCostDemo(tx, evidence.deps.storage, who.admin);
    // @seed:tender-files — each published section's 招标文件, user1's download of 太原 BD-01's, one clarification sent
    await seedTenderFiles(tx, who, evidence);
    // @seed:stats — 2026's earlier transactions (历史交易) and the statistics' summaries (issue 19)
    await seedStats(tx, ent!.id);
    // @seed:material — 太原市's material information prices: 2026年7月–10月 published, 11月 a draft (issue 19)
    await seedMaterialPrices(tx, who.admin.actor);
    // @seed:dex — 数据交换: what the demo published, pushed (one after retries, one failed); two registration syncs (issue 19)
    await seedDex(tx, who.admin.actor);
    await writeOpLog(tx, SYSTEM_ACTOR, { glName: '系统', logbook: '初始化演示数据' });
  }
}

/** The demo accounts as the services see a signed-in caller (each with a memo of its own, as a request has). */
async function demoCallers(tx: Db, ids: Record<string, string>) {
  const rows = await tx
    .select()
    .from(users)
    .where(inArray(users.id, Object.values(ids)));
  const of = (account: string) => {
    const u = rows.find((r) => r.account === account)!;
    return {
      id: u.id,
      loginRoleType: u.loginRoleType,
      enterpriseId: u.enterpriseId,
      actor: { userId: u.id, userName: u.userName, loginRoleType: u.loginRoleType as LoginRoleType },
      memo: requestMemo({}),
    };
  };
  return {
    user: of('user1'),
    admin: of('admin'),
    auditor: of('auditor'),
    agent: of('agent'),
    bidder2: of('bid2'),
    bidder3: of('bid3'),
    supervisor: of('supervisor'),
  };
}

/**
 * SXGC-2026-1005 BD-01: entered by the agent three weeks ago, its bid deadline ten minutes before the seed ran; user1,
 * bid2 and bid3 sealed their bids on the third day. Sign in as `agent` to open it, as the bidders to decrypt.
 */
async function seedOpeningDemo(
  tx: Db,
  storage: Storage,
  who: Awaited<ReturnType<typeof demoCallers>>,
  demoEnterprise: string,
) {
  const DAY = 86_400_000;
  const now = Date.now();
  const deadline = new Date(Math.floor((now - 10 * 60_000) / 60_000) * 60_000);
  const past = new Date(now - 22 * DAY);
  const sectionId = await seedOpeningProject(tx, who, past, deadline);
  const nameOf = async (c: { enterpriseId: string | null }) =>
    (await tx.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, c.enterpriseId!)))[0]!.name;
  await seedOpeningBids(
    tx,
    storage,
    sectionId,
    [
      {
        caller: who.user,
        enterpriseName: demoEnterprise,
        contact: '张建国',
        phone: '13800138000',
        summary: { price: 17_286_450, durationDays: 365, quality: '合格', manager: '张伟' },
      },
      {
        caller: who.bidder2,
        enterpriseName: await nameOf(who.bidder2),
        contact: '刘志强',
        phone: '13903517788',
        summary: { price: 17_512_300.5, durationDays: 360, quality: '合格', manager: '王建军' },
      },
      {
        caller: who.bidder3,
        enterpriseName: await nameOf(who.bidder3),
        contact: '陈海燕',
        phone: '13603512266',
        summary: { price: 16_958_720, durationDays: 380, quality: '合格', manager: '郭晓东' },
      },
    ],
    new Date(past.getTime() + 2 * DAY),
  );
}
