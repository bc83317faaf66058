import { SESSION_KEYS, VERSION_STORAGE_KEY } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import { userInfo } from '../test/server';
import {
  clearAllStorage,
  clearSession,
  getHomeUrl,
  getRoles,
  getSystemCoding,
  getToken,
  getUserInfo,
  isSignedIn,
  saveLogin,
  setHomeUrl,
  setSystemCoding,
} from './session';

describe('session helpers', () => {
  it('saveLogin stores token, userInfo and roles under the spec keys', () => {
    saveLogin({ token: 't-1', userInfo, roles: ['admin'] });
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('t-1');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '')).toEqual(userInfo);
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.roles) ?? '')).toEqual(['admin']);
    expect(getToken()).toBe('t-1');
    expect(isSignedIn()).toBe(true);
    expect(getUserInfo()).toEqual(userInfo);
    expect(getRoles()).toEqual(['admin']);
  });

  it('derives roles from loginRoleType when the server sent none (admin for M, user otherwise)', () => {
    saveLogin({ token: 't', userInfo: { ...userInfo, loginRoleType: 'M' }, roles: [] });
    expect(getRoles()).toEqual(['admin']);
    saveLogin({ token: 't', userInfo: { ...userInfo, loginRoleType: 'D' }, roles: [] });
    expect(getRoles()).toEqual(['user']);
  });

  it('reads nothing from an empty or corrupt session', () => {
    expect(getToken()).toBeNull();
    expect(isSignedIn()).toBe(false);
    sessionStorage.setItem(SESSION_KEYS.userInfo, '{broken');
    sessionStorage.setItem(SESSION_KEYS.roles, '"admin"');
    expect(getUserInfo()).toBeNull();
    expect(getRoles()).toEqual([]);
  });

  it('keeps homeUrl and the chosen systemCoding', () => {
    setHomeUrl('/credit/analysis');
    setSystemCoding('xypj');
    expect(getHomeUrl()).toBe('/credit/analysis');
    expect(sessionStorage.getItem(SESSION_KEYS.homeUrl)).toBe('/credit/analysis');
    expect(getSystemCoding()).toBe('xypj');
    expect(sessionStorage.getItem(SESSION_KEYS.systemCoding)).toBe('xypj');
  });

  it('clearSession empties session storage only', () => {
    saveLogin({ token: 't', userInfo, roles: ['user'] });
    localStorage.setItem('keep', '1');
    clearSession();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('keep')).toBe('1');
  });

  it('clearAllStorage empties both storages but keeps the platform version', () => {
    saveLogin({ token: 't', userInfo, roles: ['user'] });
    localStorage.setItem(VERSION_STORAGE_KEY, '2.0.0');
    localStorage.setItem('other', 'x');
    clearAllStorage();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('other')).toBeNull();
    expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('2.0.0');
  });
});
