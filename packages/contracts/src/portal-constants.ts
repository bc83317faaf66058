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

export const CREDIT_GRADES = ['AAA', 'AA', 'A', 'B', 'C'] as const;
export type CreditGrade = (typeof CREDIT_GRADES)[number];

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
