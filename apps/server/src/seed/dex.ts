import { appToday, creditCodeCheckChar, REGION_DIVISION_CODES } from '@ks/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dexOutbox, dexPushAttempts, dexRegistrations, enterprises } from '../db/schema';
import { approveRegistration, rejectRegistration } from '../modules/dex/dex.pull.service';
import { recordPull } from '../modules/dex/dex.sync';
import type { Actor } from '../platform/oplog';

/**
 * 数据交换 history for a newcomer (issue 19): the pushes of what the demo published — most sent at once, one after two
 * failed attempts, one failed after five — and two registration syncs from the provincial platform twelve and two days
 * ago, applied through the sync's own code, with an administrator's decisions through the review service: two
 * registrations of enterprises already in the library passed as they were, one dismissed, three new ones and one change
 * (a new legal representative) waiting, one refused for its credit code. Nothing in `enterprises` changes.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

export async function seedDex(tx: Db, admin: Actor, now = new Date()): Promise<void> {
  await seedPushes(tx);
  await seedRegistrations(tx, admin, now);
}

async function seedPushes(tx: Db) {
  const rows = await tx.select().from(dexOutbox).orderBy(asc(dexOutbox.createdAt), asc(dexOutbox.businessKey));
  if (rows.length < 3) return;
  const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
  const retried = rows[rows.length - 2]!;
  const failed = rows[rows.length - 1]!;
  for (const [i, r] of rows.entries()) {
    const start = at(r.createdAt, 2_000 + (i % 5) * 700);
    if (r.id === failed.id) {
      const errors: [number | null, string][] = [
        [503, '上级平台返回 HTTP 503：{"code":503,"message":"服务维护中"}'],
        [null, '上级平台 10000 毫秒内未应答'],
        [503, '上级平台返回 HTTP 503：{"code":503,"message":"服务维护中"}'],
        [null, '无法连接上级平台：fetch failed'],
        [502, '上级平台返回 HTTP 502：Bad Gateway'],
      ];
      let t = start;
      for (const [n, [status, error]] of errors.entries()) {
        await tx.insert(dexPushAttempts).values({
          outboxId: r.id,
          attempt: n + 1,
          startedAt: t,
          httpStatus: status,
          // no answer: the client's timeout, or a refused connection at once
          durationMs: status !== null ? 180 + n * 37 : error.includes('未应答') ? 10_000 : 3,
          ok: false,
          error,
        });
        t = at(t, 10_000 * 2 ** n);
      }
      await tx
        .update(dexOutbox)
        .set({ status: 'failed', attempts: 5, lastStatus: 502, lastError: errors[4]![1], updatedAt: t })
        .where(eq(dexOutbox.id, r.id));
      continue;
    }
    const attempts =
      r.id === retried.id
        ? [
            { httpStatus: 502, ok: false, error: '上级平台返回 HTTP 502：Bad Gateway', durationMs: 214 },
            { httpStatus: null, ok: false, error: '上级平台 10000 毫秒内未应答', durationMs: 10_000 },
            { httpStatus: 200, ok: true, error: null, durationMs: 168 },
          ]
        : [{ httpStatus: 200, ok: true, error: null, durationMs: 120 + (i % 7) * 43 }];
    let t = start;
    for (const [n, a] of attempts.entries()) {
      await tx.insert(dexPushAttempts).values({ outboxId: r.id, attempt: n + 1, startedAt: t, ...a });
      if (n < attempts.length - 1) t = at(t, 10_000 * 2 ** n);
    }
    const sentAt = at(t, attempts[attempts.length - 1]!.durationMs);
    await tx
      .update(dexOutbox)
      .set({ status: 'sent', attempts: attempts.length, lastStatus: 200, lastError: null, sentAt, updatedAt: sentAt })
      .where(eq(dexOutbox.id, r.id));
  }
}

type Raw = Record<string, unknown>;
const record = (
  id: string,
  name: string,
  creditCode: string,
  legalPerson: string,
  capital: string,
  regionCode: string,
  address: string,
  establishedAt: string,
  entType: string,
  updatedAt: Date,
): Raw => ({
  id,
  name,
  creditCode,
  legalPerson,
  registeredCapital: capital,
  regionCode,
  address,
  establishedAt,
  entType,
  regType: '设立登记',
  regStatus: '存续',
  updatedAt: updatedAt.toISOString(),
});

async function seedRegistrations(tx: Db, admin: Actor, now: Date) {
  // two enterprises of the library as the upstream knows them: a supervisor and a designer
  const known = [];
  for (const type of ['监理企业', '设计企业']) {
    const [e] = await tx
      .select()
      .from(enterprises)
      .where(eq(enterprises.enterpriseType, type))
      .orderBy(asc(enterprises.creditCode))
      .limit(1);
    if (e) known.push(e);
  }
  const t1 = new Date(now.getTime() - 12 * DAY);
  const t2 = new Date(now.getTime() - 2 * DAY);
  const u1 = (h: number) => new Date(t1.getTime() - 30 * HOUR + h * HOUR);
  const u2 = (h: number) => new Date(t2.getTime() - 20 * HOUR + h * HOUR);
  const fromLibrary = known.map((e, i) =>
    record(
      `SXSCJG-${REGION_DIVISION_CODES[e.region as keyof typeof REGION_DIVISION_CODES] ?? '140100'}-2015-00${1001 + i}`,
      e.name,
      e.creditCode,
      e.legalPerson ?? '',
      e.registeredCapital ?? '',
      REGION_DIVISION_CODES[e.region as keyof typeof REGION_DIVISION_CODES] ?? '140100',
      e.address ?? '',
      e.establishedAt ?? '',
      e.enterpriseType,
      u1(i),
    ),
  );
  const dismissed = record(
    'SXSCJG-140106-2018-001010',
    '山西汾河建工集团有限公司',
    code('91140106MA0K3PJ2R'),
    '杨振华',
    '300000000.00',
    '140106',
    '太原市迎泽区并州南路 126 号',
    '2018-05-22',
    '施工企业',
    u1(3),
  );
  const waiting = [
    record(
      'SXSCJG-140108-2017-001011',
      '太原市龙城市政工程有限公司',
      code('91140108MA0JY6T4H'),
      '韩立军',
      '50000000.00',
      '140108',
      '太原市尖草坪区胜利街 508 号',
      '2017-03-14',
      '施工企业',
      u1(4),
    ),
    record(
      'SXSCJG-140729-2012-001012',
      '晋中市平遥古城建筑装饰有限公司',
      code('91140729MA0HK2W8P'),
      '雷红霞',
      '20000000.00',
      '140729',
      '晋中市平遥县顺城路 61 号',
      '2012-09-07',
      '施工企业',
      u1(5),
    ),
    record(
      'SXSCJG-140213-2009-001013',
      '大同市北岳建筑设计研究院有限公司',
      code('91140213MA0GT5N3Q'),
      '高志远',
      '10000000.00',
      '140213',
      '大同市平城区魏都大道 233 号',
      '2009-11-30',
      '设计企业',
      u1(6),
    ),
  ];
  const refusedFirst17 = '91140403MA0LW7R2K';
  const right = creditCodeCheckChar(refusedFirst17)!;
  const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  const refused = record(
    'SXSCJG-140403-2014-001014',
    '长治市潞安机电设备安装有限公司',
    `${refusedFirst17}${chars[(chars.indexOf(right) + 5) % chars.length]}`,
    '申国强',
    '30000000.00',
    '140403',
    '长治市潞州区太行东街 377 号',
    '2014-04-02',
    '施工企业',
    u1(7),
  );
  const today = (d: Date) => appToday(d);
  await recordPull(tx, admin, [...fromLibrary, dismissed, ...waiting, refused], {
    at: t1,
    today: today(t1),
    full: true,
    since: null,
  });
  const deps = { db: tx, configured: false, kick: () => undefined, tz: 'Asia/Shanghai' };
  const stored = async (ids: unknown[]) =>
    tx
      .select()
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, ids as string[]));
  const decidedAt = new Date(t1.getTime() + 3 * HOUR);
  for (const r of await stored(fromLibrary.map((x) => x.id))) {
    await approveRegistration({ ...deps, now: () => decidedAt }, admin, { id: r.id, version: r.version });
  }
  const [d] = await stored([dismissed.id]);
  await rejectRegistration({ ...deps, now: () => new Date(decidedAt.getTime() + 10 * 60_000) }, admin, {
    id: d!.id,
    version: d!.version,
    reason: '注册资本 3 亿元与企业提交的营业执照（1 亿元）不一致，待上游平台更正后重新同步',
  });

  // ten days later: the first known enterprise has a new legal representative; one more enterprise; the rest as before
  const changed = fromLibrary[0]
    ? [{ ...fromLibrary[0], legalPerson: '周文彬', regType: '变更登记', updatedAt: u2(1).toISOString() }]
    : [];
  const added = record(
    'SXSCJG-140802-2020-001015',
    '运城市关公故里园林工程有限公司',
    code('91140802MA0P4XK7T'),
    '解永红',
    '15000000.00',
    '140802',
    '运城市盐湖区解州镇关帝庙街 18 号',
    '2020-06-16',
    '施工企业',
    u2(2),
  );
  await recordPull(
    tx,
    admin,
    [
      ...changed,
      { ...waiting[2]!, updatedAt: u2(0).toISOString() },
      { ...refused, updatedAt: u2(3).toISOString() },
      added,
    ],
    { at: t2, today: today(t2), full: false, since: u1(7) },
  );
}
