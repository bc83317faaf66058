import type { ApiBody, ApiData, ApiQuery } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * Permissions (roles × nodes × functions, role members) and the audit configuration of a node (levels, ways).
 * Roles, members and grants are administered by M only; audit levels and ways by M or D (the server checks).
 * Reads are query options; writes are plain functions. Writes whose pages show the server's 400 themselves are
 * `silent`: the caller shows the message and reports anything else with reportApiError.
 */

export const PERMISSION_KEY = ['permission'] as const;
export const ROLES_KEY = [...PERMISSION_KEY, 'roles'] as const;

// ── systems and nodes (for choosing what to configure) ──────────────────────

export const permissionSystemsQuery = queryOptions({
  queryKey: [...PERMISSION_KEY, 'systems'],
  queryFn: () => call('configSystemList'),
  staleTime: 60_000,
});

export const permissionNodeListQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: [...PERMISSION_KEY, 'nodeList', systemCoding],
    queryFn: () => call('nodeList', { params: { systemCoding } }),
    staleTime: 60_000,
  });

// ── roles and members ───────────────────────────────────────────────────────

export const rolesQuery = queryOptions({
  queryKey: ROLES_KEY,
  queryFn: () => call('roleList'),
  retry: false,
});

/**
 * The roles as options of other pages (audit reviewers): silent, since only administrators may list roles and a
 * developer configuring audit levels gets a 403 the page explains itself.
 */
export const roleOptionsQuery = queryOptions({
  queryKey: [...ROLES_KEY, 'options'],
  queryFn: () => call('roleList', { silent: true }),
  retry: false,
  staleTime: 60_000,
});

export const createRole = (body: { code: string; name: string }) => call('roleCreate', { data: body, silent: true });
export const updateRole = (body: { id: string; name: string }) => call('roleUpdate', { data: body, silent: true });
export const deleteRole = (id: string) => call('roleDelete', { params: { id } });

export const roleMembersQuery = (roleId: string) =>
  queryOptions({
    queryKey: [...ROLES_KEY, 'members', roleId],
    queryFn: () => call('roleMembers', { params: { roleId } }),
    staleTime: 0,
  });

export const saveRoleMembers = (body: { roleId: string; userIds: string[] }) => call('saveRoleMembers', { data: body });

export type UserSearch = ApiQuery<'userSearch'>;

export const searchUsers = (q: UserSearch, silent = false) => call('userSearch', { params: q, silent });

// ── grants ──────────────────────────────────────────────────────────────────

export type SaveMatrixBody = ApiBody<'saveGrantMatrix'>;
export type MatrixGrant = SaveMatrixBody['grants'][number];
/** Whose grants: a role or a user. */
export type GrantSubjectRef = Pick<SaveMatrixBody, 'subjectType' | 'subjectId'>;

export const grantMatrixKey = (systemCoding: string, s: GrantSubjectRef) =>
  [...PERMISSION_KEY, 'matrix', systemCoding, s.subjectType, s.subjectId] as const;

export const grantMatrixQuery = (systemCoding: string, s: GrantSubjectRef) =>
  queryOptions({
    queryKey: grantMatrixKey(systemCoding, s),
    queryFn: () => call('grantMatrix', { params: { systemCoding, ...s } }),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const saveGrantMatrix = (body: SaveMatrixBody) => call('saveGrantMatrix', { data: body });

// ── audit levels and ways ───────────────────────────────────────────────────

/** A node's audit levels as saved, each with how many active accounts may decide it (absent in a save body). */
export type AuditConfig = ApiData<'auditConfig'>;

export const auditConfigKey = (gnCoding: string) => [...PERMISSION_KEY, 'audit', gnCoding] as const;

export const auditConfigQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: auditConfigKey(gnCoding),
    queryFn: () => call('auditConfig', { params: { gnCoding } }),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const saveAuditLevels = (body: ApiBody<'saveAuditLevels'>) =>
  call('saveAuditLevels', { data: body, silent: true });

export const saveAuditWays = (body: ApiBody<'saveAuditWay'>) => call('saveAuditWay', { data: body, silent: true });
