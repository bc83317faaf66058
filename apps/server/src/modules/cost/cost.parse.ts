import { createHash } from 'node:crypto';
import {
  COST_FEE_LABELS,
  COST_FEES,
  COST_MSG,
  type CostFileMeta,
  type CostLevel,
  type CostTreeRow,
} from '@ks/contracts';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * The streaming reader of the cost XML of docs/cost-xml.md (issue 18). The file passes once through saxes: the tree
 * (建设项目 → 单项工程 → 单位工程, a few hundred nodes at most) is kept, each priced line (清单项目) is handed to
 * `onLine` and forgotten, so a 200 MB file parses in flat memory. UTF-8 and, when the declaration says so, GB18030 /
 * GBK / GB2312 are read. Any fault — malformed XML, a misplaced or incomplete element, a value that is not an amount —
 * stops the parse with a CostParseError naming its line. Elements the format does not know are skipped with their
 * content (later versions may add some); known ones in the wrong place are errors.
 */

export class CostParseError extends Error {
  constructor(
    /** the line of the XML; of an xlsx, the row of the worksheet (0: none) */
    readonly line: number,
    readonly reason: string,
    /** an xlsx's worksheet ('' for the workbook as a whole); undefined for XML */
    readonly sheet?: string,
  ) {
    super(sheet === undefined ? COST_MSG.atLine(line, reason) : COST_MSG.atRow(sheet, line, reason));
  }
}

/** A priced line of the bill (清单项目). */
export interface CostLine {
  /** the tree id of its unit works */
  unitId: string;
  /** 分部分项 or 措施 */
  list: 'fbfx' | 'csxm';
  code: string;
  name: string;
  unit: string;
  /** 项目特征 */
  features: string;
  quantity: number;
  price: number;
  total: number;
  line: number;
}

export interface ParsedCost {
  standard: string;
  meta: CostFileMeta;
  controlPrice: number | null;
  bidPrice: number | null;
  bidder: string;
  tree: CostTreeRow[];
  lineCount: number;
  size: number;
  sha256: string;
}

const ROOT = '工程造价文件';
const META = '文件信息';
const PROJECT = '建设项目';
const SINGLE = '单项工程';
const UNIT = '单位工程';
const LISTS: Record<string, CostLine['list']> = { 分部分项工程清单: 'fbfx', 措施项目清单: 'csxm' };
const ITEM = '清单项目';
const KNOWN = new Set([ROOT, META, PROJECT, SINGLE, UNIT, ITEM, ...Object.keys(LISTS)]);
/** where each known element may stand */
const PARENT: Record<string, string[]> = {
  [META]: [ROOT],
  [PROJECT]: [ROOT],
  [SINGLE]: [PROJECT],
  [UNIT]: [SINGLE],
  分部分项工程清单: [UNIT],
  措施项目清单: [UNIT],
  [ITEM]: Object.keys(LISTS),
};
const MAX_DEPTH = 64;
export const MAX_TEXT = 500;

export const MONEY = /^-?\d{1,13}(\.\d{1,2})?$/;
export const NUMBER = /^-?\d{1,13}(\.\d{1,6})?$/;

interface Open {
  name: string;
  /** a tree node opened by this element */
  node?: CostTreeRow;
}
/** every priced line opens the same (a million of them in a 200 MB file) */
const ITEM_OPEN: Open = Object.freeze({ name: ITEM });

export function emptyRow(level: CostLevel, id: string, line: number): CostTreeRow {
  return {
    id,
    level,
    code: '',
    name: '',
    zy: '',
    zzj: 0,
    fbfxf: 0,
    csxmf: 0,
    aqwmsgf: 0,
    qtxmf: 0,
    gf: 0,
    sj: 0,
    zzsxxse: 0,
    stated: [],
    line,
    lineCount: 0,
    children: [],
  };
}

