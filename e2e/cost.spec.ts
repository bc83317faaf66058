import { costXml } from '../apps/server/src/modules/cost/cost.sample';
import { expect, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * Issue 18, 文件分析: the administrator uploads the three bidders' cost files of the opening demo's section
 * (SXGC-2026-1005 BD-01) — one clean, and one file handed from one bidder to another with its 安全文明施工费 cut below
 * the rate — starts the detection, follows it, leaves the page and comes back to the findings: the identical pair with
 * its evidence, the cut fee, the clean file passing; then opens a file's cost tree, collapses and expands it, and finds
 * the file's total in it; publishes the summary (the preview without evidence) and opens the published page.
 */
test.describe.configure({ timeout: 180_000 });

const PROJECT = '忻州市忻府区第三中学学生公寓楼建设工程';

/** The total of the file's 建设项目 as the page shows it (thousands separators, two decimals). */
const totalOf = (xml: string) => {
  const v = Number(/<建设项目 [^>]*总造价="([\d.]+)"/.exec(xml)![1]);
  return v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
};

test('an administrator uploads three cost files, runs the detection and reads its findings and a cost tree', async ({
  browser,
}) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  await page.goto('/fileAnalysis/index');
  await expect(page.getByTestId('cost-card')).toBeVisible({ timeout: 30_000 });
  await page.locator('[data-testid^="cost-open-"]').filter({ hasText: PROJECT }).click();
  await expect(page.getByTestId('cost-files')).toBeVisible();
  const inputs = page.locator('[data-testid^="cost-file-"]');
  await expect(inputs).toHaveCount(3);
  const ids = await inputs.evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-testid')!.slice('cost-file-'.length)),
  );
  const clean = costXml({ bidder: '示例建设工程有限公司', seed: 71 });
  const handed = costXml({ bidder: '投标人乙', seed: 72, safetyRate: 0.02 });
  const files = [clean, handed, handed];
  for (const [i, id] of ids.entries()) {
    await page.getByTestId(`cost-file-${id}`).setInputFiles({
      name: `投标报价-${i + 1}.xml`,
      mimeType: 'text/xml',
      buffer: Buffer.from(files[i]!),
    });
    await expect(page.getByTestId(`cost-has-file-${id}`)).toBeVisible({ timeout: 30_000 });
  }

  // start, with a confirmation; the page says it is running (or, on a quick machine, already done)
  await page.getByTestId('cost-start').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('cost-detection')).toContainText(/排队中|检测中|检测完成/);

  // leave, come back: the findings are there
  await page.goto('/system/pageConfig');
  await page.goto('/fileAnalysis/index');
  await page.locator('[data-testid^="cost-open-"]').filter({ hasText: PROJECT }).click();
  await expect(page.getByTestId('cost-detection')).toContainText('检测完成', { timeout: 60_000 });
  await expect(page.getByTestId('cost-results')).toBeVisible();
  await expect(page.getByTestId(`cost-risk-${ids[0]}`)).toHaveText('低风险');
  await expect(page.getByTestId(`cost-findings-${ids[0]}`)).toHaveCount(0);
  for (const id of ids.slice(1)) {
    await expect(page.getByTestId(`cost-risk-${id}`)).toHaveText('高风险');
    const f = page.getByTestId(`cost-findings-${id}`);
    await expect(f).toContainText('造价文件完全相同');
    await expect(f).toContainText('安全文明施工费低于费率');
  }
  // the evidence of the pair: both files' SHA-256
  const pair = page.getByTestId(`cost-findings-${ids[1]}`).locator('li').filter({ hasText: '造价文件完全相同' });
  await pair.locator('summary').click();
  await expect(pair).toContainText(/两份文件的 SHA-256 均为 [0-9a-f]{64}/);
  await expect(page.getByTestId('cost-heatmap')).toContainText('100%');

  // 公示: the preview holds the categories, not the evidence; once published the bidders' page shows it
  await page.getByTestId('cost-publish').click();
  const preview = page.getByTestId('cost-publicity');
  await expect(preview.getByTestId('cost-publicity-pairs')).toContainText('造价文件完全相同');
  await expect(preview).not.toContainText('SHA-256');
  await page.getByTestId('cost-publish-ok').click();
  await expect(page.getByTestId('cost-published')).toHaveText('已公示');

  // the clean file's cost tree: its total, collapsed and expanded
  await page
    .getByTestId('cost-files')
    .getByRole('row')
    .filter({ hasText: '投标报价-1.xml' })
    .getByRole('link', { name: '造价树' })
    .click();
  const tree = page.getByTestId('cost-tree');
  await expect(tree).toContainText(totalOf(clean), { timeout: 30_000 });
  await expect(tree).toContainText('学生公寓楼-建筑工程');
  await page.getByTestId('cost-tree-collapse').click();
  await expect(tree).not.toContainText('学生公寓楼-建筑工程');
  await page.getByTestId('cost-tree-expand').click();
  await expect(tree).toContainText('学生公寓楼-建筑工程');

  // the publication, as the bidders' message opens it
  await page.goBack();
  await page.getByRole('link', { name: '查看公示' }).click();
  await expect(page).toHaveURL(/\/fileAnalysis\/publicity\?sectionId=/);
  await expect(page.getByTestId('cost-publicity-published')).toBeVisible({ timeout: 30_000 });
  await context.close();
});
