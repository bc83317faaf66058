import {
  ACCOUNT_MESSAGES as A,
  ACCOUNT_PATTERN,
  ACCOUNT_SORTS,
  ACCOUNT_STATUSES,
  ADMIN_ACCOUNT_TYPES,
  accountPasswordProblem,
  CAPITAL_PATTERN,
  CONTACT_PHONE_PATTERN,
  ENTERPRISE_MESSAGES as E,
  ENTERPRISE_CHANGE_REASON_MAX,
  ENTERPRISE_CHANGE_STATUSES,
  ENTERPRISE_SORTS,
  SERVICE_ITEM_LIMITS as L,
  ORG_MESSAGES as O,
  ORG_SORTS,
  ORG_TYPES,
  SERVICE_ITEM_MESSAGES as S,
  SERVICE_ITEM_SORTS,
  SORT_ORDERS,
} from './accounts-constants';
import { PAGE_SIZES } from './constants';
import { appToday, isValidDate } from './dates';
import { isValidCreditCode, isValidMobile } from './identifiers';
import { REGIONS } from './portal-constants';
import { CODE_PATTERN } from './shell-constants';
import { z } from './zod';

/**
 * Schemas of the administration pages: accounts (adminInfo, personnelInfo), organisations (managementInfo),
 * enterprise information (companyInfo) and service matters (transact).
 */

const uuid = (message = '记录不存在') => z.string().uuid(message);
/** Input text: a NUL character can never be stored (PostgreSQL refuses it), so it is a 400 here. */
const text = (params?: { error: string }) =>
  z.string(params).refine((v) => !v.includes('\u0000'), '不能包含空字符（\\0）');
const pageNum = z.coerce.number().int().min(1).max(100_000).default(1);
const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
  .default(10);
const keyword = text().trim().max(50, '关键字不能超过50个字符').optional();
const order = z.enum(SORT_ORDERS, '排序方向只能是 asc 或 desc');
/** `true` / `false` in a query string. */
const queryBool = z
  .enum(['true', 'false'], '只能是 true 或 false')
  .transform((v) => v === 'true')
  .optional();
const required = (max: number, message: string) =>
  text({ error: message }).trim().min(1, message).max(max, `最多 ${max} 个字符`);
/** An optional text: blank or null is stored as null. */
const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, `最多 ${max} 个字符`)
    .nullish()
    .transform((v) => (v ? v : null));
const isoDateTime = z.string().datetime({ offset: true, message: '时间格式有误' });
const dateStr = z.string({ error: '请选择日期' }).refine(isValidDate, '日期格式有误，请重新输入');

// ── accounts ────────────────────────────────────────────────────────────────

const accountField = z
  .string({ error: A.accountRequired })
  .trim()
  .min(1, A.accountRequired)
  .regex(ACCOUNT_PATTERN, A.accountFormat);
const userNameField = required(32, A.userNameRequired);
const phoneField = z
  .string({ error: A.phoneRequired })
  .trim()
  .min(1, A.phoneRequired)
  .refine(isValidMobile, A.phoneFormat);
