import { Readable, type Writable } from 'node:stream';
import { COST_MSG } from '@ks/contracts';
import ExcelJS from 'exceljs';

/**
 * Reading xlsx workbooks as they stream, for imports that must not hold a workbook in memory (cost files, material
 * prices): ExcelJS's streaming reader, patched on its own instances for faults of ExcelJS 4.4 and unzipper 0.10 —
 * a Chinese character split between two chunks, a sheet before xl/workbook.xml, the last parts lost, an open part
 * after corrupt deflate data — and watched so that a workbook whose parts inflate far beyond its size (a zip bomb) is
 * stopped; and cell values read as plain text or numbers. `openWorkbook` puts the pieces together.
 */

// --- cells ------------------------------------------------------------------------------------------------------

/** A cell's value as read: text (trimmed), a number, or nothing. */
export type Plain = string | number | null;
/** why a cell cannot be read (it names its column when thrown) */
export type Unreadable = (column: string) => string;

/** A value of ExcelJS's reader as text or a number: a formula's cached result, rich text's runs, a link's text. */
export function plainOf(v: unknown): Plain | Unreadable {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return Number.isNaN(v) ? COST_MSG.cellError : v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      // a formula: the result Excel cached when it saved the file (NaN: the result was an error value)
      return o.result === undefined ? COST_MSG.noFormulaResult : plainOf(o.result);
    }
    if ('error' in o) return COST_MSG.cellError;
    if (Array.isArray(o.richText)) {
      return (
        (o.richText as { text?: unknown }[])
          .map((r) => (typeof r.text === 'string' ? r.text : ''))
          .join('')
          .trim() || null
      );
    }
    if ('text' in o) return plainOf(o.text);
  }
  return String(v).trim() || null;
}

export const blankRow = (values: unknown[]) => values.every((v) => plainOf(v) === null);

/**
 * A row's values by column number. A formula is taken from the cell's own result: its `value` drops a falsy result
 * (ExcelJS copies only truthy fields), and a formula whose cached result is 0 would read as one without a result.
 */
export function valuesOf(row: ExcelJS.Row): unknown[] {
  const values: unknown[] = [];
  row.eachCell((cell, col) => {
    values[col] = cell.type === ExcelJS.ValueType.Formula ? { formula: true, result: cell.result } : cell.value;
  });
  return values;
}

// --- ExcelJS's streaming reader, patched on the instance ----------------------------------------------------------

export interface ReaderInternals {
  model?: { sheets?: unknown[] };
  properties?: { model?: { date1904?: boolean } };
  workbookRels?: unknown;
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string): Generator<unknown>;
  parse(): AsyncGenerator<{ eventType: string; value: unknown }>;
}

/** What a worksheet event gives: a reader of the sheet's rows, its name from xl/workbook.xml. */
export interface SheetReader extends AsyncIterable<ExcelJS.Row> {
  name?: string;
}

/** The raw part of the sheet being read: to drain (or close) it when its rows are not wanted. */
interface SheetSource {
  it: AsyncIterator<Buffer | string>;
  stream: Readable | null;
}

/** The part's text, decoded across chunks (not each chunk on its own); it leaves `source` open when stopped early. */
function decoded(source: SheetSource): AsyncIterable<string> {
  return {
    async *[Symbol.asyncIterator]() {
      const utf8 = new TextDecoder('utf-8');
      for (;;) {
        const next = await source.it.next();
        if (next.done) break;
        const s = typeof next.value === 'string' ? next.value : utf8.decode(next.value, { stream: true });
        if (s) yield s;
      }
      const rest = utf8.decode();
      if (rest) yield rest;
    },
  };
}

/** Skips the rest of a sheet without parsing it: closes a sheet ExcelJS spooled to a file, drains one read in place. */
export async function skip(source: SheetSource | null): Promise<void> {
  if (!source) return;
  if (source.stream) {
    // ExcelJS removes the file next: an open still under way would fail, with no one listening
    source.stream.on('error', () => {});
    source.stream.destroy();
    return;
  }
  while (!(await source.it.next()).done) {
    // inflating only
  }
}

/**
 * The workarounds of ExcelJS 4.4 (on this reader only): each text part is decoded as a whole (a character split
 * between two inflated chunks was garbled); the workbook's relationships are withheld until xl/workbook.xml has been
 * read, so a sheet before it in the zip is spooled like the others (ExcelJS read it in place and threw, having no sheet
 * names yet). Returns the source of the sheet last handed out.
 */
export function patch(r: ReaderInternals): () => SheetSource | null {
  let current: SheetSource | null = null;
  let rels: unknown;
  Object.defineProperty(r, 'workbookRels', {
    configurable: true,
    get: () => (r.model ? rels : undefined),
    set: (v: unknown) => {
      rels = v;
    },
  });
  const asText = (entry: Readable) => {
    entry.setEncoding('utf8');
    return entry;
  };
  const parseRels = r._parseRels;
  const parseWorkbook = r._parseWorkbook;
  const parseSharedStrings = r._parseSharedStrings;
  const parseWorksheet = r._parseWorksheet;
  r._parseRels = (entry) => parseRels.call(r, asText(entry));
  r._parseWorkbook = (entry) => parseWorkbook.call(r, asText(entry));
  r._parseSharedStrings = (entry) => parseSharedStrings.call(r, asText(entry));
  r._parseWorksheet = (iterator, sheetNo) => {
    current = {
      it: iterator[Symbol.asyncIterator](),
      stream: iterator instanceof Readable ? iterator : null,
    };
    return parseWorksheet.call(r, decoded(current), sheetNo);
  };
  return () => current;
}

