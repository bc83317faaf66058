import {
  dateIn,
  dateTimeIn,
  EVAL_MSG,
  type EvalBidderOutcome,
  type EvalOutcome,
  type EvalResult,
  type EvalRoom,
  OPENING_STATUS_LABELS,
  type OpeningStatus,
  type TradeButtons,
} from '@ks/contracts';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { bidEvaluations, bidFiles, bidOpenings, bidResultObjections, enterprises, users } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { escapeHtml as h, sanitizeRichText as sanitizeHtml } from '../../platform/sanitize';
import { raiseAwardRecord } from '../credit/records.service';
import { enqueuePush } from '../dex/dex.outbox';
import { textPdf } from '../files/templates/pdf';
import { appendEvent, ledgerActor } from '../ledger/ledger';
import { insertNotice } from '../portal/notices.repo';
import { regionOf } from '../tender/notice.service';
import { projects } from '../tender/project';
import { type SectionRow, sectionOr404 } from '../tender/section.repo';
import { tenderSettings } from '../tender/tender.service';
import { clarificationsOf } from './evaluation.clarify';
import type { EvalCaller, EvalDeps } from './evaluation.deps';

/**
 * What follows the evaluation (issue 17, Results): the host publishes the candidates (中标候选人公示) on the portal for
 * at least the setting's days (by law 3), within the setting's days of the report (by law 3: a later one is flagged to
 * supervisors); bidders object during the period and the host answers on the record; after the period, with every
 * objection answered, the first candidate is awarded: the result notice (中标结果公告) goes to the portal and the award
 * notice (中标通知书) is a PDF. Every step is in the tamper-evident log.
 */

const DAY = 86_400_000;
const placeOf = (p: Record<string, unknown> | undefined) =>
  Array.isArray(p?.xmszd) ? p.xmszd.join('/') : typeof p?.xmszd === 'string' ? p.xmszd : null;
const v = (p: Record<string, unknown> | undefined, k: string) => h(String(p?.[k] ?? ''));
const GL_NAME = '评标';

type EvalRow = typeof bidEvaluations.$inferSelect;
type Named = EvalResult & { names?: Record<string, string> };

const yuan = (v: number) =>
  `¥${v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })}`;

/** The first three qualified bidders, as published. */
export function candidatesOf(e: EvalRow): EvalOutcome['candidates'] {
  const r = e.result as Named | null;
  if (!r) return [];
  return r.rows
    .filter((x) => x.rank !== null && x.rank <= 3)
    .map((x) => ({
      rank: x.rank!,
      bidId: x.bidId,
      enterpriseName: r.names?.[x.bidId] ?? '',
      price: x.price,
      total: x.total,
    }));
}

async function objectionsOf(q: DbOrTx, sectionId: string, enterpriseId?: string) {
  const rows = await q
    .select({ o: bidResultObjections, enterpriseName: enterprises.name, userName: users.userName })
    .from(bidResultObjections)
    .innerJoin(enterprises, eq(enterprises.id, bidResultObjections.enterpriseId))
    .innerJoin(users, eq(users.id, bidResultObjections.userId))
    .where(
      and(
        eq(bidResultObjections.sectionId, sectionId),
        enterpriseId ? eq(bidResultObjections.enterpriseId, enterpriseId) : undefined,
      ),
    )
    .orderBy(asc(bidResultObjections.at));
  return rows.map((r) => ({
    id: r.o.id,
    enterpriseName: r.enterpriseName,
    userName: r.userName,
    text: r.o.text,
    at: r.o.at.toISOString(),
    answer: r.o.answer,
    answeredAt: r.o.answeredAt?.toISOString() ?? null,
  }));
}

/** The outcome of a finished evaluation (null before it is done). */
export async function outcomeOf(
  db: Db,
  e: EvalRow | null,
  now: Date,
  enterpriseId?: string,
): Promise<EvalOutcome | null> {
  if (e?.status !== 'done') return null;
  const settings = await tenderSettings(db);
  const publishBy = e.doneAt ? new Date(e.doneAt.getTime() + settings.publicityWithinDays * DAY) : null;
  const candidates = candidatesOf(e);
  const award = e.awardBidId
    ? {
        bidId: e.awardBidId,
        enterpriseName: candidates.find((x) => x.bidId === e.awardBidId)?.enterpriseName ?? '',
        at: e.awardedAt!.toISOString(),
        resultNoticeId: e.resultNoticeId ?? '',
      }
    : null;
  return {
    candidates,
    publishBy: publishBy?.toISOString() ?? null,
    publicity:
      e.publicityNoticeId && e.publicityStart && e.publicityEnd
        ? {
            noticeId: e.publicityNoticeId,
            start: e.publicityStart.toISOString(),
            end: e.publicityEnd.toISOString(),
            late: Boolean(publishBy && e.publicityStart.getTime() > publishBy.getTime()),
            running: now.getTime() < e.publicityEnd.getTime(),
          }
        : null,
    objections: await objectionsOf(db, e.sectionId, enterpriseId),
    award,
  };
}

