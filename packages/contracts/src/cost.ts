import { z } from './zod';

/**
 * 工程造价文件 (issue 18): a bidder's priced bill of quantities, parsed into the cost tree of screen 6 — 建设项目 →
 * 单项工程 → 单位工程, each with its specialty and fees. The XML format is documented in docs/cost-xml.md (element and
 * attribute names of GB/T 50500 清单计价规范); the same data may come as xlsx.
 */

export const COST_MSG = {
  notXml: '文件不是有效的 XML',
  wrongRoot: '根元素应为 <工程造价文件>',
  noProject: '文件中没有 <建设项目>',
  twoProjects: '一个造价文件只能有一个 <建设项目>',
  misplaced: (el: string, parent: string) => `<${el}> 不能出现在 <${parent}> 中`,
  missing: (el: string, attr: string) => `<${el}> 缺少属性「${attr}」`,
  notMoney: (el: string, attr: string, v: string) => `<${el}> 的「${attr}」应为金额（最多两位小数），实为「${v}」`,
  notNumber: (el: string, attr: string, v: string) => `<${el}> 的「${attr}」应为数字，实为「${v}」`,
  tooLong: (el: string, attr: string, max: number) => `<${el}> 的「${attr}」超过 ${max} 个字符`,
  noUnits: (name: string) => `单项工程「${name}」中没有 <单位工程>`,
  noSingles: '建设项目中没有 <单项工程>',
  tooDeep: '元素嵌套过深',
  atLine: (line: number, message: string) => `第 ${line} 行：${message}`,
  emptyFile: '请选择造价文件',
  wrongType: '造价文件应为 .xml 文件',
  tooLarge: (mb: number) => `造价文件不能超过 ${mb}MB`,
} as const;

/** The fees of a node of the tree, in yuan (the spec's field codes). */
export const COST_FEES = ['zzj', 'fbfxf', 'csxmf', 'aqwmsgf', 'qtxmf', 'gf', 'sj', 'zzsxxse'] as const;
export type CostFee = (typeof COST_FEES)[number];
/** The XML attribute (and xlsx column) of each fee. */
export const COST_FEE_LABELS: Record<CostFee, string> = {
  zzj: '总造价',
  fbfxf: '分部分项工程费',
  csxmf: '措施项目费',
  aqwmsgf: '安全文明施工费',
  qtxmf: '其他项目费',
  gf: '规费',
  sj: '税金',
  zzsxxse: '增值税销项税额',
};

export const COST_LEVELS = ['project', 'single', 'unit'] as const;
export type CostLevel = (typeof COST_LEVELS)[number];
export const COST_LEVEL_LABELS: Record<CostLevel, string> = {
  project: '建设项目',
  single: '单项工程',
  unit: '单位工程',
};

/** A row of the cost tree (screen 6; §3 cost tree row). Fees a level does not state are the sums of its children. */
export interface CostTreeRow {
  id: string;
  level: CostLevel;
  code: string;
  name: string;
  /** 专业 (unit works only) */
  zy: string;
  zzj: number;
  fbfxf: number;
  csxmf: number;
  aqwmsgf: number;
  qtxmf: number;
  gf: number;
  sj: number;
  zzsxxse: number;
  /** the fees the file itself states for this node (the rest were summed) */
  stated: CostFee[];
  /** the line of the file where the node starts */
  line: number;
  /** priced lines (清单项目) directly under the node (unit works) */
  lineCount: number;
  children?: CostTreeRow[];
}
export const costTreeRowSchema: z.ZodType<CostTreeRow> = z.lazy(() =>
  z.object({
    id: z.string(),
    level: z.enum(COST_LEVELS),
    code: z.string(),
    name: z.string(),
    zy: z.string(),
    zzj: z.number(),
    fbfxf: z.number(),
    csxmf: z.number(),
    aqwmsgf: z.number(),
    qtxmf: z.number(),
    gf: z.number(),
    sj: z.number(),
    zzsxxse: z.number(),
    stated: z.array(z.enum(COST_FEES)),
    line: z.number().int(),
    lineCount: z.number().int(),
    children: z.array(costTreeRowSchema).optional(),
  }),
);

/** What the file says about how it was made (the authoring fingerprints detection compares across bidders). */
export const costFileMetaSchema = z.object({
  software: z.string(),
  softwareVersion: z.string(),
  serial: z.string(),
  machineCode: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  author: z.string(),
});
export type CostFileMeta = z.infer<typeof costFileMetaSchema>;

/** The largest cost file taken (bytes). */
export const COST_FILE_MAX_BYTES = 300 * 1024 * 1024;

/** /ks/analyse/xml_analysis: the parsed file. */
export const costAnalysisSchema = z.object({
  fileName: z.string(),
  format: z.enum(['xml']),
  size: z.number().int(),
  sha256: z.string(),
  standard: z.string(),
  meta: costFileMetaSchema,
  /** 招标控制价 / 投标总价 of the project, when the file states them */
  controlPrice: z.number().nullable(),
  bidPrice: z.number().nullable(),
  bidder: z.string(),
  /** priced lines in the file */
  lineCount: z.number().int(),
  tree: z.array(costTreeRowSchema),
});
export type CostAnalysis = z.infer<typeof costAnalysisSchema>;
