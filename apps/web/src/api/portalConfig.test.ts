import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServer } from '../test/server';
import { DEFAULT_PORTAL_CONFIG, fetchPortalConfig, readPortalConfigMeta, safeExternalUrl } from './portalConfig';
import { configureRequest } from './request';

afterEach(() => {
  configureRequest();
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
    expect(readPortalConfigMeta()).toEqual({ loginMode: 'ywbl', bidHallUrl: 'https://hall.example.test/' });
  });

  it('an empty hall tag means not configured; an unknown mode means no usable tags', () => {
    meta('ks-login-mode', 'ggfw');
    meta('ks-bid-hall', '');
    expect(readPortalConfigMeta()).toEqual({ loginMode: 'ggfw', bidHallUrl: null });
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
    expect(await fetchPortalConfig()).toEqual({ loginMode: 'login', bidHallUrl: null });
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
