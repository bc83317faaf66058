import { PassThrough, type Readable } from 'node:stream';
import {
  DATETIME_FORMAT,
  EXPORT_MAX_ROWS,
  type FieldDef,
  formatIn,
  RECORD_STATUS_LABELS,
  type TableColumn,
  wallClockText,
} from '@ks/contracts';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { badRequest, forbidden } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { canCall, requireNode, roleCodesOf } from '../../platform/permissions';
import { catalogOf, fieldsOf, kindOf } from './node-fields';
import { labellers } from './options.service';
import { type EngineCaller, engineNode, supervisesNode } from './record-access';
import { iso } from './record-row';
import { countUpTo, rowsBatch, scopeSql } from './records.repo';
import {
  columnOf,
  normaliseSearchParams,
  orderSql,
  parseSort,
  parseWhereStr,
  searchToConditions,
  whereSql,
} from './sqlsafe';

/**
 * Export of a node's records to xlsx (issue 5): the list's filter (search, whereStr, sort) and scope, the shown list
 * columns (or every shown field when the node has none), option values as their labels. At most EXPORT_MAX_ROWS rows:
 * a larger result is a 400 asking to narrow the filter, before anything is written. The workbook is streamed (exceljs
 * streaming writer) while rows are read in batches.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const BATCH = 1000;
/** Column types that are controls or links rather than data. */
const SKIPPED_TYPES = new Set(['operations', 'auditFlow', 'preview', 'download']);

interface ExportColumn {
  header: string;
  width: number;
  value: (row: Record<string, unknown>) => unknown;
}

/** A record's time (created / updated, a timestamptz) as YYYY-MM-DD HH:mm in the platform's zone. */
function localTime(v: unknown): string {
  if (v === null || v === undefined) return '';
  try {
    return formatIn(iso(v), DATETIME_FORMAT);
  } catch {
    return String(v);
  }
}

/** `<节点名>_<yyyyMMddHHmm>.xlsx` (the time in the platform's zone), as an RFC 5987 Content-Disposition (with an ASCII fallback name). */
export function exportFileName(title: string, now: Date): string {
  const stamp = formatIn(now, 'YYYYMMDDHHmm');
  const safe = title.replace(/[\\/:*?"<>|\r\n\t]/g, '_').trim() || '导出';
  return `${safe}_${stamp}.xlsx`;
}

function columnsFor(
  configured: TableColumn[],
  fields: FieldDef[],
  label: (f: FieldDef, raw: unknown) => unknown,
): ExportColumn[] {
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const fieldColumn = (f: FieldDef, header: string, width?: number | null): ExportColumn => ({
    header,
    width: Math.max(10, Math.min(60, Math.round((width ?? 0) / 7) || header.length * 2 + 4)),
    value: (row) => {
      const raw = row[columnOf(f.code)];
      if (raw === null || raw === undefined) return '';
      const kind = kindOf(f.type);
      if (kind === 'number') return Number(raw);
      if (kind === 'date' || kind === 'datetime') return wallClockText(kind, String(raw));
      return label(f, raw);
    },
  });
  const status: ExportColumn = {
    header: '状态',
    width: 10,
    value: (row) => RECORD_STATUS_LABELS[String(row.status)] ?? String(row.status),
  };
  const time = (key: string, header: string): ExportColumn => ({
    header,
    width: 18,
    value: (row) => localTime(row[key]),
  });
  const out: ExportColumn[] = [];
  for (const col of configured) {
    if (col.show === false || SKIPPED_TYPES.has(col.type)) continue;
    const f = byCode.get(col.code);
    if (f) out.push(fieldColumn(f, col.name, col.width));
    else if (col.isStatus || col.type === 'status' || col.type === 'statusIcon' || col.code === 'status')
      out.push({ ...status, header: col.name });
    else if (col.code === 'createdAt') out.push(time('created_at', col.name));
    else if (col.code === 'updatedAt') out.push(time('updated_at', col.name));
  }
  if (out.some((c) => c !== status)) return out;
  return [
    ...fields.filter((f) => f.show !== false && f.type !== 'read-text').map((f) => fieldColumn(f, f.name)),
    status,
    time('created_at', '创建时间'),
  ];
}

export async function exportRecords(
  db: Db,
  c: EngineCaller,
  q: { gnCoding: string; search?: Record<string, unknown>; whereStr?: string; sortField?: string; order?: string },
  now: Date,
): Promise<{ name: string; stream: Readable; rows: number }> {
  const ref = await requireNode(db, c, q.gnCoding);
  // non-administrators need the node's 导出 function
  if (!(await canCall(db, c, ref, 'export'))) throw forbidden();
  const n = await engineNode(db, q.gnCoding);
  const fields = fieldsOf(n);
  const catalog = catalogOf(fields);
  const conditions = [
    ...parseWhereStr(q.whereStr, catalog),
    ...searchToConditions(normaliseSearchParams(q.search ?? {}), catalog),
  ];
  const scope = { ...c, supervises: await supervisesNode(db, c, n.id) };
  const where = [scopeSql(scope, n.id, await roleCodesOf(db, c)), whereSql(conditions, catalog)];
  const order = orderSql(parseSort(q.sortField, q.order, catalog));
  const total = await countUpTo(db, n.gnCoding, where, EXPORT_MAX_ROWS);
  if (total > EXPORT_MAX_ROWS) {
    throw badRequest(`导出的记录超过 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围后再导出`);
  }
  const { label, prepare } = await labellers(db, c, fields);
  const columns = columnsFor(Array.isArray(n.columns) ? (n.columns as TableColumn[]) : [], fields, label);
  // dates and times as the wall-clock text PostgreSQL keeps (no driver time-zone conversion)
  const textColumns = fields.filter((f) => ['date', 'datetime'].includes(kindOf(f.type))).map((f) => columnOf(f.code));
  await writeOpLog(db, c.actor, {
    glName: n.title,
    gnCoding: n.gnCoding,
    logbook: `导出记录 ${total} 条`,
  });

  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheetName = n.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
  const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((col, i) => ({ header: col.header, key: `c${i}`, width: col.width }));
  ws.getRow(1).font = { bold: true };
  const write = async () => {
    for (let offset = 0; offset < total; offset += BATCH) {
      const rows = await rowsBatch(db, n.gnCoding, { where, order, textColumns, limit: BATCH, offset });
      if (!rows.length) break;
      const byCode = rows.map((r) => Object.fromEntries(fields.map((f) => [f.code, r[columnOf(f.code)]])));
      await prepare(byCode);
      for (const r of rows) ws.addRow(columns.map((col) => col.value(r))).commit();
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return { name: exportFileName(n.title, now), stream: out, rows: total };
}
