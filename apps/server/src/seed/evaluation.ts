import { appNow, type BidSummary, creditCodeCheckChar, DEFAULT_TIME_ZONE, dateTimeIn } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bidFiles, enterprises, expertExtractionMembers, users } from '../db/schema';
import type { BidCaller } from '../modules/bids/bids.service';
import type { EngineCaller } from '../modules/engine/record-access';
import * as evaluation from '../modules/evaluation/evaluation.service';
import * as extraction from '../modules/experts/extraction.service';
import * as monitor from '../modules/monitor/monitor.service';
import * as opening from '../modules/opening/opening.service';
import type { Storage } from '../platform/storage';
import { demoFileKey, seedOpeningBids } from './bids';
import { seedOpeningProject } from './tender';

/** The evaluation demo's project (SXGC-2026-1006): opened this morning, its committee about to sit. */
export const EVALUATION_PROJECT = {
  xmmc: '晋中市榆次区第二人民医院门诊综合楼建设工程',
  xmbh: 'SXGC-2026-1006',
  xmlx: '房屋建筑工程',
  zbfs: '公开招标',
  zbr: '晋中市榆次区卫生健康局',
  zbrdm: `11140702MB1970254${creditCodeCheckChar('11140702MB1970254')}`,
  dljg: '山西沁河招标代理有限公司',
  xmszd: ['山西省', '晋中市', '榆次区'],
  ztz: 31_500_000,
  zjly: '财政资金',
  xmgk: '新建门诊综合楼一栋，地上五层、地下一层，建筑面积 14,820 平方米，框架剪力墙结构，含室外工程及医用气体管道。',
  lxr: '赵立新',
  lxdh: '13803456721',
};

/** The demo experts' accounts: the password is the demo password; each phone is the one the expert pool holds. */
export const DEMO_EXPERT_ACCOUNTS = ['zj1', 'zj2', 'zj3', 'zj4', 'zj5'] as const;

type Caller = EngineCaller & BidCaller;

/**
 * SXGC-2026-1006 BD-01 (issue 17): entered by the agent a month ago; user1, bid2 and bid3 sealed bids; its deadline
 * was two hours before the seed ran, and the agent opened it then in the hall through the opening module's own
 * service (sign-in, decryption with each bid's file key, the drawn order, the reading, three confirmations, close).
 * Five experts were drawn for it (3 房屋建筑工程, 2 工程造价, the bidders' and the tenderee's employers avoided), all
 * confirmed; each has an account (zj1…zj5, the demo password, the pool's phone verified). The agent began the
 * evaluation with that committee: the experts sign in, declare, elect a chair and score.
 */
