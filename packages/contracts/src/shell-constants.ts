/**
 * The configurable shell's constants and pure rules (spec §2 sidebar click routing, §3 theme, §5 new system, §9).
 * Zod-free so that the web bundles it alone; the zod schemas in shell.ts use the same rules.
 */

/** §5 New system messages, verbatim. */
export const NEW_SYSTEM_MESSAGES = {
  systemNameRequired: '请输入系统全称',
  titleRequired: '请输入系统简称',
  titleLength: '长度在 1 到 8 个字符',
  gnCodingFormat: '系统编码格式为字母开头，以及数字、下划线组成',
  created: '系统已生成',
  gnCodingImmutable: '编码生成后不可修改',
  duplicate: '编码已存在，请更换',
} as const;

/** A system or node code: a letter, then letters, digits or underscores; at most 63 characters (a column-safe name). */
export const CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
/** A function (button) code: same shape, at most 40. */
export const FUNCTION_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const SYSTEM_TITLE_MAX = 8;

/** Menu flag: 是 shows the item in the sidebar, 否 hides it (spec §3, §4). */
export const IT_SHOWS = ['是', '否'] as const;
export type ItShows = (typeof IT_SHOWS)[number];

/**
 * Node properties: what a node is, which decides where a sidebar click goes (spec §2 "Sidebar click routing").
 * `path` is the page; list-type nodes open the dynamic list; `adminPath` applies to administrators.
 */
export const NODE_PROPERTIES = [
  { value: 'list', label: '列表', path: '/dynamicPage/dynamicIndex' },
  { value: 'card', label: '卡片列表', path: '/dynamicPage/dynamicIndex' },
  { value: 'venue', label: '场地预约', path: '/meetingVenue/booking', adminPath: '/meetingVenue/meeting' },
  { value: 'reviewOverview', label: '评审概览', path: '/bidEvaluationSys/overview' },
  { value: 'bidTab', label: '开评标页签', path: '/bid/overview' },
  { value: 'monitor', label: '监督台', path: '/bid/monitor' },
  { value: 'monitoringReport', label: '监测报告', path: '/demoPublicPage/monitoringReport' },
  // 公共数据 (issue 19): published transactions, control prices (最高投标限价) and market indicators
  { value: 'detailsList', label: '交易明细', path: '/demoPublicPage/detailsList' },
  { value: 'priceLimitDetails', label: '控制价公示', path: '/demoPublicPage/priceLimitDetails' },
  { value: 'indicatorDet', label: '市场指标', path: '/demoPublicPage/indicatorDet' },
  { value: 'analysis2', label: '信用分析', path: '/credit/analysis' },
  { value: 'creditInfo', label: '信用记录', path: '/credit/companyInfo' },
  { value: 'creditLetter', label: '信用承诺书', path: '/credit/commitmentbook' },
  { value: 'creditList', label: '信用公示名单', path: '/credit/creditPublicList' },
  { value: 'applyList', label: '申请列表', path: '/applyIndex' },
  { value: 'fileAnalysis', label: '文件分析', path: '/fileAnalysis/index' },
  { value: 'lock', label: '锁管理', path: '/lock' },
  { value: 'fiveInOne', label: '进场登记', path: '/fiveInOne/list' },
  { value: 'tenderRegistration', label: '投标报名', path: '/fiveInOne/registration' },
  { value: 'expertExtraction', label: '专家抽取', path: '/expertExtraction/extractList' },
  { value: 'guarantee', label: '保证金与保函', path: '/custom/guarantee' },
  { value: 'sealedBid', label: '投标文件加密', path: '/sealedBid/index' },
  { value: 'fullStatistics', label: '全量统计', path: '/custom/statistics' },
  { value: 'dataStatistics', label: '数据统计', path: '/custom/completeCount' },
  { value: 'materialPrices', label: '材料信息价', path: '/custom/materialPrices' },
  { value: 'txPush', label: '交易推送', path: '/dexRecords/txPushLogs' },
  { value: 'regAudit', label: '监管审核', path: '/dexRecords/regAuditLogs' },
  { value: 'portalNotices', label: '门户公告管理', path: '/system/portalNotices' },
  // 资料库 (issue 19): the product centre and the standard files
  { value: 'fileDownload', label: '资料下载', path: '/productCenter/fileDownload' },
  { value: 'videoDownload', label: '视频教程', path: '/productCenter/videoDownload' },
  { value: 'systemPlatform', label: '系统平台', path: '/productCenter/systemPlatform' },
  { value: 'letterBook', label: '标准文件', path: '/standardFile/letterBook' },
  { value: 'directory', label: '目录', path: '/system/pageConfig' },
] as const;
export type NodeProperty = (typeof NODE_PROPERTIES)[number]['value'];
export const NODE_PROPERTY_VALUES = NODE_PROPERTIES.map((p) => p.value) as unknown as readonly [
  NodeProperty,
  ...NodeProperty[],
];
export const DEFAULT_HOME_PATH = '/system/pageConfig';
/** The node whose functions govern the administration of portal notices. */
export const PORTAL_NOTICE_NODE = 'PORTAL_NOTICE';
export const PORTAL_NOTICE_SYSTEM = 'PTGL';

/** A node's sidebar score (screen 20): 0 to this, at most two decimals. */
export const MENU_SCORE_MAX = 10000;
export const MENU_SCORE_MESSAGES = {
  range: `分值须在 0 到 ${MENU_SCORE_MAX} 之间`,
  precision: '分值最多保留两位小数',
} as const;

/** Display style of a list-type node. */
export const NODE_STYLES = ['table', 'card'] as const;
export type NodeStyle = (typeof NODE_STYLES)[number];

/**
 * Where a sidebar click on a node goes (spec §2). Leaves only; a node with children expands instead.
 * The query carries the node and system so the page can load its configuration.
 */
