/**
 * DynamicTable rendering 50 columns × 50 rows in Chromium (issue 5: under 100 ms), measured with the Performance API
 * inside the page: render() → committed DOM (flushSync), and → the next frame. The bench page (bench/table/) mounts
 * the real component in the app's antd providers; it is built here with Vite in production mode, served from a tiny
 * static server, and mounted RUNS times (the first mount is cold: antd generates its styles; the rest are warm).
 * The table skips rows far out of view (content-visibility: auto) until they are scrolled near. In the first frame of
 * new rows it also holds back the rows below the window and the cells of columns beyond its right edge: the third
 * time, "settled", is to the frame after that deferred work (the held-back rows and columns laid out). ALL_ROWS=1
 * turns both off, so the first frame lays out and paints all 50 rows and 52 columns (for comparison).
 * Run: npm run bench:table
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { machine, root } from './lib';

const RUNS = Number(process.env.RUNS ?? 11);
const outDir = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-table-'));
await build({
  root: path.join(root, 'bench/table'),
  configFile: false,
  logLevel: 'warn',
  plugins: [react()],
  mode: 'production',
  build: { outDir, emptyOutDir: true },
});

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const rel = url.pathname === '/' ? 'index.html' : path.normalize(url.pathname).replace(/^[/\\]+/, '');
  const file = path.join(outDir, rel);
  if (!file.startsWith(outDir)) return void res.writeHead(404).end();
  try {
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((r) => server.listen(18320, '127.0.0.1', r));

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
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const allRows = process.env.ALL_ROWS === '1';
if (allRows) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '.ks-table-row, .ks-table-cell { content-visibility: visible !important; }';
      document.head.append(style);
    });
  });
}
await page.goto(`http://127.0.0.1:18320/?runs=${RUNS}&variant=${process.env.VARIANT ?? 'full'}`);
await page.waitForFunction(() => (window as unknown as { __bench?: unknown }).__bench, null, { timeout: 120_000 });
const results = (await page.evaluate(() => (window as unknown as { __bench: unknown }).__bench)) as {
  commit: number;
  frame: number;
  settled: number;
  cells: number;
}[];
await browser.close();
server.close();
rmSync(outDir, { recursive: true, force: true });

const cells = results[0]?.cells ?? 0;
if (cells < 50 * 50) throw new Error(`the table rendered ${cells} cells, expected at least 2,500`);
const warm = results.slice(1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const summary = {
  date: new Date().toISOString(),
  machine: machine(),
  runs: RUNS,
  variant: process.env.VARIANT ?? 'full',
  allRows,
  cellsRendered: cells,
  cold: results[0],
  warmMedian: {
    commit: median(warm.map((r) => r.commit)),
    frame: median(warm.map((r) => r.frame)),
    settled: median(warm.map((r) => r.settled)),
  },
  warmMax: { commit: Math.max(...warm.map((r) => r.commit)), frame: Math.max(...warm.map((r) => r.frame)) },
  target: 'render 50 × 50 under 100 ms',
};
writeFileSync(
  path.join(root, 'bench/results/table-render.json'),
  `${JSON.stringify({ ...summary, results }, null, 2)}\n`,
);
const f = (n: number | undefined) => `${(n ?? Number.NaN).toFixed(1)} ms`;
console.info(`DynamicTable 50 columns × 50 rows (${cells} cells), ${machine()}`);
console.info(
  `cold mount: commit ${f(results[0]?.commit)}, next frame ${f(results[0]?.frame)}, settled ${f(results[0]?.settled)}`,
);
console.info(
  `warm mounts (${warm.length}): median commit ${f(summary.warmMedian.commit)}, next frame ${f(summary.warmMedian.frame)}, settled ${f(summary.warmMedian.settled)}; max commit ${f(summary.warmMax.commit)}, max frame ${f(summary.warmMax.frame)}`,
);