const passwordField = z
  .string({ error: A.passwordRequired })
  .min(1, A.passwordRequired)
  .superRefine((pw, ctx) => {
    const problem = accountPasswordProblem(pw);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const accountRoleRefSchema = z.object({ id: z.string(), code: z.string(), name: z.string() });
export type AccountRoleRef = z.infer<typeof accountRoleRefSchema>;

export const accountRowSchema = z.object({
  id: z.string(),
  account: z.string(),
  userName: z.string(),
  phone: z.string().nullable(),
  loginRoleType: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  mustChangePassword: z.boolean(),
  /** Addresses from which sign-in is locked now (too many failures), with the time each lock ends. */
  loginLocks: z.array(z.object({ ip: z.string(), lockedUntil: z.string() })),
  enterpriseId: z.string().nullable(),
  enterpriseName: z.string().nullable(),
  /** custom roles assigned (U accounts) */
  roles: z.array(accountRoleRefSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AccountRow = z.infer<typeof accountRowSchema>;

const accountListBase = {
  keyword,
  status: z.enum(ACCOUNT_STATUSES, '状态不在可选范围内').optional(),
  sortField: z.enum(ACCOUNT_SORTS, '不支持按该字段排序').default('createdAt'),
  order: order.default('desc'),
  pageNum,
  pageSize,
};
export const adminAccountListQuerySchema = z.object({
  ...accountListBase,
  loginRoleType: z.enum(ADMIN_ACCOUNT_TYPES, '账号类型只能是管理员或开发者').optional(),
});
export type AdminAccountListQuery = z.input<typeof adminAccountListQuerySchema>;
export const personnelListQuerySchema = z.object({
  ...accountListBase,
  enterpriseId: uuid(E.notFound).optional(),
});
export type PersonnelListQuery = z.input<typeof personnelListQuerySchema>;

const accountCreateBase = {
  account: accountField,
  userName: userNameField,
  phone: phoneField,
  password: passwordField,
};
export const adminAccountCreateSchema = z.object({
  ...accountCreateBase,
  loginRoleType: z.enum(ADMIN_ACCOUNT_TYPES, '请选择账号类型（管理员或开发者）'),
});
export type AdminAccountCreate = z.input<typeof adminAccountCreateSchema>;
export const personnelCreateSchema = z.object({
  ...accountCreateBase,
  enterpriseId: z.string({ error: A.enterpriseRequired }).uuid(A.enterpriseRequired),
});
export type PersonnelCreate = z.input<typeof personnelCreateSchema>;

/** Edit name and phone; `updatedAt` is the value the edit was based on (a stale one is refused with 409). */
export const accountUpdateSchema = z.object({
  id: uuid(A.notFound),
  updatedAt: isoDateTime,
  userName: userNameField,
  phone: phoneField,
});
export type AccountUpdate = z.input<typeof accountUpdateSchema>;
export const accountStatusSchema = z.object({
  id: uuid(A.notFound),
  status: z.enum(['active', 'disabled'], '状态只能是 active 或 disabled'),
});
export type AccountStatusChange = z.input<typeof accountStatusSchema>;
export const accountPasswordSchema = z.object({ id: uuid(A.notFound), password: passwordField });
export type AccountPasswordReset = z.input<typeof accountPasswordSchema>;
export const accountIdQuerySchema = z.object({ id: uuid(A.notFound) });
export const accountRolesSchema = z.object({
  /** every custom role an administrator may assign */
  roles: z.array(accountRoleRefSchema),
  roleIds: z.array(z.string()),
});
export type AccountRoles = z.infer<typeof accountRolesSchema>;
export const saveAccountRolesSchema = z.object({
  id: uuid(A.notFound),
  roleIds: z.array(uuid('角色不存在')).max(50, '最多 50 个角色'),
});
export type SaveAccountRoles = z.input<typeof saveAccountRolesSchema>;

// ── 管理机构 ────────────────────────────────────────────────────────────────

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgType: z.enum(ORG_TYPES),
  region: z.string(),
  creditCode: z.string().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  enabled: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const organizationInputSchema = z.object({
  name: required(100, O.nameRequired),
  orgType: z.enum(ORG_TYPES, O.orgTypeRequired),
  region: z.enum(REGIONS, O.regionRequired),
  creditCode: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null))
    .refine((v) => v === null || isValidCreditCode(v), O.creditCode),
  contact: optionalText(50),
  phone: optionalText(30).refine((v) => v === null || CONTACT_PHONE_PATTERN.test(v), O.phone),
  address: optionalText(200),
  enabled: z.boolean().default(true),
});
export type OrganizationInput = z.input<typeof organizationInputSchema>;
export const organizationUpdateSchema = organizationInputSchema.extend({
  id: uuid(O.notFound),
  version: z.number({ error: '缺少版本号' }).int().min(0),
});
export type OrganizationUpdate = z.input<typeof organizationUpdateSchema>;
export const organizationListQuerySchema = z.object({
  keyword,
  orgType: z.enum(ORG_TYPES, '机构类型不在可选范围内').optional(),
  region: z.enum(REGIONS, '地区不在可选范围内').optional(),
  enabled: queryBool,
  sortField: z.enum(ORG_SORTS, '不支持按该字段排序').default('createdAt'),
  order: order.default('asc'),
  pageNum,
  pageSize,
});
export type OrganizationListQuery = z.input<typeof organizationListQuerySchema>;
export const organizationIdQuerySchema = z.object({ id: uuid(O.notFound) });

// ── 企业信息 ────────────────────────────────────────────────────────────────

/** One changed field of an enterprise change: what it was (the approved value) and what the enterprise asks for. */
export const enterpriseChangeItemSchema = z.object({
  field: z.string(),
  label: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export type EnterpriseChangeItem = z.infer<typeof enterpriseChangeItemSchema>;

export const enterpriseChangeSchema = z.object({
  id: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  creditCode: z.string(),
  status: z.enum(ENTERPRISE_CHANGE_STATUSES),
  items: z.array(enterpriseChangeItemSchema),
  submittedBy: z.string(),
  submittedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** the reviewer's reason (a rejection always has one) */
  reason: z.string().nullable(),
  /** sent back with a decision: a change the enterprise revised meanwhile is a 409 */
  version: z.number().int(),
});
export type EnterpriseChange = z.infer<typeof enterpriseChangeSchema>;

export const enterpriseInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  creditCode: z.string(),
  enterpriseType: z.string(),
  legalPerson: z.string().nullable(),
  region: z.string().nullable(),
  address: z.string().nullable(),
  /** yuan, decimal string */
  registeredCapital: z.string().nullable(),
  establishedAt: z.string().nullable(),
  creditGrade: z.string().nullable(),
  staffCount: z.number().int(),
  /** the value an edit must send back (optimistic check) */
  updatedAt: z.string(),
  /** required fields still empty (ENTERPRISE_REQUIRED_FIELDS) */
  missing: z.array(z.string()),
  /** the enterprise's latest change: pending, or the last one decided (so a rejection and its reason show) */
  change: enterpriseChangeSchema.nullable(),
});
export type EnterpriseInfo = z.infer<typeof enterpriseInfoSchema>;
export const enterpriseInfoQuerySchema = z.object({ id: uuid(E.notFound).optional() });
export const enterpriseInfoUpdateSchema = z.object({
  id: uuid(E.notFound),
  updatedAt: isoDateTime,
  legalPerson: required(50, '请输入法定代表人'),
  region: z.enum(REGIONS, '请选择所在地区'),
  address: required(200, '请输入注册地址'),
  registeredCapital: z
    .union([z.string(), z.number()], { error: '请输入注册资本' })
    .transform((v) => String(v).trim())
    .refine((v) => v.length > 0, '请输入注册资本')
    .refine((v) => v.length === 0 || CAPITAL_PATTERN.test(v), E.capital),
  // today in the platform's zone (APP_TZ), whatever the server's own
  establishedAt: dateStr.refine((d) => d <= appToday(), E.establishedFuture),
});
export type EnterpriseInfoUpdate = z.input<typeof enterpriseInfoUpdateSchema>;
export const enterpriseListQuerySchema = z.object({
  keyword,
  enterpriseType: text().trim().max(40).optional(),
  region: z.enum(REGIONS, '地区不在可选范围内').optional(),
  sortField: z.enum(ENTERPRISE_SORTS, '不支持按该字段排序').default('name'),
  order: order.default('asc'),
  pageNum,
  pageSize,
});
export type EnterpriseListQuery = z.input<typeof enterpriseListQuerySchema>;
export const enterpriseListItemSchema = enterpriseInfoSchema
  .omit({ address: true, registeredCapital: true, change: true })
  .extend({ pendingChange: z.boolean() });
export type EnterpriseListItem = z.infer<typeof enterpriseListItemSchema>;

export const enterpriseChangeListQuerySchema = z.object({
  status: z.enum(ENTERPRISE_CHANGE_STATUSES, '状态不在可选范围内').default('pending'),
  keyword,
  pageNum,
  pageSize,
});
export type EnterpriseChangeListQuery = z.input<typeof enterpriseChangeListQuerySchema>;

/** 通过 (pass true) or 驳回 (pass false, with the reason). */
export const enterpriseChangeAuditSchema = z
  .object({
    id: uuid(E.changeNotFound),
    version: z.number({ error: '缺少版本号，请刷新后重试' }).int().min(1),
    pass: z.boolean({ error: '请选择通过或驳回' }),
    reason: text()
      .trim()
      .max(ENTERPRISE_CHANGE_REASON_MAX, `审核建议最多 ${ENTERPRISE_CHANGE_REASON_MAX} 个字符`)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .refine((v) => v.pass || !!v.reason, { message: E.reasonRequired, path: ['reason'] });
export type EnterpriseChangeAudit = z.input<typeof enterpriseChangeAuditSchema>;

// ── 办理事项 ────────────────────────────────────────────────────────────────

export const serviceItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  systemCoding: z.string(),
  systemName: z.string().nullable(),
  description: z.string(),
  materials: z.array(z.string()),
  timeLimitDays: z.number().int(),
  enabled: z.boolean(),
  sort: z.number().int(),
  version: z.number().int(),
  updatedAt: z.string(),
  /** the node the item is handled in (null: the system as a whole) and its title */
  gnCoding: z.string().nullable(),
  nodeTitle: z.string().nullable(),
  /** where 「去办理」 leads: the node's page, or /judge?systemCoding=… */
  link: z.string(),
});
export type ServiceItem = z.infer<typeof serviceItemSchema>;
export const serviceItemInputSchema = z.object({
  name: required(L.name, S.nameRequired),
  systemCoding: z.string({ error: S.systemRequired }).trim().regex(CODE_PATTERN, S.systemRequired),
  /** the node of the system the item is handled in; empty: the system chooser */
  gnCoding: z
    .string()
    .trim()
    .regex(CODE_PATTERN, '办理节点编码格式有误')
    .nullish()
    .transform((v) => v || null),
  description: text()
    .max(L.description, `事项说明最多 ${L.description} 个字符`)
    .nullish()
    .transform((v) => (v ?? '').trim()),
  materials: z
    .array(text().trim().min(1, '材料名称不能为空').max(L.material, `材料名称最多 ${L.material} 个字符`))
    .max(L.materials, `最多 ${L.materials} 项材料`)
    .default([]),
  timeLimitDays: z
    .number({ error: '办理时限为 0 到 365 的整数（天）' })
    .int('办理时限为 0 到 365 的整数（天）')
    .min(0, '办理时限为 0 到 365 的整数（天）')
    .max(L.timeLimitDays, '办理时限为 0 到 365 的整数（天）'),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(0).max(9999).default(0),
});
export type ServiceItemInput = z.input<typeof serviceItemInputSchema>;
export const serviceItemUpdateSchema = serviceItemInputSchema.extend({
  id: uuid(S.notFound),
  version: z.number({ error: '缺少版本号' }).int().min(0),
});
export type ServiceItemUpdate = z.input<typeof serviceItemUpdateSchema>;
export const serviceItemIdQuerySchema = z.object({ id: uuid(S.notFound) });
export const serviceItemListQuerySchema = z.object({
  keyword,
  systemCoding: z.string().trim().regex(CODE_PATTERN, '系统编码格式有误').optional(),
  /** administrators only; everyone else sees enabled items */
  enabled: queryBool,
  sortField: z.enum(SERVICE_ITEM_SORTS, '不支持按该字段排序').default('sort'),
  order: order.default('asc'),
  pageNum,
  pageSize,
});
export type ServiceItemListQuery = z.input<typeof serviceItemListQuerySchema>;
