import type { NoticeCategory, REGIONS, TradeType } from '@ks/contracts';

/**
 * What the demo portal is made of, written so that a trading centre's staff recognise it: Shanxi's cities with their
 * districts and telephone area codes, the kinds of enterprise and what each kind is qualified for (and at which level
 * for its registered capital), and the projects of each trade type with the body that tenderer, trading centre and
 * bidders would expect in each kind of notice.
 */

export type Region = (typeof REGIONS)[number];

/** Districts (or county-level cities) of each city, for addresses and land parcels; the province uses its capital's. */
export const DISTRICTS: Record<Region, readonly string[]> = {
  省本级: ['小店区', '迎泽区', '杏花岭区'],
  太原市: ['小店区', '迎泽区', '杏花岭区', '尖草坪区', '万柏林区', '晋源区'],
  大同市: ['平城区', '云冈区', '云州区', '新荣区'],
  阳泉市: ['城区', '郊区', '平定县', '盂县'],
  长治市: ['潞州区', '上党区', '屯留区', '潞城区'],
  晋城市: ['城区', '泽州县', '高平市', '阳城县'],
  朔州市: ['朔城区', '平鲁区', '怀仁市', '山阴县'],
  晋中市: ['榆次区', '太谷区', '介休市', '平遥县'],
  运城市: ['盐湖区', '永济市', '河津市', '临猗县'],
  忻州市: ['忻府区', '原平市', '定襄县', '五台县'],
  临汾市: ['尧都区', '侯马市', '霍州市', '曲沃县'],
  吕梁市: ['离石区', '孝义市', '汾阳市', '交城县'],
};

/** Telephone area codes. */
export const AREA_CODES: Record<Region, string> = {
  省本级: '0351',
  太原市: '0351',
  大同市: '0352',
  阳泉市: '0353',
  长治市: '0355',
  晋城市: '0356',
  朔州市: '0349',
  晋中市: '0354',
  运城市: '0359',
  忻州市: '0350',
  临汾市: '0357',
  吕梁市: '0358',
};

export const placeOf = (region: Region) => (region === '省本级' ? '山西省' : region);
/** 太原市 → 太原 (as in 国网山西省电力公司太原供电公司). */
export const shortOf = (region: Region) => (region === '省本级' ? '山西' : region.replace(/市$/, ''));

export const ROADS = [
  '建设路',
  '解放路',
  '人民路',
  '新建路',
  '文化街',
  '迎宾街',
  '府西街',
  '长治路',
  '滨河西路',
  '南环街',
];

export const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '赵',
  '黄',
  '周',
  '吴',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '高',
  '林',
  '罗',
  '梁',
  '宋',
  '郑',
  '谢',
  '韩',
  '唐',
  '冯',
  '董',
  '程',
  '曹',
  '袁',
  '邓',
  '许',
  '傅',
  '曾',
  '彭',
  '吕',
  '苏',
  '卢',
  '蒋',
];
export const GIVEN_NAMES = [
  '建军',
  '志强',
  '丽华',
  '海燕',
  '国庆',
  '晓东',
  '文博',
  '志伟',
  '红梅',
  '俊杰',
  '永刚',
  '雅琴',
  '晓明',
  '立新',
  '振华',
  '瑞峰',
  '文静',
  '建平',
  '晓燕',
  '志勇',
  '海涛',
  '佳慧',
  '宏伟',
  '春花',
  '继红',
  '永红',
  '玉兰',
  '桂英',
  '建华',
  '卫东',
  '鹏飞',
  '晋生',
  '慧敏',
  '旭东',
  '少华',
  '爱国',
];

export const PREFIXES = [
  '晋阳',
  '汾河',
  '太行',
  '吕梁',
  '并州',
  '龙城',
  '三晋',
  '黄河',
  '恒山',
  '五台',
  '云冈',
  '潞安',
  '河东',
  '晋兴',
  '华晋',
  '中条',
  '沁河',
  '鼎盛',
  '天元',
  '晋联',
  '通达',
  '宏远',
  '瑞丰',
  '中晋',
];

// ---- enterprises ---------------------------------------------------------------------------------------------------

