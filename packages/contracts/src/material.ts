import { z } from './zod';

/**
 * 材料信息价 (issue 19): the periodic information prices of construction materials a trading centre publishes — per
 * period (a month), city and county, classification and material group; price excluding and including tax, in yuan.
 * Administrators import a period from xlsx (a draft), publish it (one published period per period and city) or
 * withdraw it; the public reads what is published. "price" calls read one published period, "history" calls read
 * across a city's published periods.
 */

/** The cities (and their counties) a period may be for: Shanxi (region SX). */
export const MATERIAL_CITIES: Record<string, readonly string[]> = {
  太原市: ['小店区', '迎泽区', '杏花岭区', '尖草坪区', '万柏林区', '晋源区', '清徐县', '阳曲县', '娄烦县', '古交市'],
  大同市: ['平城区', '云冈区', '新荣区', '云州区', '阳高县', '天镇县', '广灵县', '灵丘县', '浑源县', '左云县'],
  阳泉市: ['城区', '矿区', '郊区', '平定县', '盂县'],
  长治市: [
    '潞州区',
    '上党区',
    '屯留区',
    '潞城区',
    '襄垣县',
    '平顺县',
    '黎城县',
    '壶关县',
    '长子县',
    '武乡县',
    '沁县',
    '沁源县',
  ],
  晋中市: ['榆次区', '太谷区', '榆社县', '左权县', '和顺县', '昔阳县', '寿阳县', '祁县', '平遥县', '灵石县', '介休市'],
  运城市: [
    '盐湖区',
    '临猗县',
    '万荣县',
    '闻喜县',
    '稷山县',
    '新绛县',
    '绛县',
    '垣曲县',
    '夏县',
    '平陆县',
    '芮城县',
    '永济市',
    '河津市',
  ],
};
export const MATERIAL_CITY_NAMES = Object.keys(MATERIAL_CITIES) as [string, ...string[]];
/** A row without a county holds the city's own price (市区). */
export const MATERIAL_CITY_WIDE = '市区';

/** The classifications of the information prices (the usual chapters of a 信息价 bulletin). */
export const MATERIAL_CLASSIFICATIONS = [
  '黑色及有色金属',
  '水泥、砖瓦灰砂石',
  '混凝土及砂浆',
  '木材及竹材',
  '防水材料',
  '管材管件',
  '电线电缆',
  '装饰材料',
  '门窗及五金',
  '涂料及化工',
  '保温及消防材料',
  '市政及园林材料',
] as const;

export const MATERIAL_STATUSES = ['draft', 'published', 'withdrawn'] as const;
export type MaterialStatus = (typeof MATERIAL_STATUSES)[number];
export const MATERIAL_STATUS_LABELS: Record<MaterialStatus, string> = {
  draft: '草稿',
  published: '已发布',
  withdrawn: '已撤回',
};

/** The import workbook: its one sheet and columns, in order (the template writes them so). */
export const MATERIAL_XLSX = {
  sheet: '材料信息价',
  columns: [
    '区县',
    '分类',
    '材料组',
    '材料编码',
    '材料名称',
    '规格型号',
    '单位',
    '除税价（元）',
    '含税价（元）',
    '备注',
  ],
  required: ['分类', '材料组', '材料编码', '材料名称', '单位', '除税价（元）', '含税价（元）'],
} as const;

export const MATERIAL_LIMITS = {
  /** rows an import may hold */
  maxRows: 300_000,
  /** the bad rows an import failure lists (all are counted) */
  maxErrors: 200,
  /** the uploaded workbook */
  maxBytes: 50 * 1024 * 1024,
  /** the highest price taken, yuan */
  maxPrice: 99_999_999.99,
} as const;

export const MATERIAL_MSG = {
  adminOnly: '仅管理员可以管理材料信息价',
  readOnly: '开发者只能查看材料信息价',
  periodMissing: '材料信息价期次不存在',
  wrongType: '请上传 .xlsx 格式的材料信息价文件',
  emptyFile: '请选择材料信息价文件',
  tooLarge: (mb: number) => `材料信息价文件不能超过 ${mb}MB`,
  notXlsx: '文件不是有效的 xlsx 工作簿',
  noSheet: '工作簿中没有数据',
  noColumn: (c: string) => `缺少列「${c}」`,
  noRows: '文件中没有材料数据',
  tooManyRows: (max: number) => `一期最多导入 ${max} 行`,
  badRows: (n: number) => `共有 ${n} 行数据有误，未导入任何数据，请修改后重新导入`,
  blank: (c: string) => `「${c}」不能为空`,
  tooLong: (c: string, max: number) => `「${c}」超过 ${max} 个字符`,
  notPrice: (c: string, v: string) => `「${c}」应为不小于 0 的金额（最多两位小数），实为「${v}」`,
  taxBelow: '含税价不能低于除税价',
  wrongCounty: (city: string, v: string) => `「区县」「${v}」不是${city}的区县`,
  wrongClassification: (v: string) => `「分类」「${v}」不在分类表中`,
  wrongCode: (v: string) => `「材料编码」只能由字母、数字、“-”“.”“_”组成，实为「${v}」`,
  duplicate: (row: number) => `与第 ${row} 行的区县、材料编码、规格型号相同`,
  cellError: (c: string) => `「${c}」是错误值或没有计算结果`,
  publishedExists: (label: string, city: string) => `${city}${label}已有发布的信息价，请先撤回后再发布`,
  notDraft: '只能发布草稿或已撤回的期次',
  notPublished: '只能撤回已发布的期次',
  deleteOnlyDraft: '只能删除草稿或已撤回的期次',
  noPublished: '暂无已发布的材料信息价',
} as const;