export function routeForNode(
  node: { nodeProperties: string; gnCoding: string },
  systemCoding: string,
  isAdmin: boolean,
): string {
  const prop = NODE_PROPERTIES.find((p) => p.value === node.nodeProperties);
  if (!prop || prop.value === 'directory') return DEFAULT_HOME_PATH;
  const path = isAdmin && 'adminPath' in prop ? prop.adminPath : prop.path;
  const q = new URLSearchParams({ gnCoding: node.gnCoding, systemCoding });
  return `${path}?${q.toString()}`;
}

/** Function (button) placement: table toolbar / row buttons, or form buttons. */
export const FUNCTION_KINDS = ['table', 'form'] as const;
export type FunctionKind = (typeof FUNCTION_KINDS)[number];

/** Standard buttons a developer picks from (`/ks/base/dictionary/config/button/pull-down`). */
export const STANDARD_BUTTONS = [
  { code: 'add', name: '新增', color: '#409EFF', kind: 'table' },
  { code: 'edit', name: '编辑', color: '#409EFF', kind: 'table' },
  { code: 'detail', name: '详情', color: '#409EFF', kind: 'table' },
  { code: 'delete', name: '删除', color: '#F56C6C', kind: 'table' },
  { code: 'export', name: '导出', color: '#67C23A', kind: 'table' },
  { code: 'import', name: '导入', color: '#67C23A', kind: 'table' },
  { code: 'submit', name: '提交', color: '#409EFF', kind: 'form' },
  { code: 'save', name: '保存', color: '#409EFF', kind: 'form' },
  { code: 'audit', name: '审核', color: '#E6A23C', kind: 'table' },
  { code: 'revoke', name: '撤回', color: '#909399', kind: 'table' },
  { code: 'closed', name: '关闭', color: '#909399', kind: 'form' },
  { code: 'assign', name: '指派', color: '#E6A23C', kind: 'table' },
  { code: 'supervise', name: '监督查看', color: '#909399', kind: 'table' },
] as const;

/**
 * 监督查看 is a function but never a button: whoever is granted it on a node (the 监督 role of a supervision office)
 * reads every record of the node, read-only — the record policy lets them read and nothing else.
 */
export const SUPERVISE_FUNCTION = 'supervise';

/** Audit ways of one level (auditWay): a single designated reviewer, all reviewers (会签), or any one (或签). */
export const AUDIT_WAYS = [
  { value: 'single', label: '单人审核' },
  { value: 'all', label: '会签（全部通过）' },
  { value: 'any', label: '或签（任一通过）' },
] as const;
export type AuditWay = (typeof AUDIT_WAYS)[number]['value'];
export const AUDIT_WAY_VALUES = ['single', 'all', 'any'] as const;
export const MAX_AUDIT_LEVELS = 5;

/** Chart types of a node (echartsSetting). */
export const CHART_TYPES = [
  { value: 'bar', label: '柱状图' },
  { value: 'line', label: '折线图' },
  { value: 'pie', label: '饼图' },
] as const;
export const CHART_TYPE_VALUES = ['bar', 'line', 'pie'] as const;
export const CHART_MEASURES = ['count', 'sum', 'avg', 'max', 'min'] as const;

/** §3 table column types and alignment. */
export const COLUMN_TYPES = [
  'text',
  'status',
  'statusIcon',
  'preview',
  'download',
  'auditFlow',
  'changeStatus',
  'dui',
  'switch',
  'link',
  'state',
  'operations',
] as const;
export const LIST_ALIGNMENTS = ['左对齐', '居中', '右对齐'] as const;
/** §3 card widths. */
export const CARD_WIDTHS = ['100%', '50%', '33.3%'] as const;

/** §3 theme fields and §9 defaults. */
export const THEME_DEFAULTS = {
  theme: 'light',
  themeColor: '#409EFF',
  navBgColor: '#1362fc',
  navTextColor: '#ffffff',
  asideWidth: 200,
  asideBgColor: '#ffffff',
  asideTextColor: '#303133',
  asideActiveColor: '#409EFF',
  tableBgColor: '#ffffff',
  tableTextColor: '#303133',
  cardBgColor: '#ffffff',
  cardTextColor: '#303133',
} as const;
export const MIN_ASIDE_WIDTH = 200;
export const MAX_ASIDE_WIDTH = 400;
/** Drawer widths (§9): theme settings 380, the narrower drawers 300. */
export const DRAWER_WIDTHS = { wide: 380, narrow: 300 } as const;
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** Subjects a permission is granted to. */
export const GRANT_SUBJECTS = ['role', 'user'] as const;
export type GrantSubject = (typeof GRANT_SUBJECTS)[number];

/** Icons offered for menus, nodes and display groups (names of @ant-design/icons outlined icons). */
export const MENU_ICONS = [
  'AppstoreOutlined',
  'AuditOutlined',
  'BankOutlined',
  'BarChartOutlined',
  'CalendarOutlined',
  'CheckCircleOutlined',
  'ClusterOutlined',
  'ContainerOutlined',
  'DashboardOutlined',
  'DatabaseOutlined',
  'FileProtectOutlined',
  'FileSearchOutlined',
  'FileTextOutlined',
  'FolderOutlined',
  'FundOutlined',
  'HomeOutlined',
  'IdcardOutlined',
  'LockOutlined',
  'NotificationOutlined',
  'PieChartOutlined',
  'ProfileOutlined',
  'ProjectOutlined',
  'SafetyCertificateOutlined',
  'ScheduleOutlined',
  'SettingOutlined',
  'SolutionOutlined',
  'TeamOutlined',
  'ToolOutlined',
  'TrophyOutlined',
  'UserOutlined',
] as const;
