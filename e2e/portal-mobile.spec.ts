import { type APIRequestContext, type BrowserContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn, waitForQuiet } from './helpers';

/**
 * Issue 11: the portal fits a phone (390 and 360 px wide: nothing makes the page scroll sideways), and no page —
 * portal or back office — logs an error or a content-security-policy violation.
 */

interface Envelope<T> {
  data: T;
}
async function api<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<T>).data;
}

async function portalRoutes(request: APIRequestContext): Promise<string[]> {
  const notices = await api<{ records: { id: string }[] }>(
    request,
    `/ks/portal/v1/notices?${new URLSearchParams({ category: '中标候选人公示' })}`,
  );
  const ent = await api<{ records: { id: string }[] }>(request, '/ks/portal/v1/market/entities?kind=enterprise');
  const prac = await api<{ records: { id: string }[] }>(request, '/ks/portal/v1/market/entities?kind=practitioner');
  return [
    '/',
    '/transac',
    `/transac?${new URLSearchParams({ startDate: '2026-01-01', endDate: '2026-12-31' })}`,
    `/transac-news?id=${notices.records[0]!.id}`,
    '/market',
    '/market-list?kind=enterprise',
    '/market-list?kind=agency',
    '/market-list?kind=practitioner',
    `/market-details?kind=enterprise&id=${ent.records[0]!.id}`,
    `/market-details?kind=practitioner&id=${prac.records[0]!.id}`,
    '/credit/creditPublicList',
    `/credit/creditPublicList?${new URLSearchParams({ keyword: '建设', match: 'contains' })}`,
  ];
}

/** Waits until the page shows its data (no skeleton left), then measures. */
async function settled(page: Page) {
  await expect(page.getByTestId('site-footer')).toBeVisible();
  await expect(page.locator('.kp-skeleton, .kp-skeleton-line')).toHaveCount(0);
}

const overflow = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

for (const [width, height] of [
  [390, 844],
  [360, 780],
] as const) {
  test(`every portal route fits ${width} px: no sideways scrolling of the page`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { context, page } = await newClient(browser);
    await page.setViewportSize({ width, height });
    for (const route of await portalRoutes(context.request)) {
      await page.goto(route);
      await settled(page);
      const m = await overflow(page);
      expect(m.scrollWidth, `${route} at ${width}px`).toBeLessThanOrEqual(m.innerWidth);
      // the header navigation and the footer are there and within the width
      await expect(page.getByTestId('nav-transac')).toBeVisible();
      const footer = await page.getByTestId('site-footer').boundingBox();
      expect(footer!.x + footer!.width, route).toBeLessThanOrEqual(width + 0.5);
    }
    // a wide table scrolls inside its box, not the page
    await page.goto((await portalRoutes(context.request))[3]!);
    await settled(page);
    const table = page.getByTestId('notice-body').locator('table').first();
    await expect(table).toBeVisible();
    const box = await table.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    await context.close();
  });
}

/** Every console error, page error and CSP violation of a page, from before its first script runs. */
async function watch(context: BrowserContext, page: Page) {
  const problems: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      // reported back through the console, which the test listens to
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|CSP/i.test(m.text())) {
      problems.push(`${m.type()} @ ${page.url()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`pageerror @ ${page.url()}: ${e.message}`));
  return problems;
}

test('no page logs an error or a content-security-policy violation (portal and back office)', async ({ browser }) => {
  // many pages in one test
  test.setTimeout(240_000);
  const { context, page } = await newClient(browser);
  const problems = await watch(context, page);
  for (const route of await portalRoutes(context.request)) {
    await page.goto(route);
    await settled(page);
  }

  // back office: the administrator's pages, the notice editor with its preview, the enterprise review
  await signIn(page, 'admin', 'M');
  await expectSignedIn(page, '平台管理员');
  for (const route of ['/system/pageConfig', '/judge', '/userCenter/uCenter', '/system/companyInfo']) {
    await page.goto(route);
    await waitForQuiet(page);
  }
  await page.goto('/system/portalNotices');
  await expect(page.locator('[data-testid="notice-table"] .ant-table-row').first()).toBeVisible();
  await page.locator('[data-testid="notice-table"] .ant-table-row').first().getByTestId('notice-edit').click();
  const drawer = page.getByRole('dialog', { name: '编辑公告' });
  await expect(drawer.getByTestId('notice-body-area').locator('[data-slate-editor]')).toBeVisible({ timeout: 20_000 });
  await drawer.getByTestId('notice-preview-open').click();
  await expect(page.getByTestId('notice-preview')).not.toBeEmpty();
  await waitForQuiet(page);

  // and an enterprise user's
  const second = await newClient(browser);
  const userProblems = await watch(second.context, second.page);
  await signIn(second.page, 'user1', 'U');
  await acknowledgePractice(second.page);
  for (const route of ['/system/pageConfig', '/system/companyInfo', '/userCenter/uCenter']) {
    await second.page.goto(route);
    await waitForQuiet(second.page);
  }
  expect([...problems, ...userProblems]).toEqual([]);
  await second.context.close();
  await context.close();
});
