import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A local stand-in for the AMap (高德) weather query (test-only module): `GET /v3/weather/weatherInfo?key&city&
 * extensions=base|all` answers as AMap documents it — every value text, `status` "1"/"0", `lives[]` for base,
 * `forecasts[].casts[]` for all — for the city 140100 (太原市) with fixed weather. A wrong key gets AMap's
 * INVALID_USER_KEY refusal; `mode` makes it fail in other ways. `calls` counts the requests, by extensions.
 *
 * Run directly (`node --import tsx apps/server/src/test/fake-amap.ts`) it listens on FAKE_AMAP_PORT for the e2e
 * servers, with GET /health for the runner.
 */
export const FAKE_AMAP_KEY = 'fake-amap-key-0001';
export const FAKE_AMAP_PATH = '/v3/weather/weatherInfo';

export type FakeAmapMode = 'ok' | 'http-500' | 'refuse' | 'garbage' | 'hang';

export interface FakeAmap {
  url: string;
  key: string;
  calls: { base: number; all: number };
  /** query strings received, in order */
  log: string[];
  mode: FakeAmapMode;
  close(): Promise<void>;
}

export const FAKE_LIVE = {
  province: '山西',
  city: '太原市',
  adcode: '140100',
  weather: '多云',
  temperature: '12',
  winddirection: '西北',
  windpower: '≤3',
  humidity: '41',
  reporttime: '2026-11-26 10:00:00',
  temperature_float: '12.0',
  humidity_float: '41.0',
};

export const FAKE_CASTS = [
  {
    date: '2026-11-26',
    week: '4',
    dayweather: '多云',
    nightweather: '晴',
    daytemp: '13',
    nighttemp: '-2',
    daywind: '西北',
    nightwind: '西北',
    daypower: '1-3',
    nightpower: '1-3',
  },
  {
    date: '2026-11-27',
    week: '5',
    dayweather: '小雨',
    nightweather: '阴',
    daytemp: '9',
    nighttemp: '0',
    daywind: '东南',
    nightwind: '东南',
    daypower: '1-3',
    nightpower: '1-3',
  },
  {
    date: '2026-11-28',
    week: '6',
    dayweather: '雨夹雪',
    nightweather: '小雪',
    daytemp: '4',
    nighttemp: '-5',
    daywind: '北',
    nightwind: '北',
    daypower: '4',
    nightpower: '4',
  },
  {
    date: '2026-11-29',
    week: '7',
    dayweather: '晴',
    nightweather: '晴',
    daytemp: '6',
    nighttemp: '-6',
    daywind: '西北',
    nightwind: '西北',
    daypower: '1-3',
    nightpower: '1-3',
  },
].map((c) => ({ ...c, daytemp_float: `${c.daytemp}.0`, nighttemp_float: `${c.nighttemp}.0` }));

export async function startFakeAmap(
  opts: { port?: number; key?: string; mode?: FakeAmapMode } = {},
): Promise<FakeAmap> {
  const key = opts.key ?? FAKE_AMAP_KEY;
  const state: FakeAmap = {
    url: '',
    key,
    calls: { base: 0, all: 0 },
    log: [],
    mode: opts.mode ?? 'ok',
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname === '/health') return send(200, { ok: true });
    if (req.method !== 'GET' || url.pathname !== FAKE_AMAP_PATH) return send(404, { status: '0', info: 'NOT_FOUND' });
    state.log.push(url.search);
    const extensions = url.searchParams.get('extensions') === 'all' ? 'all' : 'base';
    state.calls[extensions] += 1;
    if (state.mode === 'hang') return; // never answers: the adapter's timeout ends it
    if (state.mode === 'http-500') return send(500, 'upstream exploded');
    if (state.mode === 'garbage') return send(200, '<html>not json</html>');
    if (state.mode === 'refuse' || url.searchParams.get('key') !== key) {
      return send(200, { status: '0', info: 'INVALID_USER_KEY', infocode: '10001' });
    }
    const city = url.searchParams.get('city');
    if (city !== FAKE_LIVE.adcode)
      return send(200, { status: '1', count: '0', info: 'OK', infocode: '10000', lives: [], forecasts: [] });
    if (extensions === 'base')
      return send(200, { status: '1', count: '1', info: 'OK', infocode: '10000', lives: [FAKE_LIVE] });
    const { province, city: name, adcode, reporttime } = FAKE_LIVE;
    return send(200, {
      status: '1',
      count: '1',
      info: 'OK',
      infocode: '10000',
      forecasts: [{ city: name, adcode, province, reporttime, casts: FAKE_CASTS }],
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}${FAKE_AMAP_PATH}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.FAKE_AMAP_PORT ?? 18099);
  void startFakeAmap({ port }).then((f) => process.stdout.write(`fake AMap weather on ${f.url}\n`));
}
