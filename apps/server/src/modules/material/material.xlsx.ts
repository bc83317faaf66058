import {
  MATERIAL_CITIES,
  MATERIAL_CITY_WIDE,
  MATERIAL_CLASSIFICATIONS,
  MATERIAL_LIMITS,
  MATERIAL_MSG,
  MATERIAL_XLSX,
} from '@ks/contracts';
import { xlsxOfSheets } from '../../platform/xlsx-sheets';
import {
  blankRow,
  InflateLimit,
  openWorkbook,
  plainOf,
  type SheetReader,
  skip,
  valuesOf,
} from '../../platform/xlsx-stream';

/**
 * The import workbook of 材料信息价: one sheet, a header row naming the columns of MATERIAL_XLSX (in any order; extra
 * columns are passed over) and a material a row. Read with ExcelJS's streaming reader, patched as the cost files'
 * reader is (platform/xlsx-stream.ts: Chinese split between chunks, zip order, zip bombs): rows are checked as they stream.
 */

/** A fault of the workbook as a whole (not of a row): the import is refused with it. */
export class MaterialFileError extends Error {}

/** Wraps a fault thrown by the caller's row callback, so it is not taken for the workbook's. */
export class RowCallbackError extends Error {}

export type MaterialCells = Map<string, string | number | null>;

/** Reads the first worksheet: each non-blank row after the header to `onRow` with its number and cells by column. */
export async function readMaterialRows(
  input: AsyncIterable<Buffer | Uint8Array>,
  onRow: (row: number, cells: MaterialCells, unreadable: string[]) => void,
): Promise<{ rows: number }> {
  const { reader, zip, currentSource, state, stream } = openWorkbook(input);
  let failure: unknown = null;
  let sheetRead = false;
  let rows = 0;
  const events = reader.parse();
  try {
    for (;;) {
      let next: IteratorResult<{ eventType: string; value: unknown }>;
      try {
        next = await events.next();
      } catch (e) {
        failure ??= e;
        break;
      }
      if (next.done) break;
      if (next.value.eventType !== 'worksheet') continue;
      if (sheetRead || failure !== null) {
        await skip(currentSource());
        continue;
      }
      sheetRead = true;
      const ws = next.value.value as SheetReader;
      try {
        let cols: Map<string, number> | null = null;
        for await (const row of ws) {
          const values = valuesOf(row);
          if (blankRow(values)) continue;
          if (!cols) {
            cols = new Map();
            values.forEach((v, i) => {
              const name = plainOf(v);
              if (typeof name === 'string' || typeof name === 'number') cols!.set(String(name).trim(), i);
            });
            for (const c of MATERIAL_XLSX.required) {
              if (!cols.has(c)) throw new MaterialFileError(MATERIAL_MSG.noColumn(c));
            }
            continue;
          }
          rows++;
          if (rows > MATERIAL_LIMITS.maxRows)
            throw new MaterialFileError(MATERIAL_MSG.tooManyRows(MATERIAL_LIMITS.maxRows));
          const cells: MaterialCells = new Map();
          const unreadable: string[] = [];
          for (const c of MATERIAL_XLSX.columns) {
            const i = cols.get(c);
            if (i === undefined) continue;
            const v = plainOf(values[i]);
            if (typeof v === 'function') unreadable.push(c);
            else cells.set(c, v);
          }
          try {
            onRow(row.number, cells, unreadable);
          } catch (e) {
            throw new RowCallbackError('row callback', { cause: e });
          }
        }
        if (!cols) throw new MaterialFileError(MATERIAL_MSG.noSheet);
      } catch (e) {
        failure = e;
        await skip(currentSource());
      }
    }
  } finally {
    stream.unpipe();
    try {
      for await (const _ of stream) {
        // drained
      }
    } catch {
      // ended
    }
  }
  if (state.inputError) throw state.inputError;
  if (!state.size) throw new MaterialFileError(MATERIAL_MSG.emptyFile);
  if (zip.broken instanceof InflateLimit) throw new MaterialFileError(MATERIAL_MSG.notXlsx);
  if (zip.broken) throw new MaterialFileError(MATERIAL_MSG.notXlsx);
  if (failure instanceof MaterialFileError) throw failure;
  if (failure !== null) {
    // a callback's own fault is passed on; ExcelJS's faults mean the file is no workbook
    if (failure instanceof RowCallbackError) throw failure.cause;
    throw new MaterialFileError(MATERIAL_MSG.notXlsx);
  }
  if (!sheetRead) throw new MaterialFileError(MATERIAL_MSG.noSheet);
  return { rows };
}

/** A checked row, ready to insert. */
export interface MaterialRow {
  rowNo: number;
  county: string;
  classification: string;
  materialGroup: string;
  code: string;
  name: string;
  spec: string;
  unit: string;
  priceEx: string;
  priceIn: string;
  remark: string;
}

