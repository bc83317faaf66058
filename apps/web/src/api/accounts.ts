import type {
  AccountRoles,
  AccountRow,
  AccountStatus,
  AccountUpdate,
  AdminAccountCreate,
  AdminAccountListQuery,
  ConfigSystem,
  EnterpriseChange,
  EnterpriseChangeAudit,
  EnterpriseChangeListQuery,
  EnterpriseInfo,
  EnterpriseInfoUpdate,
  EnterpriseListItem,
  EnterpriseListQuery,
  Option,
  Organization,
  OrganizationInput,
  OrganizationListQuery,
  OrganizationUpdate,
  PersonnelCreate,
  PersonnelListQuery,
  ServiceItem,
  ServiceItemInput,
  ServiceItemListQuery,
  ServiceItemUpdate,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isApiError, type Params, reportApiError, request } from './request';

/**
 * The administration pages' endpoints (adminInfo, personnelInfo, managementInfo, companyInfo, transact).
 * Loads are silent about 403 (the page shows it) and report everything else the usual way; saves are silent so that
 * forms can put field errors on their fields (they report the rest themselves).
 */

export interface Page<T> {
  records: T[];
  total: number;
}

type PathDef = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string };

export const isForbidden = (err: unknown) => isApiError(err) && (err.status === 403 || err.code === 403);

/** A load whose 403 the page shows itself; other failures get the usual handling. */
function load<T>(def: PathDef, params?: object): Promise<T> {
  return request<T>({ url: def.path, method: def.method, params: params as Params, silent: true }).catch(
    (err: unknown) => {
      if (isApiError(err) && !isForbidden(err)) reportApiError(err);
      throw err;
    },
  );
}

const save = <T>(def: PathDef, data: unknown) => request<T>({ url: def.path, method: def.method, data, silent: true });

/** Drops empty filter values so that the query string carries only what was chosen. */
function clean<T extends object>(f: T): T {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}

// ── accounts ────────────────────────────────────────────────────────────────

export const ACCOUNTS_KEY = ['accounts'] as const;

export const adminAccountsQuery = (f: AdminAccountListQuery) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'admins', clean(f)],
    queryFn: () => load<Page<AccountRow>>(paths.adminAccountList, clean(f)),
    placeholderData: keepPreviousData,
  });

export const personnelQuery = (f: PersonnelListQuery) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'personnel', clean(f)],
    queryFn: () => load<Page<AccountRow>>(paths.personnelList, clean(f)),
    placeholderData: keepPreviousData,
  });

export const accountRolesQuery = (id: string) =>
  queryOptions({
    queryKey: [...ACCOUNTS_KEY, 'roles', id],
    queryFn: () => load<AccountRoles>(paths.accountRoles, { id }),
    staleTime: 0,
  });

export const createAdminAccount = (body: AdminAccountCreate) => save<AccountRow>(paths.adminAccountCreate, body);
export const createPersonnel = (body: PersonnelCreate) => save<AccountRow>(paths.personnelCreate, body);
export const updateAccount = (body: AccountUpdate) => save<AccountRow>(paths.accountUpdate, body);
export const resetAccountPassword = (id: string, password: string) =>
  save<AccountRow>(paths.accountPassword, { id, password });
export const saveAccountRoles = (id: string, roleIds: string[]) =>
  save<AccountRoles>(paths.saveAccountRoles, { id, roleIds });

/** Lift the account's sign-in locks (not silent: a refusal is shown in the global prompt). */
export const unlockAccount = (id: string) =>
  request<AccountRow>({ url: paths.accountUnlock.path, method: paths.accountUnlock.method, data: { id } });

/** Not silent: a refusal (e.g. disabling oneself) is shown in the global prompt. */
export const setAccountStatus = (id: string, status: AccountStatus) =>
  request<AccountRow>({ url: paths.accountStatus.path, method: paths.accountStatus.method, data: { id, status } });

// ── 管理机构 ────────────────────────────────────────────────────────────────

export const ORGANIZATIONS_KEY = ['organizations'] as const;

export const organizationsQuery = (f: OrganizationListQuery) =>
  queryOptions({
    queryKey: [...ORGANIZATIONS_KEY, clean(f)],
    queryFn: () => load<Page<Organization>>(paths.organizationList, clean(f)),
    placeholderData: keepPreviousData,
  });

export const createOrganization = (body: OrganizationInput) => save<Organization>(paths.organizationCreate, body);
export const updateOrganization = (body: OrganizationUpdate) => save<Organization>(paths.organizationUpdate, body);
export const deleteOrganization = (id: string) =>
  request<null>({ url: paths.organizationDelete.path, method: paths.organizationDelete.method, params: { id } });

// ── 企业信息 ────────────────────────────────────────────────────────────────

export const ENTERPRISES_KEY = ['enterpriseInfo'] as const;

/** Without an id: the signed-in user's own enterprise. */
export const enterpriseInfoQuery = (id?: string) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'detail', id ?? 'own'],
    queryFn: () => load<EnterpriseInfo>(paths.enterpriseInfo, id ? { id } : {}),
    staleTime: 0,
  });

export const enterpriseListQuery = (f: EnterpriseListQuery) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'list', clean(f)],
    queryFn: () => load<Page<EnterpriseListItem>>(paths.enterpriseInfoList, clean(f)),
    placeholderData: keepPreviousData,
  });

export const updateEnterpriseInfo = (body: EnterpriseInfoUpdate) =>
  save<EnterpriseInfo>(paths.enterpriseInfoUpdate, body);

/** Enterprises' information changes (administrators): pending first-come-first-served, or the decided ones. */
export const enterpriseChangeListQuery = (f: EnterpriseChangeListQuery) =>
  queryOptions({
    queryKey: [...ENTERPRISES_KEY, 'changes', clean(f)],
    queryFn: () => load<Page<EnterpriseChange>>(paths.enterpriseChangeList, clean(f)),
    placeholderData: keepPreviousData,
  });

/** 通过 / 驳回 (with the reason) of a change, naming the version the reviewer saw (409 when it moved). */
export const auditEnterpriseChange = (body: EnterpriseChangeAudit) =>
  save<EnterpriseChange>(paths.enterpriseChangeAudit, body);

/** Enterprise types, for the list filter (public). */
export const enterpriseTypesQuery = queryOptions({
  queryKey: ['enterpriseTypes'],
  queryFn: () => load<Option[]>(paths.enterpriseTypes),
  staleTime: 10 * 60_000,
});

// ── 办理事项 ────────────────────────────────────────────────────────────────

export const SERVICE_ITEMS_KEY = ['serviceItems'] as const;

export const serviceItemsQuery = (f: ServiceItemListQuery) =>
  queryOptions({
    queryKey: [...SERVICE_ITEMS_KEY, clean(f)],
    queryFn: () => load<Page<ServiceItem>>(paths.serviceItemList, clean(f)),
    placeholderData: keepPreviousData,
  });

export const createServiceItem = (body: ServiceItemInput) => save<ServiceItem>(paths.serviceItemCreate, body);
export const updateServiceItem = (body: ServiceItemUpdate) => save<ServiceItem>(paths.serviceItemUpdate, body);
export const deleteServiceItem = (id: string) =>
  request<null>({ url: paths.serviceItemDelete.path, method: paths.serviceItemDelete.method, params: { id } });

/** Every business system (administrators and developers), for choosing where a service matter is handled. */
export const businessSystemsQuery = queryOptions({
  queryKey: ['accounts', 'businessSystems'],
  queryFn: () => load<ConfigSystem[]>(paths.configSystemList),
  staleTime: 60_000,
});