/** The host's actions on the outcome. */
export function outcomeActions(isHost: boolean, o: EvalOutcome | null, now: Date) {
  const published = Boolean(o?.publicity);
  const open = o?.objections.some((x) => !x.answer) ?? false;
  return {
    publish: isHost && o !== null && !published && o.candidates.length > 0,
    answer: isHost && open,
    award: isHost && published && !o!.award && !open && now.getTime() >= Date.parse(o!.publicity!.end),
    awardNotice: Boolean(o?.award),
  };
}

const announce = (q: DbOrTx, sectionId: string) => publishEvent(q, { everyone: true }, 'evaluation', { sectionId });

function candidatesHtml(
  project: Record<string, unknown> | undefined,
  s: SectionRow,
  c: EvalOutcome['candidates'],
  start: Date,
  end: Date,
  tz: string,
) {
  const rows = c
    .map(
      (x) =>
        `<tr><td>第${x.rank}名</td><td>${h(x.enterpriseName)}</td><td>${yuan(x.price)}</td><td>${x.total ?? '—'}</td></tr>`,
    )
    .join('');
  return sanitizeHtml(
    `<h3>一、项目概况</h3><p>${v(project, 'xmmc')}（项目编号 ${v(project, 'xmbh')}）${h(s.code)} ${h(s.name)}，招标人：${v(project, 'zbr')}，招标代理：${v(project, 'dljg')}。</p>` +
      `<h3>二、中标候选人</h3><table><tr><th>排序</th><th>中标候选人</th><th>投标报价</th><th>评标得分</th></tr>${rows}</table>` +
      `<h3>三、公示期</h3><p>${dateTimeIn(start, tz)} 至 ${dateTimeIn(end, tz)}。投标人或者其他利害关系人对评标结果有异议的，应当在公示期内通过本平台提出。</p>`,
  );
}

/** Publish the candidates on the portal. */
export async function publish(
  deps: EvalDeps,
  c: EvalCaller,
  section: SectionRow,
  days: number | undefined,
): Promise<void> {
  const now = deps.now();
  const settings = await tenderSettings(deps.db);
  const period = days ?? settings.publicityDays;
  if (period < settings.publicityDays) throw badRequest(EVAL_MSG.publicityTooShort(settings.publicityDays));
  await deps.db.transaction(async (tx) => {
    const [e] = await tx.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, section.id)).for('update');
    if (e?.status !== 'done') throw conflict(EVAL_MSG.notDone);
    if (e.publicityNoticeId) throw conflict(EVAL_MSG.alreadyPublished);
    const candidates = candidatesOf(e);
    if (!candidates.length) throw conflict(EVAL_MSG.noCandidates);
    const end = new Date(now.getTime() + period * DAY);
    const project = (await projects.get(tx, section.projectId))?.values;
    const notice = await insertNotice(tx, {
      title: `${String(project?.xmmc ?? '')}${section.code}中标候选人公示`,
      category: '中标候选人公示',
      tradeType: '工程建设',
      region: regionOf(placeOf(project)),
      projectCode: (project?.xmbh as string | undefined) ?? null,
      projectName: (project?.xmmc as string | undefined) ?? null,
      sectionName: `${section.code} ${section.name}`,
      tenderer: (project?.zbr as string | undefined) ?? null,
      amount: candidates[0]!.price.toFixed(2),
      bodyHtml: candidatesHtml(project, section, candidates, now, end, deps.tz),
      attachments: [],
      status: 'published',
      publishedAt: now,
      createdBy: c.id,
    });
    await tx
      .update(bidEvaluations)
      .set({ publicityNoticeId: notice.id, publicityStart: now, publicityEnd: end })
      .where(eq(bidEvaluations.sectionId, section.id));
    // 交易推送 (issue 19): the evaluation result (candidates) goes to the upstream platform's outbox, same transaction
    await enqueuePush(tx, {
      businessKey: `candidates:${section.id}`,
      kind: 'result',
      title: `${String(project?.xmmc ?? '')}${section.code}中标候选人公示`,
      payload: {
        noticeId: notice.id,
        category: '中标候选人公示',
        projectCode: (project?.xmbh as string | undefined) ?? null,
        sectionCode: section.code,
        sectionName: section.name,
        publicityStart: now.toISOString(),
        publicityEnd: end.toISOString(),
        candidates: candidates.map((x) => ({
          rank: x.rank,
          enterpriseName: x.enterpriseName,
          price: x.price.toFixed(2),
        })),
      },
    });
    const publishBy = e.doneAt ? new Date(e.doneAt.getTime() + settings.publicityWithinDays * DAY) : null;
    const late = Boolean(publishBy && now.getTime() > publishBy.getTime());
    await appendEvent(tx, {
      kind: 'evaluation.published',
      sectionId: section.id,
      actor: ledgerActor(c.actor),
      payload: {
        noticeId: notice.id,
        start: now.toISOString(),
        end: end.toISOString(),
        days: period,
        late,
        candidates: candidates.map((x) => ({ rank: x.rank, bidId: x.bidId, enterpriseName: x.enterpriseName })),
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `发布中标候选人公示到门户（公告 ${notice.id}），公示期 ${period} 日${late ? '（晚于收到评标报告后的公示期限）' : ''}（标段 ${section.code}）`,
    });
    await announce(tx, section.id);
  });
}

