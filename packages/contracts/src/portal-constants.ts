/** Portal vocabularies (zod-free so the web bundles them alone). Region default SX (山西, spec §9). */
export const NOTICE_CATEGORIES = [
  '招标公告',
  '变更公告',
  '资格预审公告',
  '中标候选人公示',
  '中标结果公告',
  '终止公告',
] as const;
export type NoticeCategory = (typeof NOTICE_CATEGORIES)[number];

export const TRADE_TYPES = ['工程建设', '政府采购', '土地矿业', '国有产权', '医药采购', '其他交易'] as const;
export type TradeType = (typeof TRADE_TYPES)[number];

export const REGIONS = [
  '省本级',
  '太原市',
  '大同市',
  '阳泉市',
  '长治市',
  '晋城市',
  '朔州市',
  '晋中市',
  '运城市',
  '忻州市',
  '临汾市',
  '吕梁市',
] as const;

/** Administrative division codes (GB/T 2260) of the regions: the province itself and its 11 cities. */
export const REGION_DIVISION_CODES: Record<(typeof REGIONS)[number], string> = {
  省本级: '140000',
  太原市: '140100',
  大同市: '140200',
  阳泉市: '140300',
  长治市: '140400',
  晋城市: '140500',
  朔州市: '140600',
  晋中市: '140700',
  运城市: '140800',
  忻州市: '140900',
  临汾市: '141000',
  吕梁市: '141100',
};

/**
 * Project numbers (项目编号) name the trade type and the region: a letter of the trade type, the region's division
 * code, the year and a sequence number — E140100 2026 0007 is the 7th construction project of 太原市 in 2026.
 */
export const TRADE_TYPE_LETTERS: Record<(typeof TRADE_TYPES)[number], string> = {
  工程建设: 'E',
  政府采购: 'G',
  土地矿业: 'T',
  国有产权: 'C',
  医药采购: 'Y',
  其他交易: 'Q',
};

export const CREDIT_GRADES = ['AAA', 'AA', 'A', 'B', 'C'] as const;
export type CreditGrade = (typeof CREDIT_GRADES)[number];

/** The lowest credit score of each grade: AAA ≥ 90, AA ≥ 80, A ≥ 70, B ≥ 60, C below. */
export const CREDIT_GRADE_FLOORS: readonly [CreditGrade, number][] = [
  ['AAA', 90],
  ['AA', 80],
  ['A', 70],
  ['B', 60],
  ['C', 0],
];

/** The grade a credit score earns (the score is a base score plus valid good-conduct items minus bad-conduct ones). */
export function creditGradeOf(score: number): CreditGrade {
  return (CREDIT_GRADE_FLOORS.find(([, floor]) => score >= floor) ?? ['C', 0])[0];
}

/** Market entity kinds on the portal: enterprises, agencies (enterprises of type 招标代理机构) and practitioners. */
export const MARKET_KINDS = ['enterprise', 'agency', 'practitioner'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];
export const MARKET_KIND_LABELS: Record<MarketKind, string> = {
  enterprise: '企业',
  agency: '招标代理机构',
  practitioner: '从业人员',
};
export const AGENCY_TYPE = '招标代理机构';

export const NOTICE_STATUSES = ['draft', 'published', 'withdrawn'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
export const NOTICE_STATUS_LABELS: Record<NoticeStatus, string> = {
  draft: '草稿',
  published: '已发布',
  withdrawn: '已撤回',
};

export const PORTAL_KEYWORD_MAX = 50;

/** Login modes (spec §2, §9): ggfw portal at `/`; login: the landing route is the sign-in page; ywbl: that plus /admin-business. */
export const LOGIN_MODES = ['ggfw', 'login', 'ywbl'] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];