/** 'YYYY-MM', a month of 2000–2099. */
export const MATERIAL_PERIOD_RE = /^20\d{2}-(0[1-9]|1[0-2])$/;
/** 2026-10 → 2026年10月 */
export const materialPeriodLabel = (period: string) => {
  const [y, m] = period.split('-');
  return `${y}年${Number(m)}月`;
};

const period = z.string().regex(MATERIAL_PERIOD_RE, '期次格式应为 YYYY-MM');
const city = z.enum(MATERIAL_CITY_NAMES, { error: '请选择城市' });
const text = (max: number) => z.string().trim().max(max);
const keyWord = z.string().trim().max(50, '关键字不能超过 50 个字符').optional();

export const MATERIAL_SORTS = ['code', 'name', 'priceIn', 'priceEx'] as const;

/** A published period, as the public sees it. */
export const materialPeriodSchema = z.object({
  id: z.string(),
  period: z.string(),
  label: z.string(),
  city: z.string(),
  status: z.enum(MATERIAL_STATUSES),
  rowCount: z.number().int(),
  fileName: z.string(),
  importedAt: z.string(),
  importedByName: z.string(),
  publishedAt: z.string().nullable(),
});
export type MaterialPeriod = z.infer<typeof materialPeriodSchema>;

export const materialPriceSchema = z.object({
  id: z.string(),
  period: z.string(),
  city: z.string(),
  county: z.string(),
  classification: z.string(),
  materialGroup: z.string(),
  code: z.string(),
  name: z.string(),
  spec: z.string(),
  unit: z.string(),
  /** yuan, 2 decimals (a decimal string) */
  priceEx: z.string(),
  priceIn: z.string(),
  remark: z.string(),
});
export type MaterialPrice = z.infer<typeof materialPriceSchema>;

/** The scope of a "price" call: one published period of a city (the newest when none is named). */
export const materialPriceScopeSchema = z.object({ city, period: period.optional() });
/** The scope of a "history" call: a city's published periods, optionally from…to. */
export const materialHistoryScopeSchema = z.object({ city, from: period.optional(), to: period.optional() });

const filters = {
  county: text(32).optional(),
  classification: text(32).optional(),
  materialGroup: text(64).optional(),
  keyWord,
};
const paging = {
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  sort: z.enum(MATERIAL_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
};

export const materialPriceListQuerySchema = materialPriceScopeSchema.extend({ ...filters, ...paging });
export type MaterialPriceListQuery = z.input<typeof materialPriceListQuerySchema>;
export const materialHistoryListQuerySchema = materialHistoryScopeSchema.extend({ ...filters, ...paging });
export type MaterialHistoryListQuery = z.input<typeof materialHistoryListQuerySchema>;

export const materialPriceFilterSchema = materialPriceScopeSchema.extend({
  classification: text(32).optional(),
});
export const materialHistoryFilterSchema = materialHistoryScopeSchema.extend({
  classification: text(32).optional(),
});
export const materialPriceTitleQuerySchema = materialPriceScopeSchema.extend({ keyWord });
export const materialHistoryTitleQuerySchema = materialHistoryScopeSchema.extend({ keyWord });

/** A page of prices; `total` counted up to `MATERIAL_COUNT_CAP` (`capped`: there are more). */
export const MATERIAL_COUNT_CAP = 10_000;
export const materialPricePageSchema = z.object({
  records: z.array(materialPriceSchema),
  total: z.number().int(),
  capped: z.boolean(),
  /** the period read (a "price" call) */
  period: materialPeriodSchema.nullable(),
});
export type MaterialPricePage = z.infer<typeof materialPricePageSchema>;

export const materialCountOptionSchema = z.object({ value: z.string(), count: z.number().int() });
export type MaterialCountOption = z.infer<typeof materialCountOptionSchema>;

/** A material (code, name, spec, unit) to choose from, e.g. for its history. */
export const materialTitleSchema = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string(),
  unit: z.string(),
});
export type MaterialTitle = z.infer<typeof materialTitleSchema>;

/** One material's prices across a city's published periods (oldest first). */
export const materialHistoryQuerySchema = z.object({
  city,
  code: z.string().trim().min(1, '请选择材料').max(32),
  spec: z.string().trim().max(128).default(''),
  county: z.string().trim().max(32).default(''),
});
export const materialHistorySchema = z.object({
  material: materialTitleSchema.nullable(),
  points: z.array(z.object({ period: z.string(), label: z.string(), priceEx: z.string(), priceIn: z.string() })),
});
export type MaterialHistory = z.infer<typeof materialHistorySchema>;

export const materialPeriodListQuerySchema = z.object({ city: city.optional() });
export const materialAdminPeriodQuerySchema = z.object({
  city: city.optional(),
  status: z.enum(MATERIAL_STATUSES).optional(),
  pageNum: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export const materialAdminRowsQuerySchema = z.object({
  periodId: z.string().uuid(MATERIAL_MSG.periodMissing),
  ...filters,
  ...paging,
});
export const materialIdSchema = z.object({ id: z.string().uuid(MATERIAL_MSG.periodMissing) });
/** The text fields of the import form (before its file). */
export const materialImportFieldsSchema = z.object({ period, city });

/** A bad row of an import: its row number in the sheet (0: the sheet as a whole) and why. */
export const materialRowErrorSchema = z.object({ row: z.number().int(), column: z.string(), reason: z.string() });
export type MaterialRowError = z.infer<typeof materialRowErrorSchema>;
/** `data` of a refused import (400): the bad rows (up to MATERIAL_LIMITS.maxErrors) and how many there are. */
export const materialImportErrorsSchema = z.object({
  errors: z.array(materialRowErrorSchema),
  errorCount: z.number().int(),
});
export type MaterialImportErrors = z.infer<typeof materialImportErrorsSchema>;