export async function answerObjection(
  deps: EvalDeps,
  c: EvalCaller,
  input: { id: string; answer: string },
  hostOf: (sectionId: string) => Promise<SectionRow>,
) {
  const [o] = await deps.db.select().from(bidResultObjections).where(eq(bidResultObjections.id, input.id));
  if (!o) throw notFound(EVAL_MSG.objectionMissing);
  const section = await hostOf(o.sectionId);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const done = await tx
      .update(bidResultObjections)
      .set({ answer: input.answer, answeredAt: now, answeredBy: c.id })
      .where(and(eq(bidResultObjections.id, o.id), isNull(bidResultObjections.answer)))
      .returning();
    if (!done.length) throw conflict(EVAL_MSG.objectionAnswered);
    const [ent] = await tx
      .select({ name: enterprises.name })
      .from(enterprises)
      .where(eq(enterprises.id, o.enterpriseId));
    await appendEvent(tx, {
      kind: 'evaluation.objection_answered',
      sectionId: section.id,
      actor: ledgerActor(c.actor),
      payload: { objectionId: o.id, enterpriseName: ent?.name ?? '', answer: input.answer },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `答复${ent?.name ?? ''}对中标候选人的异议（标段 ${section.code}）`,
    });
    await announce(tx, section.id);
  });
  return section.id;
}

