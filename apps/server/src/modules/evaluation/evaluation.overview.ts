import {
  dateIn,
  dateTimeIn,
  EVAL_STATUS_LABELS,
  type EvalStatus,
  OPENING_STATUS_LABELS,
  type OpeningStatus,
  TRADE_STAGE_LABELS,
  TRADE_STAGES,
  type TradeOverview,
  type TradeStage,
} from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bidEvaluations, bidFiles, bidOpeningBids, bidOpenings, tenderRegistrations } from '../../db/schema';
import type { SectionRow } from '../tender/section.repo';
import { candidatesOf } from './evaluation.results';

/**
 * 标段交易进度 (/ks/trade/overview-status): where a section stands in each stage of its tendering, from the rows that
 * decide it — the notice's publication, the registrations and sealed bids, the opening, the evaluation, the
 * candidates' publicity and the award. Read-only; who may ask is the service's to decide.
 */

type Stage = TradeOverview['stages'][number];

const count = async (q: DbOrTx, table: typeof tenderRegistrations | typeof bidFiles, where: ReturnType<typeof eq>) =>
  Number((await q.select({ n: sql<number>`count(*)::int` }).from(table).where(where))[0]?.n ?? 0);

export async function tradeOverviewOf(q: DbOrTx, s: SectionRow, now: Date, tz: string): Promise<TradeOverview> {
  const at = (d: Date | null | undefined) => d?.toISOString() ?? null;
  const registered = await count(q, tenderRegistrations, eq(tenderRegistrations.sectionId, s.id));
  const sealed = await count(q, bidFiles, and(eq(bidFiles.sectionId, s.id), eq(bidFiles.status, 'sealed'))!);
  const [o] = await q.select().from(bidOpenings).where(eq(bidOpenings.sectionId, s.id));
  const [e] = await q.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, s.id));
  const decrypted = o
    ? Number(
        (
          await q
            .select({ n: sql<number>`count(*)::int` })
            .from(bidOpeningBids)
            .where(and(eq(bidOpeningBids.sectionId, s.id), eq(bidOpeningBids.status, 'decrypted')))
        )[0]?.n ?? 0,
      )
    : 0;
  const deadline = dateTimeIn(s.bidDeadline, tz);
  const published = s.noticePublishedAt !== null;
  const due = now.getTime() >= s.bidDeadline.getTime();

  const stages: Record<TradeStage, Omit<Stage, 'key' | 'title'>> = {
    notice: published
      ? {
          status: 'finish',
          at: at(s.noticePublishedAt),
          detail: `${dateIn(s.noticePublishedAt!, tz)} 发布；发售期 ${s.docSaleStart} 至 ${s.docSaleEnd}`,
        }
      : { status: 'process', at: null, detail: '招标公告尚未发布' },
    bids: !published
      ? { status: 'wait', at: null, detail: `投标截止 ${deadline}` }
      : due
        ? { status: 'finish', at: at(s.bidDeadline), detail: `报名 ${registered} 家，递交投标文件 ${sealed} 份` }
        : {
            status: 'process',
            at: null,
            detail: `报名 ${registered} 家，已递交 ${sealed} 份；${deadline} 截止`,
          },
    opening: !o
      ? due && published
        ? { status: 'process', at: at(s.bidDeadline), detail: '已到开标时间，等待主持人开标' }
        : { status: 'wait', at: null, detail: `开标时间 ${deadline}` }
      : o.status === 'failed'
        ? { status: 'error', at: at(o.startedAt), detail: o.failureReason ?? '开标失败，须重新招标' }
        : o.status === 'closed'
          ? { status: 'finish', at: at(o.closedAt), detail: `${decrypted} 份投标文件解密并唱标，开标结束` }
          : {
              status: 'process',
              at: at(o.startedAt),
              detail: OPENING_STATUS_LABELS[o.status as OpeningStatus],
            },
    evaluation: !e
      ? o?.status === 'closed'
        ? { status: 'process', at: at(o.closedAt), detail: '等待开始评标' }
        : { status: 'wait', at: null, detail: '开标结束后评标' }
      : e.status === 'done'
        ? {
            status: 'finish',
            at: at(e.doneAt),
            detail: `评标报告已签署，推荐中标候选人 ${candidatesOf(e).length} 名`,
          }
        : { status: 'process', at: at(e.startedAt), detail: EVAL_STATUS_LABELS[e.status as EvalStatus] },
    publicity:
      !e?.publicityStart || !e.publicityEnd
        ? { status: 'wait', at: null, detail: '评标结束后公示中标候选人' }
        : now.getTime() < e.publicityEnd.getTime()
          ? {
              status: 'process',
              at: at(e.publicityStart),
              detail: `公示期 ${dateTimeIn(e.publicityStart, tz)} 至 ${dateTimeIn(e.publicityEnd, tz)}`,
            }
          : {
              status: 'finish',
              at: at(e.publicityEnd),
              detail: `公示期 ${dateTimeIn(e.publicityStart, tz)} 至 ${dateTimeIn(e.publicityEnd, tz)}，已结束`,
            },
    award: e?.awardBidId
      ? {
          status: 'finish',
          at: at(e.awardedAt),
          detail: `中标人：${candidatesOf(e).find((c) => c.bidId === e.awardBidId)?.enterpriseName ?? ''}`,
        }
      : e?.publicityEnd && now.getTime() >= e.publicityEnd.getTime()
        ? { status: 'process', at: null, detail: '公示期满，待确定中标人' }
        : { status: 'wait', at: null, detail: '公示期满后确定中标人' },
  };
  const list: Stage[] = TRADE_STAGES.map((key) => ({ key, title: TRADE_STAGE_LABELS[key], ...stages[key] }));
  const current =
    list.find((x) => x.status === 'error' || x.status === 'process')?.key ??
    list.find((x) => x.status === 'wait')?.key ??
    'award';
  return { sectionId: s.id, current, stages: list };
}
