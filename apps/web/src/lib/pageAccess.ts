import type { LoginRoleType } from '@ks/contracts';

// Plain data (no UI kit): the signed-in layout reads it before it renders a page.

export interface PageAccess {
  /** login role types that may open the page (the server answers 403 to anyone else) */
  roles: readonly LoginRoleType[];
  /** the page as the 403 names it */
  title: string;
}

const CONFIG: readonly LoginRoleType[] = ['M', 'D'];
const ADMIN: readonly LoginRoleType[] = ['M'];

/**
 * Who may open each configuration and administration page: the login role types the page's own endpoints serve
 * (shell.routes.ts, accounts.routes.ts). 门户公告管理 is not here: it is governed by grants on its node, whoever
 * the caller is, and says so itself. Anyone else gets the 403 page at once, instead of
 * the page's frame with the server's refusal in a dialog. Pages not listed here are open to everyone signed in (the
 * business pages check their node on the server).
 */
export const PAGE_ACCESS: Readonly<Record<string, PageAccess>> = {
  '/system/allSystem': { roles: CONFIG, title: '系统管理' },
  '/system/menuSetUp': { roles: CONFIG, title: '菜单设置' },
  '/system/setUpForm': { roles: CONFIG, title: '字段设置' },
  '/system/setUpList': { roles: CONFIG, title: '列表列设置' },
  '/system/setTypeCard': { roles: CONFIG, title: '卡片样式' },
  '/system/styleTemplate': { roles: CONFIG, title: '样式模板' },
  '/system/echartsSetting': { roles: CONFIG, title: '图表设置' },
  '/system/jumpNoticeCfg': { roles: CONFIG, title: '消息跳转配置' },
  '/configPage/productConfig': { roles: CONFIG, title: '产品配置' },
  '/system/auditLevel': { roles: CONFIG, title: '审核级别' },
  '/system/auditWay': { roles: CONFIG, title: '审核方式' },
  '/system/managementInfo': { roles: CONFIG, title: '管理机构' },
  '/system/permissionsSet': { roles: ADMIN, title: '角色权限' },
  '/system/permissConfig': { roles: ADMIN, title: '权限配置' },
  '/system/adminInfo': { roles: ADMIN, title: '管理员信息' },
  '/system/systemNotice': { roles: ADMIN, title: '系统通知管理' },
  '/system/helpManage': { roles: ADMIN, title: '帮助管理' },
  '/system/serviceConsole': { roles: ADMIN, title: '客服工作台' },
  '/system/messagePublish': { roles: ADMIN, title: '消息发布' },
  '/system/personnelInfo': { roles: ['M', 'U'], title: '人员信息' },
  '/system/companyInfo': { roles: ['M', 'U'], title: '企业信息' },
  '/system/feedback': { roles: ADMIN, title: '用户反馈' },
};

const ROLE_NAMES: Record<string, string> = { M: '管理员', D: '开发者', U: '企业/个人' };

/** The access rule of a path (trailing slashes ignored), or null when everyone signed in may open it. */
export function pageAccess(pathname: string): PageAccess | null {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_ACCESS[p] ?? null;
}

/**
 * The page a signed-in user of `role` may not open at `pathname`, or null when they may (or when the role is not
 * known yet: the page's own calls are then refused by the server as usual).
 */
export function deniedPage(pathname: string, role: string | null | undefined): PageAccess | null {
  const access = pageAccess(pathname);
  if (!access || !role) return null;
  return access.roles.includes(role as LoginRoleType) ? null : access;
}

/** Who may open a page, in words: 仅管理员和开发者可访问. */
export function whoMayOpen(access: PageAccess): string {
  return `仅${access.roles.map((r) => ROLE_NAMES[r] ?? r).join('和')}可访问`;
}
