import { passwordPolicyProblem } from './account-centre';
import { NODE_PROPERTIES, routeForNode } from './shell-constants';
/**
 * Administration of accounts, organisations, enterprise information and service matters (/system/adminInfo,
 * personnelInfo, managementInfo, companyInfo, transact). Zod-free so that the web bundles it alone; the schemas in
 * accounts.ts use the same rules.
 */

/** Sign-in name: a letter, then letters, digits or underscores; 4 to 32 characters in all. */
export const ACCOUNT_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

export const ACCOUNT_MESSAGES = {
  accountRequired: '请输入账号',
  accountFormat: '账号须以字母开头，由字母、数字、下划线组成，长度 4 到 32 位',
  userNameRequired: '请输入姓名',
  phoneRequired: '请输入手机号码',
  phoneFormat: '手机号码格式有误',
  passwordRequired: '请输入密码',
  duplicate: '账号已存在',
  notFound: '账号不存在',
  cannotDisableSelf: '不能停用当前登录的账号',
  cannotResetSelf: '不能在此重置自己的密码，请在个人中心修改',
  enterpriseRequired: '请选择所属企业',
  enterpriseNotFound: '企业不存在',
  stale: '数据已被他人修改，请刷新后重试',
} as const;

/**
 * Password rule for accounts created or reset by an administrator, the same as the platform's (8–64 characters, at
 * least three of lower case, upper case, digit, symbol). Returns the problem, or null when the password is fine.
 */
export function accountPasswordProblem(pw: string, account?: string | null): string | null {
  return passwordPolicyProblem(pw, account);
}

