/**
 * The gzip size of the JavaScript each route loads before it is interactive, measured in Chromium:
 * every script response until the network is idle, gzipped at level 6 (what a reverse proxy sends).
 * Run: npm run bench:size   (builds nothing: run `npm run build` first)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { machine, root, startServer } from './lib';

const server = await startServer({ port: 18310 });
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

async function measure(page: Page, url: string, before?: (p: Page) => Promise<void>) {
  if (before) await before(page);
  const scripts = new Map<string, number>();
  const onResponse = async (res: import('@playwright/test').Response) => {
    if (res.request().resourceType() !== 'script') return;
    try {
      scripts.set(res.url(), gzipSync(await res.body(), { level: 6 }).length);
    } catch {
      // body gone (navigation)
    }
  };
  page.on('response', onResponse);
  await page.goto(`${server.url}${url}`, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  return { url, files: scripts.size, gzipKB: +(total / 1024).toFixed(1) };
}

const rows = [];
try {
  for (const url of ['/', '/login', '/no-such-page']) {
    const ctx = await browser.newContext();
    rows.push(await measure(await ctx.newPage(), url));
    await ctx.close();
  }
  // Signed in: sign in through the page, then measure a cold load of the landing page.
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByPlaceholder('请输入账号').fill('admin');
  await page.getByText('管理员', { exact: true }).click();
  await page.getByPlaceholder('请输入密码').fill('Demo@2026');
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL('**/system/pageConfig');
  const storage = await page.evaluate(() => JSON.stringify(sessionStorage));
  const signedIn = await browser.newContext();
  await signedIn.addInitScript((s) => {
    for (const [k, v] of Object.entries(JSON.parse(s) as Record<string, string>)) sessionStorage.setItem(k, v);
  }, storage);
  rows.push(await measure(await signedIn.newPage(), '/system/pageConfig'));
  await signedIn.close();
  await ctx.close();
} finally {
  await browser.close();
  await server.stop();
}

const result = { when: new Date().toISOString(), machine: machine(), routes: rows };
writeFileSync(path.join(root, 'bench/results/route-size.json'), `${JSON.stringify(result, null, 2)}\n`);
console.table(rows);
