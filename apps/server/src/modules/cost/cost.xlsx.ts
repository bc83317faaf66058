import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  COST_FEE_LABELS,
  COST_FEES,
  COST_LEVEL_LABELS,
  COST_LEVELS,
  COST_MSG,
  type CostFileMeta,
  type CostLevel,
  type CostTreeRow,
} from '@ks/contracts';
import {
  blankRow,
  INFLATE_MAX_GB,
  INFLATE_RATIO,
  InflateLimit,
  openWorkbook,
  type Plain,
  plainOf,
  type SheetReader,
  skip,
  valuesOf,
} from '../../platform/xlsx-stream';
import {
  type CostLine,
  CostParseError,
  emptyRow,
  MAX_TEXT,
  MONEY,
  NUMBER,
  type ParsedCost,
  type parseCostXml,
} from './cost.parse';

/**
 * The cost file as an xlsx workbook (docs/cost-xml.md「xlsx」): the same data as the XML, in three sheets —
 * 文件信息 (项目 | 内容), 造价汇总 (the tree, one row a node, in order) and 清单 (the priced lines, each naming its unit
 * works by code). `parseCostXlsx` gives the same result as `parseCostXml` and makes the same callbacks, so detection
 * reads either. It reads with ExcelJS's streaming reader: rows are handled as they stream and forgotten, the tree (a
 * few hundred nodes at most) is kept. Every fault is a CostParseError naming the worksheet and row.
 *
 * Sheet order: a workbook may hold 清单 before 造价汇总. Its rows are then checked as they stream and written to a
 * temporary file, and handed on (each to its unit works) once 造价汇总 has been read — memory stays flat either way.
 *
 * The reader and its patches for ExcelJS's and unzipper's faults (split UTF-8, zip order, lost last parts, zip bombs)
 * are platform/xlsx-stream.ts, shared with the material-price import.
 */

export type CostParseOptions = NonNullable<Parameters<typeof parseCostXml>[1]>;

/** The workbook's layout: sheet and column names (the generator, cost.sample-xlsx.ts, writes the same). */
export const COST_XLSX = {
  info: { sheet: '文件信息', item: '项目', value: '内容' },
  summary: { sheet: '造价汇总', level: '层级', code: '编码', name: '名称', zy: '专业' },
  lines: {
    sheet: '清单',
    unitCode: '单位工程编码',
    list: '清单类别',
    code: '编码',
    name: '名称',
    features: '项目特征',
    unit: '单位',
    quantity: '工程量',
    price: '综合单价',
    total: '合价',
  },
  /** 清单类别 */
  lists: { fbfx: '分部分项', csxm: '措施项目' } satisfies Record<CostLine['list'], string>,
  /** the rows of 文件信息, in the order the generator writes them */
  infoItems: [
    '标准',
    '编制软件',
    '软件版本',
    '软件序列号',
    '机器码',
    '创建时间',
    '修改时间',
    '编制人',
    '投标人',
    '招标控制价',
    '投标总价',
  ],
} as const;

const INFO = COST_XLSX.info;
const SUM = COST_XLSX.summary;
const LIN = COST_XLSX.lines;
const FEE_COLUMNS = COST_FEES.map((f) => COST_FEE_LABELS[f]);
const INFO_COLUMNS = [INFO.item, INFO.value];
const SUMMARY_COLUMNS = [SUM.level, SUM.code, SUM.name, SUM.zy, ...FEE_COLUMNS];
const LINE_COLUMNS = [LIN.unitCode, LIN.list, LIN.code, LIN.name, LIN.quantity, LIN.price, LIN.total];
const LEVELS = new Map<string, CostLevel>(COST_LEVELS.map((l) => [COST_LEVEL_LABELS[l], l]));
const LISTS = new Map<string, CostLine['list']>(
  (Object.keys(COST_XLSX.lists) as CostLine['list'][]).map((k) => [COST_XLSX.lists[k], k]),
);
const META_ITEMS: Record<string, keyof CostFileMeta> = {
  编制软件: 'software',
  软件版本: 'softwareVersion',
  软件序列号: 'serial',
  机器码: 'machineCode',
  创建时间: 'createdAt',
  修改时间: 'modifiedAt',
  编制人: 'author',
};
const TIMES = new Set(['创建时间', '修改时间']);