export async function award(deps: EvalDeps, c: EvalCaller, section: SectionRow): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [e] = await tx.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, section.id)).for('update');
    if (e?.status !== 'done') throw conflict(EVAL_MSG.notDone);
    if (!e.publicityNoticeId || !e.publicityEnd) throw conflict(EVAL_MSG.notPublished);
    if (e.awardBidId) throw conflict(EVAL_MSG.alreadyAwarded);
    if (now.getTime() < e.publicityEnd.getTime()) throw conflict(EVAL_MSG.publicityRunning);
    const open = await tx
      .select({ id: bidResultObjections.id })
      .from(bidResultObjections)
      .where(and(eq(bidResultObjections.sectionId, section.id), isNull(bidResultObjections.answer)))
      .limit(1);
    if (open.length) throw conflict(EVAL_MSG.openObjections);
    const first = candidatesOf(e)[0];
    if (!first) throw conflict(EVAL_MSG.noCandidates);
    const project = (await projects.get(tx, section.projectId))?.values;
    const notice = await insertNotice(tx, {
      title: `${String(project?.xmmc ?? '')}${section.code}中标结果公告`,
      category: '中标结果公告',
      tradeType: '工程建设',
      region: regionOf(placeOf(project)),
      projectCode: (project?.xmbh as string | undefined) ?? null,
      projectName: (project?.xmmc as string | undefined) ?? null,
      sectionName: `${section.code} ${section.name}`,
      tenderer: (project?.zbr as string | undefined) ?? null,
      amount: first.price.toFixed(2),
      bodyHtml: sanitizeHtml(
        `<p>${v(project, 'xmmc')}（项目编号 ${v(project, 'xmbh')}）${h(section.code)} ${h(section.name)}经评标委员会评审、中标候选人公示期满，确定中标人如下：</p>` +
          `<table><tr><th>中标人</th><th>中标价</th></tr><tr><td>${h(first.enterpriseName)}</td><td>${yuan(first.price)}</td></tr></table>` +
          `<p>招标人：${v(project, 'zbr')}　招标代理：${v(project, 'dljg')}</p>`,
      ),
      attachments: [],
      status: 'published',
      publishedAt: now,
      createdBy: c.id,
    });
    await tx
      .update(bidEvaluations)
      .set({ awardBidId: first.bidId, awardedAt: now, resultNoticeId: notice.id })
      .where(eq(bidEvaluations.sectionId, section.id));
    // 交易推送 (issue 19): the bid result goes to the upstream platform's outbox in this same transaction
    await enqueuePush(tx, {
      businessKey: `result:${section.id}`,
      kind: 'result',
      title: `${String(project?.xmmc ?? '')}${section.code}中标结果公告`,
      payload: {
        noticeId: notice.id,
        category: '中标结果公告',
        projectCode: (project?.xmbh as string | undefined) ?? null,
        sectionCode: section.code,
        sectionName: section.name,
        winner: first.enterpriseName,
        price: first.price.toFixed(2),
        awardedAt: now.toISOString(),
      },
    });
    // the winner's good conduct goes to the credit module (a record for its reviewers), where a standard item applies
    const [winner] = await tx
      .select({ enterpriseId: bidFiles.enterpriseId })
      .from(bidFiles)
      .where(eq(bidFiles.id, first.bidId));
    const credit = winner?.enterpriseId
      ? await raiseAwardRecord(
          tx,
          c.actor,
          {
            enterpriseId: winner.enterpriseId,
            title: `${String(project?.xmmc ?? '')}${section.code} ${section.name}中标`,
            issuer: String(project?.zbr ?? '') || '公共资源交易中心',
            sourceRef: `award:${section.id}`,
          },
          now,
        )
      : null;
    await appendEvent(tx, {
      kind: 'evaluation.awarded',
      sectionId: section.id,
      actor: ledgerActor(c.actor),
      payload: {
        bidId: first.bidId,
        enterpriseName: first.enterpriseName,
        price: first.price,
        noticeId: notice.id,
        creditRecordId: credit?.id ?? null,
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `确定中标人 ${first.enterpriseName}，发布中标结果公告（公告 ${notice.id}）${
        credit
          ? `，生成良好信用记录「${credit.standard}」${credit.score} 分待审核`
          : '，无对应的信用标准项，未生成信用记录'
      }（标段 ${section.code}）`,
    });
    await announce(tx, section.id);
  });
}

/** A bidder's enterprise with a bid in the section, or null. */
export async function bidderOf(db: DbOrTx, sectionId: string, enterpriseId: string | null) {
  if (!enterpriseId) return null;
  const [b] = await db
    .select({ id: bidFiles.id, name: enterprises.name })
    .from(bidFiles)
    .innerJoin(enterprises, eq(enterprises.id, bidFiles.enterpriseId))
    .where(and(eq(bidFiles.sectionId, sectionId), eq(bidFiles.enterpriseId, enterpriseId)))
    .limit(1);
  return b ?? null;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** The bidder's view: published candidates, its own objections, the award. */
export async function bidderOutcome(deps: EvalDeps, c: EvalCaller, sectionId: string): Promise<EvalBidderOutcome> {
  if (!isUuid(sectionId)) throw notFound(EVAL_MSG.sectionMissing);
  const section = await sectionOr404(deps.db, sectionId, EVAL_MSG.sectionMissing);
  const bidder = await bidderOf(deps.db, sectionId, c.enterpriseId);
  if (!bidder) throw notFound(EVAL_MSG.sectionMissing);
  const [e] = await deps.db.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, sectionId));
  const now = deps.now();
  const full = await outcomeOf(deps.db, e ?? null, now, c.enterpriseId!);
  // before the publicity nothing of the evaluation is told to a bidder
  const published = full?.publicity ? full : null;
  const project = await projects.get(deps.db, section.projectId);
  return {
    section: {
      id: section.id,
      code: section.code,
      name: section.name,
      projectName: String(project?.values.xmmc ?? ''),
    },
    enterpriseName: bidder.name,
    clarifications: e ? await clarificationsOf(deps.db, sectionId, now, c.enterpriseId!) : [],
    candidates: published?.candidates ?? [],
    publishBy: null,
    publicity: published?.publicity ?? null,
    objections: published?.objections ?? [],
    award: published?.award ?? null,
    actions: {
      object: Boolean(published?.publicity?.running),
      awardNotice: Boolean(published?.award?.bidId && (await isWinner(deps.db, published.award.bidId, c.enterpriseId))),
    },
  };
}

async function isWinner(db: DbOrTx, bidId: string, enterpriseId: string | null) {
  if (!enterpriseId) return false;
  const [b] = await db.select({ e: bidFiles.enterpriseId }).from(bidFiles).where(eq(bidFiles.id, bidId));
  return b?.e === enterpriseId;
}

