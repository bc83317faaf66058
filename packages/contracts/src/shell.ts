import {
  AUDIT_WAY_VALUES,
  CARD_WIDTHS,
  CHART_MEASURES,
  CHART_TYPE_VALUES,
  CODE_PATTERN,
  COLUMN_TYPES,
  FUNCTION_CODE_PATTERN,
  FUNCTION_KINDS,
  GRANT_SUBJECTS,
  HEX_COLOR,
  IT_SHOWS,
  LIST_ALIGNMENTS,
  NEW_SYSTEM_MESSAGES as M,
  MAX_ASIDE_WIDTH,
  MAX_AUDIT_LEVELS,
  MENU_SCORE_MAX,
  MENU_SCORE_MESSAGES,
  MIN_ASIDE_WIDTH,
  NODE_PROPERTY_VALUES,
  NODE_STYLES,
  SYSTEM_TITLE_MAX,
} from './shell-constants';
import { z } from './zod';

/** Schemas of the configurable shell (spec §3 menu item, system code, theme; §5 new system; §7 Configuration). */

const code = (message = '编码须以字母开头，由字母、数字、下划线组成，最长63位') =>
  z.string().trim().regex(CODE_PATTERN, message);
const uuid = (message = '记录不存在') => z.string().uuid(message);
const color = z.string().regex(HEX_COLOR, '颜色格式为 #RRGGBB');
const shortText = (max: number, required: string) => z.string().trim().min(1, required).max(max, `最多 ${max} 个字符`);

// ── systems ──────────────────────────────────────────────────────────────────

export const newSystemSchema = z.object({
  systemName: z.string({ error: M.systemNameRequired }).trim().min(1, M.systemNameRequired).max(50, '最多 50 个字符'),
  title: z.string({ error: M.titleRequired }).trim().min(1, M.titleRequired).max(SYSTEM_TITLE_MAX, M.titleLength),
  gnCoding: z.string({ error: M.gnCodingFormat }).trim().regex(CODE_PATTERN, M.gnCodingFormat),
  levels: z.literal(0).default(0),
});
export type NewSystemInput = z.input<typeof newSystemSchema>;
export const newSystemResponseSchema = z.object({ gnName: z.string(), gnCoding: z.string() });

/** PUT system-name: renames a system; its code is immutable, so a gnCoding that differs is refused. */
export const systemRenameSchema = z.object({
  systemCoding: code(),
  systemName: z.string({ error: M.systemNameRequired }).trim().min(1, M.systemNameRequired).max(50, '最多 50 个字符'),
  title: z.string({ error: M.titleRequired }).trim().min(1, M.titleRequired).max(SYSTEM_TITLE_MAX, M.titleLength),
  gnCoding: z.string().optional(),
  enabled: z.boolean().optional(),
});

export const configSystemSchema = z.object({
  id: z.string(),
  systemName: z.string(),
  title: z.string(),
  gnCoding: z.string(),
  enabled: z.boolean(),
  sort: z.number().int(),
  menuCount: z.number().int(),
  createdAt: z.string(),
});
export type ConfigSystem = z.infer<typeof configSystemSchema>;

export const systemCodingQuerySchema = z.object({ systemCoding: code('系统编码格式有误') });
export const gnCodingQuerySchema = z.object({ gnCoding: code('节点编码格式有误') });
export const idQuerySchema = z.object({ id: uuid() });
export const structureDelQuerySchema = z.union([
  z.object({ id: uuid() }),
  z.object({ systemCoding: code('系统编码格式有误') }),
]);

// ── menus and nodes ─────────────────────────────────────────────────────────