const CLASSES = new Set<string>(MATERIAL_CLASSIFICATIONS);
const CODE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const PRICE_TEXT = /^\d{1,8}(\.\d{1,2})?$/;
const C = {
  county: '区县',
  classification: '分类',
  group: '材料组',
  code: '材料编码',
  name: '材料名称',
  spec: '规格型号',
  unit: '单位',
  priceEx: '除税价（元）',
  priceIn: '含税价（元）',
  remark: '备注',
} as const;

/** A price cell as a decimal string with two places, or why not. */
function priceOf(column: string, v: string | number | null): { ok: string } | { error: string } {
  if (v === null) return { error: MATERIAL_MSG.blank(column) };
  if (typeof v === 'number') {
    const cents = Math.round(v * 100);
    if (!Number.isFinite(v) || v < 0 || v > MATERIAL_LIMITS.maxPrice || Math.abs(v * 100 - cents) > 1e-6) {
      return { error: MATERIAL_MSG.notPrice(column, String(v)) };
    }
    return { ok: (cents / 100).toFixed(2) };
  }
  const s = v.replace(/,/g, '');
  if (!PRICE_TEXT.test(s)) return { error: MATERIAL_MSG.notPrice(column, v.slice(0, 40)) };
  return { ok: Number(s).toFixed(2) };
}

/**
 * Checks one row of a city's sheet: every problem of it (first column named), or the row. County: one of the city's
 * (blank or 市区: the city's own price); classification from MATERIAL_CLASSIFICATIONS; code of letters, digits and
 * . - _; prices of at most two decimals, the one with tax not below the one without.
 */
export function checkRow(
  city: string,
  rowNo: number,
  cells: MaterialCells,
  unreadable: string[] = [],
): { row: MaterialRow } | { column: string; reason: string } {
  const problems: { column: string; reason: string }[] = unreadable.map((c) => ({
    column: c,
    reason: MATERIAL_MSG.cellError(c),
  }));
  const text = (column: string, max: number, required: boolean): string => {
    const v = cells.get(column);
    const s = v === null || v === undefined ? '' : String(v).trim();
    if (required && !s && !unreadable.includes(column)) problems.push({ column, reason: MATERIAL_MSG.blank(column) });
    else if (s.length > max) problems.push({ column, reason: MATERIAL_MSG.tooLong(column, max) });
    return s;
  };
  let county = text(C.county, 32, false);
  if (county === MATERIAL_CITY_WIDE) county = '';
  if (county && !(MATERIAL_CITIES[city] ?? []).includes(county)) {
    problems.push({ column: C.county, reason: MATERIAL_MSG.wrongCounty(city, county.slice(0, 32)) });
  }
  const classification = text(C.classification, 32, true);
  if (classification && !CLASSES.has(classification)) {
    problems.push({ column: C.classification, reason: MATERIAL_MSG.wrongClassification(classification.slice(0, 32)) });
  }
  const materialGroup = text(C.group, 64, true);
  const code = text(C.code, 32, true);
  if (code && code.length <= 32 && !CODE_RE.test(code)) {
    problems.push({ column: C.code, reason: MATERIAL_MSG.wrongCode(code) });
  }
  const name = text(C.name, 128, true);
  const spec = text(C.spec, 128, false);
  const unit = text(C.unit, 16, true);
  const remark = text(C.remark, 256, false);
  const prices: string[] = [];
  for (const column of [C.priceEx, C.priceIn]) {
    if (unreadable.includes(column)) continue;
    const p = priceOf(column, cells.get(column) ?? null);
    if ('error' in p) problems.push({ column, reason: p.error });
    else prices.push(p.ok);
  }
  if (prices.length === 2 && Number(prices[1]) < Number(prices[0])) {
    problems.push({ column: C.priceIn, reason: MATERIAL_MSG.taxBelow });
  }
  if (problems.length) return { column: problems[0]!.column, reason: problems.map((p) => p.reason).join('；') };
  return {
    row: {
      rowNo,
      county,
      classification,
      materialGroup,
      code,
      name,
      spec,
      unit,
      priceEx: prices[0]!,
      priceIn: prices[1]!,
      remark,
    },
  };
}

/** The import template: the columns and one example row (a valid row, so the template imports as it is). */
export function materialTemplate(): Buffer {
  return xlsxOfSheets([
    {
      name: MATERIAL_XLSX.sheet,
      widths: [12, 18, 16, 14, 20, 22, 8, 14, 14, 20],
      header: [...MATERIAL_XLSX.columns],
      rows: [
        ['小店区', '黑色及有色金属', '钢筋', '0101001', '热轧带肋钢筋', 'HRB400E Φ12', 't', 3451.33, 3900, '示例行'],
      ],
    },
  ]);
}

/** A workbook of these rows in the import layout (tests, the bench and the e2e fixtures build files with it). */
export function materialWorkbook(rows: (string | number | null)[][]): Buffer {
  return xlsxOfSheets([
    {
      name: MATERIAL_XLSX.sheet,
      widths: [],
      header: [...MATERIAL_XLSX.columns],
      rows,
    },
  ]);
}