export async function seedEvaluationDemo(
  tx: Db,
  storage: Storage,
  who: {
    agent: Caller;
    auditor: Caller;
    admin: Caller;
    user: Caller;
    bidder2: Caller;
    bidder3: Caller;
    supervisor: Caller;
  },
  passwordHash: string,
  demoEnterprise: string,
  seededAt = Date.now(),
) {
  const DAY = 86_400_000;
  const MIN = 60_000;
  const deadline = new Date(Math.floor((seededAt - 120 * MIN) / MIN) * MIN);
  const past = new Date(seededAt - 30 * DAY);
  const sectionId = await seedOpeningProject(tx, who, past, deadline, EVALUATION_PROJECT, {
    estimate: 27_900_000,
    deposit: 500_000,
  });
  const nameOf = async (c: { enterpriseId: string | null }) =>
    (await tx.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, c.enterpriseId!)))[0]!.name;
  const bidders: { caller: Caller; enterpriseName: string; contact: string; phone: string; summary: BidSummary }[] = [
    {
      caller: who.user,
      enterpriseName: demoEnterprise,
      contact: '张建国',
      phone: '13800138000',
      summary: { price: 26_815_400, durationDays: 480, quality: '合格', manager: '张伟' },
    },
    {
      caller: who.bidder2,
      enterpriseName: await nameOf(who.bidder2),
      contact: '刘志强',
      phone: '13903517788',
      summary: { price: 27_368_950.6, durationDays: 460, quality: '合格', manager: '王建军' },
    },
    {
      caller: who.bidder3,
      enterpriseName: await nameOf(who.bidder3),
      contact: '陈海燕',
      phone: '13603512266',
      summary: { price: 25_976_300, durationDays: 500, quality: '合格', manager: '郭晓东' },
    },
  ];
  await seedOpeningBids(
    tx,
    storage,
    sectionId,
    bidders,
    new Date(past.getTime() + 3 * DAY),
    {
      name: EVALUATION_PROJECT.xmmc,
      section: 'BD-01 施工标段',
      to: '致：晋中市榆次区卫生健康局（招标人）、山西沁河招标代理有限公司（招标代理）',
    },
    'evaluation',
  );

  // the opening, through the hall's service, in the minutes after the deadline
  const at = (minutes: number) => ({ db: tx, storage, now: () => new Date(deadline.getTime() + minutes * MIN) });
  for (const b of bidders) await opening.signIn(at(-5), b.caller, sectionId);
  await opening.start(at(1), who.agent, { sectionId, decryptMinutes: 30 });
  for (const [i, b] of bidders.entries()) {
    const [bid] = await tx
      .select({ id: bidFiles.id })
      .from(bidFiles)
      .where(and(eq(bidFiles.sectionId, sectionId), eq(bidFiles.enterpriseId, b.caller.enterpriseId!)));
    await opening.decrypt(at(3 + i * 2), b.caller, {
      bidId: bid!.id,
      fileKey: demoFileKey(`evaluation-${i}`).toString('base64'),
    });
  }
  await opening.draw(at(10), who.agent, sectionId);
  for (let i = 0; i < bidders.length; i++) await opening.readNext(at(11 + i), who.agent, sectionId);
  for (const [i, b] of bidders.entries()) {
    await opening.respond(at(15 + i), b.caller, { sectionId, kind: 'confirm' });
  }
  await opening.close(at(20), who.agent, sectionId);

  // the committee: drawn for the section (its side and its bidders avoided), every expert confirming by phone
  const now = new Date(deadline.getTime() + 25 * MIN);
  const created = await extraction.create(
    tx,
    who.admin,
    {
      sectionId,
      projectName: EVALUATION_PROJECT.xmmc,
      sectionName: 'BD-01 施工标段',
      projectRef: '',
      openingAt: dateTimeIn(deadline, DEFAULT_TIME_ZONE),
      evaluationStartAt: appNow(new Date(seededAt + 120 * MIN), DEFAULT_TIME_ZONE),
      location: '晋中市公共资源交易中心 3 号评标室',
      conditions: {
        tendereeReps: 0,
        lines: [
          { specialty: '房屋建筑工程', count: 3 },
          { specialty: '工程造价', count: 2 },
        ],
        regions: ['太原市', '晋中市', '阳泉市', '吕梁市', '忻州市'],
        avoidEmployers: ['晋中市榆次区卫生健康局'],
        avoidExpertIds: [],
        recentDays: 30,
      },
    },
    now,
  );
  await extraction.commit(tx, who.admin, created.id, now);
  const drawn = await extraction.draw(tx, who.admin, created.id, now);
  for (const m of drawn.members) {
    await extraction.answer(
      tx,
      who.admin,
      { id: created.id, memberId: m.id, answer: 'confirmed', note: '电话确认参加' },
      now,
    );
  }
  await extraction.finalize(tx, who.admin, created.id, now);

  // each expert's account: the phone of the pool, verified
  const members = await tx
    .select()
    .from(expertExtractionMembers)
    .where(eq(expertExtractionMembers.extractionId, created.id))
    .orderBy(expertExtractionMembers.line, expertExtractionMembers.seq);
  for (const [i, m] of members.entries()) {
    await tx.insert(users).values({
      account: DEMO_EXPERT_ACCOUNTS[i]!,
      userName: m.name,
      loginRoleType: 'U',
      passwordHash,
      enterpriseId: null,
      phone: m.phone,
      phoneVerifiedAt: now,
    });
  }
  await evaluation.begin({ db: tx, storage, now: () => now, tz: DEFAULT_TIME_ZONE }, who.agent, {
    sectionId,
    extractionId: created.id,
    method: 'comprehensive',
  });
  // the centre's administrator puts the supervision office's 李振华 in charge of it (监督台)
  await monitor.assign({ db: tx, storage, now: () => now, tz: DEFAULT_TIME_ZONE }, who.admin, {
    sectionId,
    userId: who.supervisor.id,
  });
  return sectionId;
}
