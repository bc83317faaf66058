import type {
  AuditLevel,
  AuditWay,
  ConfigSystem,
  GrantMatrixRow,
  GrantSubject,
  MenuItem,
  Page,
  Role,
  UserBrief,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { type Params, request } from './request';

/**
 * Permissions (roles × nodes × functions, role members) and the audit configuration of a node (levels, ways).
 * Roles, members and grants are administered by M only; audit levels and ways by M or D (the server checks).
 * Reads are query options; writes are plain functions. Writes whose pages show the server's 400 themselves are
 * `silent`: the caller shows the message and reports anything else with reportApiError.
 */

type PathName = keyof typeof paths;

function call<T>(name: PathName, options: { params?: Params; data?: unknown; silent?: boolean } = {}): Promise<T> {
  return request<T>({ url: paths[name].path, method: paths[name].method, ...options });
}

export const PERMISSION_KEY = ['permission'] as const;
export const ROLES_KEY = [...PERMISSION_KEY, 'roles'] as const;

// ── systems and nodes (for choosing what to configure) ──────────────────────

export const permissionSystemsQuery = queryOptions({
  queryKey: [...PERMISSION_KEY, 'systems'],
  queryFn: () => call<ConfigSystem[]>('configSystemList'),
  staleTime: 60_000,
});

export const permissionNodeListQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: [...PERMISSION_KEY, 'nodeList', systemCoding],
    queryFn: () => call<MenuItem[]>('nodeList', { params: { systemCoding } }),
    staleTime: 60_000,
  });

// ── roles and members ───────────────────────────────────────────────────────

export const rolesQuery = queryOptions({
  queryKey: ROLES_KEY,
  queryFn: () => call<Role[]>('roleList'),
  retry: false,
});

/**
 * The roles as options of other pages (audit reviewers): silent, since only administrators may list roles and a
 * developer configuring audit levels gets a 403 the page explains itself.
 */
export const roleOptionsQuery = queryOptions({
  queryKey: [...ROLES_KEY, 'options'],
  queryFn: () => call<Role[]>('roleList', { silent: true }),
  retry: false,
  staleTime: 60_000,
});

export const createRole = (body: { code: string; name: string }) =>
  call<Role>('roleCreate', { data: body, silent: true });
export const updateRole = (body: { id: string; name: string }) =>
  call<Role>('roleUpdate', { data: body, silent: true });
export const deleteRole = (id: string) => call<null>('roleDelete', { params: { id } });

export const roleMembersQuery = (roleId: string) =>
  queryOptions({
    queryKey: [...ROLES_KEY, 'members', roleId],
    queryFn: () => call<UserBrief[]>('roleMembers', { params: { roleId } }),
    staleTime: 0,
  });

export const saveRoleMembers = (body: { roleId: string; userIds: string[] }) =>
  call<UserBrief[]>('saveRoleMembers', { data: body });

export interface UserSearch {
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export const searchUsers = (q: UserSearch, silent = false) =>
  call<Page<UserBrief>>('userSearch', { params: { ...q } as Params, silent });

// ── grants ──────────────────────────────────────────────────────────────────

export interface GrantSubjectRef {
  subjectType: GrantSubject;
  subjectId: string;
}

export interface MatrixGrant {
  gnCoding: string;
  visible: boolean;
  functionCodes: string[];
}

export interface SaveMatrixBody extends GrantSubjectRef {
  systemCoding: string;
  grants: MatrixGrant[];
}

export const grantMatrixKey = (systemCoding: string, s: GrantSubjectRef) =>
  [...PERMISSION_KEY, 'matrix', systemCoding, s.subjectType, s.subjectId] as const;

export const grantMatrixQuery = (systemCoding: string, s: GrantSubjectRef) =>
  queryOptions({
    queryKey: grantMatrixKey(systemCoding, s),
    queryFn: () => call<GrantMatrixRow[]>('grantMatrix', { params: { systemCoding, ...s } }),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const saveGrantMatrix = (body: SaveMatrixBody) => call<GrantMatrixRow[]>('saveGrantMatrix', { data: body });

// ── audit levels and ways ───────────────────────────────────────────────────

export interface AuditConfig {
  gnCoding: string;
  /** as saved, each level with how many active accounts may decide it (the server counts; absent in a save body) */
  levels: (AuditLevel & { reviewerCount?: number })[];
}

export const auditConfigKey = (gnCoding: string) => [...PERMISSION_KEY, 'audit', gnCoding] as const;

export const auditConfigQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: auditConfigKey(gnCoding),
    queryFn: () => call<AuditConfig>('auditConfig', { params: { gnCoding } }),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const saveAuditLevels = (body: AuditConfig) =>
  call<AuditConfig>('saveAuditLevels', { data: body, silent: true });

export const saveAuditWays = (body: { gnCoding: string; ways: { level: number; way: AuditWay }[] }) =>
  call<AuditConfig>('saveAuditWay', { data: body, silent: true });