export type EnterpriseKind = '施工企业' | '监理企业' | '设计企业' | '供应商' | '招标代理机构';

/** A qualification an enterprise holds: name, level, who issued the certificate (1 ministry, 2 province, 3 city). */
export interface Qual {
  name: string;
  level: string;
  issuer: 1 | 2 | 3;
}

/**
 * Enterprise lines: the word in the name, what they do, and the qualification their registered capital (万元) allows —
 * 建筑业企业资质标准: 特级 needs a few hundred million of equity, 一级 about 100 million, 二级 40 million; monitoring
 * 综合 / 甲 / 乙 and design 甲 / 乙 scale with capital the same way. Suppliers and agencies hold licences and ratings.
 */
export interface Line {
  kind: EnterpriseKind;
  word: string;
  /** range of registered capital in 万元 */
  capital: [number, number];
  /** the practice field of its people and of the projects it performs ('建筑工程', '市政公用工程' …) */
  field: string;
  quals: (capitalWan: number) => Qual[];
}

const generalContractor =
  (name: string) =>
  (c: number): Qual[] => [
    c >= 30_000
      ? { name, level: '特级', issuer: 1 }
      : c >= 10_000
        ? { name, level: '一级', issuer: 1 }
        : c >= 4_000
          ? { name, level: '二级', issuer: 2 }
          : { name, level: '三级', issuer: 3 },
  ];

