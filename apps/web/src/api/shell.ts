import type { ApiBody, ApiData, MenuItem, Theme } from '@ks/contracts';
import { THEME_DEFAULTS } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * The signed-in shell (spec §2, §7 Configuration): the chosen system's sidebar menus, the header dropdown entries,
 * the user's theme, and creating a business system.
 */

export const SHELL_KEY = ['shell'] as const;
export const MENUS_KEY = [...SHELL_KEY, 'menus'] as const;
export const HEADER_MENUS_KEY = [...SHELL_KEY, 'headerMenus'] as const;
export const THEME_KEY = [...SHELL_KEY, 'theme'] as const;

/** Only items marked itShows 是, at every depth (the server already filters; this is a defence). */
export function visibleMenus(items: readonly MenuItem[]): MenuItem[] {
  return items.filter((m) => m.itShows === '是').map((m) => ({ ...m, children: visibleMenus(m.children ?? []) }));
}

export function fetchMainMenus(systemCoding: string): Promise<MenuItem[]> {
  return call('mainMenus', { data: { systemCoding } }).then((items) => visibleMenus(items ?? []));
}

/** The sidebar menus of a system, as the signed-in user may see them. */
export const mainMenusQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: [...MENUS_KEY, systemCoding],
    queryFn: () => fetchMainMenus(systemCoding),
    staleTime: 60_000,
  });

/**
 * Header dropdown entries of the signed-in user. Silent: without them the dropdown still offers 退出登录, and the
 * session itself is confirmed (and its end handled) by check-login.
 */
export const headerMenusQuery = queryOptions({
  queryKey: HEADER_MENUS_KEY,
  queryFn: () => call('headerMenus', { silent: true }),
  staleTime: 5 * 60_000,
});

/** The user's theme; silent, falling back to the defaults (a cosmetic setting must not block the back office). */
export const themeQuery = queryOptions({
  queryKey: THEME_KEY,
  queryFn: async (): Promise<Theme> => {
    const theme: Theme | null = await call('theme', { silent: true });
    return { ...THEME_DEFAULTS, ...(theme ?? {}) };
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export function saveTheme(theme: Theme): Promise<Theme> {
  return call('saveTheme', { data: theme });
}

export type NewSystemBody = ApiBody<'structureAdd'>;
export type NewSystemResult = ApiData<'structureAdd'>;

/** Silent: the dialog shows field errors (400) and duplicates (409) on its fields and reports anything else. */
export function addSystem(body: NewSystemBody): Promise<NewSystemResult> {
  return call('structureAdd', { data: body, silent: true });
}