const menuFields = {
  title: shortText(30, '请输入菜单名称'),
  icon: z.string().max(40).nullable().default(null),
  itShows: z.enum(IT_SHOWS).default('是'),
  nodeProperties: z.enum(NODE_PROPERTY_VALUES, '节点属性不在可选范围内'),
  style: z.enum(NODE_STYLES).default('table'),
  nodeSetFlag: z.boolean().default(false),
  disabled: z.boolean().default(false),
  groupName: z.string().trim().max(30, '最多 30 个字符').nullable().default(null),
  dataSource: z.string().max(63).default('engine'),
  /** screen 20: the score shown beside the node in the sidebar (e.g. a credit standard's full marks); null: none */
  score: z
    .number({ error: '分值须为数字' })
    .min(0, MENU_SCORE_MESSAGES.range)
    .max(MENU_SCORE_MAX, MENU_SCORE_MESSAGES.range)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, MENU_SCORE_MESSAGES.precision)
    .nullable()
    .default(null),
};

/** POST child-menu: a menu item or node under a system (parentId null) or under another item. */
export const childMenuSchema = z.object({
  systemCoding: code('系统编码格式有误'),
  parentId: uuid('上级菜单不存在').nullable().default(null),
  gnCoding: code('节点编码格式为字母开头，以及数字、下划线组成'),
  ...menuFields,
});
export type ChildMenuInput = z.input<typeof childMenuSchema>;

/** PUT edit: everything but the code, which is immutable (a gnCoding that differs is refused). */
export const editMenuSchema = z.object({
  id: uuid(),
  gnCoding: z.string().optional(),
  ...menuFields,
});
export type EditMenuInput = z.input<typeof editMenuSchema>;

export const moveMenuSchema = z.object({
  id: uuid(),
  parentId: uuid('上级菜单不存在').nullable(),
  index: z.number().int().min(0),
});

export interface MenuItem {
  id: string;
  parentId: string | null;
  systemCoding: string;
  gnCoding: string;
  title: string;
  icon: string | null;
  itShows: '是' | '否';
  nodeProperties: string;
  style: string;
  nodeSetFlag: boolean;
  disabled: boolean;
  groupName: string | null;
  dataSource: string;
  sort: number;
  badge: number;
  score: number | null;
  children: MenuItem[];
}
export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentId: z.string().nullable(),
    systemCoding: z.string(),
    gnCoding: z.string(),
    title: z.string(),
    icon: z.string().nullable(),
    itShows: z.enum(IT_SHOWS),
    nodeProperties: z.string(),
    style: z.string(),
    nodeSetFlag: z.boolean(),
    disabled: z.boolean(),
    groupName: z.string().nullable(),
    dataSource: z.string(),
    sort: z.number().int(),
    badge: z.number().int(),
    score: z.number().nullable(),
    children: z.array(menuItemSchema),
  }),
);

export const submenusSchema = z.object({ systemCoding: code('系统编码格式有误'), parentId: uuid('上级菜单不存在') });

export const optionItemSchema = z.object({ label: z.string(), value: z.string() });
export const dataSourceSchema = z.object({ value: z.string(), label: z.string(), kind: z.enum(['engine', 'domain']) });

export const updateDataSourceSchema = z.object({ gnCoding: code(), dataSource: z.string().min(1).max(63) });

// ── functions (buttons) and permissions ─────────────────────────────────────

export const nodeFunctionSchema = z.object({
  code: z.string().trim().regex(FUNCTION_CODE_PATTERN, '按钮编码须以字母开头，由字母、数字、下划线组成'),
  name: shortText(20, '请输入按钮名称'),
  color: color.default('#409EFF'),
  show: z.boolean().default(true),
  kind: z.enum(FUNCTION_KINDS).default('table'),
});
export type NodeFunction = z.infer<typeof nodeFunctionSchema>;
export const saveNodeFunctionsSchema = z.object({
  gnCoding: code(),
  functions: z.array(nodeFunctionSchema).max(40, '一个节点最多 40 个按钮'),
});
export const functionNodesSchema = z.object({ systemCoding: code('系统编码格式有误') });
export const functionListSchema = z.object({ gnCoding: code() });

/** §3 Operation: what the caller may press. */
export const operationSchema = z.object({ code: z.string(), name: z.string(), color: z.string(), show: z.boolean() });
export type Operation = z.infer<typeof operationSchema>;
export const buttonsRequestSchema = z.object({ gnCoding: code(), systemCoding: code('系统编码格式有误') });

