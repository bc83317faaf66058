import { readFileSync } from 'node:fs';
import { expect, type Page, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * Issue 19, 公共数据: the administrator publishes a tender notice and its result on the portal (a 交易 of the test's own),
 * opens 市场指标 from the sidebar and sees the server's numbers, opens the monitoring report and downloads its PDF; the
 * test's 交易 is in 交易明细 with its price and discount and leads to its notice on the portal; a person of the market
 * shows qualifications with masked numbers.
 */
test.describe.configure({ timeout: 180_000 });

/** A JSON call of the API as the page's signed-in user. */
async function api<T = { code: number; data: Record<string, unknown>; message: string }>(
  page: Page,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, path, body },
  );
}

test('市场指标, the monitoring report and its PDF, a 交易 to its notice, a person’s qualifications', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const projectName = `阳泉市郊区公共数据演示道路工程${stamp}`;
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('token')), { timeout: 30_000 }).toBeTruthy();

  // a 交易 of the test's own: its tender notice (最高投标限价 2,000,000) and result (1,820,000: 9.00% below)
  const publish = async (category: string, amount: string) => {
    const saved = await api(page, 'POST', '/ks/portal/v1/admin/notices/save', {
      title: `${projectName}${category}`,
      category,
      tradeType: '工程建设',
      region: '阳泉市',
      projectCode: `GGSJ-${stamp}`,
      projectName,
      sectionName: '施工标段',
      tenderer: '阳泉市郊区住房和城乡建设局',
      amount,
      bodyHtml: `<p>${projectName}${category}</p>`,
      attachments: [],
    });
    expect(saved.code, saved.message).toBe(200);
    const published = await api(page, 'POST', '/ks/portal/v1/admin/notices/publish', { id: saved.data.id });
    expect(published.code, published.message).toBe(200);
    return String(saved.data.id);
  };
  await publish('招标公告', '2000000.00');
  const resultId = await publish('中标结果公告', '1820000.00');

  // 市场指标 from the sidebar: the figures are the server's
  await page.goto('/judge');
  await page.getByTestId('judge-system-TJFX').click();
  await page.getByTestId('side-item-TJFX_GGSJ').click();
  await page.getByTestId('side-item-TJFX_SCZB').click();
  await expect(page).toHaveURL(/\/demoPublicPage\/indicatorDet\?gnCoding=TJFX_SCZB/);
  const served = await api<{ data: { total: { published: number; awarded: number; discountRate: number | null } } }>(
    page,
    'GET',
    '/ks/public-data/v1/indicators?granularity=month',
  );
  expect(served.data.total.published).toBeGreaterThan(0);
  await expect(page.getByTestId('publicdata-total-published')).toContainText(
    served.data.total.published.toLocaleString('zh-CN'),
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('publicdata-total-awarded')).toContainText(String(served.data.total.awarded));
  await expect(page.getByTestId('publicdata-total-discount')).toContainText(
    `${((served.data.total.discountRate ?? 0) * 100).toFixed(2)}%`,
  );
  await expect(page.getByTestId('publicdata-chart-volume')).toHaveAttribute('aria-label', /发布：/);
  // the region of the test's 交易 counts it
  await page.getByTestId('publicdata-ind-region').click();
  await page.getByTitle('阳泉市', { exact: true }).click();
  await expect(page.getByTestId('publicdata-by-region')).toContainText('阳泉市');

  // the monitoring report of this month, and its PDF
  await page.getByTestId('publicdata-granularity').getByText('月度').click();
  await page.getByTestId('publicdata-to-report').click();
  await expect(page).toHaveURL(/\/demoPublicPage\/monitoringReport\?period=\d{4}-\d{2}/);
  await expect(page.getByTestId('publicdata-report-title')).toContainText('公共资源交易市场监测报告', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('publicdata-report-findings')).toContainText('本期');
  await expect(page.getByTestId('publicdata-report-summary')).toContainText('平均下浮率');
  const download = page.waitForEvent('download');
  await page.getByTestId('publicdata-pdf').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^市场监测报告-\d{4}年\d{1,2}月-阳泉市\.pdf$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

  // 交易明细: the test's 交易 with its price and discount; its name opens the result notice on the portal
  await page.getByTestId('publicdata-nav').getByText('交易明细').click();
  await expect(page).toHaveURL(/\/demoPublicPage\/detailsList/);
  const keyword = page.getByTestId('publicdata-keyword');
  const box = (await keyword.evaluate((e) => e.tagName)) === 'INPUT' ? keyword : keyword.locator('input');
  await box.fill(`GGSJ-${stamp}`);
  await box.press('Enter');
  const table = page.getByTestId('publicdata-details-table');
  await expect(table.getByText('共 1 宗').or(page.getByText('共 1 宗'))).toBeVisible({ timeout: 30_000 });
  await expect(table.getByText('2,000,000.00')).toBeVisible();
  await expect(table.getByText('1,820,000.00')).toBeVisible();
  await expect(table.getByText('9.00%')).toBeVisible();
  const popup = page.waitForEvent('popup');
  await table.getByText(projectName).click();
  const notice = await popup;
  await expect(notice).toHaveURL(new RegExp(`/transac-news\\?id=${resultId}$`));
  await expect(notice.getByTestId('notice-detail-title')).toHaveText(`${projectName}中标结果公告`, {
    timeout: 30_000,
  });
  await notice.close();

  // 从业人员: a person's public record shows qualifications, numbers masked
  await page.getByTestId('publicdata-nav').getByText('从业人员').click();
  const persons = page.getByTestId('publicdata-persons-table');
  await persons.locator('a[data-testid^="publicdata-person-"]').first().click();
  await expect(page).toHaveURL(/\/demoPublicPage\/perDetails\?id=/);
  const quals = page.getByTestId('publicdata-person-quals');
  await expect(quals.locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(quals).toContainText('*');
  await context.close();
});