/** The encoding the XML declaration names (UTF-8 when none). */
export function declaredEncoding(head: Buffer): string {
  const decl = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_-]+)["']/.exec(head.toString('latin1', 0, 200));
  const e = (decl?.[1] ?? 'utf-8').toLowerCase();
  if (e === 'gbk' || e === 'gb2312' || e === 'gb18030') return 'gb18030';
  return e === 'utf8' ? 'utf-8' : e;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

export async function parseCostXml(
  input: AsyncIterable<Buffer | Uint8Array | string>,
  opts: {
    onLine?: (l: CostLine) => void;
    /** a unit works opened: its tree id and code (before its lines) */
    onUnit?: (id: string, code: string) => void;
  } = {},
): Promise<ParsedCost> {
  const parser = new SaxesParser({ position: true });
  const hash = createHash('sha256');
  let size = 0;
  const stack: Open[] = [];
  /** inside an unknown element: its depth (its content is skipped) */
  let skipping = 0;
  let standard = '';
  let meta: CostFileMeta = {
    software: '',
    softwareVersion: '',
    serial: '',
    machineCode: '',
    createdAt: '',
    modifiedAt: '',
    author: '',
  };
  let project: CostTreeRow | null = null;
  let controlPrice: number | null = null;
  let bidPrice: number | null = null;
  let bidder = '';
  let lineCount = 0;
  let sawRoot = false;
  let failure: CostParseError | null = null;
  /** where the root element closed */
  let endLine = 1;

  const fail = (reason: string, line = parser.line): never => {
    throw new CostParseError(line, reason);
  };
  const text = (el: string, a: Record<string, string>, name: string, required: boolean): string => {
    const v = (a[name] ?? '').trim();
    if (required && !v) fail(COST_MSG.missing(el, name));
    if (v.length > MAX_TEXT) fail(COST_MSG.tooLong(el, name, MAX_TEXT));
    return v;
  };
  const money = (el: string, a: Record<string, string>, name: string, required: boolean): number | null => {
    const v = (a[name] ?? '').trim();
    if (!v) return required ? fail(COST_MSG.missing(el, name)) : null;
    if (!MONEY.test(v)) fail(COST_MSG.notMoney(el, name, v.slice(0, 40)));
    return Number(v);
  };
  const fees = (el: string, a: Record<string, string>, row: CostTreeRow, required: boolean) => {
    for (const f of COST_FEES) {
      const v = money(el, a, COST_FEE_LABELS[f], required);
      if (v !== null) {
        row[f] = v;
        row.stated.push(f);
      }
    }
  };
  /** a node's fees it does not state: the sums of its children */
  const sumUp = (row: CostTreeRow) => {
    for (const f of COST_FEES) {
      if (row.stated.includes(f)) continue;
      let s = 0;
      for (const c of row.children ?? []) s += c[f];
      row[f] = round2(s);
    }
  };

  const onOpen = (tag: SaxesTagPlain) => {
    const name = tag.name;
    const a = tag.attributes as Record<string, string>;
    const line = parser.line;
    if (skipping) {
      skipping++;
      return;
    }
    if (stack.length >= MAX_DEPTH) fail(COST_MSG.tooDeep);
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (name !== ROOT) fail(COST_MSG.wrongRoot);
      sawRoot = true;
      standard = (a.标准 ?? '').trim().slice(0, MAX_TEXT);
      stack.push({ name });
      return;
    }
    if (!KNOWN.has(name)) {
      skipping = 1;
      return;
    }
    if (!PARENT[name]!.includes(parent.name)) fail(COST_MSG.misplaced(name, parent.name));
    switch (name) {
      case META:
        meta = {
          software: text(name, a, '编制软件', false),
          softwareVersion: text(name, a, '软件版本', false),
          serial: text(name, a, '软件序列号', false),
          machineCode: text(name, a, '机器码', false),
          createdAt: text(name, a, '创建时间', false),
          modifiedAt: text(name, a, '修改时间', false),
          author: text(name, a, '编制人', false),
        };
        stack.push({ name });
        return;
      case PROJECT: {
        if (project) fail(COST_MSG.twoProjects);
        const row = emptyRow('project', '1', line);
        row.code = text(name, a, '编码', true);
        row.name = text(name, a, '名称', true);
        controlPrice = money(name, a, '招标控制价', false);
        bidPrice = money(name, a, '投标总价', false);
        bidder = text(name, a, '投标人', false);
        fees(name, a, row, false);
        project = row;
        stack.push({ name, node: row });
        return;
      }
      case SINGLE:
      case UNIT: {
        const up = parent.node!;
        const row = emptyRow(name === SINGLE ? 'single' : 'unit', `${up.id}.${up.children!.length + 1}`, line);
        row.code = text(name, a, '编码', true);
        row.name = text(name, a, '名称', true);
        if (name === UNIT) {
          row.zy = text(name, a, '专业', true);
          delete row.children;
        }
        fees(name, a, row, name === UNIT);
        up.children!.push(row);
        if (name === UNIT) opts.onUnit?.(row.id, row.code);
        stack.push({ name, node: row });
        return;
      }
      case ITEM: {
        const unit = stack[stack.length - 2]!.node!;
        const quantityText = text(name, a, '工程量', true);
        if (!NUMBER.test(quantityText)) fail(COST_MSG.notNumber(name, '工程量', quantityText.slice(0, 40)));
        const l: CostLine = {
          unitId: unit.id,
          list: LISTS[parent.name]!,
          code: text(name, a, '编码', true),
          name: text(name, a, '名称', true),
          unit: text(name, a, '单位', false),
          features: text(name, a, '项目特征', false),
          quantity: Number(quantityText),
          price: money(name, a, '综合单价', true)!,
          total: money(name, a, '合价', true)!,
          line,
        };
        unit.lineCount++;
        lineCount++;
        opts.onLine?.(l);
        stack.push(ITEM_OPEN);
        return;
      }
      default:
        // the lists: containers of priced lines
        stack.push({ name });
    }
  };

  parser.on('opentag', (tag) => {
    if (failure) return;
    try {
      onOpen(tag as SaxesTagPlain);
    } catch (e) {
      failure = e as CostParseError;
    }
  });
  parser.on('closetag', () => {
    if (failure) return;
    if (skipping) {
      skipping--;
      return;
    }
    const closed = stack.pop();
    if (!stack.length) endLine = parser.line;
    const node = closed?.node;
    if (!node) return;
    try {
      if (node.level === 'single' && !node.children!.length) fail(COST_MSG.noUnits(node.name), node.line);
      if (node.level === 'project' && !node.children!.length) fail(COST_MSG.noSingles, node.line);
      if (node.level !== 'unit') sumUp(node);
    } catch (e) {
      failure = e as CostParseError;
    }
  });
  parser.on('error', (e) => {
    // saxes: "[file:]line:column: message"
    const at = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(e.message);
    failure ??= at
      ? new CostParseError(Number(at[1]), `${COST_MSG.notXml}（第 ${at[2]} 列附近）`)
      : new CostParseError(parser.line, COST_MSG.notXml);
  });

  let decoder: InstanceType<typeof TextDecoder> | null = null;
  /** the first bytes, until the XML declaration (and its encoding) can be read */
  let head: Buffer[] = [];
  let headLen = 0;
  const begin = (bytes: Buffer) => {
    try {
      decoder = new TextDecoder(declaredEncoding(bytes));
    } catch {
      decoder = new TextDecoder('utf-8');
    }
    parser.write(decoder.decode(bytes, { stream: true }));
  };
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += buf.length;
    hash.update(buf);
    if (failure) continue;
    if (decoder) {
      parser.write((decoder as InstanceType<typeof TextDecoder>).decode(buf, { stream: true }));
      continue;
    }
    head.push(buf);
    headLen += buf.length;
    if (headLen >= 256) {
      begin(Buffer.concat(head));
      head = [];
    }
  }
  if (!size) throw new CostParseError(1, COST_MSG.emptyFile);
  if (!failure) {
    if (!decoder && headLen) begin(Buffer.concat(head));
    if (decoder) parser.write((decoder as InstanceType<typeof TextDecoder>).decode());
    parser.close();
  }
  if (failure) throw failure;
  if (!sawRoot) throw new CostParseError(1, COST_MSG.notXml);
  if (!project) throw new CostParseError(endLine, COST_MSG.noProject);
  return {
    standard,
    meta,
    controlPrice,
    bidPrice,
    bidder,
    tree: [project],
    lineCount,
    size,
    sha256: hash.digest('hex'),
  };
}