const round2 = (v: number) => Math.round(v * 100) / 100 || 0;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6 || 0;
/** the largest amount or quantity taken (13 digits before the point, as the XML) */
const MAX_ABS = 1e13;

// --- cells ------------------------------------------------------------------------------------------------------

/** Excel's serial date-time (days since 1899-12-30; since 1904-01-01 in a 1904 workbook), read as Beijing time. */
function serialTime(v: number, date1904: boolean): string {
  const ms = Math.round((v - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(v);
  return `${d.toISOString().slice(0, 19)}+08:00`;
}

/** The columns of a sheet by header name (its first non-blank row). */
function headerOf(sheet: string, row: number, values: unknown[], required: readonly string[]): Map<string, number> {
  const cols = new Map<string, number>();
  values.forEach((v, i) => {
    const name = plainOf(v);
    if (typeof name !== 'string' && typeof name !== 'number') return;
    const key = String(name);
    if (cols.has(key)) throw new CostParseError(row, COST_MSG.twoColumns(key), sheet);
    cols.set(key, i);
  });
  for (const c of required) if (!cols.has(c)) throw new CostParseError(row, COST_MSG.noColumn(c), sheet);
  return cols;
}

/** A data row: its cells by column name, read as the XML's attributes are (the same rules, the same limits). */
class Cells {
  constructor(
    readonly sheet: string,
    readonly row: number,
    private readonly values: unknown[],
    private readonly cols: Map<string, number>,
  ) {}

  fail(reason: string): never {
    throw new CostParseError(this.row, reason, this.sheet);
  }

  /** `label`: how the message names the value (the column by default) */
  plain(column: string, label = column): Plain {
    const i = this.cols.get(column);
    if (i === undefined) return null;
    const v = plainOf(this.values[i]);
    if (typeof v === 'function') this.fail(v(label));
    return v;
  }

  text(column: string, required: boolean, label = column): string {
    const v = this.plain(column, label);
    const s = v === null ? '' : String(v);
    if (required && !s) this.fail(COST_MSG.blankCell(label));
    if (s.length > MAX_TEXT) this.fail(COST_MSG.cellTooLong(label, MAX_TEXT));
    return s;
  }

  money(column: string, required: boolean, label = column): number | null {
    const v = this.plain(column, label);
    if (v === null) return required ? this.fail(COST_MSG.blankCell(label)) : null;
    if (typeof v === 'number') {
      if (!(Math.abs(v) < MAX_ABS)) this.fail(COST_MSG.cellNotMoney(label, String(v)));
      return round2(v);
    }
    if (!MONEY.test(v)) this.fail(COST_MSG.cellNotMoney(label, v.slice(0, 40)));
    return Number(v);
  }

  quantity(column: string): number {
    const v = this.plain(column);
    if (v === null) return this.fail(COST_MSG.blankCell(column));
    if (typeof v === 'number') {
      if (!(Math.abs(v) < MAX_ABS)) this.fail(COST_MSG.cellNotNumber(column, String(v)));
      return round6(v);
    }
    if (!NUMBER.test(v)) this.fail(COST_MSG.cellNotNumber(column, v.slice(0, 40)));
    return Number(v);
  }
}

/** A rejected zip or an unreadable part: the file is no workbook. */
const notXlsx = () => new CostParseError(0, COST_MSG.notXlsx, '');

// --- the reader -----------------------------------------------------------------------------------------------------

/** A priced line, checked but for its unit works (as spooled: the fields in this order). */
type Pending = [
  row: number,
  unitCode: string,
  list: CostLine['list'],
  code: string,
  name: string,
  unit: string,
  features: string,
  quantity: number,
  price: number,
  total: number,
];

/** The state of one parse: what the sheets have said so far. */
class WorkbookParse {
  standard = '';
  meta: CostFileMeta = {
    software: '',
    softwareVersion: '',
    serial: '',
    machineCode: '',
    createdAt: '',
    modifiedAt: '',
    author: '',
  };
  controlPrice: number | null = null;
  bidPrice: number | null = null;
  bidder = '';
  project: CostTreeRow | null = null;
  /** 造价汇总 read in full: the tree is complete and its sums made */
  summaryRead = false;
  lineCount = 0;
  /** unit works by code, with the row of 造价汇总 that states it */
  units = new Map<string, { node: CostTreeRow; row: number }>();
  /** 清单 read before 造价汇总: its lines, waiting in a temporary file */
  spool: { dir: string; file: string; out: WriteStream } | null = null;
  /** a fault that is not the file's — the spool's I/O (a full disk …), a callback's — passed on as it is */
  ownError: unknown = null;
  date1904 = false;

  constructor(private readonly opts: CostParseOptions) {}

  /** Each non-blank row of a sheet after its header (its first non-blank row), as Cells. */
  async *rowsOf(ws: SheetReader, sheet: string, required: readonly string[]): AsyncGenerator<Cells> {
    let cols: Map<string, number> | null = null;
    for await (const row of ws) {
      const values = valuesOf(row);
      if (blankRow(values)) continue;
      if (!cols) cols = headerOf(sheet, row.number, values, required);
      else yield new Cells(sheet, row.number, values, cols);
    }
  }

  async readInfo(ws: SheetReader) {
    const seen = new Map<string, number>();
    for await (const c of this.rowsOf(ws, INFO.sheet, INFO_COLUMNS)) {
      const item = c.text(INFO.item, false);
      if (!item) continue;
      const before = seen.get(item);
      if (before) c.fail(COST_MSG.twoItems(item, before));
      seen.set(item, c.row);
      const key = META_ITEMS[item];
      if (key) {
        const v = c.plain(INFO.value, item);
        this.meta[key] =
          TIMES.has(item) && typeof v === 'number' ? serialTime(v, this.date1904) : c.text(INFO.value, false, item);
      } else if (item === '标准') this.standard = c.text(INFO.value, false, item);
      else if (item === '投标人') this.bidder = c.text(INFO.value, false, item);
      else if (item === '招标控制价') this.controlPrice = c.money(INFO.value, false, item);
      else if (item === '投标总价') this.bidPrice = c.money(INFO.value, false, item);
      // any other item is passed over (later versions may add some)
    }
  }

  async readSummary(ws: SheetReader) {
    let single: CostTreeRow | null = null;
    const closeSingle = () => {
      if (single && !single.children!.length) {
        throw new CostParseError(single.line, COST_MSG.singleWithoutUnits(single.name), SUM.sheet);
      }
    };
    for await (const c of this.rowsOf(ws, SUM.sheet, SUMMARY_COLUMNS)) {
      const levelText = c.text(SUM.level, true);
      const level = LEVELS.get(levelText) ?? c.fail(COST_MSG.wrongLevel(levelText.slice(0, 40)));
      const project = this.project;
      if (level === 'project') {
        if (project) c.fail(COST_MSG.secondProject);
        const row = emptyRow('project', '1', c.row);
        row.code = c.text(SUM.code, true);
        row.name = c.text(SUM.name, true);
        fees(c, row, false);
        this.project = row;
        continue;
      }
      if (!project) return c.fail(COST_MSG.projectFirst);
      if (level === 'single') {
        closeSingle();
        const row = emptyRow('single', `${project.id}.${project.children!.length + 1}`, c.row);
        row.code = c.text(SUM.code, true);
        row.name = c.text(SUM.name, true);
        fees(c, row, false);
        project.children!.push(row);
        single = row;
        continue;
      }
      if (!single) return c.fail(COST_MSG.unitBeforeSingle);
      const row = emptyRow('unit', `${single.id}.${single.children!.length + 1}`, c.row);
      row.code = c.text(SUM.code, true);
      row.name = c.text(SUM.name, true);
      row.zy = c.text(SUM.zy, true);
      delete row.children;
      fees(c, row, true);
      const twin = this.units.get(row.code);
      if (twin) c.fail(COST_MSG.twoUnits(row.code, twin.row));
      this.units.set(row.code, { node: row, row: c.row });
      single.children!.push(row);
      this.own(() => this.opts.onUnit?.(row.id, row.code));
    }
    const project = this.project;
    if (!project) throw new CostParseError(0, COST_MSG.sheetWithoutProject, SUM.sheet);
    closeSingle();
    if (!project.children!.length) throw new CostParseError(project.line, COST_MSG.projectWithoutSingles, SUM.sheet);
    for (const s of project.children!) sumUp(s);
    sumUp(project);
    this.summaryRead = true;
  }

  deliver(p: Pending) {
    const unit = this.units.get(p[1]);
    if (!unit) throw new CostParseError(p[0], COST_MSG.unknownUnit(p[1]), LIN.sheet);
    unit.node.lineCount++;
    this.lineCount++;
    const onLine = this.opts.onLine;
    if (!onLine) return;
    const line: CostLine = {
      unitId: unit.node.id,
      list: p[2],
      code: p[3],
      name: p[4],
      unit: p[5],
      features: p[6],
      quantity: p[7],
      price: p[8],
      total: p[9],
      line: p[0],
    };
    this.own(() => onLine(line));
  }

  /** Runs a callback: what it throws is passed on as it is. */
  own(f: () => void) {
    try {
      f();
    } catch (e) {
      this.ownError ??= e;
      throw e;
    }
  }

  async readLines(ws: SheetReader) {
    let out: WriteStream | null = null;
    if (!this.summaryRead) {
      const dir = await this.io(mkdtemp(path.join(os.tmpdir(), 'ks-cost-xlsx-')));
      const file = path.join(dir, 'lines.jsonl');
      out = createWriteStream(file);
      // its faults surface through `errored`, the waits below and `end`; never as an unheard 'error'
      out.on('error', () => {});
      this.spool = { dir, file, out };
    }
    let buffered = '';
    for await (const c of this.rowsOf(ws, LIN.sheet, LINE_COLUMNS)) {
      const listText = c.text(LIN.list, true);
      const p: Pending = [
        c.row,
        c.text(LIN.unitCode, true),
        LISTS.get(listText) ?? c.fail(COST_MSG.wrongList(listText.slice(0, 40))),
        c.text(LIN.code, true),
        c.text(LIN.name, true),
        c.text(LIN.unit, false),
        c.text(LIN.features, false),
        c.quantity(LIN.quantity),
        c.money(LIN.price, true)!,
        c.money(LIN.total, true)!,
      ];
      if (!out) {
        this.deliver(p);
        continue;
      }
      buffered += `${JSON.stringify(p)}\n`;
      if (buffered.length >= 64 * 1024) {
        const drained = out.write(buffered);
        buffered = '';
        if (out.errored) await this.io(Promise.reject(out.errored));
        if (!drained) await this.io(once(out, 'drain'));
      }
    }
    if (out) await this.io(endOf(out, buffered));
  }

  /** Records a fault of the spool's I/O (and passes it on). */
  async io<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      this.ownError ??= e;
      throw e;
    }
  }

  /** The lines 清单 held before 造价汇总 came, handed on now. */
  async replay() {
    if (!this.spool) return;
    const input = createReadStream(this.spool.file, { encoding: 'utf8' });
    const chunks = input[Symbol.asyncIterator]() as AsyncIterator<string>;
    let rest = '';
    try {
      for (;;) {
        const next = await this.io(chunks.next());
        if (next.done) break;
        const lines = (rest + next.value).split('\n');
        rest = lines.pop()!;
        for (const l of lines) if (l) this.deliver(JSON.parse(l) as Pending);
      }
      if (rest) this.deliver(JSON.parse(rest) as Pending);
    } finally {
      input.destroy();
    }
  }

  async dispose() {
    if (!this.spool) return;
    this.spool.out.destroy();
    await rm(this.spool.dir, { recursive: true, force: true });
  }
}

