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
  wrongType: '造价文件应为 .xml 或 .xlsx 文件',
  tooLarge: (mb: number) => `造价文件不能超过 ${mb}MB`,
  // the xlsx workbook (docs/cost-xml.md「xlsx」): each fault names its worksheet and row
  notXlsx: '文件不是有效的 xlsx 工作簿',
  inflatedTooLarge: (ratio: number, gb: number) =>
    `工作簿解压后的数据量异常（超过文件大小的 ${ratio} 倍或 ${gb}GB），不予读取`,
  /** sheet '': the workbook as a whole; row 0: the sheet as a whole */
  atRow: (sheet: string, row: number, message: string) =>
    sheet ? `工作表「${sheet}」${row ? `第 ${row} 行` : ''}：${message}` : message,
  noSheet: (sheet: string) => `工作簿中没有工作表「${sheet}」`,
  noColumn: (column: string) => `缺少列「${column}」`,
  twoColumns: (column: string) => `列「${column}」出现了两次`,
  blankCell: (column: string) => `「${column}」不能为空`,
  cellNotMoney: (column: string, v: string) => `「${column}」应为金额（最多两位小数），实为「${v}」`,
  cellNotNumber: (column: string, v: string) => `「${column}」应为数字（最多六位小数），实为「${v}」`,
  cellTooLong: (column: string, max: number) => `「${column}」超过 ${max} 个字符`,
  cellError: (column: string) => `「${column}」是错误值（如 #REF!、#DIV/0!、#N/A）`,
  noFormulaResult: (column: string) => `「${column}」的公式没有计算结果，请用 Excel 打开并保存后再上传`,
  wrongLevel: (v: string) => `「层级」应为 建设项目、单项工程 或 单位工程，实为「${v}」`,
  projectFirst: '表头后的第一行应为建设项目（其后是它的单项工程和单位工程）',
  secondProject: '一个造价文件只能有一个建设项目',
  unitBeforeSingle: '单位工程上方没有单项工程（单位工程属于它上方最近的单项工程）',
  singleWithoutUnits: (name: string) => `单项工程「${name}」下没有单位工程`,
  projectWithoutSingles: '建设项目下没有单项工程',
  sheetWithoutProject: '没有建设项目',
  twoUnits: (code: string, row: number) => `单位工程编码「${code}」与第 ${row} 行重复`,
  wrongList: (v: string) => `「清单类别」应为 分部分项 或 措施项目，实为「${v}」`,
  unknownUnit: (code: string) => `单位工程编码「${code}」在工作表「造价汇总」中没有对应的单位工程`,
  twoItems: (item: string, row: number) => `「${item}」与第 ${row} 行重复`,
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
  format: z.enum(['xml', 'xlsx']),
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

/** The checks of a detection (issue 18), each with its finding and evidence. */
export const COST_CHECKS = [
  'totals',
  'safetyRate',
  'feeRate',
  'controlPrice',
  'identicalFile',
  'similarLines',
  'fingerprint',
  'lowPrice',
  'unbalanced',
  'lowTotal',
] as const;
export type CostCheck = (typeof COST_CHECKS)[number];
export const COST_CHECK_LABELS: Record<CostCheck, string> = {
  totals: '造价汇总不一致',
  safetyRate: '安全文明施工费低于费率',
  feeRate: '规费低于费率',
  controlPrice: '投标总价高于招标控制价',
  identicalFile: '造价文件完全相同',
  similarLines: '清单报价雷同',
  fingerprint: '编制信息相同（软件序列号、机器码或创建时间）',
  lowPrice: '综合单价异常偏低',
  unbalanced: '综合单价不平衡（异常偏高）',
  lowTotal: '投标总价异常偏低',
};
export const COST_RISKS = ['high', 'medium', 'low'] as const;
export type CostRisk = (typeof COST_RISKS)[number];
export const COST_RISK_LABELS: Record<CostRisk, string> = { high: '高风险', medium: '中风险', low: '低风险' };

/** The thresholds of the checks (an administrator's setting; the defaults are the platform's). */
const rate = (label: string) =>
  z
    .number({ error: `请填写${label}` })
    .min(0, `${label}不能小于 0`)
    .max(0.2, `${label}不能大于 20%`);
const pctOf = (label: string, max: number) =>
  z
    .number({ error: `请填写${label}` })
    .min(1, `${label}不能小于 1%`)
    .max(max, `${label}不能大于 ${max}%`);
