import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { COST_FEES, COST_MSG } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import { type CostLine, CostParseError, declaredEncoding, parseCostXml } from './cost.parse';
import { costXml } from './cost.sample';

const SAMPLE = path.resolve(import.meta.dirname, '../../../../../docs/samples/cost-sample.xml');

/** The text in chunks of `size` bytes (a multi-byte character may fall across two). */
const chunks = (text: string | Buffer, size = 7) => {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return Readable.from(out);
};

async function failure(xml: string): Promise<CostParseError> {
  try {
    await parseCostXml(chunks(xml));
  } catch (e) {
    expect(e).toBeInstanceOf(CostParseError);
    return e as CostParseError;
  }
  throw new Error('parsed');
}

const wrap = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<工程造价文件>\n<建设项目 编码="P" 名称="项目">\n${inner}\n</建设项目>\n</工程造价文件>`;
const UNIT_FEES =
  '总造价="110.00" 分部分项工程费="100.00" 措施项目费="5.00" 安全文明施工费="3.00" 其他项目费="0" 规费="1.00" 税金="4.00" 增值税销项税额="4.00"';

describe('parseCostXml', () => {
  it('reads the documented sample into the tree of screen 6, its totals as the file states them', async () => {
    const lines: CostLine[] = [];
    const r = await parseCostXml(Readable.from([readFileSync(SAMPLE)]), { onLine: (l) => lines.push(l) });
    expect(r.standard).toBe('GB/T 50500-2013');
    expect(r.bidder).toBe('示例建设工程有限公司');
    expect(r.meta.software).toBe('广联达云计价平台 GCCP6.0');
    expect(r.meta.serial).toMatch(/^GLD-/);
    const [p] = r.tree;
    expect(p).toMatchObject({
      level: 'project',
      code: 'SXGC-2026-1005',
      name: '忻州市忻府区第三中学学生公寓楼建设工程',
    });
    expect(p!.children!.map((s) => s.name)).toEqual(['学生公寓楼', '室外配套工程']);
    const units = p!.children!.flatMap((s) => s.children!);
    expect(units.map((u) => u.zy)).toEqual(['建筑工程', '装饰装修工程', '安装工程', '市政工程']);
    expect(units.every((u) => u.children === undefined && u.stated.length === COST_FEES.length)).toBe(true);
    // every level adds up, and the project's total is the bid price
    for (const node of [p!, ...p!.children!]) {
      for (const f of COST_FEES) {
        const sum = node.children!.reduce((s, c) => s + c[f], 0);
        expect(node[f]).toBeCloseTo(sum, 2);
      }
    }
    expect(r.bidPrice).toBe(p!.zzj);
    expect(r.controlPrice).toBeGreaterThan(p!.zzj);
    // the priced lines: 分部分项 add up to each unit's 分部分项工程费
    expect(r.lineCount).toBe(lines.length);
    for (const u of units) {
      const fb = lines.filter((l) => l.unitId === u.id && l.list === 'fbfx').reduce((s, l) => s + l.total, 0);
      expect(fb).toBeCloseTo(u.fbfxf, 2);
      expect(u.lineCount).toBe(lines.filter((l) => l.unitId === u.id).length);
    }
    expect(lines[0]).toMatchObject({ code: '010101001001', name: '平整场地', unit: 'm2', quantity: 1280 });
    expect(lines[0]!.line).toBeGreaterThan(3);
    expect(r.size).toBe(readFileSync(SAMPLE).length);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the file the generator makes, so the docs and the tests agree', () => {
    expect(readFileSync(SAMPLE, 'utf8')).toBe(costXml({ bidder: '示例建设工程有限公司', seed: 1 }));
  });

  it('reads the same whatever the chunking, multi-byte characters cut in two', async () => {
    const xml = costXml({ bidder: '山西建工集团有限公司', seed: 3 });
    const a = await parseCostXml(chunks(xml, 1));
    const b = await parseCostXml(chunks(xml, 4096));
    expect(a).toEqual(b);
  });

  it('reads a GBK file by its declaration', async () => {
    const xml = costXml({ bidder: '太原市第二建筑工程有限公司', seed: 4 }).replace(
      'encoding="UTF-8"',
      'encoding="GBK"',
    );
    const bytes = encodeGb18030(xml);
    expect(declaredEncoding(bytes)).toBe('gb18030');
    const r = await parseCostXml(chunks(bytes, 5));
    expect(r.bidder).toBe('太原市第二建筑工程有限公司');
    expect(r.tree[0]!.children![0]!.name).toBe('学生公寓楼');
  });

  it('names the line of malformed XML, and never throws anything else', async () => {
    const e = await failure('<?xml version="1.0"?>\n<工程造价文件>\n<建设项目 编码="P" 名称="x">\n<单项工程 编码=01>');
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/^第 4 行：文件不是有效的 XML/);
    expect((await failure('')).message).toBe(COST_MSG.atLine(1, COST_MSG.emptyFile));
    expect((await failure('<工程造价文件>')).message).toMatch(/^第 1 行：文件不是有效的 XML（第 \d+ 列附近）$/);
    expect((await failure('not xml at all')).message).toContain(COST_MSG.notXml);
    expect((await failure('<a>\n<b/>\n</a>')).message).toBe(COST_MSG.atLine(1, COST_MSG.wrongRoot));
  });

  it('refuses misplaced and incomplete elements and values that are not amounts, naming the line', async () => {
    const noName = await failure(wrap('<单项工程 编码="01">\n</单项工程>'));
    expect(noName.message).toBe(COST_MSG.atLine(4, COST_MSG.missing('单项工程', '名称')));
    const misplaced = await failure(wrap(`<单位工程 编码="0101" 名称="u" 专业="建筑工程" ${UNIT_FEES}/>`));
    expect(misplaced.message).toBe(COST_MSG.atLine(4, COST_MSG.misplaced('单位工程', '建设项目')));
    const badMoney = await failure(
      wrap(
        `<单项工程 编码="01" 名称="s">\n<单位工程 编码="0101" 名称="u" 专业="建筑工程" ${UNIT_FEES.replace('"100.00"', '"1,000.5"')}/>\n</单项工程>`,
      ),
    );
    expect(badMoney.message).toBe(COST_MSG.atLine(5, COST_MSG.notMoney('单位工程', '分部分项工程费', '1,000.5')));
    const noFee = await failure(
      wrap(
        `<单项工程 编码="01" 名称="s">\n<单位工程 编码="0101" 名称="u" 专业="建筑工程" ${UNIT_FEES.replace(/ 规费="1.00"/, '')}/>\n</单项工程>`,
      ),
    );
    expect(noFee.message).toBe(COST_MSG.atLine(5, COST_MSG.missing('单位工程', '规费')));
    const empty = await failure(wrap('<单项工程 编码="01" 名称="空单项">\n</单项工程>'));
    expect(empty.message).toBe(COST_MSG.atLine(4, COST_MSG.noUnits('空单项')));
    const badQty = await failure(
      wrap(
        `<单项工程 编码="01" 名称="s">\n<单位工程 编码="0101" 名称="u" 专业="建筑工程" ${UNIT_FEES}>\n<分部分项工程清单>\n<清单项目 编码="010101001001" 名称="平整场地" 单位="m2" 工程量="约100" 综合单价="3.50" 合价="350.00"/>\n</分部分项工程清单>\n</单位工程>\n</单项工程>`,
      ),
    );
    expect(badQty.message).toBe(COST_MSG.atLine(7, COST_MSG.notNumber('清单项目', '工程量', '约100')));
    expect((await failure('<工程造价文件>\n</工程造价文件>')).message).toBe(COST_MSG.atLine(2, COST_MSG.noProject));
    const two = await failure(
      costXml({ bidder: 'x', seed: 2 }).replace('</工程造价文件>', '<建设项目 编码="Q" 名称="q"/>\n</工程造价文件>'),
    );
    expect(two.message).toContain(COST_MSG.twoProjects);
  });

  it('skips elements it does not know, with their content', async () => {
    const xml = costXml({ bidder: 'x', seed: 5 }).replace(
      '<分部分项工程清单>',
      '<补充说明 作者="甲"><单位工程 编码="9" 名称="不算"/></补充说明>\n        <分部分项工程清单>',
    );
    const r = await parseCostXml(chunks(xml, 1000));
    expect(r.tree[0]!.children![0]!.children!.some((u) => u.name === '不算')).toBe(false);
  });
});

/** GB18030 bytes of a string (tests only: Node decodes GB18030 but does not encode it) — by inverting the decoder. */
function encodeGb18030(s: string): Buffer {
  const dec = new TextDecoder('gb18030');
  const table = new Map<string, Buffer>();
  for (let hi = 0x81; hi <= 0xfe; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      if (lo === 0x7f) continue;
      const b = Buffer.from([hi, lo]);
      const ch = dec.decode(b);
      if (ch.length === 1 && !table.has(ch)) table.set(ch, b);
    }
  }
  const out: Buffer[] = [];
  for (const ch of s) {
    if (ch.charCodeAt(0) < 0x80) out.push(Buffer.from(ch, 'latin1'));
    else {
      const b = table.get(ch);
      if (!b) throw new Error(`no GB18030 two-byte code for ${ch}`);
      out.push(b);
    }
  }
  return Buffer.concat(out);
}
