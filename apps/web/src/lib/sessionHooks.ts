import { SESSION_KEYS } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { currentUserQuery } from '../api/auth';
import { getRoles, getSystemCoding, getUserInfo, setSystemCoding } from './session';

/**
 * The chosen business system (session systemCoding) as React state: the sidebar appears as soon as /judge stores
 * one. Pages that write the session directly are picked up on the next render (the snapshot is read each time).
 */

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSystemCoding(): string | null {
  return useSyncExternalStore(subscribe, getSystemCoding, getSystemCoding);
}

export function chooseSystem(systemCoding: string): void {
  setSystemCoding(systemCoding);
  for (const l of listeners) l();
}

/** The node last opened from the sidebar (spec §3 context value gnCoding). */
export function setGnCoding(gnCoding: string): void {
  sessionStorage.setItem(SESSION_KEYS.gnCoding, gnCoding);
}

export function getGnCoding(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.gnCoding) || null;
}

/** Who is signed in: the user the server confirmed, else the one stored at sign-in. */
export function useCurrentUser() {
  const { data } = useQuery(currentUserQuery);
  const userInfo = data?.userInfo ?? getUserInfo();
  const roles = data?.roles ?? getRoles();
  return {
    userInfo,
    roles,
    /** loginRoleType D */
    isDeveloper: userInfo?.loginRoleType === 'D',
    /** the admin role (loginRoleType M) */
    isAdmin: roles.includes('admin'),
  };
}
