import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inflateRawSync } from 'node:zlib';
import { COST_MSG, type CostTreeRow } from '@ks/contracts';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type XlsxCell, type XlsxSheet, xlsxOfSheets, zipFiles } from '../../platform/xlsx-sheets';
import { type CostLine, CostParseError, type ParsedCost, parseCostXml } from './cost.parse';
import { type CostSampleOptions, costXml } from './cost.sample';
import { COST_SAMPLE_OPTIONS, costXlsx, costXlsxSheets } from './cost.sample-xlsx';
import { COST_XLSX, parseCostXlsx } from './cost.xlsx';

const DOCS = path.resolve(import.meta.dirname, '../../../../../docs/samples');

/** The bytes in chunks of `size` (a multi-byte character, a zip record, may fall across two). */
const chunks = (buf: Buffer, size = 4096) => {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return Readable.from(out);
};

interface Read {
  parsed: ParsedCost;
  lines: CostLine[];
  units: [string, string][];
}
async function readXml(o: CostSampleOptions): Promise<Read> {
  const lines: CostLine[] = [];
  const units: [string, string][] = [];
  const parsed = await parseCostXml(Readable.from([costXml(o)]), {
    onLine: (l) => lines.push(l),
    onUnit: (id, code) => units.push([id, code]),
  });
  return { parsed, lines, units };
}
async function readXlsx(buf: Buffer, size?: number): Promise<Read> {
  const lines: CostLine[] = [];
  const units: [string, string][] = [];
  const parsed = await parseCostXlsx(chunks(buf, size), {
    onLine: (l) => lines.push(l),
    onUnit: (id, code) => units.push([id, code]),
  });
  return { parsed, lines, units };
}

/** The tree without the lines of the file its nodes stand on (a line of the XML, a row of the sheet). */
const shape = (rows: CostTreeRow[]): unknown[] =>
  rows.map(({ line: _, children, ...rest }) => (children ? { ...rest, children: shape(children) } : rest));
const withoutLine = (lines: CostLine[]) => lines.map(({ line: _, ...rest }) => rest);

/** The same data, whatever the format: everything but the lines of the file, its size and its hash. */
function expectSame(xlsx: Read, xml: Read) {
  const { tree: a, size: _a, sha256: _ah, ...restA } = xlsx.parsed;
  const { tree: b, size: _b, sha256: _bh, ...restB } = xml.parsed;
  expect(restA).toEqual(restB);
  expect(shape(a)).toEqual(shape(b));
  expect(withoutLine(xlsx.lines)).toEqual(withoutLine(xml.lines));
  expect(xlsx.units).toEqual(xml.units);
}

async function failure(buf: Buffer | Readable): Promise<CostParseError> {
  try {
    await parseCostXlsx(Buffer.isBuffer(buf) ? chunks(buf) : buf);
  } catch (e) {
    expect(e).toBeInstanceOf(CostParseError);
    return e as CostParseError;
  }
  throw new Error('parsed');
}

const O: CostSampleOptions = { bidder: '山西建工集团有限公司', seed: 3 };
const sheetOf = (sheets: XlsxSheet[], name: string) => sheets.find((s) => s.name === name)!;
/** The sample's sheets changed by `change`, as a workbook. */
async function book(change: (sheets: XlsxSheet[]) => XlsxSheet[] | undefined): Promise<Buffer> {
  const sheets = await costXlsxSheets(O);
  return xlsxOfSheets(change(sheets) ?? sheets);
}
/** Sets a cell of a sheet's data row `row` (its row in the sheet: row + 2) by column name. */
function set(s: XlsxSheet, row: number, column: string, v: XlsxCell) {
  const i = s.header.indexOf(column);
  expect(i).toBeGreaterThanOrEqual(0);
  s.rows[row]![i] = v;
}
const at = (sheet: string, row: number, message: string) => COST_MSG.atRow(sheet, row, message);

/** The files of a zip (its central directory; deflated or stored entries). */
function unzip(buf: Buffer): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let p = buf.readUInt32LE(end + 16);
  for (let n = buf.readUInt16LE(end + 10); n > 0; n--) {
    const method = buf.readUInt16LE(p + 10);
    const packed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const skip = nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + packed);
    out.push([name, method === 8 ? inflateRawSync(data) : Buffer.from(data)]);
    p += 46 + skip;
  }
  return out;
}
/** The same workbook, its parts in the zip in the order `rank` gives (lower first). */
const reorder = (buf: Buffer, rank: (name: string) => number) =>
  zipFiles(unzip(buf).sort((a, b) => rank(a[0]) - rank(b[0])));

