import { STANDARD_BUTTONS, SUPERVISE_FUNCTION } from '@ks/contracts';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLevels, businessSystems, grants, menuNodes, nodeFunctions, noticeJumps, roles } from '../db/schema';

/**
 * Demo configuration: a menu tree in each demo system covering the business areas of spec §1, node buttons, a custom
 * reviewer role, what ordinary users (role `user`) may see and press, audit levels and a notice jump.
 */

type Seed = {
  code: string;
  title: string;
  icon: string;
  prop: string;
  style?: 'table' | 'card';
  hidden?: boolean;
  /** the score the sidebar shows beside the node (screen 20) */
  score?: number;
  buttons?: string[];
  /**
   * functions that are granted but never shown as buttons: the node's records are written through a domain module
   * (招标公告 through a project's 招标公告 tab), which the engine still holds to these grants
   */
  hiddenButtons?: string[];
  children?: Seed[];
};

const LIST = ['add', 'edit', 'detail', 'delete', 'export'];
const REVIEWED = ['add', 'edit', 'detail', 'delete', 'submit', 'revoke', 'audit', 'export'];

export const DEMO_MENUS: Record<string, Seed[]> = {
  XYGL: [
    {
      code: 'XYGL_XYPJ',
      title: '信用评价',
      icon: 'TrophyOutlined',
      prop: 'directory',
      children: [
        // the credit standard's full marks, shown beside the node
        {
          code: 'XYGL_XYJL',
          title: '信用记录',
          icon: 'FileTextOutlined',
          prop: 'creditInfo',
          score: 100,
          buttons: REVIEWED,
        },
        { code: 'XYGL_XYDJ', title: '信用等级公示', icon: 'ProfileOutlined', prop: 'creditList' },
        { code: 'XYGL_XYFX', title: '信用分析', icon: 'PieChartOutlined', prop: 'analysis2' },
      ],
    },
    { code: 'XYGL_XYCN', title: '信用承诺书', icon: 'FileProtectOutlined', prop: 'creditLetter' },
    { code: 'XYGL_BGSQ', title: '信用变更申请', icon: 'AuditOutlined', prop: 'applyList', buttons: REVIEWED },
    { code: 'XYGL_ZYZC', title: '执业注册申请', icon: 'IdcardOutlined', prop: 'list', buttons: REVIEWED },
    {
      code: 'XYGL_CYRY',
      title: '从业人员登记',
      icon: 'SolutionOutlined',
      prop: 'list',
      buttons: [...REVIEWED, 'assign'],
    },
    { code: 'XYGL_QYYJ', title: '企业业绩', icon: 'ProjectOutlined', prop: 'list', buttons: REVIEWED },
    { code: 'XYGL_JCBG', title: '监测报告', icon: 'FundOutlined', prop: 'monitoringReport', hidden: true },
  ],
  ZBTB: [
    {
      code: 'ZBTB_XMDJ',
      title: '项目进场登记',
      icon: 'ProjectOutlined',
      prop: 'fiveInOne',
      buttons: [...REVIEWED, 'supervise'],
    },
    {
      code: 'ZBTB_ZBGL',
      title: '招标管理',
      icon: 'FolderOutlined',
      prop: 'directory',
      children: [
        // notices are written in a project's 招标公告 tab (the section's rules apply); here they are listed and reviewed
        {
          code: 'ZBTB_ZBGG',
          title: '招标公告',
          icon: 'NotificationOutlined',
          prop: 'list',
          buttons: ['detail', 'revoke', 'audit', 'export', 'delete', 'supervise'],
          hiddenButtons: ['add', 'edit', 'submit'],
        },
        { code: 'ZBTB_TBBM', title: '投标报名', icon: 'FormOutlined', prop: 'tenderRegistration' },
        { code: 'ZBTB_TBWJ', title: '投标文件', icon: 'ContainerOutlined', prop: 'list', buttons: LIST },
        { code: 'ZBTB_TBJM', title: '投标文件加密递交', icon: 'LockOutlined', prop: 'sealedBid' },
        { code: 'ZBTB_WJFX', title: '文件分析', icon: 'FileSearchOutlined', prop: 'fileAnalysis' },
      ],
    },
    // 资料库 (issue 19): downloads of the product centre and the standard files, for everyone signed in
    {
      code: 'ZBTB_CPZX',
      title: '产品中心',
      icon: 'AppstoreOutlined',
      prop: 'directory',
      children: [
        { code: 'ZBTB_ZLXZ', title: '资料下载', icon: 'ToolOutlined', prop: 'fileDownload' },
        { code: 'ZBTB_SPJC', title: '视频教程', icon: 'FundOutlined', prop: 'videoDownload' },
        { code: 'ZBTB_XTPT', title: '系统平台', icon: 'ClusterOutlined', prop: 'systemPlatform' },
      ],
    },
    { code: 'ZBTB_BZWJ', title: '标准文件', icon: 'ContainerOutlined', prop: 'letterBook' },
  ],
  KPB: [
    { code: 'KPB_KBDT', title: '开标大厅', icon: 'BankOutlined', prop: 'bidTab' },
    { code: 'KPB_PSGL', title: '评审概览', icon: 'DashboardOutlined', prop: 'reviewOverview' },
    { code: 'KPB_PBJG', title: '评标结果', icon: 'CheckCircleOutlined', prop: 'list', buttons: LIST },
    { code: 'KPB_JDT', title: '监督台', icon: 'AuditOutlined', prop: 'monitor' },
  ],
  ZJCQ: [
    { code: 'ZJCQ_CQXM', title: '抽取项目', icon: 'ClusterOutlined', prop: 'expertExtraction' },
    { code: 'ZJCQ_ZJK', title: '专家库', icon: 'TeamOutlined', prop: 'card', style: 'card', buttons: LIST },
  ],
  CDYY: [
    { code: 'CDYY_CDYY', title: '场地预约', icon: 'CalendarOutlined', prop: 'venue', buttons: REVIEWED },
    { code: 'CDYY_CDGL', title: '场地管理', icon: 'ScheduleOutlined', prop: 'list', buttons: LIST },
  ],
  DZBH: [
    { code: 'DZBH_BZJ', title: '保证金与保函', icon: 'BankOutlined', prop: 'guarantee' },
    {
      code: 'DZBH_BHSQ',
      title: '保函申请',
      icon: 'SafetyCertificateOutlined',
      prop: 'list',
      buttons: [...REVIEWED, 'supervise'],
    },
    { code: 'DZBH_BHCY', title: '保函查验', icon: 'FileSearchOutlined', prop: 'list', buttons: ['detail', 'export'] },
  ],
  TJFX: [
    { code: 'TJFX_QLTJ', title: '全量统计', icon: 'BarChartOutlined', prop: 'fullStatistics' },
    { code: 'TJFX_SJTJ', title: '数据统计', icon: 'PieChartOutlined', prop: 'dataStatistics' },
    { code: 'TJFX_CLJG', title: '材料信息价', icon: 'FundOutlined', prop: 'materialPrices' },
    { code: 'TJFX_JYTS', title: '交易推送', icon: 'DatabaseOutlined', prop: 'txPush' },
    { code: 'TJFX_JGSH', title: '监管审核', icon: 'AuditOutlined', prop: 'regAudit' },
    { code: 'TJFX_SGL', title: '锁管理', icon: 'LockOutlined', prop: 'lock' },
    // 公共数据 (issue 19): what the centre has published, read back as market data; the report is the centre's own
    {
      code: 'TJFX_GGSJ',
      title: '公共数据',
      icon: 'FolderOutlined',
      prop: 'directory',
      children: [
        { code: 'TJFX_JYMX', title: '交易明细', icon: 'ProfileOutlined', prop: 'detailsList' },
        { code: 'TJFX_KZJ', title: '控制价公示', icon: 'FileTextOutlined', prop: 'priceLimitDetails' },
        { code: 'TJFX_SCZB', title: '市场指标', icon: 'BarChartOutlined', prop: 'indicatorDet' },
        { code: 'TJFX_JCBG', title: '监测报告', icon: 'FundOutlined', prop: 'monitoringReport' },
      ],
    },
  ],
};

