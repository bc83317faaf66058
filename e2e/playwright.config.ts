import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
/**
 * One id per run (the runner's; its workers inherit it): with TEST_DATABASE_URL the servers copy their databases from
 * the run's one seeded template (serve.ts).
 */
const RUN_ID = process.env.E2E_RUN_ID ?? String(Date.now());
process.env.E2E_RUN_ID = RUN_ID;
const BASE_PORT = Number(process.env.E2E_PORT ?? 18090);
/**
 * The external opening hall the `ywbl` server is configured with (mode-ywbl.spec.ts): the portal's 开标大厅 opens it.
 * The ggfw servers run without one, so their 开标大厅 is the platform's own (/bid/bidMeet, portal.spec.ts).
 */
export const BID_HALL_URL = 'https://hall.example.test/';
/**
 * A local fake of the AMap weather query (apps/server/src/test/fake-amap.ts) for the header's weather widget: the
 * ggfw servers are pointed at it (a server's environment is fixed when it starts, so the fake starts with them).
 */
export const FAKE_AMAP_PORT = BASE_PORT + 9;
export const FAKE_AMAP_KEY = 'fake-amap-key-0001';
const weatherEnv = {
  AMAP_WEATHER_KEY: FAKE_AMAP_KEY,
  AMAP_WEATHER_CITY: '140100',
  AMAP_WEATHER_URL: `http://127.0.0.1:${FAKE_AMAP_PORT}/v3/weather/weatherInfo`,
};

/**
 * A local fake of the WeChat Open Platform (apps/server/src/test/fake-wechat.ts): its QR page (with a 确认登录 button
 * instead of a phone), code exchange and user info. The ggfw servers are pointed at it; their redirect base is their
 * own address.
 */
export const FAKE_WECHAT_PORT = BASE_PORT + 12;
const wechatEnv = (port: number) => ({
  WECHAT_APP_ID: 'wxfake0000000001',
  WECHAT_APP_SECRET: 'fake-wechat-secret-0001',
  WECHAT_REDIRECT_BASE: `http://127.0.0.1:${port}`,
  WECHAT_OPEN_URL: `http://127.0.0.1:${FAKE_WECHAT_PORT}`,
  WECHAT_API_URL: `http://127.0.0.1:${FAKE_WECHAT_PORT}`,
});

/**
 * A fake of the local CA signing agent (apps/server/src/test/fake-ca-agent.ts) holding the demo enterprise's test keys:
 * it writes its trusted root to CA_ROOTS_FILE before it answers, and the ggfw servers trust that file (CA sign-in).
 */
export const FAKE_CA_AGENT_PORT = BASE_PORT + 8;
const CA_ROOTS_FILE = path.join(root, '.data-e2e-ca', 'roots.pem');
const caEnv = { CA_TRUSTED_ROOTS: CA_ROOTS_FILE, CA_AGENT_URL: `http://127.0.0.1:${FAKE_CA_AGENT_PORT}` };

/**
 * A local fake of the upstream public-resource platform (apps/server/src/test/fake-upstream.ts) for 数据交换: the ggfw
 * servers push to it and pull enterprise registrations from it, each with an app id of its own (so a test's failures on
 * purpose, set with POST /control {appId}, hit only its own server), with fast retries (3 attempts, 500 ms back-off,
 * polled every 500 ms) and pages of 5 registrations.
 */
export const FAKE_UPSTREAM_PORT = BASE_PORT + 16;
export const fakeUpstreamAppId = (serverPort: number | string) => `fake-dex-app-${serverPort}`;
const dexEnv = (port: number) => ({
  DEX_UPSTREAM_URL: `http://127.0.0.1:${FAKE_UPSTREAM_PORT}`,
  DEX_APP_ID: fakeUpstreamAppId(port),
  DEX_APP_SECRET: 'fake-dex-secret-0001',
  DEX_TIMEOUT_MS: '3000',
  DEX_MAX_ATTEMPTS: '3',
  DEX_BACKOFF_MS: '500',
  DEX_POLL_MS: '500',
  DEX_SYNC_PAGE_SIZE: '5',
});

