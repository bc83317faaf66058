import type {
  AccountStatus,
  AccountUpdate,
  AdminAccountCreate,
  AdminAccountListQuery,
  ApiData,
  ApiName,
  ApiQuery,
  EnterpriseChangeAudit,
  EnterpriseChangeListQuery,
  EnterpriseInfoUpdate,
  EnterpriseListQuery,
  OrganizationInput,
  OrganizationListQuery,
  OrganizationUpdate,
  PersonnelCreate,
  PersonnelListQuery,
  ServiceItemInput,
  ServiceItemListQuery,
  ServiceItemUpdate,
} from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type CallOptions, call } from './call';
import { isApiError, isForbidden, reportApiError } from './request';

/**
 * The administration pages' endpoints (adminInfo, personnelInfo, managementInfo, companyInfo, transact).
 * Loads are silent about 403 (the page shows it) and report everything else the usual way; saves are silent so that
 * forms can put field errors on their fields (they report the rest themselves). Shapes are the contract's
 * (packages/contracts/src/accounts.ts), through the typed `call`.
 */

export type { Page } from '@ks/contracts';

/** A load whose 403 the page shows itself; other failures get the usual handling. */
function load<N extends ApiName>(name: N, params?: ApiQuery<N>): Promise<ApiData<N>> {
  return call(name, { params, silent: true }).catch((err: unknown) => {
    if (isApiError(err) && !isForbidden(err)) reportApiError(err);
    throw err;
  });
}

const save = <N extends ApiName>(name: N, data: CallOptions<N>['data']) => call(name, { data, silent: true });

/** Drops empty filter values so that the query string carries only what was chosen. */
function clean<T extends object>(f: T): T {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}

// ── accounts ────────────────────────────────────────────────────────────────

export const ACCOUNTS_KEY = ['accounts'] as const;

export const adminAccountsQuery = (f: AdminAccountListQuery) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'admins', clean(f)],
    queryFn: () => load('adminAccountList', clean(f)),
    placeholderData: keepPreviousData,
  });

export const personnelQuery = (f: PersonnelListQuery) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'personnel', clean(f)],
    queryFn: () => load('personnelList', clean(f)),
    placeholderData: keepPreviousData,
  });

export const accountRolesQuery = (id: string) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'roles', id],
    queryFn: () => load('accountRoles', { id }),
    staleTime: 0,
  });

export const createAdminAccount = (body: AdminAccountCreate) => save('adminAccountCreate', body);
export const createPersonnel = (body: PersonnelCreate) => save('personnelCreate', body);
export const updateAccount = (body: AccountUpdate) => save('accountUpdate', body);
export const resetAccountPassword = (id: string, password: string) => save('accountPassword', { id, password });
export const saveAccountRoles = (id: string, roleIds: string[]) => save('saveAccountRoles', { id, roleIds });

/** Lift the account's sign-in locks (not silent: a refusal is shown in the global prompt). */
export const unlockAccount = (id: string) => call('accountUnlock', { data: { id } });

/** Not silent: a refusal (e.g. disabling oneself) is shown in the global prompt. */
export const setAccountStatus = (id: string, status: Exclude<AccountStatus, 'inactive'>) =>
  call('accountStatus', { data: { id, status } });

// ── 管理机构 ────────────────────────────────────────────────────────────────

export const ORGANIZATIONS_KEY = ['organizations'] as const;

export const organizationsQuery = (f: OrganizationListQuery) =>
  queryOptions({
    queryKey: [...ORGANIZATIONS_KEY, clean(f)],
    queryFn: () => load('organizationList', clean(f)),
    placeholderData: keepPreviousData,
  });

export const createOrganization = (body: OrganizationInput) => save('organizationCreate', body);
export const updateOrganization = (body: OrganizationUpdate) => save('organizationUpdate', body);
export const deleteOrganization = (id: string) => call('organizationDelete', { params: { id } });

// ── 企业信息 ────────────────────────────────────────────────────────────────

export const ENTERPRISES_KEY = ['enterpriseInfo'] as const;

/** Without an id: the signed-in user's own enterprise. */
export const enterpriseInfoQuery = (id?: string) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'detail', id ?? 'own'],
    queryFn: () => load('enterpriseInfo', id ? { id } : {}),
    staleTime: 0,
  });

export const enterpriseListQuery = (f: EnterpriseListQuery) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'list', clean(f)],
    queryFn: () => load('enterpriseInfoList', clean(f)),
    placeholderData: keepPreviousData,
  });

export const updateEnterpriseInfo = (body: EnterpriseInfoUpdate) => save('enterpriseInfoUpdate', body);

/** Enterprises' information changes (administrators): pending first-come-first-served, or the decided ones. */
export const enterpriseChangeListQuery = (f: EnterpriseChangeListQuery) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'changes', clean(f)],
    queryFn: () => load('enterpriseChangeList', clean(f)),
    placeholderData: keepPreviousData,
  });

/** 通过 / 驳回 (with the reason) of a change, naming the version the reviewer saw (409 when it moved). */
export const auditEnterpriseChange = (body: EnterpriseChangeAudit) => save('enterpriseChangeAudit', body);

/** Enterprise types, for the list filter (public). */
export const enterpriseTypesQuery = queryOptions({
  queryKey: ['enterpriseTypes'],
  queryFn: () => load('enterpriseTypes'),
  staleTime: 10 * 60_000,
});

// ── 办理事项 ────────────────────────────────────────────────────────────────

export const SERVICE_ITEMS_KEY = ['serviceItems'] as const;

export const serviceItemsQuery = (f: ServiceItemListQuery) =>
  queryOptions({
    queryKey: [...SERVICE_ITEMS_KEY, clean(f)],
    queryFn: () => load('serviceItemList', clean(f)),
    placeholderData: keepPreviousData,
  });

export const createServiceItem = (body: ServiceItemInput) => save('serviceItemCreate', body);
export const updateServiceItem = (body: ServiceItemUpdate) => save('serviceItemUpdate', body);
export const deleteServiceItem = (id: string) => call('serviceItemDelete', { params: { id } });

/** Every business system (administrators and developers), for choosing where a service matter is handled. */
export const businessSystemsQuery = queryOptions({
  queryKey: ['accounts', 'businessSystems'],
  queryFn: () => load('configSystemList'),
  staleTime: 60_000,
});