const subject = {
  subjectType: z.enum(GRANT_SUBJECTS),
  subjectId: z.string().min(1).max(64),
};
export const nodeGrantQuerySchema = z.object({ gnCoding: code(), ...subject });
export const nodeGrantSchema = z.object({
  gnCoding: z.string(),
  visible: z.boolean(),
  functions: z.array(nodeFunctionSchema.extend({ granted: z.boolean() })),
});
export const saveGrantSchema = z.object({
  ...subject,
  gnCoding: code(),
  visible: z.boolean(),
  functionCodes: z.array(z.string().regex(FUNCTION_CODE_PATTERN)).max(40),
});
export const grantMatrixQuerySchema = z.object({ systemCoding: code('系统编码格式有误'), ...subject });
export const grantMatrixRowSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  gnCoding: z.string(),
  title: z.string(),
  itShows: z.enum(IT_SHOWS),
  depth: z.number().int(),
  visible: z.boolean(),
  functions: z.array(nodeFunctionSchema.extend({ granted: z.boolean() })),
});
export type GrantMatrixRow = z.infer<typeof grantMatrixRowSchema>;
export const saveGrantMatrixSchema = z.object({
  ...subject,
  systemCoding: code('系统编码格式有误'),
  grants: z
    .array(
      z.object({
        gnCoding: code(),
        visible: z.boolean(),
        functionCodes: z.array(z.string().regex(FUNCTION_CODE_PATTERN)).max(40),
      }),
    )
    .max(2000),
});

export const roleSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  builtin: z.boolean(),
  memberCount: z.number().int(),
});
export type Role = z.infer<typeof roleSchema>;
export const roleCreateSchema = z.object({
  code: code('角色编码须以字母开头，由字母、数字、下划线组成'),
  name: shortText(30, '请输入角色名称'),
});
export const roleUpdateSchema = z.object({ id: uuid('角色不存在'), name: shortText(30, '请输入角色名称') });
export const roleMembersSchema = z.object({
  roleId: uuid('角色不存在'),
  userIds: z.array(uuid('用户不存在')).max(500),
});
export const roleIdQuerySchema = z.object({ roleId: uuid('角色不存在') });
export const userBriefSchema = z.object({
  id: z.string(),
  account: z.string(),
  userName: z.string(),
  loginRoleType: z.string(),
  enterpriseName: z.string().nullable(),
});
export type UserBrief = z.infer<typeof userBriefSchema>;
export const userSearchQuerySchema = z.object({
  keyword: z.string().trim().max(50).optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30, 50].includes(n), '每页条数只能是 10、20、30、50')
    .default(10),
});

// ── display groups, header menus, themes ────────────────────────────────────

export const displayGroupSchema = z.object({
  id: z.string(),
  systemCoding: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  sort: z.number().int(),
});
export const displayGroupCreateSchema = z.object({
  systemCoding: code('系统编码格式有误'),
  name: shortText(30, '请输入分组名称'),
  icon: z.string().max(40).nullable().default(null),
  sort: z.number().int().min(0).max(9999).default(0),
});
export const displayGroupUpdateSchema = z.object({
  id: uuid('分组不存在'),
  name: shortText(30, '请输入分组名称'),
  icon: z.string().max(40).nullable().default(null),
  sort: z.number().int().min(0).max(9999).default(0),
});

export const headerMenuSchema = z.object({ key: z.string(), label: z.string(), path: z.string(), icon: z.string() });
export type HeaderMenu = z.infer<typeof headerMenuSchema>;

export const themeSchema = z.object({
  theme: z.enum(['light', 'dark']),
  themeColor: color,
  navBgColor: color,
  navTextColor: color,
  asideWidth: z
    .number()
    .int()
    .min(MIN_ASIDE_WIDTH, `侧边栏宽度不能小于 ${MIN_ASIDE_WIDTH}`)
    .max(MAX_ASIDE_WIDTH, `侧边栏宽度不能大于 ${MAX_ASIDE_WIDTH}`),
  asideBgColor: color,
  asideTextColor: color,
  asideActiveColor: color,
  tableBgColor: color,
  tableTextColor: color,
  cardBgColor: color,
  cardTextColor: color,
});
export type Theme = z.infer<typeof themeSchema>;

