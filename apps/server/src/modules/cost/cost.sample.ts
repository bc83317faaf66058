import { COST_FEE_LABELS, COST_FEES, type CostFee } from '@ks/contracts';

/**
 * Cost files of the format of docs/cost-xml.md, made the way a bidder's pricing software makes them: the tenderer's
 * bill of quantities (the same items and quantities for every bidder of the section) priced at the bidder's own unit
 * prices, fees at the bidder's rates, totals summed at every level. Deterministic for a seed. The documented sample,
 * the tests, the demo seed and the benchmark (a 200 MB file: `linesPerUnit` large, written as it is read) use it.
 */

export interface CostSampleOptions {
  bidder: string;
  /** the bidder's pricing: the same seed gives the same prices (a planted identical pair) */
  seed: number;
  /** 安全文明施工费 as a share of 分部分项工程费 (default 0.035) */
  safetyRate?: number;
  /** 规费 as a share of 分部分项 + 措施 + 其他 (default 0.025) */
  feeRate?: number;
  /** priced lines of each unit's 分部分项 list (default: the catalogue's, 8–12 a unit) */
  linesPerUnit?: number;
  /** scales every unit price (0.8: a bid 20 % below) */
  priceFactor?: number;
  software?: { name: string; version: string; serial: string; machineCode: string };
  createdAt?: string;
  controlPrice?: number;
  projectCode?: string;
  projectName?: string;
  /** the main building's name in the single and unit works (default 学生公寓楼) */
  building?: string;
}

type Item = [code: string, name: string, unit: string, quantity: number, price: number, features?: string];

/** Items of GB 50854 / GB 50857 with believable quantities and unit prices (yuan) of a Shanxi school dormitory. */
const UNITS: { single: [string, string]; code: string; name: string; zy: string; items: Item[]; measures: Item[] }[] = [
  {
    single: ['01', '学生公寓楼'],
    code: '0101',
    name: '学生公寓楼-建筑工程',
    zy: '建筑工程',
    items: [
      ['010101001', '平整场地', 'm2', 1280, 3.52, '土壤类别：三类土'],
      ['010101002', '挖一般土方', 'm3', 3650, 28.6, '挖土深度：4m 以内'],
      ['010103001', '回填方', 'm3', 1820, 24.3],
      ['010501001', '垫层', 'm3', 132.5, 498.2, 'C15 商品混凝土'],
      ['010501003', '独立基础', 'm3', 386.4, 566.8, 'C30 商品混凝土'],
      ['010502001', '矩形柱', 'm3', 412.7, 612.4, 'C30 商品混凝土'],
      ['010503002', '矩形梁', 'm3', 538.2, 589.9, 'C30 商品混凝土'],
      ['010505001', '有梁板', 'm3', 1026.3, 576.3, 'C30 商品混凝土，板厚 120mm'],
      ['010402001', '砌块墙', 'm3', 1684.1, 438.5, '加气混凝土砌块 200 厚，M5 混合砂浆'],
      ['010515001', '现浇构件钢筋', 't', 486.32, 5368.4, 'HRB400'],
      ['010902001', '屋面卷材防水', 'm2', 1356, 58.7, 'SBS 改性沥青防水卷材 3+3'],
      ['011001001', '保温隔热屋面', 'm2', 1356, 96.4, '挤塑聚苯板 100 厚'],
    ],
    measures: [
      ['011701001', '综合脚手架', 'm2', 8960, 32.6],
      ['011702001', '基础模板', 'm2', 1140, 62.3],
      ['011703001', '垂直运输', 'm2', 8960, 28.4],
    ],
  },
  {
    single: ['01', '学生公寓楼'],
    code: '0102',
    name: '学生公寓楼-装饰装修工程',
    zy: '装饰装修工程',
    items: [
      ['011101001', '水泥砂浆楼地面', 'm2', 2160, 36.8],
      ['011102003', '块料楼地面', 'm2', 6420, 118.6, '800×800 抛光砖'],
      ['011201001', '墙面一般抹灰', 'm2', 21480, 32.5],
      ['011204003', '块料墙面', 'm2', 3860, 126.2, '卫生间 300×600 瓷砖'],
      ['011301001', '天棚抹灰', 'm2', 8350, 28.9],
      ['011407001', '墙面喷刷涂料', 'm2', 17620, 26.4, '乳胶漆两遍'],
      ['010801001', '木质门', 'm2', 612, 468.0],
      ['010807001', '金属窗', 'm2', 1284, 512.5, '断桥铝合金，中空玻璃'],
    ],
    measures: [['011701002', '外脚手架', 'm2', 6240, 18.6]],
  },
  {
    single: ['01', '学生公寓楼'],
    code: '0103',
    name: '学生公寓楼-给排水及电气工程',
    zy: '安装工程',
    items: [
      ['030411001', '配管', 'm', 12860, 16.8, 'PC20 阻燃管暗敷'],
      ['030411004', '配线', 'm', 38650, 4.6, 'BV-2.5'],
      ['030404017', '配电箱', '台', 186, 1268.0],
      ['030412001', '普通灯具', '套', 1320, 86.5],
      ['031001006', '塑料管', 'm', 4680, 42.3, 'PP-R 给水管 DN25'],
      ['031001007', '复合管', 'm', 2240, 68.9, 'PVC-U 排水管 DN110'],
      ['031004014', '给、排水附(配)件', '个', 742, 58.4],
      ['031004006', '大便器', '组', 186, 652.0],
    ],
    measures: [['031301017', '脚手架搭拆', '项', 1, 18600]],
  },
  {
    single: ['02', '室外配套工程'],
    code: '0201',
    name: '室外道路及管网',
    zy: '市政工程',
    items: [
      ['040202001', '路床(槽)整形', 'm2', 4620, 4.8],
      ['040202011', '碎石基层', 'm2', 4620, 46.5, '厚 200mm'],
      ['040203006', '沥青混凝土', 'm2', 3980, 98.6, 'AC-13C 细粒式 50mm + AC-20C 中粒式 70mm'],
      ['040204002', '人行道块料铺设', 'm2', 1260, 112.4],
      ['040501001', '混凝土管', 'm', 860, 286.3, 'DN400 Ⅱ级钢筋混凝土管'],
      ['040504001', '砌筑井', '座', 38, 3860.0],
      ['040205004', '雨水进水井', '座', 46, 1680.0],
    ],
    measures: [['041102001', '垫层模板', 'm2', 420, 48.2]],
  },
];