/**
 * Parallel workers of the ggfw project, each with a server of its own. A browser and a server per worker keep about two
 * cores busy: on a 2-core machine two workers took as long as one (12 min) and slowed each other into timeouts, so
 * the default is one worker per 4 cores (E2E_WORKERS sets it).
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? Math.floor(os.cpus().length / 4)));
/** The ggfw servers, one per parallel slot (see fixtures.ts). */
export const GGFW_PORTS = Array.from({ length: WORKERS }, (_, i) => (i === 0 ? BASE_PORT : BASE_PORT + 2 + i));

/** Real servers, each on a fresh embedded database with the demo seed: one per ggfw worker, one per other mode. */
const servers: { name: string; port: number; env: Record<string, string> }[] = [
  ...GGFW_PORTS.map((port, i) => ({
    name: i === 0 ? 'ggfw' : `ggfw-${i}`,
    port,
    env: { ...weatherEnv, ...wechatEnv(port), ...caEnv, ...dexEnv(port) },
  })),
  // several sessions per account here: a password change must end the others (mode-login.spec.ts)
  { name: 'login', port: BASE_PORT + 1, env: { LOGIN_MODE: 'login', SINGLE_SESSION: '0' } },
  { name: 'ywbl', port: BASE_PORT + 2, env: { LOGIN_MODE: 'ywbl', BID_HALL_URL } },
];

const browserOptions = {
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
  // no animations in the app (see newClient in helpers.ts)
  reducedMotion: 'reduce' as const,
  trace: 'retain-on-failure' as const,
  screenshot: 'only-on-failure' as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

/**
 * Test files run in parallel workers, each against a server of its own (demo accounts are shared and a new sign-in ends
 * the account's other sessions); the tests of a file run in order. Each test client sends its own X-Forwarded-For (the
 * servers trust it) so sign-in failure counters never leak.
 */
export default defineConfig({
  testDir: '.',
  fullyParallel: false,
  workers: WORKERS,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: path.join(root, 'test-results'),
  use: browserOptions,
  projects: [
    {
      name: 'ggfw',
      testMatch: '**/*.spec.ts',
      testIgnore: '**/mode-*.spec.ts',
      use: { baseURL: `http://127.0.0.1:${BASE_PORT}` },
    },
    // one server each: one worker at a time
    {
      name: 'mode-login',
      testMatch: '**/mode-login.spec.ts',
      workers: 1,
      use: { baseURL: `http://127.0.0.1:${BASE_PORT + 1}` },
    },
    {
      name: 'mode-ywbl',
      testMatch: '**/mode-ywbl.spec.ts',
      workers: 1,
      use: { baseURL: `http://127.0.0.1:${BASE_PORT + 2}` },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx apps/server/src/test/fake-amap.ts',
      cwd: root,
      url: `http://127.0.0.1:${FAKE_AMAP_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { FAKE_AMAP_PORT: String(FAKE_AMAP_PORT) },
    },
    {
      command: 'node --import tsx apps/server/src/test/fake-wechat.ts',
      cwd: root,
      url: `http://127.0.0.1:${FAKE_WECHAT_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { FAKE_WECHAT_PORT: String(FAKE_WECHAT_PORT) },
    },
    {
      command: 'node --import tsx apps/server/src/test/fake-ca-agent.ts',
      cwd: root,
      url: `http://127.0.0.1:${FAKE_CA_AGENT_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { FAKE_CA_AGENT_PORT: String(FAKE_CA_AGENT_PORT), CA_ROOTS_FILE },
    },
    {
      command: 'node --import tsx apps/server/src/test/fake-upstream.ts',
      cwd: root,
      url: `http://127.0.0.1:${FAKE_UPSTREAM_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { FAKE_UPSTREAM_PORT: String(FAKE_UPSTREAM_PORT) },
    },
    ...servers.map((s) => {
      const dataDir = path.join(root, `.data-e2e-${s.name}`);
      return {
        command: `rm -rf "${dataDir}" && node --import tsx e2e/serve.ts`,
        cwd: root,
        url: `http://127.0.0.1:${s.port}/ks/health`,
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
        env: {
          PORT: String(s.port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          NODE_ENV: 'development',
          LOG_LEVEL: 'warn',
          TRUST_PROXY: '1',
          RATE_LIMIT_PER_MINUTE: '100000',
          E2E_RUN_ID: RUN_ID,
          E2E_SERVER_NAME: s.name,
          ...s.env,
        },
      };
    }),
  ],
});