export const costSettingsSchema = z.object({
  /** 安全文明施工费 at least this share of 分部分项工程费, per unit works */
  safetyRateMin: rate('安全文明施工费最低费率'),
  /** 规费 at least this share of 分部分项 + 措施 + 其他, per unit works */
  feeRateMin: rate('规费最低费率'),
  /** a unit price this many percent below the section's median for the line is abnormally low */
  lowPricePct: pctOf('综合单价偏低比例', 90),
  /** … this many percent above it, unbalanced */
  highPricePct: pctOf('综合单价偏高比例', 500),
  /** two bidders sharing at least this many percent of their priced lines (same line, same unit price) */
  similarPct: pctOf('报价雷同比例', 100),
  /** a bid total this many percent below the section's median */
  lowTotalPct: pctOf('投标总价偏低比例', 90),
});
export type CostSettings = z.infer<typeof costSettingsSchema>;
export const COST_SETTINGS_DEFAULT: CostSettings = {
  safetyRateMin: 0.03,
  feeRateMin: 0.02,
  lowPricePct: 30,
  highPricePct: 50,
  similarPct: 30,
  lowTotalPct: 15,
};

export const costFindingSchema = z.object({
  check: z.enum(COST_CHECKS),
  risk: z.enum(COST_RISKS),
  text: z.string(),
  /** what shows it: lines of the file, values, the other bidder's */
  evidence: z.array(z.string()),
  /** the rows of the cost tree it concerns */
  nodeIds: z.array(z.string()),
});
export type CostFinding = z.infer<typeof costFindingSchema>;

export const costBidderResultSchema = z.object({
  fileId: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  fileName: z.string(),
  bidPrice: z.number().nullable(),
  risk: z.enum(COST_RISKS),
  findings: z.array(costFindingSchema),
});
export type CostBidderResult = z.infer<typeof costBidderResultSchema>;

export const costPairResultSchema = z.object({
  a: z.string(),
  b: z.string(),
  /** share of priced lines in common (same line, same unit price), 0–100 */
  score: z.number(),
  sameLines: z.number().int(),
  risk: z.enum(COST_RISKS),
  findings: z.array(costFindingSchema),
});
export type CostPairResult = z.infer<typeof costPairResultSchema>;

export const costResultsSchema = z.object({
  settings: costSettingsSchema,
  medianBid: z.number().nullable(),
  bidders: z.array(costBidderResultSchema),
  pairs: z.array(costPairResultSchema),
});
export type CostResults = z.infer<typeof costResultsSchema>;

export const COST_DETECTION_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type CostDetectionStatus = (typeof COST_DETECTION_STATUSES)[number];
export const COST_DETECTION_STATUS_LABELS: Record<CostDetectionStatus, string> = {
  queued: '排队中',
  running: '检测中',
  done: '检测完成',
  failed: '检测失败',
};

export const COST_DETECT_MSG = {
  adminOnly: '只有管理员可以办理造价文件检测',
  readOnly: '开发者只能查看造价文件检测，不能办理',
  sectionMissing: '标段不存在',
  enterpriseMissing: '投标人不存在',
  fileMissing: '造价文件不存在',
  tooFew: '至少需要两家投标人的造价文件才能检测',
  running: '该标段的检测正在进行，请等待完成',
  notDone: '该标段尚无完成的检测',
  interrupted: (n: number) => `检测已中断 ${n} 次（服务重启或进程退出），已停止，请重新发起检测`,
  started: '已开始检测，约需 5 分钟，可离开本页稍后回来查看',
  done: '检测完成，请至项目详情页确认数据',
  published: '检测结果摘要已公示',
  alreadyPublished: '该检测结果已公示',
  withdrawn: '已撤回公示',
  notPublished: '该标段的检测结果尚未公示',
  staleResults: '造价文件在检测后已更换，请重新检测后再公示',
  publicityDenied: '只有该标段的投标人和管理员可以查看检测结果公示',
} as const;

const uuidOf = (message: string) => z.uuid({ error: message });
export const costSectionQuerySchema = z.object({ sectionId: uuidOf(COST_DETECT_MSG.sectionMissing) }).strict();
export const costFileQuerySchema = z.object({ id: uuidOf(COST_DETECT_MSG.fileMissing) }).strict();
export const costUploadFieldsSchema = z.object({
  sectionId: uuidOf(COST_DETECT_MSG.sectionMissing),
  enterpriseId: uuidOf(COST_DETECT_MSG.enterpriseMissing),
});
export const costDirectoriesQuerySchema = z
  .object({
    pageNum: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(50).default(10),
    keyWord: z.string().trim().max(50).optional(),
  })
  .strict();
export type CostDirectoriesQuery = z.infer<typeof costDirectoriesQuerySchema>;

