/**
 * Portal with 5,000 notices: list endpoint latency (p50/p95/p99) and Largest Contentful Paint of `/` in Chromium.
 * Prepares an embedded database (migrations, demo seed, + 5,000 published notices), then starts the real server on it.
 * Run: npm run bench:portal   (build the web app first: npm run build)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPglite, openPostgres } from '../apps/server/src/db/client';
import { notices } from '../apps/server/src/db/schema';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { generateNotices } from '../apps/server/src/seed/portal';
import { machine, root, startServer } from './lib';

const EXTRA = Number(process.env.NOTICES ?? 5000);
/** BENCH_PG_URL=postgres://…/postgres: run on a fresh PostgreSQL database created there, instead of the embedded one. */
const pgAdminUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-portal-'));
let databaseUrl = '';
if (pgAdminUrl) {
  const name = `ks_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(pgAdminUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
}
{
  const database = databaseUrl
    ? await openPostgres(databaseUrl, 4)
    : await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
  await database.migrate();
  // the demo's evidence files in the served DATA_DIR
  await seedDemo(database.db, { storage: createLocalStorage(path.join(dataDir, 'files')) });
  const rows = generateNotices(EXTRA, { seed: 42, days: 365 });
  for (let i = 0; i < rows.length; i += 500) await database.db.insert(notices).values(rows.slice(i, i + 500));
  await database.db.execute(sql`analyze`);
  await database.close();
}

// The rate limit would answer 429 to a load test from one address.
const server = await startServer({
  port: 18320,
  dataDir,
  env: { RATE_LIMIT_PER_MINUTE: '1000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
});
process.on('exit', () => server.proc.kill('SIGKILL'));
const q = (p: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(p).map(([k, v]): [string, string] => [k, String(v)]));
const cases: [string, string][] = [
  ['page 1', `/ks/portal/v1/notices?${q({ pageNum: 1, pageSize: 10 })}`],
  ['category + page 5', `/ks/portal/v1/notices?${q({ category: '招标公告', pageNum: 5, pageSize: 20 })}`],
  ['trade type + region', `/ks/portal/v1/notices?${q({ tradeType: '工程建设', region: '太原市' })}`],
  ['date range', `/ks/portal/v1/notices?${q({ startDate: '2026-06-01', endDate: '2026-09-30' })}`],
  ['keyword', `/ks/portal/v1/notices?${q({ keyword: '污水处理厂' })}`],
  ['page 200', `/ks/portal/v1/notices?${q({ pageNum: 200, pageSize: 20 })}`],
  ['home overview', '/ks/portal/v1/home/overview'],
  ['market list', `/ks/portal/v1/market/entities?${q({ kind: 'enterprise', creditGrade: 'AA' })}`],
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const latency = [];
for (const [name, url] of cases) {
  for (let i = 0; i < 20; i++) await fetch(server.url + url).then((r) => r.arrayBuffer()); // warm up
  const times: number[] = [];
  const concurrency = 4;
  const perWorker = 100;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < perWorker; i++) {
        const t0 = performance.now();
        const r = await fetch(server.url + url);
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  latency.push({
    case: name,
    requests: times.length,
    p50: +pct(times, 50).toFixed(1),
    p95: +pct(times, 95).toFixed(1),
    p99: +pct(times, 99).toFixed(1),
  });
}
console.table(latency);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const lcps: number[] = [];
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]!.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  lcps.push(lcp);
  await ctx.close();
}
await browser.close();
await server.stop();
lcps.sort((a, b) => a - b);
console.info(`LCP of / (5 cold loads): median ${lcps[2]!.toFixed(0)} ms, max ${lcps[4]!.toFixed(0)} ms`);

writeFileSync(
  path.join(root, `bench/results/portal-${databaseUrl ? 'pg' : 'pglite'}.json`),
  `${JSON.stringify({ when: new Date().toISOString(), machine: machine(), driver: databaseUrl ? 'pg' : 'pglite', notices: EXTRA + 72, latencyMs: latency, lcpMs: lcps.map(Math.round) }, null, 2)}\n`,
);
