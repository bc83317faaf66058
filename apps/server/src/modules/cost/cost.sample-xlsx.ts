import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { COST_FEE_LABELS, COST_FEES, COST_LEVEL_LABELS, type CostTreeRow } from '@ks/contracts';
import { type XlsxCell, type XlsxSheet, xlsxOfSheets } from '../../platform/xlsx-sheets';
import { type CostLine, parseCostXml } from './cost.parse';
import { type CostSampleOptions, costXmlChunks } from './cost.sample';
import { COST_XLSX } from './cost.xlsx';

/**
 * Sample cost files as xlsx (docs/cost-xml.md「xlsx」): exactly the data `costXml(o)` writes — the XML is made and
 * read back (parseCostXml), and its meta, tree and priced lines are written into the three sheets, amounts and
 * quantities as number cells. The documented sample is made by running this file:
 *
 *     npx tsx apps/server/src/modules/cost/cost.sample-xlsx.ts   # writes docs/samples/cost-sample.xlsx
 */

const INFO = COST_XLSX.info;
const SUM = COST_XLSX.summary;
const LIN = COST_XLSX.lines;

/** The three sheets of the sample (tests change them to make faulty workbooks). */
export async function costXlsxSheets(o: CostSampleOptions): Promise<XlsxSheet[]> {
  const lines: CostLine[] = [];
  const unitCodes = new Map<string, string>();
  const parsed = await parseCostXml(Readable.from(costXmlChunks(o)), {
    onUnit: (id, code) => unitCodes.set(id, code),
    onLine: (l) => lines.push(l),
  });
  const info: Record<(typeof COST_XLSX.infoItems)[number], XlsxCell> = {
    标准: parsed.standard,
    编制软件: parsed.meta.software,
    软件版本: parsed.meta.softwareVersion,
    软件序列号: parsed.meta.serial,
    机器码: parsed.meta.machineCode,
    创建时间: parsed.meta.createdAt,
    修改时间: parsed.meta.modifiedAt,
    编制人: parsed.meta.author,
    投标人: parsed.bidder,
    招标控制价: parsed.controlPrice,
    投标总价: parsed.bidPrice,
  };
  const tree: XlsxCell[][] = [];
  const visit = (n: CostTreeRow) => {
    tree.push([
      COST_LEVEL_LABELS[n.level],
      n.code,
      n.name,
      n.zy,
      ...COST_FEES.map((f) => (n.stated.includes(f) ? n[f] : null)),
    ]);
    for (const c of n.children ?? []) visit(c);
  };
  for (const n of parsed.tree) visit(n);
  return [
    {
      name: INFO.sheet,
      widths: [14, 48],
      header: [INFO.item, INFO.value],
      rows: COST_XLSX.infoItems.map((item) => [item, info[item]]),
    },
    {
      name: SUM.sheet,
      widths: [10, 18, 40, 14, ...COST_FEES.map(() => 16)],
      header: [SUM.level, SUM.code, SUM.name, SUM.zy, ...COST_FEES.map((f) => COST_FEE_LABELS[f])],
      rows: tree,
    },
    {
      name: LIN.sheet,
      widths: [14, 10, 16, 24, 40, 8, 12, 12, 14],
      header: [LIN.unitCode, LIN.list, LIN.code, LIN.name, LIN.features, LIN.unit, LIN.quantity, LIN.price, LIN.total],
      rows: lines.map((l) => [
        unitCodes.get(l.unitId)!,
        COST_XLSX.lists[l.list],
        l.code,
        l.name,
        l.features,
        l.unit,
        l.quantity,
        l.price,
        l.total,
      ]),
    },
  ];
}

/** The sample cost file of these options as an xlsx workbook. */
export async function costXlsx(o: CostSampleOptions): Promise<Buffer> {
  return xlsxOfSheets(await costXlsxSheets(o));
}

/** The options of the documented samples (docs/samples/cost-sample.xml and .xlsx). */
export const COST_SAMPLE_OPTIONS: CostSampleOptions = { bidder: '示例建设工程有限公司', seed: 1 };

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = path.resolve(import.meta.dirname, '../../../../../docs/samples/cost-sample.xlsx');
  writeFileSync(out, await costXlsx(COST_SAMPLE_OPTIONS));
  console.info(`wrote ${out}`);
}
