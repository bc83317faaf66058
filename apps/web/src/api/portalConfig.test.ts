import { appTimeZone, appToday, DEFAULT_TIME_ZONE, setAppTimeZone } from '@ks/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServer } from '../test/server';
import {
  DEFAULT_PORTAL_CONFIG,
  fetchPortalConfig,
  initAppTimeZone,
  readPortalConfigMeta,
  safeExternalUrl,
} from './portalConfig';
import { configureRequest } from './request';

afterEach(() => {
  configureRequest();
  setAppTimeZone(DEFAULT_TIME_ZONE);
  for (const m of document.head.querySelectorAll('meta[name^="ks-"]')) m.remove();
});

function meta(name: string, content: string) {
  const el = document.createElement('meta');
  el.name = name;
  el.content = content;
  document.head.append(el);
}

describe('portal configuration', () => {
  it('reads mode and hall from the meta tags the server writes into index.html', () => {
    expect(readPortalConfigMeta()).toBeNull();
    meta('ks-login-mode', 'ywbl');
    meta('ks-bid-hall', 'https://hall.example.test/');
    // no zone tag (an older server): the default zone
    expect(readPortalConfigMeta()).toEqual({
      loginMode: 'ywbl',
      bidHallUrl: 'https://hall.example.test/',
      timeZone: 'Asia/Shanghai',
    });
    meta('ks-time-zone', 'Europe/Berlin');
    expect(readPortalConfigMeta()?.timeZone).toBe('Europe/Berlin');
  });

  it('sets the platform’s zone from the meta tag, not the browser’s, before the first render', async () => {
    meta('ks-login-mode', 'ggfw');
    meta('ks-time-zone', 'America/New_York');
    await initAppTimeZone();
    expect(appTimeZone()).toBe('America/New_York');
    // 2026-01-01T17:00Z: still 1 January in New York (and in this UTC test browser), 2 January in Beijing
    expect(appToday(new Date('2026-01-01T17:00:00Z'))).toBe('2026-01-01');
    setAppTimeZone('Asia/Shanghai');
    expect(appToday(new Date('2026-01-01T17:00:00Z'))).toBe('2026-01-02');
  });

  it('without the tags (the Vite dev server) asks the API for the zone; a bad or missing one is the default', async () => {
    let zone: unknown = 'Asia/Tokyo';
    const server = createFakeServer({
      'GET /ks/portal/v1/home/config': () => ({ data: { loginMode: 'ggfw', bidHallUrl: null, timeZone: zone } }),
    });
    configureRequest({ transport: server.transport });
    expect((await initAppTimeZone()).timeZone).toBe('Asia/Tokyo');
    expect(appTimeZone()).toBe('Asia/Tokyo');
    zone = '+09:00';
    await initAppTimeZone();
    expect(appTimeZone()).toBe('Asia/Shanghai');
  });

  it('an empty hall tag means not configured; an unknown mode means no usable tags', () => {
    meta('ks-login-mode', 'ggfw');
    meta('ks-bid-hall', '');
    expect(readPortalConfigMeta()).toEqual({ loginMode: 'ggfw', bidHallUrl: null, timeZone: 'Asia/Shanghai' });
    document.head.querySelector('meta[name="ks-login-mode"]')!.setAttribute('content', 'other');
    expect(readPortalConfigMeta()).toBeNull();
  });

  it('asks the API without a token, and falls back to ggfw when it fails', async () => {
    sessionStorage.setItem('token', 't');
    let ok = true;
    const server = createFakeServer({
      'GET /ks/portal/v1/home/config': () =>
        ok ? { data: { loginMode: 'login', bidHallUrl: 'ftp://x' } } : { status: 500, code: 500, message: 'x' },
    });
    configureRequest({ transport: server.transport });
    expect(await fetchPortalConfig()).toEqual({ loginMode: 'login', bidHallUrl: null, timeZone: 'Asia/Shanghai' });
    expect(server.calls[0].headers.Authorization).toBeUndefined();
    ok = false;
    expect(await fetchPortalConfig()).toEqual(DEFAULT_PORTAL_CONFIG);
  });

  it('accepts only http(s) hall addresses', () => {
    expect(safeExternalUrl(' https://a.test/x ')).toBe('https://a.test/x');
    expect(safeExternalUrl('javascript:alert(1)')).toBeNull();
    expect(safeExternalUrl('/bid/bidMeet')).toBeNull();
    expect(safeExternalUrl(null)).toBeNull();
  });
});
