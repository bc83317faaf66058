import {
  ACCOUNT_MESSAGES,
  ACCOUNT_STATUS_LABELS,
  type AccountStatus,
  accountPasswordProblem,
  DEFAULT_HOME_URL,
  isValidMobile,
  type LoginRoleType,
  PAGE_SIZES,
  type SortOrder,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Breadcrumb,
  Button,
  Card,
  type FormInstance,
  type FormRule,
  Result,
  Segmented,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { isForbidden } from '../../api/accounts';
import { currentUserQuery } from '../../api/auth';
import { isApiError, reportApiError } from '../../api/request';
import { getUserInfo } from '../../app/session';
import { formatDateTime } from '../../lib/format';

/** Building blocks shared by the administration pages (adminInfo, personnelInfo, managementInfo, companyInfo, transact). */

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
    <div style={{ maxWidth: 1440, margin: '0 auto' }}>
      <Breadcrumb
        style={{ marginBottom: 16 }}
        items={[{ title: <Link to={DEFAULT_HOME_URL}>首页</Link> }, { title: SYSTEM_SECTION }, { title }]}
      />
      {pages.length > 1 && current && pages.some((p) => p.path === current) ? (
        <Segmented
          style={{ marginBottom: 16 }}
          value={current}
          onChange={(path) => navigate(path)}
          options={pages.map((p) => ({ value: p.path, label: p.title }))}
          data-testid="accounts-nav"
        />
      ) : null}
      {children}
    </div>
  );
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

/** 403 for a page the signed-in user may not open. */
export function ForbiddenCard({ what }: { what: string }) {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="403"
        title="403"
        subTitle={
          <Typography.Text type="secondary" data-testid="forbidden">
            无权访问：您没有{what}的权限
          </Typography.Text>
        }
        extra={
          <Button type="primary" onClick={() => navigate(DEFAULT_HOME_URL)}>
            返回首页
          </Button>
        }
      />
    </Card>
  );
}

/** A failed load: 403 as the forbidden card, anything else with the server's message. */
export function LoadFailure({ error, what }: { error: Error; what: string }) {
  if (isForbidden(error)) return <ForbiddenCard what={what} />;
  return <Alert type="error" showIcon title={`${what}加载失败`} description={error.message} data-testid="load-error" />;
}

/**
 * A failed save: field errors (400, or a 409 that names its field) go onto the form's fields; anything else is
 * reported the usual way. Returns the lines for the form's error banner.
 */
export function applySaveError(err: unknown, form?: FormInstance, fields: readonly string[] = []): string[] {
  if (!isApiError(err)) return ['保存失败，请稍后重试'];
  const fe = (err.data as { fieldErrors?: Record<string, string[] | string> } | null)?.fieldErrors;
  const known = new Set(fields);
  const onFields: { name: (string | number)[]; errors: string[] }[] = [];
  const other: string[] = [];
  if (fe && typeof fe === 'object' && (err.status === 400 || err.status === 409)) {
    for (const [key, msgs] of Object.entries(fe)) {
      const list = Array.isArray(msgs) ? msgs.map(String) : [String(msgs)];
      const name = key.split('.').map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
      if (known.has(String(name[0]))) onFields.push({ name, errors: list });
      else other.push(...list);
    }
  }
  if (form && onFields.length) {
    form.setFields(onFields);
    return other;
  }
  // not about a field: the global prompt shows it (and session ends are handled there)
  reportApiError(err);
  return [err.message];
}

export function SaveErrorAlert({ lines, testId }: { lines: string[]; testId: string }) {
  if (!lines.length) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid={testId}
      title={lines.length === 1 ? lines[0] : '保存失败'}
      description={lines.length > 1 ? lines.join('；') : undefined}
    />
  );
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

export interface Paged {
  pageNum: number;
  pageSize: number;
}

/** antd pagination for a server-paged list (sizes 10/20/30/50, total, jumper). */
export function pagination<F extends Paged>(filters: F, total: number, setFilters: (f: (prev: F) => F) => void) {
  return {
    current: filters.pageNum,
    pageSize: filters.pageSize,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (n: number) => `共 ${n} 条`,
    onChange: (pageNum: number, pageSize: number) =>
      setFilters((f) => ({ ...f, pageNum: pageSize !== f.pageSize ? 1 : pageNum, pageSize })),
  };
}

/** A table header click → the server's whitelisted sort field and order (none: the default order). */
export function sortOf<T>(
  sorter: SorterResult<T> | SorterResult<T>[],
  allowed: readonly string[],
): { sortField?: string; order?: SortOrder } {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  const field = typeof s?.field === 'string' ? s.field : undefined;
  if (!s?.order || !field || !allowed.includes(field)) return { sortField: undefined, order: undefined };
  return { sortField: field, order: s.order === 'ascend' ? 'asc' : 'desc' };
}

/** The column's sort arrow as the current filters say. */
export const sortState = (filters: { sortField?: string; order?: SortOrder }, field: string) =>
  filters.sortField === field ? (filters.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;