/** The parts of a workbook may inflate to this many times its size (plus INFLATE_FREE), and to INFLATE_MAX at most. */
export const INFLATE_RATIO = 100;
const INFLATE_FREE = 64 * 1024 * 1024;
export const INFLATE_MAX_GB = 4;
const INFLATE_MAX = INFLATE_MAX_GB * 1024 * 1024 * 1024;
export class InflateLimit extends Error {}

/**
 * Watches unzipper's parser under ExcelJS (reached through `pipe` of the reader's own input stream). It holds back
 * the parser's early 'end' (below). On an inflate error unzipper emits the error on the zip but leaves the entry
 * open, and ExcelJS waits on that entry for ever: the open entry is ended here (its further writes swallowed), so
 * ExcelJS goes on to the zip's error and throws. The same stop enforces the inflation limit — ExcelJS spools whole
 * sheets, inflated, to temporary files, so a small zip of a huge sheet (a zip bomb) must not be read to its end.
 */
export class ZipWatch {
  broken: Error | null = null;
  inflated = 0;
  /** the files ExcelJS spooled sheets to (it removes them itself, but not when the zip breaks first) */
  readonly spooled: string[] = [];
  private entry: Writable | null = null;

  constructor(
    stream: Readable,
    private readonly compressed: () => number,
  ) {
    const pipe = stream.pipe.bind(stream);
    stream.pipe = (<T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T => {
      const zip = dest as unknown as Readable;
      // unzipper emits 'end' itself once its input is read, though entries may still wait in its buffer unread, and
      // ExcelJS then stops: the last sheets were lost when the input ended before ExcelJS had taken them (the
      // unmerged node-unzipper PR 346). That 'end' is held back; the stream's own comes when the buffer is empty.
      const emit = zip.emit.bind(zip) as (event: string | symbol, ...args: unknown[]) => boolean;
      zip.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
        if (event === 'end' && zip.readableLength > 0) {
          zip.push(null);
          return false;
        }
        return emit(event, ...args);
      }) as typeof zip.emit;
      zip.on('error', (e: Error) => this.stop(e));
      // entries as the zip hands them out (ExcelJS's own listener is added right after, in the same tick)
      zip.on('data', (entry: Writable & Pick<Readable, 'pipe'>) => this.watch(entry));
      return pipe(dest, options);
    }) as typeof stream.pipe;
  }

  private watch(entry: Writable & Pick<Readable, 'pipe'>) {
    const pipe = entry.pipe.bind(entry);
    entry.pipe = (<T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T => {
      const file = (dest as { path?: unknown }).path;
      if (typeof file === 'string') this.spooled.push(file);
      return pipe(dest, options);
    }) as typeof entry.pipe;
    const write = entry.write.bind(entry) as (chunk: Buffer, ...rest: unknown[]) => boolean;
    entry.write = ((chunk: Buffer, ...rest: unknown[]): boolean => {
      if (!this.broken) {
        this.inflated += chunk.length;
        if (this.inflated <= Math.min(INFLATE_MAX, INFLATE_FREE + INFLATE_RATIO * this.compressed())) {
          return write(chunk, ...rest);
        }
        this.stop(new InflateLimit());
      }
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as typeof entry.write;
    this.entry = entry;
    if (this.broken) this.close(entry);
  }

  stop(e: Error) {
    this.broken ??= e;
    if (this.entry) this.close(this.entry);
  }

  private close(entry: Writable) {
    if (!entry.writableEnded) entry.end();
  }
}

/**
 * A workbook reader over `input` with the patches and the inflation watch in place: `onChunk` sees every byte as it
 * passes (to hash or count it); a failing input just ends (unzipper would wait for more bytes) and is reported as
 * `inputError`; a broken zip is fed no more, though the rest of the input is still read (for the size and a hash).
 */
export function openWorkbook(input: AsyncIterable<Buffer | Uint8Array>, onChunk?: (buf: Buffer) => void) {
  const state = { size: 0, inputError: null as unknown };
  async function* tap() {
    try {
      for await (const chunk of input) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        state.size += buf.length;
        onChunk?.(buf);
        if (!zip.broken) yield buf;
      }
    } catch (e) {
      state.inputError = e;
    }
  }
  const stream = Readable.from(tap(), { objectMode: false });
  const zip = new ZipWatch(stream, () => state.size);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    sharedStrings: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  }) as unknown as ReaderInternals;
  const currentSource = patch(reader);
  return { reader, zip, currentSource, state, stream };
}