/** The sample written by ExcelJS (shared strings, parts in ExcelJS's order), changed cell by cell by `change`. */
async function excelBook(change?: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of await costXlsxSheets(O)) {
    const ws = wb.addWorksheet(s.name);
    ws.addRow(s.header);
    for (const r of s.rows) ws.addRow(r.map((v) => (v === '' ? null : v)));
  }
  change?.(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('parseCostXlsx', () => {
  it('reads the sample as the XML of the same data: tree, meta, prices and every priced line', async () => {
    const buf = await costXlsx(O);
    const xlsx = await readXlsx(buf);
    const xml = await readXml(O);
    expectSame(xlsx, xml);
    expect(xlsx.parsed.lineCount).toBe(xml.lines.length);
    expect(xlsx.parsed.bidder).toBe('山西建工集团有限公司');
    expect(xlsx.parsed.meta.software).toBe('广联达云计价平台 GCCP6.0');
    // the rows of the sheets stand where the XML's lines did
    expect(xlsx.parsed.tree[0]!.line).toBe(2);
    expect(xlsx.lines[0]!.line).toBe(2);
    expect(xlsx.lines.at(-1)!.line).toBe(xml.lines.length + 1);
    expect(xlsx.parsed.size).toBe(buf.length);
    expect(xlsx.parsed.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await parseCostXlsx(chunks(buf, 1000))).sha256).toBe(xlsx.parsed.sha256);
  });

  it('documents a sample that reads as the XML sample does', async () => {
    const xlsx = await readXlsx(readFileSync(path.join(DOCS, 'cost-sample.xlsx')));
    const lines: CostLine[] = [];
    const units: [string, string][] = [];
    const xml = await parseCostXml(Readable.from([readFileSync(path.join(DOCS, 'cost-sample.xml'))]), {
      onLine: (l) => lines.push(l),
      onUnit: (id, code) => units.push([id, code]),
    });
    expectSame(xlsx, { parsed: xml, lines, units });
    expect(xlsx.parsed.bidder).toBe(COST_SAMPLE_OPTIONS.bidder);
  });

  it('reads the same whatever the chunking, Chinese characters cut between inflated pieces', async () => {
    const o = { ...O, linesPerUnit: 300 };
    const buf = await costXlsx(o);
    const xml = await readXml(o);
    for (const size of [7, 1000, 65_536]) {
      const xlsx = await readXlsx(buf, size);
      expectSame(xlsx, xml);
      expect(xlsx.lines.some((l) => `${l.name}${l.features}`.includes('\ufffd'))).toBe(false);
    }
  });

  it('finds columns and sheets by name: any order, extra columns and sheets, 清单 before 造价汇总', async () => {
    const xml = await readXml(O);
    const permuted = await book((sheets) => {
      for (const s of sheets) {
        const order = s.header.map((_, i) => i).reverse();
        s.header = [...order.map((i) => s.header[i]!), '备注'];
        s.rows = s.rows.map((r) => [...order.map((i) => r[i] ?? null), '说明']);
      }
      const extra: XlsxSheet = { name: '人材机汇总', widths: [], header: ['名称'], rows: [['水泥']] };
      const [info, summary, lines] = sheets;
      return [lines!, extra, summary!, info!];
    });
    expectSame(await readXlsx(permuted), xml);
    // every order of the sheets, the file in one piece: unzipper ended its stream of parts before handing out the
    // last (the input read before ExcelJS took it), and a small last sheet was lost
    const sheets = await costXlsxSheets(O);
    for (const order of ['012', '021', '102', '120', '201', '210']) {
      const buf = xlsxOfSheets([...order].map((i) => sheets[Number(i)]!));
      expectSame(await readXlsx(buf, buf.length), xml);
    }
    // 文件信息 may be left out; 清单 too (no priced lines)
    const bare = await readXlsx(await book((sheets) => [sheetOf(sheets, COST_XLSX.summary.sheet)]));
    expect(bare.parsed.lineCount).toBe(0);
    expect(bare.lines).toEqual([]);
    expect(bare.parsed.bidder).toBe('');
    expect(bare.parsed.controlPrice).toBeNull();
    expect(shape(bare.parsed.tree)).toEqual(shape(xml.parsed.tree).map((p) => zeroLines(p)));
  });

  it('reads a workbook saved by other software: shared strings, formulas with their cached results, any zip order', async () => {
    const xml = await readXml(O);
    const buf = await excelBook((wb) => {
      // 合价 = 工程量 × 综合单价 as a formula, its result as the file states it
      const ws = wb.getWorksheet(COST_XLSX.lines.sheet)!;
      ws.eachRow((row, n) => {
        if (n === 1) return;
        const total = row.getCell(9).value as number;
        row.getCell(9).value = { formula: `ROUND(G${n}*H${n},2)`, result: total };
      });
      // a date cell (a number to a reader that ignores styles): Excel's serial date, read as Beijing time
      const info = wb.getWorksheet(COST_XLSX.info.sheet)!;
      info.getCell('B7').value = 46337.5;
    });
    expect(buf.includes(Buffer.from('xl/sharedStrings.xml'))).toBe(true);
    const xlsx = await readXlsx(buf);
    expect(xlsx.parsed.meta.createdAt).toBe('2026-11-11T12:00:00+08:00');
    xlsx.parsed.meta.createdAt = xml.parsed.meta.createdAt;
    expectSame(xlsx, xml);
    // shared strings and the workbook first (the sheets are read in place, not spooled), or the workbook last
    const first = (n: string) => (/sharedStrings|workbook\.xml|_rels/.test(n) ? 0 : 1);
    expectSame(await readXlsx(reorder(await excelBook(), first)), xml);
    const workbookLast = (n: string) => (n === 'xl/workbook.xml' ? 2 : first(n));
    expectSame(await readXlsx(reorder(await excelBook(), workbookLast)), xml);
  });

  it('names the sheet and row of a faulty cell', async () => {
    const S = COST_XLSX.summary.sheet;
    const L = COST_XLSX.lines.sheet;
    const I = COST_XLSX.info.sheet;
    // data row k of a sheet is its row k + 2 (after the header): the summary's rows are project, single, unit, …
    const cases: [(sheets: XlsxSheet[]) => void, string][] = [
      [
        (s) => set(sheetOf(s, S), 2, '分部分项工程费', '1,000.5'),
        at(S, 4, COST_MSG.cellNotMoney('分部分项工程费', '1,000.5')),
      ],
      [(s) => set(sheetOf(s, S), 2, '规费', null), at(S, 4, COST_MSG.blankCell('规费'))],
      [(s) => set(sheetOf(s, S), 2, '专业', ''), at(S, 4, COST_MSG.blankCell('专业'))],
      [(s) => set(sheetOf(s, S), 1, '层级', '分部工程'), at(S, 3, COST_MSG.wrongLevel('分部工程'))],
      [(s) => set(sheetOf(s, S), 1, '层级', '单位工程'), at(S, 3, COST_MSG.unitBeforeSingle)],
      [(s) => set(sheetOf(s, S), 0, '层级', '单项工程'), at(S, 2, COST_MSG.projectFirst)],
      [(s) => set(sheetOf(s, S), 5, '层级', '建设项目'), at(S, 7, COST_MSG.secondProject)],
      [(s) => set(sheetOf(s, S), 3, '编码', '0101'), at(S, 5, COST_MSG.twoUnits('0101', 4))],
      [(s) => set(sheetOf(s, S), 1, '名称', 'x'.repeat(501)), at(S, 3, COST_MSG.cellTooLong('名称', 500))],
      [
        // an empty single before the second: the units below it belong to the second
        (s) => {
          sheetOf(s, S).rows.splice(5, 0, ['单项工程', '09', '空单项']);
        },
        at(S, 7, COST_MSG.singleWithoutUnits('空单项')),
      ],
      [(s) => set(sheetOf(s, L), 10, '单位工程编码', '9999'), at(L, 12, COST_MSG.unknownUnit('9999'))],
      [(s) => set(sheetOf(s, L), 0, '清单类别', '其他项目'), at(L, 2, COST_MSG.wrongList('其他项目'))],
      [(s) => set(sheetOf(s, L), 3, '工程量', '约100'), at(L, 5, COST_MSG.cellNotNumber('工程量', '约100'))],
      [(s) => set(sheetOf(s, L), 3, '合价', Number.NaN), at(L, 5, COST_MSG.blankCell('合价'))],
      [(s) => set(sheetOf(s, L), 3, '综合单价', '3.456'), at(L, 5, COST_MSG.cellNotMoney('综合单价', '3.456'))],
      [(s) => set(sheetOf(s, L), 4, '名称', '   '), at(L, 6, COST_MSG.blankCell('名称'))],
      [(s) => set(sheetOf(s, I), 9, '内容', '约一千万'), at(I, 11, COST_MSG.cellNotMoney('招标控制价', '约一千万'))],
      [(s) => set(sheetOf(s, I), 5, '项目', '标准'), at(I, 7, COST_MSG.twoItems('标准', 2))],
    ];
    for (const [change, message] of cases) {
      const e = await failure(
        await book((s) => {
          change(s);
          return undefined;
        }),
      );
      expect(e.message).toBe(message);
      expect(e.sheet).toBe(message.slice('工作表「'.length, message.indexOf('」')));
    }
    // an unknown unit code is found the same when 清单 comes first (its lines wait for 造价汇总)
    const early = await book((s) => {
      set(sheetOf(s, L), 10, '单位工程编码', '9999');
      return [sheetOf(s, L), sheetOf(s, S)];
    });
    expect((await failure(early)).message).toBe(at(L, 12, COST_MSG.unknownUnit('9999')));
  });

  it('names a missing column or sheet', async () => {
    const without = (sheet: string, column: string) =>
      book((sheets) => {
        const s = sheetOf(sheets, sheet);
        const i = s.header.indexOf(column);
        s.header.splice(i, 1);
        for (const r of s.rows) r.splice(i, 1);
        return undefined;
      });
    expect((await failure(await without(COST_XLSX.lines.sheet, '综合单价'))).message).toBe(
      at('清单', 1, COST_MSG.noColumn('综合单价')),
    );
    expect((await failure(await without(COST_XLSX.summary.sheet, '税金'))).message).toBe(
      at('造价汇总', 1, COST_MSG.noColumn('税金')),
    );
    // the header is the first row with anything in it
    const late = await book((sheets) => {
      const s = sheetOf(sheets, COST_XLSX.info.sheet);
      s.rows.unshift([], [null, null]);
      s.header = ['', ''];
      s.rows.unshift(['项目', '说明']);
      return undefined;
    });
    expect((await failure(late)).message).toBe(at('文件信息', 2, COST_MSG.noColumn('内容')));
    const twice = await book((sheets) => {
      sheetOf(sheets, COST_XLSX.lines.sheet).header[4] = '编码';
      return undefined;
    });
    expect((await failure(twice)).message).toBe(at('清单', 1, COST_MSG.twoColumns('编码')));
    const noSummary = await book((sheets) => sheets.filter((s) => s.name !== COST_XLSX.summary.sheet));
    const e = await failure(noSummary);
    expect(e.message).toBe(COST_MSG.noSheet('造价汇总'));
    expect(e.sheet).toBe('');
    const empty = await book((sheets) => {
      sheetOf(sheets, COST_XLSX.summary.sheet).rows = [];
      return undefined;
    });
    expect((await failure(empty)).message).toBe(at('造价汇总', 0, COST_MSG.sheetWithoutProject));
  });

  it('reads a formula by its cached result, and refuses one without a result or an error value', async () => {
    const withFormula = (value: ExcelJS.CellValue) =>
      excelBook((wb) => {
        wb.getWorksheet(COST_XLSX.summary.sheet)!.getCell('E4').value = value;
      });
    const r = await parseCostXlsx(chunks(await withFormula({ formula: 'F4+G4+I4+J4+K4', result: 1234.5678 })));
    expect(r.tree[0]!.children![0]!.children![0]!.zzj).toBe(1234.57);
    // a result of 0 is a result
    const zero = await parseCostXlsx(chunks(await withFormula({ formula: 'F4-F4', result: 0 })));
    expect(zero.tree[0]!.children![0]!.children![0]!.zzj).toBe(0);
    expect((await failure(await withFormula({ formula: 'F4+G4+I4+J4+K4' } as ExcelJS.CellValue))).message).toBe(
      at('造价汇总', 4, COST_MSG.noFormulaResult('总造价')),
    );
    expect((await failure(await withFormula({ error: '#REF!' }))).message).toBe(
      at('造价汇总', 4, COST_MSG.cellError('总造价')),
    );
    expect(
      (await failure(await withFormula({ formula: '1/0', result: { error: '#DIV/0!' } } as ExcelJS.CellValue))).message,
    ).toBe(at('造价汇总', 4, COST_MSG.cellError('总造价')));
  });

  it('refuses what is not a workbook with a message, never anything else and never waiting for ever', async () => {
    expect((await failure(Buffer.alloc(0))).message).toBe(COST_MSG.emptyFile);
    expect((await failure(Buffer.from('<工程造价文件/>'))).message).toBe(COST_MSG.notXlsx);
    expect((await failure(zipFiles([['readme.txt', '不是工作簿']]))).message).toBe(COST_MSG.notXlsx);
    const buf = await costXlsx(O);
    for (const cut of [4, 100, Math.floor(buf.length / 2), buf.length - 10]) {
      expect((await failure(buf.subarray(0, cut))).message).toBe(COST_MSG.notXlsx);
    }
    // bytes flipped inside the deflated sheets: unzipper's inflate error leaves the part open (ExcelJS would wait)
    const sheetAt = buf.indexOf(Buffer.from('xl/worksheets/sheet2.xml'));
    for (const k of [40, 200, 400]) {
      const bad = Buffer.from(buf);
      bad[sheetAt + k] ^= 0x5a;
      bad[sheetAt + k + 1] ^= 0xa5;
      const e = await parseCostXlsx(chunks(bad, 512)).catch((err: unknown) => err);
      // (a flip inflate takes may pass unseen, as in any unchecked file)
      if (e instanceof Error) expect(e).toBeInstanceOf(CostParseError);
    }
    // the input's own error is passed on as it is
    async function* broken() {
      yield buf.subarray(0, 1000);
      throw new Error('上传中断');
    }
    await expect(parseCostXlsx(broken())).rejects.toThrow('上传中断');
    // so is a callback's
    const stop = new Error('停止读取');
    const thrown = await parseCostXlsx(chunks(buf), {
      onLine: () => {
        throw stop;
      },
    }).catch((err: unknown) => err);
    expect(thrown).toBe(stop);
    // and the sheets ExcelJS had spooled before the zip broke are removed (its temporary files: tmp-<pid>-…)
    expect(readdirSync(os.tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`))).toEqual([]);
  });

  it('refuses a workbook whose parts inflate far beyond its size (a zip bomb)', async () => {
    const huge = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/>${' '.repeat(80 * 1024 * 1024)}</worksheet>`;
    const sample = unzip(await costXlsx(O));
    const bomb = zipFiles(
      sample.map(([name, data]): [string, string | Buffer] => [name, name.endsWith('sheet3.xml') ? huge : data]),
      9,
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect((await failure(bomb)).message).toBe(COST_MSG.inflatedTooLarge(100, 4));
  }, 60_000);

  it('reads a large workbook row by row: the heap does not grow with the file', async () => {
    // 80 000 priced lines: a 4 MB file whose sheets inflate to 44 MB. The reader's working set (the chunk being
    // inflated and parsed) is about 5 MB at any size; a reader that kept the rows would hold hundreds of MB.
    const gc = exposeGc();
    const buf = await costXlsx({ ...O, linesPerUnit: 20_000 });
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    let lines = 0;
    const r = await parseCostXlsx(chunks(buf, 1 << 16), {
      onLine: () => {
        if (++lines % 20_000 === 0) {
          gc?.();
          peak = Math.max(peak, process.memoryUsage().heapUsed - before);
        }
      },
    });
    expect(r.lineCount).toBe(lines);
    expect(lines).toBeGreaterThan(80_000);
    if (gc) expect(peak).toBeLessThan(24 * 1024 * 1024);
  }, 120_000);
});

/** The tree as read without 清单: no priced lines under any node. */
function zeroLines(node: unknown): unknown {
  const n = node as { lineCount: number; children?: unknown[] };
  return { ...n, lineCount: 0, ...(n.children ? { children: n.children.map(zeroLines) } : {}) };
}

/** V8's gc(), exposed at run time (for a heap measure that is live objects, not garbage); null when refused. */
function exposeGc(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}
