import { PassThrough, type Readable } from 'node:stream';
import {
  CREDIT_CONDUCT_LABELS,
  CREDIT_NODE,
  CREDIT_RECORD_SOURCE_LABELS,
  CREDIT_RECORD_STATUS_LABELS,
  type CreditConduct,
  type CreditRecordSource,
  type CreditRecordStatus,
  type CreditSubjectKind,
  DATETIME_FORMAT,
  EXPORT_MAX_ROWS,
  formatIn,
} from '@ks/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { creditConductRecords, enterprises, practitioners } from '../../db/schema';
import { badRequest } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { exportFileName } from '../engine/export.service';
import { type CreditCaller, readsAll, resolveSubject } from './access';
import * as repo from './credit.repo';
import { GRADE_GL } from './grade.service';
import { subjectList } from './overview.service';
import { RECORD_GL } from './records.service';

/**
 * Export to xlsx as the engine exports a node (exceljs's streaming writer, at most EXPORT_MAX_ROWS rows, a 400 before
 * anything is written when the filter matches more): the subjects with their grades, or the records. Enterprise users
 * export only their own side; an operation-log row records the export.
 */

interface Column {
  header: string;
  width: number;
  value: (r: Record<string, unknown>) => unknown;
}

const time = (v: unknown) => (v ? formatIn(v as Date, DATETIME_FORMAT) : '');

function stream(title: string, columns: Column[], rows: Record<string, unknown>[]): Readable {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(title, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((col, i) => ({ header: col.header, key: `c${i}`, width: col.width }));
  ws.getRow(1).font = { bold: true };
  const write = async () => {
    for (const r of rows) ws.addRow(columns.map((col) => col.value(r))).commit();
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

const tooMany = () => badRequest(`导出的记录超过 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围后再导出`);

export async function exportCredit(
  db: Db,
  c: CreditCaller,
  q: {
    type: 'grades' | 'records';
    subjectKind: CreditSubjectKind;
    subjectId?: string;
    keyword?: string;
    level?: string;
    status?: CreditRecordStatus;
  },
  now: Date,
): Promise<{ name: string; stream: Readable; rows: number }> {
  if (q.type === 'grades') {
    const list = await subjectList(
      db,
      c,
      { subjectKind: q.subjectKind, keyword: q.keyword, level: q.level, pageNum: 1, pageSize: EXPORT_MAX_ROWS + 1 },
      now,
    );
    if (list.records.length > EXPORT_MAX_ROWS) throw tooMany();
    const title = q.subjectKind === 'enterprise' ? '企业信用等级' : '人员信用等级';
    const rows = list.records.map((r) => ({ ...r, ...(r.grade ?? {}) }) as Record<string, unknown>);
    const columns: Column[] = [
      { header: q.subjectKind === 'enterprise' ? '企业名称' : '姓名', width: 36, value: (r) => r.name },
      { header: q.subjectKind === 'enterprise' ? '统一社会信用代码' : '证书编号', width: 24, value: (r) => r.code },
      { header: q.subjectKind === 'enterprise' ? '企业类型' : '执业类别', width: 16, value: (r) => r.type },
      ...(q.subjectKind === 'person'
        ? [{ header: '所属企业', width: 36, value: (r: Record<string, unknown>) => r.enterpriseName }]
        : []),
      { header: '信用分', width: 10, value: (r) => r.score ?? '' },
      { header: '信用等级', width: 10, value: (r) => r.level ?? '未评定' },
      { header: '良好行为加分', width: 14, value: (r) => r.goodPoints ?? '' },
      { header: '不良行为扣分', width: 14, value: (r) => r.badPoints ?? '' },
      { header: '评定时间', width: 18, value: (r) => (r.computedAt ? time(new Date(String(r.computedAt))) : '') },
      { header: '有效至', width: 12, value: (r) => r.validUntil ?? '' },
    ];
    await writeOpLog(db, c.actor, {
      glName: GRADE_GL,
      gnCoding: CREDIT_NODE,
      logbook: `导出${title} ${rows.length} 条`,
    });
    return { name: exportFileName(title, now), stream: stream(title, columns, rows), rows: rows.length };
  }

  const conds: SQL[] = [];
  if (q.subjectId) {
    const subject = await resolveSubject(db, c, q);
    conds.push(eq(creditConductRecords.subjectKind, subject.kind), eq(creditConductRecords.subjectId, subject.id));
  } else if (!(await readsAll(db, c))) {
    conds.push(c.enterpriseId ? eq(creditConductRecords.enterpriseId, c.enterpriseId) : sql`false`);
  }
  if (q.status) conds.push(eq(creditConductRecords.status, q.status));
  if (q.keyword) {
    const p = repo.likeContains(q.keyword);
    conds.push(
      sql`(${enterprises.name} ilike ${p} or ${practitioners.name} ilike ${p} or ${creditConductRecords.title} ilike ${p})`,
    );
  }
  const rows = await repo
    .recordQuery(db)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(sql`${creditConductRecords.createdAt} desc`, sql`${creditConductRecords.id} desc`)
    .limit(EXPORT_MAX_ROWS + 1);
  if (rows.length > EXPORT_MAX_ROWS) throw tooMany();
  const flat = rows.map((j) => ({ ...j.r, ...j }) as unknown as Record<string, unknown>);
  const columns: Column[] = [
    { header: '主体', width: 30, value: (r) => (r.subjectKind === 'person' ? r.personName : r.enterpriseName) },
    { header: '所属企业', width: 30, value: (r) => r.enterpriseName },
    { header: '分组', width: 14, value: (r) => r.xxGrouping },
    { header: '信用标准项', width: 32, value: (r) => r.standardName },
    { header: '行为类别', width: 10, value: (r) => CREDIT_CONDUCT_LABELS[r.conduct as CreditConduct] },
    { header: '分值', width: 8, value: (r) => Number(r.score) },
    { header: '开始时间', width: 12, value: (r) => r.startTime },
    { header: '结束时间', width: 12, value: (r) => r.endTime },
    { header: '事由', width: 40, value: (r) => r.title },
    { header: '认定单位', width: 24, value: (r) => r.issuer ?? '' },
    { header: '状态', width: 8, value: (r) => CREDIT_RECORD_STATUS_LABELS[r.status as CreditRecordStatus] },
    { header: '来源', width: 10, value: (r) => CREDIT_RECORD_SOURCE_LABELS[r.source as CreditRecordSource] },
    { header: '提交人', width: 10, value: (r) => r.submittedByName ?? '' },
    { header: '提交时间', width: 18, value: (r) => time(r.submittedAt) },
    { header: '审核人', width: 10, value: (r) => r.auditedByName ?? '' },
    { header: '审核时间', width: 18, value: (r) => time(r.auditedAt) },
    { header: '审核建议', width: 30, value: (r) => r.auditSuggestion ?? '' },
  ];
  await writeOpLog(db, c.actor, {
    glName: RECORD_GL,
    gnCoding: CREDIT_NODE,
    logbook: `导出信用记录 ${flat.length} 条`,
  });
  return { name: exportFileName('信用记录', now), stream: stream('信用记录', columns, flat), rows: flat.length };
}
