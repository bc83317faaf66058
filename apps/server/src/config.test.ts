import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv/ks');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/ks/data',
      databaseUrl: null,
      seedDemo: true,
      sessionTtlMinutes: 120,
      singleSession: true,
      dbPoolSize: 20,
      loginAddressCaptchaAfter: 20,
    });
  });

  it('reads the per-address captcha threshold, at least 3', () => {
    expect(loadConfig({ LOGIN_ADDRESS_CAPTCHA_AFTER: '50' }).loginAddressCaptchaAfter).toBe(50);
    expect(() => loadConfig({ LOGIN_ADDRESS_CAPTCHA_AFTER: '2' })).toThrow(/LOGIN_ADDRESS_CAPTCHA_AFTER/);
  });

  it('reads the PostgreSQL pool size, 1 to 200', () => {
    expect(loadConfig({ DB_POOL_SIZE: '8' }).dbPoolSize).toBe(8);
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE: must be between 1 and 200/);
    expect(() => loadConfig({ DB_POOL_SIZE: 'many' })).toThrow(/DB_POOL_SIZE/);
  });

  it('reads the shutdown grace time: 10 s by default, 100 ms to 10 minutes', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '30000' }).shutdownGraceMs).toBe(30_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '100' }).shutdownGraceMs).toBe(100);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '99' })).toThrow(
      /SHUTDOWN_GRACE_MS: must be between 100 and 600000 \(got "99"\)/,
    );
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '700000' })).toThrow(/SHUTDOWN_GRACE_MS: must be between/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '10s' })).toThrow(/SHUTDOWN_GRACE_MS: must be a whole number/);
  });

  it('reads the login mode and the bid-opening hall', () => {
    expect(loadConfig({}).loginMode).toBe('ggfw');
    expect(loadConfig({ LOGIN_MODE: 'ywbl', BID_HALL_URL: 'https://hall.test/' })).toMatchObject({
      loginMode: 'ywbl',
      bidHallUrl: 'https://hall.test/',
    });
    expect(() => loadConfig({ LOGIN_MODE: 'portal' })).toThrow(/LOGIN_MODE/);
    expect(() => loadConfig({ BID_HALL_URL: 'javascript:alert(1)' })).toThrow(/BID_HALL_URL/);
  });

  it('reads the time zone: an IANA name, Asia/Shanghai by default', () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ APP_TZ: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(loadConfig({ APP_TZ: 'UTC' }).timeZone).toBe('UTC');
    // the canonical spelling
    expect(loadConfig({ APP_TZ: 'asia/shanghai' }).timeZone).toBe('Asia/Shanghai');
    for (const bad of ['+08:00', 'GMT+8', 'Beijing', 'Asia/Beijing']) {
      expect(() => loadConfig({ APP_TZ: bad }), bad).toThrow(/APP_TZ: must be an IANA time zone/);
    }
  });

  it('seeds in production only with SEED_DEMO=1', () => {
    expect(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'off' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'off', SEED_DEMO: '1' }).seedDemo).toBe(true);
  });

  it('names every invalid variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'prod' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('NODE_ENV');
    }
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: must be between 1 and 65535/);
  });

  it('reads WeChat sign-in (all three settings or none), the refresh lifetime and the other sign-in methods', () => {
    const off = loadConfig({ SMS_PROVIDER: 'off' });
    expect(off.wechat).toBeNull();
    expect(off.refreshTtlMs).toBe(12 * 3600_000);
    expect(off.signInMethods).toEqual({ ca: false, sms: false });
    // outside production SMS codes go to the developers' outbox unless switched off: SMS sign-in is offered
    expect(loadConfig({}).signInMethods).toEqual({ ca: false, sms: true });
    const on = loadConfig({
      WECHAT_APP_ID: 'wx1234567890',
      WECHAT_APP_SECRET: 'secret-secret',
      WECHAT_REDIRECT_BASE: 'https://ks.example.cn/',
      REFRESH_TOKEN_TTL_HOURS: '24',
      CA_TRUSTED_ROOTS: '/etc/ks/roots.pem',
      SMS_PROVIDER: 'outbox',
    });
    expect(on.wechat).toMatchObject({
      appId: 'wx1234567890',
      redirectBase: 'https://ks.example.cn',
      openUrl: 'https://open.weixin.qq.com',
      apiUrl: 'https://api.weixin.qq.com',
    });
    expect(on.refreshTtlMs).toBe(24 * 3600_000);
    expect(on.signInMethods).toEqual({ ca: true, sms: true });
    expect(() => loadConfig({ WECHAT_APP_ID: 'wx1234567890' })).toThrow(
      /WECHAT_APP_SECRET: required when WECHAT_APP_ID is set/,
    );
    expect(() => loadConfig({ WECHAT_REDIRECT_BASE: 'ftp://x' })).toThrow(
      /WECHAT_REDIRECT_BASE: must be an http\(s\) URL/,
    );
  });
});
