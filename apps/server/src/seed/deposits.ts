import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenderRegistrations, tenderSections, tradeDeposits, tradeGuarantees } from '../db/schema';
import { virtualAccountOf } from '../modules/deposits/deposits.service';
import type { EngineCaller } from '../modules/engine/record-access';
import type { FileCaller } from '../modules/files/caller';
import { writeOpLog } from '../platform/oplog';
import type { Evidence } from './evidence';

/**
 * Deposits and guarantee letters of the demo (issue 16): the demo enterprise is registered for the two demo sections
 * its qualifications meet (建筑工程 and 市政公用工程施工总承包二级) — the 大同 sewer section's deposit paid in cash and
 * received by the centre, the 太原 school's 施工 section secured by a bid guarantee letter issued before (demo history:
 * its PDF is a seeded file, no issuer was called). The 大同 registration is the registration seed's (made through the
 * module's check); the school's is inserted here (its requirement, 建筑工程施工总承包二级, is one the enterprise holds).
 */
const MIN = 60_000;

export async function seedDeposits(
  tx: Db,
  who: { user: FileCaller; admin: EngineCaller },
  evidence: Evidence,
  sectionIds: { school: string; dredge: string },
  now = new Date(),
) {
  const enterpriseId = who.user.enterpriseId!;
  const sections = await tx
    .select()
    .from(tenderSections)
    .where(inArray(tenderSections.projectId, [sectionIds.school, sectionIds.dredge]));
  const pick = (projectId: string, code: string) => sections.find((s) => s.projectId === projectId && s.code === code)!;
  const build = pick(sectionIds.school, 'BD-01');
  const pipes = pick(sectionIds.dredge, 'BD-01');
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MIN);
  for (const s of [build, pipes]) {
    await tx
      .insert(tenderRegistrations)
      .values({
        sectionId: s.id,
        enterpriseId,
        userId: who.user.id,
        contact: who.user.actor.userName,
        phone: '13800138000',
        registeredAt: at(240),
      })
      .onConflictDoNothing();
  }
  const [reg] = await tx
    .select()
    .from(tenderRegistrations)
    .where(and(eq(tenderRegistrations.sectionId, pipes.id), eq(tenderRegistrations.enterpriseId, enterpriseId)));
  if (!reg) return;

  // the 大同 sewer section: paid from the enterprise's basic account, received by the centre
  const [paid] = await tx
    .insert(tradeDeposits)
    .values({
      sectionId: pipes.id,
      enterpriseId,
      amount: Number(pipes.deposit),
      status: 'received',
      virtualAccount: virtualAccountOf(pipes.id, enterpriseId),
      payerAccount: '0502012309300166688',
      payerBank: '中国工商银行太原长治路支行',
      paidAt: at(180),
      paidBy: who.user.id,
      paidByName: who.user.actor.userName,
      receivedAt: at(120),
      receivedBy: who.admin.id,
      receivedByName: who.admin.actor.userName,
      createdAt: at(180),
      updatedAt: at(120),
    })
    .returning();
  await writeOpLog(tx, who.user.actor, {
    glName: '投标保证金',
    recordId: paid!.id,
    logbook: `缴纳标段 ${pipes.code} ${pipes.name} 的投标保证金（演示数据）`,
  });

  // 施工标段: a bid guarantee letter issued before (demo history, its PDF seeded)
  const guaranteeNo = 'JSBH-2026-110101';
  const issuer = '晋商银行股份有限公司太原分行';
  const amount = Number(build.deposit).toLocaleString('zh-CN', { minimumFractionDigits: 2 });
  const file = await evidence.upload(who.user, {
    name: `投标保函-${build.code}-${guaranteeNo}.pdf`,
    form: {
      title: '投标保函',
      note: `保函编号：${guaranteeNo}（演示数据）`,
      rows: [
        ['申请人', '示例建设工程有限公司'],
        ['受益人', '太原市晋源区教育局'],
        ['项目', '太原市晋源区第二实验小学教学综合楼建设工程'],
        ['标段', `${build.code} ${build.name}`],
        ['担保金额（元）', amount],
        ['出函机构', issuer],
      ],
      footer: ['出函机构（电子签章）', `出函日期：${now.toISOString().slice(0, 10)}`],
    },
  });
  const id = randomUUID();
  await tx.insert(tradeGuarantees).values({
    id,
    sectionId: build.id,
    enterpriseId,
    applicantId: who.user.id,
    applicantName: who.user.actor.userName,
    amount: Number(build.deposit),
    status: 'issued',
    issuerName: issuer,
    orderNo: 'DEMO-ORDER-0001',
    guaranteeNo,
    fileId: file.fileId,
    attempts: 2,
    requestedAt: at(100),
    issuedAt: at(90),
    createdAt: at(150),
    updatedAt: at(90),
  });
  await writeOpLog(tx, who.user.actor, {
    glName: '电子保函',
    recordId: id,
    logbook: `${issuer}出具投标保函 ${guaranteeNo}（演示数据）`,
  });
}