/** What every ordinary user (role `user`) may see and press in the demo. */
export const DEMO_USER_GRANTS: Record<string, string[]> = {
  XYGL_XYPJ: [],
  XYGL_XYJL: ['add', 'edit', 'detail', 'submit', 'revoke'],
  XYGL_XYDJ: [],
  XYGL_XYCN: [],
  // change rounds are opened, saved and submitted through /ks/rfc/* (the change dialog), never added here by hand
  XYGL_BGSQ: ['detail'],
  ZBTB_ZBGL: [],
  ZBTB_ZBGG: ['detail'],
  ZBTB_TBBM: [],
  ZBTB_TBWJ: ['add', 'edit', 'detail', 'delete'],
  ZBTB_TBJM: [],
  ZBTB_CPZX: [],
  ZBTB_ZLXZ: [],
  ZBTB_SPJC: [],
  ZBTB_XTPT: [],
  ZBTB_BZWJ: [],
  CDYY_CDYY: ['add', 'detail'],
  DZBH_BZJ: [],
  DZBH_BHSQ: ['add', 'edit', 'detail', 'submit', 'revoke', 'delete'],
  XYGL_ZYZC: ['add', 'edit', 'detail', 'submit', 'revoke', 'delete'],
  XYGL_QYYJ: ['add', 'edit', 'detail', 'submit', 'revoke', 'delete'],
  XYGL_CYRY: ['add', 'edit', 'detail', 'submit', 'revoke', 'delete', 'export'],
  // 材料信息价 is public: every user may open it from the sidebar
  TJFX_CLJG: [],
  // 公共数据: the published transactions, control prices and market indicators are public too (the monitoring report
  // stays in the centre's menu: administrators, and developers who see every node)
  TJFX_GGSJ: [],
  TJFX_JYMX: [],
  TJFX_KZJ: [],
  TJFX_SCZB: [],
};

