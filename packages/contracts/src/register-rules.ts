import { accountPasswordProblem } from './accounts-constants';
import { type CreditCodeProblem, creditCodeProblem, type IdNumberProblem, idNumberProblem } from './identifiers';

/**
 * Self-registration (issue 15): enterprise registration reviewed by administrators, activation, real-name registration
 * of individuals, sign-in by unified social credit code. Zod-free so the web bundles it alone; the schemas in
 * register.ts and the server use the same rules.
 */

/** The engine node whose records are the enterprise registrations under review (in the platform system PTGL). */
export const REGISTRATION_NODE = 'PTGL_QYZC';
export const REGISTRATION_SYSTEM = 'PTGL';

export const REGISTRATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const REGISTRATION_STATUS_LABELS: Record<RegistrationStatus, string> = {
  pending: '审核中',
  approved: '审核通过',
  rejected: '已驳回',
};

export const REGISTER_MESSAGES = {
  creditCodeRequired: '请输入统一社会信用代码',
  creditCodeFormat: '统一社会信用代码应为 18 位，由数字和大写字母组成（不含 I、O、S、V、Z）',
  creditCodeCheckDigit: '统一社会信用代码校验位不正确，请核对后重新输入',
  creditCodeTaken: '该统一社会信用代码已注册或已有注册申请在审核中，如需帮助请联系平台',
  enterpriseNameRequired: '请输入企业名称',
  enterpriseTypeRequired: '请选择企业类型',
  enterpriseTypeUnknown: '企业类型不在可选范围内',
  regionRequired: '请选择所在地区',
  addressRequired: '请输入详细地址',
  legalPersonRequired: '请输入法定代表人姓名',
  legalPhoneRequired: '请输入法定代表人手机号',
  phoneFormat: '手机号码应为 1 开头的 11 位数字',
  contactRequired: '请输入联系人姓名',
  contactPhoneRequired: '请输入联系人手机号',
  accountTaken: '该账号已被使用，请换一个',
  passwordSameAsAccount: '密码不能与账号相同',
  proofRequired: '请先获取并填写短信验证码',
  licenceRequired: '请上传营业执照',
  licenceInvalid: '营业执照文件无效，请重新上传',
  applicationNotFound: '未找到该申请，请核对统一社会信用代码与申请编号',
  activationMismatch:
    '信息核验未通过：请核对统一社会信用代码、法定代表人姓名与手机号，并确认注册申请已审核通过且尚未激活',
  activated: '企业账号已激活，请使用账号或统一社会信用代码登录',
  notActivated: '企业账号尚未激活，请先在「企业激活」页面完成激活后再登录',
  nodeMissing: '企业注册审核流程尚未配置，请联系平台管理员',
  realNameRequired: '请输入真实姓名',
  idNumberRequired: '请输入身份证号码',
  idNumberFormat: '身份证号码应为 18 位（前 17 位为数字，末位为数字或 X）',
  idNumberBirthDate: '身份证号码中的出生日期不是有效日期，请核对',
  idNumberFutureBirth: '身份证号码中的出生日期晚于今天，请核对',
  idNumberCheckDigit: '身份证号码校验位不正确，请核对后重新输入',
  idNumberTaken: '该身份证号码已完成实名注册，请直接登录或找回密码',
  overrideReasonRequired: '统一社会信用代码校验位不符时，须填写登记原因（如试点地区早期赋码）',
} as const;

const M = REGISTER_MESSAGES;

export function creditCodeMessage(p: CreditCodeProblem): string {
  return p === 'format' ? M.creditCodeFormat : M.creditCodeCheckDigit;
}

/** The message for a credit code typed in (trimmed, upper-cased first), or null when it is valid. */
export function creditCodeInputProblem(code: string): string | null {
  const c = code.trim().toUpperCase();
  if (!c) return M.creditCodeRequired;
  const p = creditCodeProblem(c);
  return p ? creditCodeMessage(p) : null;
}

const ID_MESSAGES: Record<IdNumberProblem, string> = {
  format: M.idNumberFormat,
  birthDate: M.idNumberBirthDate,
  futureBirth: M.idNumberFutureBirth,
  checkDigit: M.idNumberCheckDigit,
};

/** The message for a resident ID number typed in (trimmed, upper-cased first), or null when it is valid. */
export function idNumberInputProblem(id: string, today?: string): string | null {
  const v = id.trim().toUpperCase();
  if (!v) return M.idNumberRequired;
  const p = idNumberProblem(v, today);
  return p ? ID_MESSAGES[p] : null;
}

/** The platform's password rule for a new account, and that it is not the account name (any case). */
export function registrationPasswordProblem(password: string, account: string): string | null {
  const p = accountPasswordProblem(password);
  if (p) return p;
  if (account && password.toLowerCase() === account.trim().toLowerCase()) return M.passwordSameAsAccount;
  return null;
}

/** An ID number shown anywhere: the first 3 and the last 4 characters, the rest as *. */
export function maskIdNumber(id: string): string {
  if (id.length <= 7) return '*'.repeat(id.length);
  return `${id.slice(0, 3)}${'*'.repeat(id.length - 7)}${id.slice(-4)}`;
}