// ── node presentation: columns, card style, charts, templates ───────────────

export const tableColumnSchema = z.object({
  code: code('字段编码须以字母开头，由字母、数字、下划线组成'),
  name: shortText(30, '请输入列名'),
  type: z.enum(COLUMN_TYPES).default('text'),
  show: z.boolean().default(true),
  isSearch: z.boolean().default(false),
  isStatus: z.boolean().default(false),
  listAlignment: z.enum(LIST_ALIGNMENTS).default('居中'),
  width: z.number().int().min(40).max(800).nullable().default(null),
});
export type TableColumn = z.infer<typeof tableColumnSchema>;
export const saveColumnsSchema = z.object({
  gnCoding: code(),
  columns: z
    .array(tableColumnSchema)
    .max(60, '最多 60 列')
    .refine((cols) => new Set(cols.map((c) => c.code)).size === cols.length, '列编码不能重复'),
});
export const columnsRequestSchema = z.object({ gnCoding: code(), systemCoding: code('系统编码格式有误').optional() });

export const cardStyleSchema = z.object({
  titleKey: z.string().regex(CODE_PATTERN, '请选择标题字段'),
  contents: z
    .array(
      z.object({
        contentKey: z.string().regex(CODE_PATTERN, '请选择内容字段'),
        label: z.string().max(30).default(''),
        fontSize: z.number().int().min(10).max(32).default(14),
        color: color.default('#303133'),
        style: z.enum(['normal', 'bold', 'italic']).default('normal'),
      }),
    )
    .max(12, '最多 12 项内容'),
  width: z.enum(CARD_WIDTHS).default('33.3%'),
});
export type CardStyle = z.infer<typeof cardStyleSchema>;
export const saveCardStyleSchema = z.object({ gnCoding: code(), cardStyle: cardStyleSchema });
export const cardSettingRequestSchema = z.object({ gnCoding: code() });

export const chartSchema = z.object({
  title: shortText(30, '请输入图表标题'),
  type: z.enum(CHART_TYPE_VALUES),
  dimension: z.string().regex(CODE_PATTERN, '请选择维度字段'),
  measure: z.enum(CHART_MEASURES),
  measureField: z.string().regex(CODE_PATTERN).nullable().default(null),
});
export type Chart = z.infer<typeof chartSchema>;
export const saveChartsSchema = z.object({
  gnCoding: code(),
  charts: z
    .array(chartSchema)
    .max(12, '一个节点最多 12 个图表')
    .refine((cs) => cs.every((c) => c.measure === 'count' || c.measureField), '求和、平均、最大、最小需要选择度量字段'),
});

/**
 * /ks/config/node/chart-data: the numbers of a node's charts from its records (those the caller may see). Without
 * `charts`, the node's saved charts; with them (the chart settings page previewing unsaved rows), those.
 */
export const chartDataRequestSchema = z.object({
  gnCoding: code(),
  charts: z
    .array(chartSchema)
    .max(12, '一个节点最多 12 个图表')
    .refine((cs) => cs.every((c) => c.measure === 'count' || c.measureField), '求和、平均、最大、最小需要选择度量字段')
    .optional(),
});
/** The most categories a chart shows: the largest, the rest summed into 其他. */
export const CHART_MAX_CATEGORIES = 20;
export const CHART_OTHER = '其他';
export const CHART_BLANK = '（空）';
export const CHART_DATA_MSG = {
  noDimension: (code: string) => `维度字段「${code}」已不存在，请在图表设置中重新选择`,
  noMeasureField: (code: string) => `度量字段「${code}」已不存在，请在图表设置中重新选择`,
  notNumeric: (code: string) => `度量字段「${code}」不是数值字段，不能求和或求平均`,
} as const;
export const chartDataSchema = chartSchema.extend({
  categories: z.array(z.string()),
  values: z.array(z.number()),
  /** the records the chart counts (those the caller may see) */
  records: z.number().int(),
  /** why the chart cannot be drawn (a field removed since it was configured); null: drawn */
  problem: z.string().nullable(),
});
export type ChartData = z.infer<typeof chartDataSchema>;

