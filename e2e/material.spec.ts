import { materialWorkbook } from '../apps/server/src/modules/material/material.xlsx';
import { expect, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * Issue 19, 材料信息价: an administrator imports a period of 大同市 whose third row is bad — the row is named with its
 * number and nothing is imported —, imports the corrected file as a draft and publishes it after a confirmation; an
 * anonymous visitor then finds the material on the portal's 材料信息价 page and opens its price history chart.
 */
test.describe.configure({ timeout: 180_000 });

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const good: (string | number | null)[][] = [
  ['平城区', '黑色及有色金属', '钢筋', 'DT0101', '大同测试螺纹钢筋', 'HRB400E Φ12', 't', 3460.18, 3910, ''],
  ['', '水泥、砖瓦灰砂石', '水泥', 'DT0201', '大同测试水泥', 'P·O 42.5 散装', 't', 409.73, 463, ''],
  ['云冈区', '混凝土及砂浆', '商品混凝土', 'DT0301', '大同测试商品混凝土', 'C30', 'm³', 467.96, 482, ''],
];
const bad = good.map((r, i) => (i === 1 ? [...r.slice(0, 7), '四百元', 463, ''] : r));

test('an administrator imports a period (a bad row refused by number), publishes it, and a visitor charts a material', async ({
  browser,
}) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  await page.goto('/custom/materialPrices');
  const periods = page.getByTestId('material-periods-table');
  await expect(periods).toBeVisible({ timeout: 30_000 });
  await expect(periods).toContainText('太原市');

  const upload = async (rows: (string | number | null)[][], name: string) => {
    await page.locator('.ant-modal input[type=file]').setInputFiles({
      name,
      mimeType: XLSX,
      buffer: materialWorkbook(rows),
    });
    await expect(page.getByTestId('material-import-name')).toHaveText(name);
    await page.getByTestId('material-import-ok').click();
  };

  await page.getByTestId('material-import').click();
  await page.getByTestId('material-import-city').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '大同市' }).click();
  await upload(bad, '大同信息价-有误.xlsx');
  await expect(page.getByTestId('material-import-error')).toContainText('共有 1 行数据有误，未导入任何数据');
  const errors = page.getByTestId('material-import-errors');
  await expect(errors).toContainText('第 3 行');
  await expect(errors).toContainText('「除税价（元）」应为不小于 0 的金额');
  // nothing was imported
  const listed = await page.request.get('/ks/material/admin/periods?city=%E5%A4%A7%E5%90%8C%E5%B8%82', {
    headers: { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` },
  });
  expect((await listed.json()).data.total).toBe(0);

  await upload(good, '大同信息价.xlsx');
  await expect(page.locator('.ant-message')).toContainText('行），为草稿', { timeout: 30_000 });
  const row = periods.locator('tr').filter({ hasText: '大同市' });
  await expect(row).toContainText('草稿');
  await expect(row).toContainText('3');
  await row.locator('[data-testid^="material-publish-"]').click();
  await page.getByTestId('confirm-ok').click();
  await expect(row).toContainText('已发布');
  await context.close();

  // an anonymous visitor, from the portal's navigation
  const visitor = await newClient(browser);
  const v = visitor.page;
  await v.goto('/');
  await v.getByTestId('nav-material').click();
  await expect(v).toHaveURL(/\/materialPrices$/);
  await expect(v.getByTestId('mp-table')).toBeVisible({ timeout: 30_000 });
  await v.getByTestId('mp-city').selectOption('大同市');
  await expect(v.getByTestId('material-public')).toContainText('大同市');
  await v.getByTestId('filter-keyword').fill('测试螺纹');
  await v.getByTestId('filter-search').click();
  const hit = v.getByTestId('mp-table').locator('tbody tr');
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('大同测试螺纹钢筋');
  await expect(hit).toContainText('3910.00');
  await hit.locator('[data-testid^="mp-trend-"]').click();
  const trend = v.getByTestId('material-trend');
  await expect(trend).toBeVisible({ timeout: 30_000 });
  await expect(trend.getByTestId('material-trend-chart').locator('svg').first()).toBeVisible();
  await expect(v.getByTestId('material-trend-table')).toContainText('3910.00');
  await visitor.context.close();
});
