import { type LoginResponse, rolesFor, SESSION_KEYS, type UserInfo, VERSION_STORAGE_KEY } from '@ks/contracts';

/** sessionStorage key of the business system chosen on /system/pageConfig. */

function readJson<T>(key: string): T | null {
  const raw = sessionStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.token) || null;
}

export function setToken(token: string): void {
  sessionStorage.setItem(SESSION_KEYS.token, token);
}

/** sessionStorage key of the refresh token (issue 15): traded once for a new pair when the session expired. */
export const REFRESH_TOKEN_KEY = 'refreshToken';

export function getRefreshToken(): string | null {
  return sessionStorage.getItem(REFRESH_TOKEN_KEY) || null;
}

const tokenListeners = new Set<() => void>();

/** Be told when a refresh replaced the token (the live stream reopens with the new one); returns the unsubscribe. */
export function onTokenRefreshed(fn: () => void): () => void {
  tokenListeners.add(fn);
  return () => {
    tokenListeners.delete(fn);
  };
}

/** The pair a refresh answered: both replace the old ones (which no longer work). */
export function setTokens(pair: { token: string; refreshToken: string }): void {
  setToken(pair.token);
  sessionStorage.setItem(REFRESH_TOKEN_KEY, pair.refreshToken);
  for (const fn of [...tokenListeners]) fn();
}

export function isSignedIn(): boolean {
  return getToken() !== null;
}

export function getUserInfo(): UserInfo | null {
  return readJson<UserInfo>(SESSION_KEYS.userInfo);
}

export function setUserInfo(userInfo: UserInfo): void {
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
}

export function getRoles(): string[] {
  const roles = readJson<unknown>(SESSION_KEYS.roles);
  return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
}

export function setRoles(roles: string[]): void {
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
}

export function getHomeUrl(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.homeUrl) || null;
}

export function setHomeUrl(url: string): void {
  sessionStorage.setItem(SESSION_KEYS.homeUrl, url);
}

export function getSystemCoding(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.systemCoding) || null;
}

export function setSystemCoding(systemCoding: string): void {
  sessionStorage.setItem(SESSION_KEYS.systemCoding, systemCoding);
}

/** Stores what a successful login returns (spec §4): token, user info and roles (admin for M, user otherwise). */
export function saveLogin(
  res: Pick<LoginResponse, 'token' | 'userInfo' | 'roles'> & { refreshToken?: string | undefined },
): void {
  setToken(res.token);
  if (res.refreshToken) sessionStorage.setItem(REFRESH_TOKEN_KEY, res.refreshToken);
  else sessionStorage.removeItem(REFRESH_TOKEN_KEY);
  setUserInfo(res.userInfo);
  setRoles(res.roles.length > 0 ? res.roles : rolesFor(res.userInfo.loginRoleType));
}

/** Clears the whole session storage (logout). */
export function clearSession(): void {
  sessionStorage.clear();
}

/** Clears session storage and local storage, keeping only the platform version last seen. */
export function clearAllStorage(): void {
  sessionStorage.clear();
  const version = localStorage.getItem(VERSION_STORAGE_KEY);
  localStorage.clear();
  if (version !== null) localStorage.setItem(VERSION_STORAGE_KEY, version);
}
