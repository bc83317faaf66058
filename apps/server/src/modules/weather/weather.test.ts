import { Code, WEATHER_NOT_CONFIGURED, WEATHER_UPSTREAM_FAILED } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { FAKE_AMAP_KEY, FAKE_CASTS, FAKE_LIVE, type FakeAmap, startFakeAmap } from '../../test/fake-amap';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { WEATHER_TTL_MS } from './weather.service';

/**
 * The weather widget's source against a local fake of the AMap weather query (started here): fields mapped with their
 * icons, the 30-minute cache by the service's clock, the "not configured" answer without a key, and every kind of
 * upstream failure as a 502 in the envelope (never a 500, never the key).
 */

let fake: FakeAmap;
let t: TestApp;
let bare: TestApp;
const c = client(() => t);
const b = client(() => bare);
let token: string;

beforeAll(async () => {
  fake = await startFakeAmap();
  t = await createTestApp({
    env: {
      AMAP_WEATHER_KEY: FAKE_AMAP_KEY,
      AMAP_WEATHER_CITY: '140100',
      AMAP_WEATHER_URL: fake.url,
      // short, for the hanging upstream below; long enough that a loaded machine's fake still answers in time
      AMAP_WEATHER_TIMEOUT_MS: '2000',
      SESSION_TTL_MINUTES: String(60 * 24),
    },
  });
  bare = await createTestApp();
  token = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await fake?.close();
});

describe('GET /ks/common/weather', () => {
  it('without a key says the service is not configured, and asks nobody', async () => {
    const before = { ...fake.calls };
    const r = await b.get('/ks/common/weather', await loginToken(bare.app, 'user1', 'U'));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ configured: false, message: WEATHER_NOT_CONFIGURED });
    expect(fake.calls).toEqual(before);
  });

  it('needs a session', async () => {
    expect((await c.get('/ks/common/weather', null)).status).toBe(401);
  });

  it('maps the live weather and the forecast of the city, with icons from the Chinese names', async () => {
    const r = await c.get('/ks/common/weather', token);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({
      configured: true,
      province: '山西',
      city: '太原市',
      adcode: '140100',
      weather: '多云',
      temperature: '12',
      winddirection: '西北',
      windpower: '≤3',
      humidity: '41',
      reporttime: FAKE_LIVE.reporttime,
      dayweatherIcon: 'cloudy',
    });
    expect(d.forecasts).toHaveLength(FAKE_CASTS.length);
    expect(d.forecasts[1]).toEqual({
      date: '2026-11-27',
      week: '周五',
      dayweather: '小雨',
      nightweather: '阴',
      daytemp: '9',
      nighttemp: '0',
      daywind: '东南',
      daypower: '1-3',
      dayweatherIcon: 'light-rain',
    });
    expect(d.forecasts.map((f: any) => f.dayweatherIcon)).toEqual(['cloudy', 'light-rain', 'sleet', 'sunny']);
    // one request for the live weather, one for the forecast, both with the key, the adcode and JSON output
    expect(fake.calls).toEqual({ base: 1, all: 1 });
    for (const q of fake.log) {
      const p = new URLSearchParams(q);
      expect(p.get('key')).toBe(FAKE_AMAP_KEY);
      expect(p.get('city')).toBe('140100');
    }
    expect(fake.log.map((q) => new URLSearchParams(q).get('extensions')).sort()).toEqual(['all', 'base']);
    // the key never reaches the browser
    expect(r.res.body).not.toContain(FAKE_AMAP_KEY);
  });

  it('keeps the answer 30 minutes by the service clock, then asks again', async () => {
    await c.get('/ks/common/weather', token);
    await c.get('/ks/common/weather', token);
    expect(fake.calls).toEqual({ base: 1, all: 1 });
    t.clock.advance(WEATHER_TTL_MS - 60_000);
    expect((await c.get('/ks/common/weather', token)).body.data.city).toBe('太原市');
    expect(fake.calls).toEqual({ base: 1, all: 1 });
    t.clock.advance(2 * 60_000);
    // tabs asking at once share one request
    const answers = await Promise.all([1, 2, 3].map(() => c.get('/ks/common/weather', token)));
    expect(answers.map((a) => a.body.data.city)).toEqual(['太原市', '太原市', '太原市']);
    expect(fake.calls).toEqual({ base: 2, all: 2 });
  });

  it('answers every upstream failure with a 502 in the envelope, keeps nothing of it, and recovers', async () => {
    for (const mode of ['http-500', 'refuse', 'garbage', 'hang'] as const) {
      t.clock.advance(WEATHER_TTL_MS + 1000); // past the kept answer
      fake.mode = mode;
      const r = await c.get('/ks/common/weather', token);
      expect(r.status, mode).toBe(502);
      expect(r.body).toEqual({ code: Code.BAD_GATEWAY, data: null, message: WEATHER_UPSTREAM_FAILED });
      expect(r.res.body).not.toContain(FAKE_AMAP_KEY);
    }
    fake.mode = 'ok';
    const calls = fake.calls.base;
    const r = await c.get('/ks/common/weather', token);
    expect(r.status).toBe(200);
    expect(r.body.data.weather).toBe('多云');
    expect(fake.calls.base).toBe(calls + 1);
  });

  it('a city without weather is a failure too, not an empty widget', async () => {
    const other = await createTestApp({
      env: { AMAP_WEATHER_KEY: FAKE_AMAP_KEY, AMAP_WEATHER_CITY: '999999', AMAP_WEATHER_URL: fake.url },
    });
    try {
      const r = await client(() => other).get('/ks/common/weather', await loginToken(other.app, 'user1', 'U'));
      expect(r.status).toBe(502);
    } finally {
      await other.close();
    }
  });
});

describe('configuration', () => {
  it('checks the adcode, the address and the key', () => {
    expect(() => loadConfig({ AMAP_WEATHER_CITY: '1401' })).toThrow(ConfigError);
    expect(() => loadConfig({ AMAP_WEATHER_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ AMAP_WEATHER_KEY: 'a b' })).toThrow(ConfigError);
    const cfg = loadConfig({});
    expect(cfg.weather).toEqual({
      key: null,
      city: '140100',
      url: 'https://restapi.amap.com/v3/weather/weatherInfo',
      timeoutMs: 5000,
    });
  });
});
