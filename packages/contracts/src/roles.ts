/** loginRoleType: M admin, D developer, U ordinary user (spec §6). Kept free of zod so the web bundles it alone. */
export const LOGIN_ROLE_TYPES = ['U', 'M', 'D'] as const;
export type LoginRoleType = (typeof LOGIN_ROLE_TYPES)[number];
export const LOGIN_ROLE_LABELS: Record<LoginRoleType, string> = { U: '企业/个人', M: '管理员', D: '开发者' };

/** Roles kept in session storage: `admin` for M, `user` otherwise (spec §4, §6). */
export function rolesFor(loginRoleType: string): string[] {
  return loginRoleType === 'M' ? ['admin'] : ['user'];
}