function fees(c: Cells, row: CostTreeRow, required: boolean) {
  for (const f of COST_FEES) {
    const v = c.money(COST_FEE_LABELS[f], required);
    if (v !== null) {
      row[f] = v;
      row.stated.push(f);
    }
  }
}

/** A node's fees it does not state: the sums of its children (as parseCostXml). */
function sumUp(row: CostTreeRow) {
  for (const f of COST_FEES) {
    if (row.stated.includes(f)) continue;
    let s = 0;
    for (const c of row.children ?? []) s += c[f];
    row[f] = Math.round(s * 100) / 100;
  }
}

const endOf = (out: WriteStream, last: string) =>
  new Promise<void>((resolve, reject) => {
    out.end(last, (e?: Error | null) => (e ? reject(e) : resolve()));
  });

export async function parseCostXlsx(
  input: AsyncIterable<Buffer | Uint8Array>,
  opts: CostParseOptions = {},
): Promise<ParsedCost> {
  const hash = createHash('sha256');
  const { reader, zip, currentSource, state, stream } = openWorkbook(input, (buf: Buffer) => hash.update(buf));
  const w = new WorkbookParse(opts);

  let failure: unknown = null;
  const read = new Set<string>();
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
      const ws = next.value.value as SheetReader;
      const name = (ws.name ?? '').trim();
      if (failure !== null || read.has(name) || !(name === INFO.sheet || name === SUM.sheet || name === LIN.sheet)) {
        // a sheet the format does not know, or anything after a fault: passed over unparsed (the zip is still read to
        // its end, so that ExcelJS removes the sheets it spooled and the input is consumed)
        await skip(currentSource());
        continue;
      }
      read.add(name);
      w.date1904 = reader.properties?.model?.date1904 === true;
      try {
        if (name === INFO.sheet) await w.readInfo(ws);
        else if (name === SUM.sheet) await w.readSummary(ws);
        else await w.readLines(ws);
      } catch (e) {
        failure = e;
        await skip(currentSource());
      }
    }
    if (failure === null && w.summaryRead) await w.replay();
  } catch (e) {
    failure ??= e;
  } finally {
    // the rest of the input, for its size and hash (and so that an upload is read to its end)
    stream.unpipe();
    try {
      for await (const _ of stream) {
        // counted and hashed by tap
      }
    } catch {
      // the stream had ended
    }
    await w.dispose();
    // ExcelJS's parse has ended (done or thrown): no spooled sheet is read any more
    await Promise.all(zip.spooled.map((f) => rm(f, { force: true })));
  }
  if (state.inputError) throw state.inputError;
  if (w.ownError) throw w.ownError;
  if (!state.size) throw new CostParseError(0, COST_MSG.emptyFile, '');
  if (zip.broken instanceof InflateLimit) {
    throw new CostParseError(0, COST_MSG.inflatedTooLarge(INFLATE_RATIO, INFLATE_MAX_GB), '');
  }
  // a zip that broke may have cut a sheet short: what was read of it is not reported
  if (zip.broken) throw notXlsx();
  if (failure instanceof CostParseError) throw failure;
  if (failure !== null || !reader.model) throw notXlsx();
  if (!w.summaryRead || !w.project) throw new CostParseError(0, COST_MSG.noSheet(SUM.sheet), '');
  return {
    standard: w.standard,
    meta: w.meta,
    controlPrice: w.controlPrice,
    bidPrice: w.bidPrice,
    bidder: w.bidder,
    tree: [w.project],
    lineCount: w.lineCount,
    size: state.size,
    sha256: hash.digest('hex'),
  };
}