const round2 = (v: number) => Math.round(v * 100) / 100;
const money = (v: number) => v.toFixed(2);
const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

function lcg(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

type Fees = Record<CostFee, number>;
const feeAttrs = (f: Fees) => COST_FEES.map((k) => ` ${COST_FEE_LABELS[k]}="${money(f[k])}"`).join('');

/** The file, piece by piece (for the 200 MB benchmark: nothing but the current unit's totals is kept). */
export function* costXmlChunks(o: CostSampleOptions): Generator<string> {
  const rnd = lcg(o.seed);
  const safetyRate = o.safetyRate ?? 0.035;
  const feeRate = o.feeRate ?? 0.025;
  const factor = o.priceFactor ?? 1;
  const sw = o.software ?? {
    name: '广联达云计价平台 GCCP6.0',
    version: '6.4200.23.2',
    serial: `GLD-${(o.seed * 7919).toString(16).toUpperCase().padStart(8, '0')}`,
    machineCode: `MC-${(o.seed * 104729).toString(16).toUpperCase().padStart(10, '0')}`,
  };
  // the units' fees are computed before the project and single works are written (their totals come first)
  const unitFees: Fees[] = [];
  const priced: { u: (typeof UNITS)[number]; lines: Item[]; measures: Item[]; fees: Fees }[] = [];
  for (const u of UNITS) {
    const n = o.linesPerUnit ?? u.items.length;
    const lines: Item[] = [];
    for (let k = 0; k < n; k++) {
      const base = u.items[k % u.items.length]!;
      const seq = String(Math.floor(k / u.items.length) + 1).padStart(3, '0');
      const price = round2(base[4] * factor * (0.92 + rnd() * 0.16));
      lines.push([`${base[0]}${seq}`, base[1], base[2], base[3], price, base[5]]);
    }
    const measures = u.measures.map(
      (m, k): Item => [
        `${m[0]}${String(k + 1).padStart(3, '0')}`,
        m[1],
        m[2],
        m[3],
        round2(m[4] * factor * (0.92 + rnd() * 0.16)),
      ],
    );
    let fbfxf = 0;
    for (const l of lines) fbfxf += round2(l[3] * l[4]);
    fbfxf = round2(fbfxf);
    let measureLines = 0;
    for (const m of measures) measureLines += round2(m[3] * m[4]);
    const aqwmsgf = round2(fbfxf * safetyRate);
    const csxmf = round2(measureLines + aqwmsgf);
    const qtxmf = round2(fbfxf * 0.05);
    const gf = round2((fbfxf + csxmf + qtxmf) * feeRate);
    const sj = round2((fbfxf + csxmf + qtxmf + gf) * 0.09);
    const fees: Fees = {
      zzj: round2(fbfxf + csxmf + qtxmf + gf + sj),
      fbfxf,
      csxmf,
      aqwmsgf,
      qtxmf,
      gf,
      sj,
      zzsxxse: sj,
    };
    unitFees.push(fees);
    priced.push({ u, lines, measures, fees });
  }
  const sum = (list: Fees[]): Fees => {
    const out = {} as Fees;
    for (const k of COST_FEES) out[k] = round2(list.reduce((s, f) => s + f[k], 0));
    return out;
  };
  const total = sum(unitFees);
  const control = o.controlPrice ?? round2(total.zzj * 1.08);
  const two = (v: number) => String(v).padStart(2, '0');
  const created =
    o.createdAt ?? `2026-11-${two(10 + (o.seed % 18))}T${two(8 + (o.seed % 10))}:${two((o.seed * 7) % 60)}:00+08:00`;
  const building = (name: string) => (o.building ? name.replace('学生公寓楼', o.building) : name);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<工程造价文件 标准="GB/T 50500-2013" 版本="1.0">\n';
  yield `  <文件信息 编制软件="${esc(sw.name)}" 软件版本="${esc(sw.version)}" 软件序列号="${esc(sw.serial)}" 机器码="${esc(sw.machineCode)}" 创建时间="${created}" 修改时间="${created}" 编制人="${esc(`${o.bidder}造价部`)}"/>\n`;
  yield `  <建设项目 编码="${esc(o.projectCode ?? 'SXGC-2026-1005')}" 名称="${esc(o.projectName ?? '忻州市忻府区第三中学学生公寓楼建设工程')}" 投标人="${esc(o.bidder)}" 招标控制价="${money(control)}" 投标总价="${money(total.zzj)}"${feeAttrs(total)}>\n`;
  const singles = [...new Set(UNITS.map((u) => u.single[0]))];
  for (const sc of singles) {
    const mine = priced.filter((p) => p.u.single[0] === sc);
    yield `    <单项工程 编码="${sc}" 名称="${esc(building(mine[0]!.u.single[1]))}"${feeAttrs(sum(mine.map((p) => p.fees)))}>\n`;
    for (const p of mine) {
      yield `      <单位工程 编码="${p.u.code}" 名称="${esc(building(p.u.name))}" 专业="${p.u.zy}"${feeAttrs(p.fees)}>\n        <分部分项工程清单>\n`;
      let chunk = '';
      for (const [code, name, unit, q, price, features] of p.lines) {
        chunk += `          <清单项目 编码="${code}" 名称="${esc(name)}"${features ? ` 项目特征="${esc(features)}"` : ''} 单位="${unit}" 工程量="${q}" 综合单价="${money(price)}" 合价="${money(round2(q * price))}"/>\n`;
        if (chunk.length > 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      yield `${chunk}        </分部分项工程清单>\n        <措施项目清单>\n`;
      for (const [code, name, unit, q, price] of p.measures) {
        yield `          <清单项目 编码="${code}" 名称="${esc(name)}" 单位="${unit}" 工程量="${q}" 综合单价="${money(price)}" 合价="${money(round2(q * price))}"/>\n`;
      }
      yield '        </措施项目清单>\n      </单位工程>\n';
    }
    yield '    </单项工程>\n';
  }
  yield '  </建设项目>\n</工程造价文件>\n';
}

export const costXml = (o: CostSampleOptions): string => [...costXmlChunks(o)].join('');