export const LINES: readonly Line[] = [
  {
    kind: '施工企业',
    word: '建设工程',
    capital: [2_000, 60_000],
    field: '建筑工程',
    quals: generalContractor('建筑工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '建筑安装工程',
    capital: [1_000, 15_000],
    field: '建筑工程',
    quals: generalContractor('建筑工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '路桥建设',
    capital: [3_000, 50_000],
    field: '公路工程',
    quals: generalContractor('公路工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '市政工程',
    capital: [2_000, 30_000],
    field: '市政公用工程',
    quals: generalContractor('市政公用工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '水利水电工程',
    capital: [2_000, 20_000],
    field: '水利水电工程',
    quals: generalContractor('水利水电工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '电力工程',
    capital: [3_000, 20_000],
    field: '机电工程',
    quals: generalContractor('电力工程施工总承包'),
  },
  {
    kind: '施工企业',
    word: '装饰工程',
    capital: [500, 5_000],
    field: '建筑工程',
    quals: (c) => [
      { name: '建筑装修装饰工程专业承包', level: c >= 1_500 ? '一级' : '二级', issuer: c >= 1_500 ? 1 : 2 },
    ],
  },
  {
    kind: '监理企业',
    word: '工程监理',
    capital: [200, 1_200],
    field: '房屋建筑工程',
    quals: (c) =>
      c >= 600
        ? [{ name: '工程监理综合资质', level: '综合', issuer: 1 }]
        : [{ name: '房屋建筑工程监理', level: c >= 300 ? '甲级' : '乙级', issuer: c >= 300 ? 1 : 2 }],
  },
  {
    kind: '设计企业',
    word: '建筑设计研究院',
    capital: [300, 3_000],
    field: '建筑',
    quals: (c) => [
      { name: '工程设计建筑行业（建筑工程）', level: c >= 600 ? '甲级' : '乙级', issuer: c >= 600 ? 1 : 2 },
    ],
  },
  {
    kind: '供应商',
    word: '医疗器械',
    capital: [500, 5_000],
    field: '医疗器械',
    quals: () => [{ name: '医疗器械经营许可证', level: '第三类', issuer: 2 }],
  },
  {
    kind: '供应商',
    word: '信息技术',
    capital: [200, 5_000],
    field: '信息化',
    quals: (c) => [{ name: '信息系统建设和服务能力等级', level: c >= 2_000 ? 'CS3' : 'CS2', issuer: 2 }],
  },
  {
    kind: '供应商',
    word: '医药',
    capital: [1_000, 8_000],
    field: '药品',
    quals: () => [{ name: '药品经营许可证', level: '批发', issuer: 2 }],
  },
  { kind: '供应商', word: '办公设备', capital: [100, 1_000], field: '办公设备', quals: () => [] },
  {
    kind: '招标代理机构',
    word: '招标代理',
    capital: [100, 1_000],
    field: '招标代理',
    quals: (c) => [{ name: '工程咨询单位资信评价（专业资信）', level: c >= 500 ? '甲级' : '乙级', issuer: 1 }],
  },
  {
    kind: '招标代理机构',
    word: '工程咨询',
    capital: [300, 2_000],
    field: '工程咨询',
    quals: (c) => [{ name: '工程咨询单位资信评价（综合资信）', level: c >= 1_000 ? '甲级' : '乙级', issuer: 1 }],
  },
  {
    kind: '招标代理机构',
    word: '项目管理',
    capital: [200, 1_500],
    field: '工程咨询',
    quals: (c) => [{ name: '工程咨询单位资信评价（专业资信）', level: c >= 500 ? '甲级' : '乙级', issuer: 1 }],
  },
];

/** How many enterprises of each kind the demo has (36 besides the demo enterprise). */
export const KIND_COUNTS: Record<EnterpriseKind, number> = {
  施工企业: 20,
  监理企业: 3,
  设计企业: 3,
  供应商: 5,
  招标代理机构: 5,
};

/** Contractor lines in the demo (each at least twice, so every works project finds qualified bidders). */
export const CONTRACTOR_LINE_WEIGHTS: Record<string, number> = {
  建设工程: 5,
  建筑安装工程: 3,
  市政工程: 4,
  路桥建设: 2,
  水利水电工程: 2,
  电力工程: 2,
  装饰工程: 2,
};

/** Good- and bad-conduct records of each kind (score, what, who decided it; {city} is the enterprise's city). */
export const CONDUCT: Record<EnterpriseKind, { good: [number, string, string][]; bad: [number, string, string][] }> = {
  施工企业: {
    good: [
      [3, '承建工程获评山西省建设工程“汾水杯”质量奖', '山西省建筑业协会'],
      [2, '承建项目获评山西省建筑施工安全文明标准化工地', '山西省住房和城乡建设厅'],
      [5, '承建工程获评国家优质工程奖', '中国施工企业管理协会'],
    ],
    bad: [
      [-3, '施工现场安全管理不到位被通报批评', '{city}住房和城乡建设局'],
      [-5, '拖欠农民工工资被责令限期整改', '{city}人力资源和社会保障局'],
      [-8, '投标文件中提供虚假业绩材料', '山西省发展和改革委员会'],
    ],
  },
  监理企业: {
    good: [[3, '获评山西省优秀工程监理企业', '山西省建设监理协会']],
    bad: [[-3, '项目总监理工程师未按规定到岗履职被通报', '{city}住房和城乡建设局']],
  },
  设计企业: {
    good: [[3, '设计项目获评山西省优秀工程勘察设计奖', '山西省勘察设计协会']],
    bad: [[-2, '施工图设计文件审查不合格被责令整改', '{city}住房和城乡建设局']],
  },
  供应商: {
    good: [[2, '获评山西省守合同重信用企业', '山西省市场监督管理局']],
    bad: [[-5, '政府采购活动中提供虚假材料被列入不良行为记录', '{city}财政局']],
  },
  招标代理机构: {
    good: [[3, '年度招标代理机构信用评价为优秀', '山西省招标投标协会']],
    bad: [[-3, '代理项目招标文件设置不合理限制条件被责令改正', '{city}发展和改革委员会']],
  },
};

// ---- projects and notices ------------------------------------------------------------------------------------------

/** How a trade type's notices follow each other (see stages in portal.ts). */
export type Flow = 'works' | 'gp' | 'land' | 'equity' | 'drug' | 'other';

export const FLOW_OF: Record<TradeType, Flow> = {
  工程建设: 'works',
  政府采购: 'gp',
  土地矿业: 'land',
  国有产权: 'equity',
  医药采购: 'drug',
  其他交易: 'other',
};

/** What each kind of notice is called in each trade (a land sale is not "tendered", a purchase has no candidates). */
export const TITLE_SUFFIX: Record<Flow, Partial<Record<NoticeCategory, string>>> = {
  works: {
    招标公告: '招标公告',
    资格预审公告: '资格预审公告',
    变更公告: '招标文件澄清与修改公告',
    中标候选人公示: '中标候选人公示',
    中标结果公告: '中标结果公告',
    终止公告: '招标终止公告',
  },
  gp: { 招标公告: '公开招标公告', 变更公告: '更正公告', 中标结果公告: '中标（成交）结果公告', 终止公告: '终止公告' },
  land: { 招标公告: '挂牌出让公告', 中标结果公告: '挂牌出让结果公示', 终止公告: '终止挂牌出让公告' },
  equity: { 招标公告: '公开转让公告', 中标结果公告: '成交结果公告', 终止公告: '终止转让公告' },
  drug: { 招标公告: '采购公告', 变更公告: '补充公告', 中标结果公告: '拟中选结果公示' },
  other: { 招标公告: '出让公告', 中标结果公告: '出让结果公示' },
};

/** A kind of project: its name and tenderer in a place, who bids (kind and qualification), its budget (万元). */
export interface ProjectKind {
  tradeType: TradeType;
  name: (place: string, pick: <T>(list: readonly T[]) => T, region: Region) => string;
  tenderer: (place: string, short: string) => string;
  /** enterprises that bid and win; null: buyers from outside the register (land, equity, concessions) */
  bidder: { kind: EnterpriseKind; qual?: string; words?: string[] } | null;
  budget: [number, number];
  /** only at province level (医用耗材 volume-based procurement) */
  province?: boolean;
  /** the project manager's field (works) */
  field?: string;
}

export const PROJECT_KINDS: readonly ProjectKind[] = [
  // 工程建设
  {
    tradeType: '工程建设',
    name: (p) => `${p}第二人民医院门诊综合楼建设项目`,
    tenderer: (p) => `${p}第二人民医院`,
    bidder: { kind: '施工企业', qual: '建筑工程施工总承包' },
    budget: [8_000, 30_000],
    field: '建筑工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}中小学校舍维修改造项目`,
    tenderer: (p) => `${p}教育局`,
    bidder: { kind: '施工企业', qual: '建筑工程施工总承包' },
    budget: [500, 3_000],
    field: '建筑工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}滨河东路道路改造工程`,
    tenderer: (p) => `${p}住房和城乡建设局`,
    bidder: { kind: '施工企业', qual: '市政公用工程施工总承包' },
    budget: [2_000, 20_000],
    field: '市政公用工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}污水处理厂提标改造工程`,
    tenderer: (p) => `${p}水务局`,
    bidder: { kind: '施工企业', qual: '市政公用工程施工总承包' },
    budget: [3_000, 15_000],
    field: '市政公用工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}农村饮水安全巩固提升工程`,
    tenderer: (p) => `${p}水务局`,
    bidder: { kind: '施工企业', qual: '水利水电工程施工总承包' },
    budget: [800, 5_000],
    field: '水利水电工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}110千伏输变电工程`,
    tenderer: (_p, s) => `国网山西省电力公司${s}供电公司`,
    bidder: { kind: '施工企业', qual: '电力工程施工总承包' },
    budget: [3_000, 12_000],
    field: '机电工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}城区集中供热管网改造工程`,
    tenderer: (p) => `${p}热力有限公司`,
    bidder: { kind: '施工企业', qual: '市政公用工程施工总承包' },
    budget: [2_000, 10_000],
    field: '市政公用工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}公共租赁住房配套基础设施项目`,
    tenderer: (p) => `${p}住房和城乡建设局`,
    bidder: { kind: '施工企业', qual: '建筑工程施工总承包' },
    budget: [1_500, 8_000],
    field: '建筑工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}体育中心全民健身场馆建设项目`,
    tenderer: (p) => `${p}体育局`,
    bidder: { kind: '施工企业', qual: '建筑工程施工总承包' },
    budget: [5_000, 20_000],
    field: '建筑工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}农村公路安全生命防护工程`,
    tenderer: (p) => `${p}交通运输局`,
    bidder: { kind: '施工企业', qual: '公路工程施工总承包' },
    budget: [800, 6_000],
    field: '公路工程',
  },
  {
    tradeType: '工程建设',
    name: (p) => `${p}政务服务中心装修改造工程`,
    tenderer: (p) => `${p}机关事务管理局`,
    bidder: { kind: '施工企业', qual: '建筑装修装饰工程专业承包' },
    budget: [300, 1_500],
    field: '建筑工程',
  },
  // 政府采购
  {
    tradeType: '政府采购',
    name: (p) => `${p}智慧城市运营管理中心设备采购项目`,
    tenderer: (p) => `${p}行政审批服务管理局`,
    bidder: { kind: '供应商', words: ['信息技术'] },
    budget: [500, 3_000],
  },
  {
    tradeType: '政府采购',
    name: (p) => `${p}中小学教学设备采购项目`,
    tenderer: (p) => `${p}教育局`,
    bidder: { kind: '供应商', words: ['信息技术', '办公设备'] },
    budget: [100, 800],
  },
  {
    tradeType: '政府采购',
    name: (p) => `${p}人民医院64排CT设备采购项目`,
    tenderer: (p) => `${p}人民医院`,
    bidder: { kind: '供应商', words: ['医疗器械'] },
    budget: [600, 2_000],
  },
  {
    tradeType: '政府采购',
    name: (p) => `${p}机关办公区物业管理服务采购项目`,
    tenderer: (p) => `${p}机关事务管理局`,
    bidder: { kind: '供应商', words: ['办公设备', '信息技术'] },
    budget: [200, 600],
  },
  // 土地矿业
  {
    tradeType: '土地矿业',
    name: (p, pick, region) =>
      `${p}${pick(DISTRICTS[region])}${pick(['01', '03', '05', '07', '12'])}号地块国有建设用地使用权`,
    tenderer: (p) => `${p}规划和自然资源局`,
    bidder: null,
    budget: [3_000, 60_000],
  },
  {
    tradeType: '土地矿业',
    name: (p, pick, region) => `${p}${pick(DISTRICTS[region])}建筑用砂石矿采矿权`,
    tenderer: (p) => `${p}规划和自然资源局`,
    bidder: null,
    budget: [800, 6_000],
  },
  // 国有产权
  {
    tradeType: '国有产权',
    name: (p, pick) => `${p}国有资本投资运营有限公司所持${pick(PREFIXES)}供水有限公司40%股权`,
    tenderer: (p) => `${p}国有资本投资运营有限公司`,
    bidder: null,
    budget: [2_000, 20_000],
  },
  {
    tradeType: '国有产权',
    name: (p) => `${p}公共交通集团有限公司报废公交车辆`,
    tenderer: (p) => `${p}公共交通集团有限公司`,
    bidder: null,
    budget: [50, 300],
  },
  // 医药采购
  {
    tradeType: '医药采购',
    name: (_p, pick) => `山西省${pick(['冠脉扩张球囊类', '人工晶体类', '骨科创伤类'])}医用耗材集中带量采购`,
    tenderer: () => '山西省医疗保障局',
    bidder: { kind: '供应商', words: ['医疗器械', '医药'] },
    budget: [5_000, 30_000],
    province: true,
  },
  {
    tradeType: '医药采购',
    name: (p) => `${p}县域医共体医用耗材集中采购项目`,
    tenderer: (p) => `${p}卫生健康委员会`,
    bidder: { kind: '供应商', words: ['医疗器械', '医药'] },
    budget: [300, 2_000],
  },
  // 其他交易
  {
    tradeType: '其他交易',
    name: (p) => `${p}城区公共停车泊位特许经营权`,
    tenderer: (p) => `${p}城市管理局`,
    bidder: null,
    budget: [500, 3_000],
  },
  {
    tradeType: '其他交易',
    name: (p) => `${p}城区户外广告设施使用权`,
    tenderer: (p) => `${p}城市管理局`,
    bidder: null,
    budget: [100, 800],
  },
];

/** Buyers outside the enterprise register: developers (land), investors (equity), operators (concessions). */
export const OUTSIDE_BUYERS: Record<'land' | 'equity' | 'other', readonly string[]> = {
  land: ['房地产开发有限公司', '置业有限公司', '建材有限公司'],
  equity: ['投资控股有限公司', '水务投资有限公司', '再生资源回收有限公司'],
  other: ['停车管理有限公司', '文化传媒有限公司', '城市服务有限公司'],
};