/** The role of the demo account `agent` (a tender agency: 招标代理) and what it is granted beside every user's. */
export const AGENCY_ROLE = 'agency';
export const AGENCY_GRANTS: Record<string, string[]> = {
  ZBTB_XMDJ: ['add', 'edit', 'detail', 'delete', 'submit', 'revoke', 'export'],
  ZBTB_ZBGL: [],
  // notices are written in a project's 招标公告 tab, through the engine's save and submit of this node
  ZBTB_ZBGG: ['detail', 'add', 'edit', 'submit', 'revoke'],
};

/** The role of the demo account `supervisor` (a supervision office: 监督) and what it is granted. */
export const SUPERVISOR_ROLE = 'supervisor';
export const SUPERVISOR_GRANTS: Record<string, string[]> = {
  ZBTB_XMDJ: ['detail', SUPERVISE_FUNCTION],
  ZBTB_ZBGL: [],
  ZBTB_ZBGG: ['detail', SUPERVISE_FUNCTION],
  ZJCQ_CQXM: [],
  DZBH_BHSQ: ['detail', SUPERVISE_FUNCTION],
  // the opening hall, the evaluations and the supervision console (监督台)
  KPB_KBDT: [],
  KPB_PSGL: [],
  KPB_JDT: [],
};

export async function seedShell(tx: Db): Promise<void> {
  const systems = await tx.select().from(businessSystems);
  const sysId = new Map(systems.map((s) => [s.gnCoding, s.id]));
  const ids = new Map<string, string>();
  const insertLevel = async (systemId: string, parentId: string | null, items: Seed[]) => {
    for (const [i, it] of items.entries()) {
      const [n] = await tx
        .insert(menuNodes)
        .values({
          systemId,
          parentId,
          gnCoding: it.code,
          title: it.title,
          icon: it.icon,
          itShows: it.hidden ? '否' : '是',
          nodeProperties: it.prop,
          style: it.style ?? 'table',
          score: it.score === undefined ? null : it.score.toFixed(2),
          sort: i,
        })
        .returning();
      ids.set(it.code, n!.id);
      const shown = (it.buttons ?? []).map((code) => ({ code, show: true }));
      const hidden = (it.hiddenButtons ?? []).map((code) => ({ code, show: false }));
      if (shown.length + hidden.length) {
        await tx.insert(nodeFunctions).values(
          [...shown, ...hidden].map(({ code, show }, j) => {
            const b = STANDARD_BUTTONS.find((x) => x.code === code)!;
            return { nodeId: n!.id, code, name: b.name, color: b.color, kind: b.kind, show, sort: j };
          }),
        );
      }
      if (it.children) await insertLevel(systemId, n!.id, it.children);
    }
  };
  for (const [code, items] of Object.entries(DEMO_MENUS)) {
    const systemId = sysId.get(code);
    if (systemId) await insertLevel(systemId, null, items);
  }

  await tx.insert(roles).values({ code: 'auditor', name: '审核员' }).onConflictDoNothing();
  const values = Object.entries(DEMO_USER_GRANTS).flatMap(([code, fns]) =>
    ['', ...fns].map((functionCode) => ({
      subjectType: 'role',
      subjectId: 'user',
      nodeId: ids.get(code)!,
      functionCode,
    })),
  );
  await tx.insert(grants).values(values);
  // reviewers: the 审核员 role sees and reviews the records that enterprises submit
  const reviewed = [
    'XYGL_XYPJ',
    'XYGL_XYJL',
    'XYGL_BGSQ',
    'XYGL_ZYZC',
    'XYGL_CYRY',
    'XYGL_QYYJ',
    'ZBTB_XMDJ',
    'ZBTB_ZBGG',
    'CDYY_CDYY',
    'DZBH_BHSQ',
  ];
  await tx.insert(grants).values(
    reviewed.flatMap((code) =>
      ['', 'detail', ...(code === 'XYGL_XYPJ' ? [] : ['audit'])].map((functionCode) => ({
        subjectType: 'role',
        subjectId: 'auditor',
        nodeId: ids.get(code)!,
        functionCode,
      })),
    ),
  );
  // the tender agency's role (the demo account `agent`), and supervision: the 监督 role (the demo account
  // `supervisor`) reads every tender project, notice and guarantee application (监督查看) and the extractions, and
  // acts on none of them
  const roleWithGrants = async (code: string, name: string, granted: Record<string, string[]>) => {
    await tx.insert(roles).values({ code, name }).onConflictDoNothing();
    await tx.insert(grants).values(
      Object.entries(granted).flatMap(([node, fns]) =>
        ['', ...fns].map((functionCode) => ({
          subjectType: 'role',
          subjectId: code,
          nodeId: ids.get(node)!,
          functionCode,
        })),
      ),
    );
  };
  await roleWithGrants(AGENCY_ROLE, '招标代理', AGENCY_GRANTS);
  await roleWithGrants(SUPERVISOR_ROLE, '监督', SUPERVISOR_GRANTS);
  const levels = [
    { level: 1, name: '初审', way: 'any', reviewerRoles: ['auditor'], reviewerUserIds: [] },
    { level: 2, name: '复审', way: 'any', reviewerRoles: ['admin'], reviewerUserIds: [] },
  ];
  await tx.insert(auditLevels).values(levels.map((l) => ({ ...l, nodeId: ids.get('XYGL_XYJL')! })));
  // 信用变更申请: one level, the 审核员 or the administrator (a pass is final: the round's values are written)
  await tx.insert(auditLevels).values({
    ...levels[0]!,
    name: '审核',
    reviewerRoles: ['auditor', 'admin'],
    nodeId: ids.get('XYGL_BGSQ')!,
  });
  // 执业注册申请 and 从业人员登记: the platform administrator reviews the first level too (beside the 审核员 — the demo
  // account `auditor`), so the demo's admin can take an application through both levels
  for (const code of ['XYGL_ZYZC', 'XYGL_CYRY']) {
    await tx.insert(auditLevels).values(
      levels.map((l) => ({
        ...l,
        reviewerRoles: l.level === 1 ? [...l.reviewerRoles, 'admin'] : l.reviewerRoles,
        nodeId: ids.get(code)!,
      })),
    );
  }
  for (const code of ['ZBTB_XMDJ', 'CDYY_CDYY']) {
    await tx.insert(auditLevels).values({ ...levels[0]!, nodeId: ids.get(code)! });
  }
  // 保函申请, 招标公告 and 企业业绩: one level, the 审核员 or the administrator (a notice's pass publishes it; a
  // performance's makes it the enterprise's)
  for (const code of ['DZBH_BHSQ', 'ZBTB_ZBGG', 'XYGL_QYYJ']) {
    await tx.insert(auditLevels).values({ ...levels[0]!, reviewerRoles: ['auditor', 'admin'], nodeId: ids.get(code)! });
  }
  // list columns and a card style, so the configuration pages open on something real
  const col = (code: string, name: string, extra: object = {}) => ({
    code,
    name,
    type: 'text',
    show: true,
    isSearch: false,
    isStatus: false,
    listAlignment: '居中',
    width: null,
    ...extra,
  });
  await tx
    .update(menuNodes)
    .set({
      columns: [
        col('qymc', '企业名称', { isSearch: true, listAlignment: '左对齐', width: 240 }),
        col('xylb', '信用类别', { isSearch: true }),
        col('fz', '分值', { listAlignment: '右对齐', width: 90 }),
        col('djsj', '登记时间', { width: 160 }),
        col('zt', '状态', { type: 'status', isStatus: true, width: 100 }),
        col('shlc', '审核流程', { type: 'auditFlow' }),
        col('cz', '操作', { type: 'operations', width: 180 }),
      ],
    })
    .where(eq(menuNodes.id, ids.get('XYGL_XYJL')!));
  await tx
    .update(menuNodes)
    .set({
      columns: [
        col('xm', '姓名', { isSearch: true, width: 100 }),
        col('szdq', '所在地区', { listAlignment: '左对齐', width: 200 }),
        col('ssqy', '所属企业', { isSearch: true, listAlignment: '左对齐', width: 220 }),
        col('zc', '职称'),
        col('gznx', '从业年限', { listAlignment: '右对齐', width: 90 }),
        col('rzrq', '入职日期', { width: 120 }),
        col('zt', '状态', { type: 'status', isStatus: true, width: 100 }),
        col('shlc', '审核流程', { type: 'auditFlow' }),
        col('cz', '操作', { type: 'operations', width: 200 }),
      ],
    })
    .where(eq(menuNodes.id, ids.get('XYGL_CYRY')!));
  await tx
    .update(menuNodes)
    .set({
      columns: [
        col('xmmc', '项目名称', { isSearch: true, listAlignment: '左对齐', width: 260 }),
        col('cdjs', '承担角色', { width: 110 }),
        col('jsdw', '建设单位', { isSearch: true, listAlignment: '左对齐', width: 220 }),
        col('htje', '合同金额（元）', { listAlignment: '右对齐', width: 140 }),
        col('jgrq', '竣工日期', { width: 110 }),
        col('zt', '状态', { type: 'status', isStatus: true, width: 100 }),
        col('shlc', '审核流程', { type: 'auditFlow' }),
        col('cz', '操作', { type: 'operations', width: 200 }),
      ],
    })
    .where(eq(menuNodes.id, ids.get('XYGL_QYYJ')!));
  await tx
    .update(menuNodes)
    .set({
      columns: [
        col('xm', '姓名', { isSearch: true, width: 100 }),
        col('xb', '性别', { width: 70 }),
        col('zy', '评标专业', { isSearch: true, width: 140 }),
        col('dq', '所在地区', { isSearch: true, width: 100 }),
        col('dw', '工作单位', { isSearch: true, listAlignment: '左对齐', width: 240 }),
        col('zc', '职称', { width: 120 }),
        col('zt', '在库状态', { isSearch: true, width: 90 }),
        col('cz', '操作', { type: 'operations', width: 160 }),
      ],
      cardStyle: {
        titleKey: 'xm',
        contents: [
          { contentKey: 'zy', label: '评标专业', fontSize: 14, color: '#303133', style: 'normal' },
          { contentKey: 'zc', label: '职称', fontSize: 13, color: '#606266', style: 'normal' },
          { contentKey: 'dw', label: '工作单位', fontSize: 13, color: '#909399', style: 'italic' },
        ],
        width: '33.3%',
      },
    })
    .where(eq(menuNodes.id, ids.get('ZJCQ_ZJK')!));
  // 执业注册申请 lists as a table and offers its records as cards too (the list page's 表格 / 卡片 switch)
  await tx
    .update(menuNodes)
    .set({
      cardStyle: {
        titleKey: 'xm',
        contents: [
          { contentKey: 'zclb', label: '注册类别', fontSize: 14, color: '#303133', style: 'bold' },
          { contentKey: 'zy', label: '注册专业', fontSize: 13, color: '#606266', style: 'normal' },
          { contentKey: 'zsbh', label: '证书编号', fontSize: 13, color: '#606266', style: 'normal' },
          { contentKey: 'yxq', label: '有效期至', fontSize: 13, color: '#909399', style: 'normal' },
        ],
        width: '33.3%',
      },
    })
    .where(eq(menuNodes.id, ids.get('XYGL_ZYZC')!));
  await tx.insert(noticeJumps).values([
    { name: '信用记录待审核', msgType: 'todo', nodeId: ids.get('XYGL_XYJL')! },
    { name: '信用变更被驳回', msgType: 'rejected', nodeId: ids.get('XYGL_BGSQ')! },
  ]);
}

/** Used by tests: the node ids of codes. */
export async function nodeIds(db: Db, codes: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: menuNodes.id, code: menuNodes.gnCoding })
    .from(menuNodes)
    .where(inArray(menuNodes.gnCoding, codes));
  return new Map(rows.map((r) => [r.code, r.id]));
}