export const costDetectionSchema = z.object({
  id: z.string(),
  status: z.enum(COST_DETECTION_STATUSES),
  progress: z.number().int(),
  total: z.number().int(),
  attempts: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  publishedAt: z.string().nullable(),
  startedByName: z.string(),
  /** a file was uploaded or replaced after this detection began: its results may be out of date */
  stale: z.boolean(),
});
export type CostDetection = z.infer<typeof costDetectionSchema>;

export const costFileRowSchema = z.object({
  id: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  bidPrice: z.number().nullable(),
  controlPrice: z.number().nullable(),
  lineCount: z.number().int(),
  uploadedAt: z.string(),
  uploadedByName: z.string(),
});
export type CostFileRow = z.infer<typeof costFileRowSchema>;

export const costDirectoryRowSchema = z.object({
  sectionId: z.string(),
  code: z.string(),
  name: z.string(),
  projectName: z.string(),
  bidDeadline: z.string(),
  files: z.number().int(),
  detection: costDetectionSchema.nullable(),
});
export type CostDirectoryRow = z.infer<typeof costDirectoryRowSchema>;
export const costDirectoriesSchema = z.object({
  records: z.array(costDirectoryRowSchema),
  total: z.number().int(),
});

export const costStatusSchema = z.object({
  section: z.object({ id: z.string(), code: z.string(), name: z.string(), projectName: z.string() }),
  files: z.array(costFileRowSchema),
  /** the enterprises a file may be uploaded for: the section's bidders (sealed bids), then any already on file */
  bidders: z.array(z.object({ enterpriseId: z.string(), name: z.string(), hasFile: z.boolean() })),
  detection: costDetectionSchema.nullable(),
  canManage: z.boolean(),
});
export type CostStatus = z.infer<typeof costStatusSchema>;

export const costAchievementSchema = z.object({
  detection: costDetectionSchema,
  results: costResultsSchema,
});
export type CostAchievement = z.infer<typeof costAchievementSchema>;

export const costScoreSchema = z.object({
  files: z.array(z.object({ id: z.string(), enterpriseName: z.string() })),
  /** score[i][j]: share of priced lines in common between files i and j (100 on the diagonal) */
  score: z.array(z.array(z.number())),
});

export const costParseDataSchema = z.object({
  file: costFileRowSchema,
  sectionId: z.string(),
  standard: z.string(),
  meta: costFileMetaSchema,
  tree: z.array(costTreeRowSchema),
});
export type CostParseData = z.infer<typeof costParseDataSchema>;

/** /ks/file/publicity: publish (or withdraw) the summary of the section's latest finished detection. */
export const costPublishSchema = z
  .object({
    sectionId: uuidOf(COST_DETECT_MSG.sectionMissing),
    publish: z.boolean({ error: '请说明公示或撤回' }),
  })
  .strict();
export type CostPublish = z.infer<typeof costPublishSchema>;

/** The checks a file shows on its own: a bidder sees their evidence about its own file in the publicity. */
export const COST_OWN_CHECKS: readonly CostCheck[] = [
  'totals',
  'safetyRate',
  'feeRate',
  'controlPrice',
  'lowPrice',
  'unbalanced',
  'lowTotal',
];

/**
 * The permitted summary of a detection (公示): per bidder its risk and which checks found something (how often); the
 * pairs with findings, their similarity and checks — no prices, lines, serials or other evidence of anyone's file.
 * A bidder reading it also gets the findings about its own file, evidence included.
 */
export const costPublicitySchema = z.object({
  section: z.object({ id: z.string(), code: z.string(), name: z.string(), projectName: z.string() }),
  detectionId: z.string(),
  finishedAt: z.string(),
  /** null: not published (an administrator's preview) */
  publishedAt: z.string().nullable(),
  settings: costSettingsSchema,
  bidders: z.array(
    z.object({
      enterpriseName: z.string(),
      risk: z.enum(COST_RISKS),
      checks: z.array(z.object({ check: z.enum(COST_CHECKS), count: z.number().int() })),
    }),
  ),
  pairs: z.array(
    z.object({
      a: z.string(),
      b: z.string(),
      score: z.number(),
      risk: z.enum(COST_RISKS),
      checks: z.array(z.enum(COST_CHECKS)),
    }),
  ),
  own: z
    .object({ enterpriseName: z.string(), risk: z.enum(COST_RISKS), findings: z.array(costFindingSchema) })
    .nullable(),
  canManage: z.boolean(),
});
export type CostPublicity = z.infer<typeof costPublicitySchema>;