export async function object(deps: EvalDeps, c: EvalCaller, input: { sectionId: string; text: string }) {
  if (!isUuid(input.sectionId)) throw notFound(EVAL_MSG.sectionMissing);
  const section = await sectionOr404(deps.db, input.sectionId, EVAL_MSG.sectionMissing);
  const bidder = await bidderOf(deps.db, section.id, c.enterpriseId);
  if (!bidder) throw notFound(EVAL_MSG.sectionMissing);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [e] = await tx.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, section.id)).for('share');
    if (!e?.publicityEnd || !e.publicityStart || now < e.publicityStart || now >= e.publicityEnd) {
      throw conflict(EVAL_MSG.publicityClosed);
    }
    const [o] = await tx
      .insert(bidResultObjections)
      .values({ sectionId: section.id, enterpriseId: c.enterpriseId!, userId: c.id, text: input.text, at: now })
      .returning();
    await appendEvent(tx, {
      kind: 'evaluation.objection',
      sectionId: section.id,
      actor: ledgerActor(c.actor),
      payload: { objectionId: o!.id, enterpriseName: bidder.name, text: input.text },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `${bidder.name}对中标候选人提出异议（标段 ${section.code}）`,
    });
    await announce(tx, section.id);
  });
  return bidderOutcome(deps, c, section.id);
}

/** 中标通知书 as a PDF. */
export function awardNoticePdf(
  room: Pick<EvalRoom, 'section'>,
  o: EvalOutcome,
  project: Record<string, unknown> | undefined,
  tz: string,
): Buffer {
  const a = o.award!;
  const price = o.candidates.find((x) => x.bidId === a.bidId)?.price ?? 0;
  return textPdf('中 标 通 知 书', [
    `${a.enterpriseName}：`,
    '',
    `    你方于投标截止时间前递交的${String(project?.xmmc ?? room.section.projectName)}（项目编号 ${String(project?.xmbh ?? '')}）${room.section.code} ${room.section.name}的投标文件已被我方接受，被确定为中标人。`,
    `    中标价：${yuan(price)}`,
    `    请你方在接到本通知书后的 30 日内，到招标人处与招标人签订施工承包合同，并按招标文件的规定提交履约担保。`,
    '',
    `招标人：${String(project?.zbr ?? '')}（盖章）`,
    `招标代理机构：${String(project?.dljg ?? '')}（盖章）`,
    `中标候选人公示期：${dateTimeIn(o.publicity!.start, tz)} 至 ${dateTimeIn(o.publicity!.end, tz)}`,
    `日期：${dateIn(a.at, tz)}`,
    '',
    '本通知书由平台根据评标报告、中标候选人公示与中标结果公告生成，相关步骤均记入开评标日志，可在门户「开评标日志校验」页公开校验。',
  ]);
}

/** The section's stage and the caller's buttons in it. */
export function buttonsOf(
  role: TradeButtons['role'],
  openingStatus: OpeningStatus,
  room: Pick<EvalRoom, 'status' | 'actions' | 'outcome'> | null,
  bidderActions: EvalBidderOutcome['actions'] | null,
): TradeButtons {
  let stage = `opening.${openingStatus}`;
  let stageLabel = OPENING_STATUS_LABELS[openingStatus];
  const o = room?.outcome ?? null;
  if (room && room.status !== 'none') {
    stage = `evaluation.${room.status}`;
    stageLabel = {
      signing: '评标：专家签到',
      scoring: '评标：评审打分',
      reporting: '评标：签署报告',
      done: '评标结束',
      none: '',
    }[room.status];
  }
  if (o?.publicity) {
    stage = o.publicity.running ? 'publicity' : 'publicity.ended';
    stageLabel = o.publicity.running ? '中标候选人公示中' : '公示期已结束';
  }
  if (o?.award) {
    stage = 'awarded';
    stageLabel = '已定标';
  }
  const buttons: string[] = [];
  if (room) for (const [k, v] of Object.entries(room.actions)) if (Array.isArray(v) ? v.length : v) buttons.push(k);
  if (bidderActions) for (const [k, v] of Object.entries(bidderActions)) if (v) buttons.push(k);
  return { stage, stageLabel, role, buttons };
}

export async function openingStatusOf(db: DbOrTx, sectionId: string): Promise<OpeningStatus> {
  const [o] = await db.select({ s: bidOpenings.status }).from(bidOpenings).where(eq(bidOpenings.sectionId, sectionId));
  return (o?.s as OpeningStatus | undefined) ?? 'waiting';
}

export const isNotFound = (e: unknown) => e instanceof AppError && e.httpStatus === 404;
export { forbidden };