/** inactive: an enterprise account approved through self-registration that has not been activated yet (issue 15) */
export const ACCOUNT_STATUSES = ['active', 'disabled', 'inactive'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = {
  active: '正常',
  disabled: '已停用',
  inactive: '待激活',
};

/** Account types administered on /system/adminInfo (U accounts are administered on /system/personnelInfo). */
export const ADMIN_ACCOUNT_TYPES = ['M', 'D'] as const;
export type AdminAccountType = (typeof ADMIN_ACCOUNT_TYPES)[number];

export const ACCOUNT_SORTS = ['account', 'userName', 'createdAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

// ── 管理机构 (organisations) ────────────────────────────────────────────────

export const ORG_TYPES = ['交易中心', '监管部门', '行业主管部门', '其他'] as const;
export type OrgType = (typeof ORG_TYPES)[number];
export const ORG_SORTS = ['name', 'orgType', 'region', 'createdAt'] as const;

/** A landline (0351-1234567, 03511234567, with an optional extension) or a mobile number. */
export const CONTACT_PHONE_PATTERN = /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?)$/;

export const ORG_MESSAGES = {
  nameRequired: '请输入机构名称',
  orgTypeRequired: '请选择机构类型',
  regionRequired: '请选择所属地区',
  creditCode: '统一社会信用代码有误',
  phone: '联系电话格式有误（手机号或带区号的固定电话）',
  duplicate: '机构名称已存在',
  duplicateCreditCode: '统一社会信用代码已被其他机构使用',
  notFound: '机构不存在',
  stale: '该机构已被他人修改，请刷新后重试',
} as const;

// ── 企业信息 (enterprise information) ────────────────────────────────────────

/** The prompt above the form when the global prompt's 418 sent the user here (/system/companyInfo?type=1). */
export const COMPANY_INFO_PROMPT = '请先完善企业信息后再办理业务';

/** Fields an enterprise must fill before handling business; `missing` in the answer lists those still empty. */
export const ENTERPRISE_REQUIRED_FIELDS = [
  'legalPerson',
  'region',
  'address',
  'registeredCapital',
  'establishedAt',
] as const;
export type EnterpriseRequiredField = (typeof ENTERPRISE_REQUIRED_FIELDS)[number];
export const ENTERPRISE_FIELD_LABELS: Record<
  EnterpriseRequiredField | 'name' | 'creditCode' | 'enterpriseType',
  string
> = {
  name: '企业名称',
  creditCode: '统一社会信用代码',
  enterpriseType: '企业类型',
  legalPerson: '法定代表人',
  region: '所在地区',
  address: '注册地址',
  registeredCapital: '注册资本（元）',
  establishedAt: '成立日期',
};
/**
 * The required fields an enterprise record leaves empty (spec §2 418: an enterprise whose information is incomplete
 * is sent to complete it before handling business).
 */
export function missingEnterpriseFields(
  e: Partial<Record<EnterpriseRequiredField, unknown>>,
): EnterpriseRequiredField[] {
  return ENTERPRISE_REQUIRED_FIELDS.filter((f) => {
    const v = e[f];
    return v === null || v === undefined || String(v).trim() === '';
  });
}

/** The 418 message: what is missing, by label. */
export function companyInfoRequiredMessage(missing: readonly EnterpriseRequiredField[]): string {
  const names = missing.map((f) => ENTERPRISE_FIELD_LABELS[f]).join('、');
  return `请先完善企业信息（尚未填写：${names}），完善后即可办理业务`;
}

export const ENTERPRISE_SORTS = ['name', 'creditCode', 'updatedAt'] as const;
/** Registered capital in yuan: up to 14 integer digits and 2 decimals. */
export const CAPITAL_PATTERN = /^\d{1,14}(\.\d{1,2})?$/;

export const ENTERPRISE_MESSAGES = {
  notLinked: '当前账号未关联企业',
  notFound: '企业不存在',
  otherEnterprise: '无权查看或修改其他企业的信息',
  stale: '企业信息已被他人修改，请刷新后重试',
  capital: '注册资本格式有误（元，最多两位小数）',
  establishedFuture: '成立日期不能晚于今天',
  unchanged: '信息与当前公示的信息相同，无需提交',
  changeNotFound: '该变更申请不存在',
  changeDecided: '该变更申请已审核，请刷新后查看',
  changeStale: '该变更申请已被企业修改，请刷新后重新审核',
  changeOutdated: '企业信息在申请提交后已被修改，无法直接通过，请驳回并由企业重新提交',
  reasonRequired: '请填写审核建议',
  submitted: '已提交，待管理员审核通过后生效',
} as const;

/**
 * Changes an enterprise makes to its own information wait for an administrator (they never reach the public record
 * by themselves): pending (待审核) → approved (已通过, the values are applied) or rejected (已驳回, with the reason).
 */
export const ENTERPRISE_CHANGE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type EnterpriseChangeStatus = (typeof ENTERPRISE_CHANGE_STATUSES)[number];
export const ENTERPRISE_CHANGE_STATUS_LABELS: Record<EnterpriseChangeStatus, string> = {
  pending: '待审核',
  approved: '已通过',
  rejected: '已驳回',
};
export const ENTERPRISE_CHANGE_REASON_MAX = 500;

// ── 办理事项 (service matters) ───────────────────────────────────────────────

export const SERVICE_ITEM_LIMITS = {
  name: 50,
  description: 500,
  materials: 20,
  material: 100,
  timeLimitDays: 365,
} as const;
export const SERVICE_ITEM_SORTS = ['sort', 'name', 'timeLimitDays', 'updatedAt'] as const;

export const SERVICE_ITEM_MESSAGES = {
  nameRequired: '请输入事项名称',
  systemRequired: '请选择所属业务系统',
  systemNotFound: '业务系统不存在',
  duplicate: '事项名称已存在',
  nodeNotInSystem: '办理节点不属于所选业务系统',
  notFound: '办理事项不存在',
  stale: '该事项已被他人修改，请刷新后重试',
} as const;

/**
 * Where an enabled service matter leads (「去办理」): the page of the node it is handled in, as the sidebar opens it;
 * without a node (or with a directory), choosing the system to handle it in.
 */
export function serviceItemLink(
  systemCoding: string,
  node: { gnCoding: string; nodeProperties: string } | null = null,
  isAdmin = false,
): string {
  if (node && node.nodeProperties !== 'directory' && NODE_PROPERTIES.some((p) => p.value === node.nodeProperties)) {
    return routeForNode(node, systemCoding, isAdmin);
  }
  return `/judge?${new URLSearchParams({ systemCoding }).toString()}`;
}
