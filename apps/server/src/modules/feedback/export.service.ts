import { PassThrough, type Readable } from 'node:stream';
import {
  EVALUATE_TYPES,
  EXPORT_MAX_ROWS,
  FEEDBACK_QUESTIONNAIRES,
  FEEDBACK_RATING_LABELS,
  type FeedbackRange,
} from '@ks/contracts';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { badRequest } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { exportFileName } from '../engine/export.service';
import * as repo from './feedback.repo';
import { averageOf, feedbackSummary, timeText } from './feedback.service';

export const FEEDBACK_GL = '用户反馈';
const TITLE = '用户反馈';

const typeTitle = (t: string) => FEEDBACK_QUESTIONNAIRES[t as keyof typeof FEEDBACK_QUESTIONNAIRES]?.title ?? t;

/**
 * The xlsx of the feedback in a date range, as the other exports (exceljs, at most EXPORT_MAX_ROWS submissions, a 400
 * before anything is written when the range holds more): a sheet of the per-question statistics and a sheet of the
 * submissions with each question's score and the text. An operation-log row records the export.
 */
export async function exportFeedback(
  db: Db,
  actor: Actor,
  range: FeedbackRange,
  tz: string,
  now: Date,
): Promise<{ name: string; stream: Readable; rows: number }> {
  const r = { ...range, tz };
  const rows = await repo.submissionsWithScores(db, r, EXPORT_MAX_ROWS + 1);
  if (rows.length > EXPORT_MAX_ROWS) throw badRequest(`导出的记录超过 ${EXPORT_MAX_ROWS} 条，请缩小日期范围后再导出`);
  const summary = await feedbackSummary(db, range, tz);
  const questions = EVALUATE_TYPES.flatMap((t) => FEEDBACK_QUESTIONNAIRES[t].questions.map((q) => ({ t, q })));
  const period = `${range.startDate ?? '最早'} 至 ${range.endDate ?? '今日'}`;
  await writeOpLog(db, actor, { glName: FEEDBACK_GL, logbook: `导出用户反馈 ${rows.length} 条（${period}）` });

  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const write = async () => {
    const stats = wb.addWorksheet('统计', { views: [{ state: 'frozen', ySplit: 1 }] });
    stats.columns = [
      { header: '问卷', key: 'type', width: 12 },
      { header: '问题', key: 'question', width: 36 },
      { header: '评价人数', key: 'count', width: 10 },
      { header: '平均分', key: 'average', width: 10 },
      ...FEEDBACK_RATING_LABELS.map((l, i) => ({ header: `${i + 1}分 ${l}`, key: `s${i + 1}`, width: 12 })),
    ];
    stats.getRow(1).font = { bold: true };
    for (const s of summary.questions) {
      stats
        .addRow({
          type: typeTitle(s.evaluateType),
          question: s.question,
          count: s.count,
          average: s.average ?? '',
          ...Object.fromEntries(s.distribution.map((n, i) => [`s${i + 1}`, n])),
        })
        .commit();
    }
    stats.commit();
    const list = wb.addWorksheet('反馈明细', { views: [{ state: 'frozen', ySplit: 1 }] });
    list.columns = [
      { header: '提交时间', key: 'time', width: 18 },
      { header: '提交人', key: 'user', width: 14 },
      { header: '账号', key: 'account', width: 16 },
      { header: '所属企业', key: 'enterprise', width: 30 },
      { header: '平均分', key: 'average', width: 8 },
      ...questions.map((x, i) => ({ header: `${typeTitle(x.t)}：${x.q}`, key: `q${i}`, width: 16 })),
      { header: '意见建议', key: 'text', width: 60 },
    ];
    list.getRow(1).font = { bold: true };
    for (const row of rows) {
      const byQ = new Map(row.scores.map((s) => [`${s.evaluateType}\u0001${s.question}`, s.score]));
      list
        .addRow({
          time: timeText(row.createdAt),
          user: row.userName,
          account: row.account,
          enterprise: row.enterpriseName ?? '',
          average: averageOf(row.average) ?? '',
          ...Object.fromEntries(questions.map((x, i) => [`q${i}`, byQ.get(`${x.t}\u0001${x.q}`) ?? ''])),
          text: row.text ?? '',
        })
        .commit();
    }
    list.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return { name: exportFileName(TITLE, now), stream: out, rows: rows.length };
}