export const styleTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['table', 'card']),
  columns: z.array(tableColumnSchema).nullable(),
  cardStyle: cardStyleSchema.nullable(),
  createdAt: z.string(),
});
export type StyleTemplate = z.infer<typeof styleTemplateSchema>;
export const styleTemplateCreateSchema = z.object({
  name: shortText(30, '请输入模板名称'),
  kind: z.enum(['table', 'card']),
  /** take the style of this node */
  fromGnCoding: code(),
});
export const styleTemplateApplySchema = z.object({ id: uuid('模板不存在'), gnCoding: code() });

/** GET previews: one node's whole configuration. */
export const nodePreviewSchema = z.object({
  node: menuItemSchema,
  systemName: z.string(),
  functions: z.array(nodeFunctionSchema),
  columns: z.array(tableColumnSchema),
  cardStyle: cardStyleSchema.nullable(),
  charts: z.array(chartSchema),
});
export type NodePreview = z.infer<typeof nodePreviewSchema>;

// ── audit levels and ways, notice jumps ─────────────────────────────────────

export const auditLevelSchema = z.object({
  level: z.number().int().min(1).max(MAX_AUDIT_LEVELS),
  name: shortText(30, '请输入审核级别名称'),
  way: z.enum(AUDIT_WAY_VALUES).default('any'),
  reviewerRoles: z.array(z.string().regex(CODE_PATTERN)).max(20).default([]),
  reviewerUserIds: z.array(uuid('用户不存在')).max(50).default([]),
});
export type AuditLevel = z.infer<typeof auditLevelSchema>;
export const auditConfigSchema = z.object({
  gnCoding: z.string(),
  levels: z.array(
    auditLevelSchema.extend({
      /** active accounts who may decide the level (named users and role holders); 0: submissions are refused */
      reviewerCount: z.number().int().optional(),
    }),
  ),
});
export const saveAuditLevelsSchema = z.object({
  gnCoding: code(),
  levels: z
    .array(auditLevelSchema)
    .max(MAX_AUDIT_LEVELS, `最多 ${MAX_AUDIT_LEVELS} 级审核`)
    .refine((ls) => ls.every((l, i) => l.level === i + 1), '审核级别须从 1 开始连续编号')
    .refine(
      (ls) => ls.every((l) => l.reviewerRoles.length + l.reviewerUserIds.length > 0),
      '每一级审核都需要指定审核角色或审核人',
    )
    .refine(
      (ls) => ls.every((l) => l.way !== 'single' || l.reviewerRoles.length + l.reviewerUserIds.length === 1),
      '单人审核只能指定一个审核人或角色',
    ),
});
export const saveAuditWaySchema = z.object({
  gnCoding: code(),
  ways: z.array(z.object({ level: z.number().int().min(1).max(MAX_AUDIT_LEVELS), way: z.enum(AUDIT_WAY_VALUES) })),
});

export const NOTICE_MSG_TYPES = ['todo', 'rejected', 'notice', 'message'] as const;
export const noticeJumpSchema = z.object({
  id: z.string(),
  name: z.string(),
  msgType: z.enum(NOTICE_MSG_TYPES),
  systemCoding: z.string(),
  gnCoding: z.string(),
  enabled: z.boolean(),
  path: z.string(),
});
export type NoticeJump = z.infer<typeof noticeJumpSchema>;
export const noticeJumpSaveSchema = z.object({
  id: uuid().optional(),
  name: shortText(30, '请输入配置名称'),
  msgType: z.enum(NOTICE_MSG_TYPES, '请选择消息类型'),
  systemCoding: code('请选择系统'),
  gnCoding: code('请选择跳转节点'),
  enabled: z.boolean().default(true),
});

export const cacheRefreshSchema = z.object({ nodes: z.number().int(), clearedAt: z.string() });
