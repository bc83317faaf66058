import {
  ACCOUNT_MESSAGES,
  ACCOUNT_STATUS_LABELS,
  ACCOUNT_STATUSES,
  type AccountRow,
  type AccountStatus,
  accountPasswordProblem,
  isValidMobile,
  type LoginRoleType,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormRule, Segmented, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { currentUserQuery } from '../../api/auth';
import {
  dateTimeColumn,
  ForbiddenCard,
  orDash,
  PageFrame,
  SelectFilter,
  type Sorted,
  sortable,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { getUserInfo } from '../../lib/session';

/**
 * What the account administration pages (adminInfo, personnelInfo, managementInfo, companyInfo, transact) share beyond
 * the administration kit (components/admin): their frame, who the user is, account rules and the status tag.
 */

export const SYSTEM_SECTION = '系统管理';

/** The administration pages and who may open them; the bar above each page links the ones the user may open. */
export const ACCOUNT_PAGES: { path: string; title: string; roles: readonly LoginRoleType[] }[] = [
  { path: '/system/adminInfo', title: '管理员信息', roles: ['M'] },
  { path: '/system/personnelInfo', title: '人员信息', roles: ['M', 'U'] },
  { path: '/system/managementInfo', title: '管理机构', roles: ['M', 'D'] },
  { path: '/system/companyInfo', title: '企业信息', roles: ['M', 'U'] },
  { path: '/system/transact', title: '办理事项', roles: ['M', 'D', 'U'] },
];

/** Breadcrumb 首页 / 系统管理 / {title}, and the sibling pages the user may open, above the page's cards. */
export function AccountsLayout({ title, children }: { title: string; children: ReactNode }) {
  const role = useLoginRoleType();
  const navigate = useNavigate();
  const pages = ACCOUNT_PAGES.filter((p) => role && p.roles.includes(role));
  const current = ACCOUNT_PAGES.find((p) => p.title === title)?.path;
  return (
    <PageFrame
      section={{ title: SYSTEM_SECTION }}
      title={title}
      nav={
        pages.length > 1 && current && pages.some((p) => p.path === current) ? (
          <Segmented
            style={{ marginBottom: 16 }}
            value={current}
            onChange={(path) => navigate(path)}
            options={pages.map((p) => ({ value: p.path, label: p.title }))}
            data-testid="accounts-nav"
          />
        ) : null
      }
    >
      {children}
    </PageFrame>
  );
}

/** 403 for an administration page the signed-in user may not open. */
export function AccountsForbidden({ what }: { what: string }) {
  return <ForbiddenCard reason={`您没有${what}的权限`} />;
}

/** The signed-in user's login role type: as the server confirmed it, else as stored at sign-in. */
export function useLoginRoleType(): LoginRoleType | null {
  const { data } = useQuery(currentUserQuery);
  return data?.userInfo.loginRoleType ?? getUserInfo()?.loginRoleType ?? null;
}

/** The signed-in user's id (to keep administrators from disabling themselves). */
export function useCurrentUserId(): string | null {
  const { data } = useQuery(currentUserQuery);
  return data?.userInfo.id ?? getUserInfo()?.id ?? null;
}

export const passwordRules: FormRule[] = [
  { required: true, message: ACCOUNT_MESSAGES.passwordRequired },
  {
    validator: async (_, v: string | undefined) => {
      const problem = v ? accountPasswordProblem(v) : null;
      if (problem) throw new Error(problem);
    },
  },
];

/** The second password field must repeat the first. */
export const confirmRules = (field: string): FormRule[] => [
  { required: true, message: '请再次输入密码' },
  ({ getFieldValue }) => ({
    validator: async (_, v: string | undefined) => {
      if (v && v !== getFieldValue(field)) throw new Error('两次输入的密码不一致');
    },
  }),
];

export const mobileRules: FormRule[] = [
  { required: true, whitespace: true, message: ACCOUNT_MESSAGES.phoneRequired },
  {
    validator: async (_, v: string | undefined) => {
      if (v?.trim() && !isValidMobile(v.trim())) throw new Error(ACCOUNT_MESSAGES.phoneFormat);
    },
  },
];

export function StatusTag({
  status,
  mustChangePassword,
  loginLocks = [],
}: {
  status: AccountStatus;
  mustChangePassword?: boolean;
  loginLocks?: { ip: string; lockedUntil: string }[];
}) {
  return (
    <span data-testid="account-status">
      <Tag color={status === 'active' ? 'success' : 'default'}>{ACCOUNT_STATUS_LABELS[status] ?? status}</Tag>
      {mustChangePassword ? <Tag color="warning">待改密</Tag> : null}
      {loginLocks.length ? (
        <Tooltip title={loginLocks.map((l) => `来自 ${l.ip} 的登录锁定至 ${formatDateTime(l.lockedUntil)}`).join('；')}>
          <Tag color="error" data-testid="account-locked">
            已锁定
          </Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}

/** 状态 of an account list: every account status; clearing it shows all. */
export function AccountStatusFilter({
  value,
  onChange,
}: {
  value: AccountStatus | undefined;
  onChange: (status: AccountStatus | undefined) => void;
}) {
  return (
    <SelectFilter<AccountStatus>
      placeholder="全部状态"
      value={value}
      onChange={onChange}
      options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: ACCOUNT_STATUS_LABELS[s] }))}
      testId="filter-status"
    />
  );
}

/**
 * The columns every account list shows the same way (账号, 姓名, 手机号码, 状态, 创建时间), sortable on the server where
 * `sortableIf` holds; a page puts its own columns between them.
 */
export function accountColumns(filters: Sorted, sortableIf = true) {
  return {
    account: { title: '账号', dataIndex: 'account', width: 160, ...sortable(filters, 'account', sortableIf) },
    userName: { title: '姓名', dataIndex: 'userName', width: 130, ...sortable(filters, 'userName', sortableIf) },
    phone: { title: '手机号码', dataIndex: 'phone', width: 140, render: orDash },
    status: {
      title: '状态',
      dataIndex: 'status',
      width: 140,
      render: (s: AccountStatus, row: AccountRow) => (
        <StatusTag status={s} mustChangePassword={row.mustChangePassword} loginLocks={row.loginLocks} />
      ),
    },
    createdAt: dateTimeColumn('创建时间', 'createdAt', filters, sortableIf),
  };
}
