import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { acknowledgePractice, newClient, signIn } from './helpers';

/**
 * Issue 16, deposits and guarantee letters: user1 opens 保证金与保函 from the 电子保函 menu and finds their deposits on
 * the demo sections (one received in cash, one secured by a guarantee letter), the plain notice that no
 * issuer is configured on this server (so no 申请保函), and downloads the issued letter (demo history) as a PDF.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test('user1 sees their deposits and guarantee letter and downloads the issued letter', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto('/custom/guarantee?gnCoding=DZBH_BZJ&systemCoding=DZBH');
  await expect(page.getByTestId('guarantee-page')).toBeVisible({ timeout: 30_000 });
  // the sidebar names the page
  await expect(page.getByRole('menuitem', { name: '保证金与保函' })).toBeVisible();
  await expect(page.getByTestId('guarantee-issuer-missing')).toContainText('未配置出函机构');
  const deposits = page.getByTestId('deposit-table');
  const row = (text: string) => deposits.locator('tr', { hasText: text });
  await expect(row('SXGC-2026-1102 · BD-01 施工标段')).toContainText('已到账');
  await expect(row('SXGC-2026-1102 · BD-01 施工标段')).toContainText('476,000.00');
  await expect(row('SXGC-2026-1101 · BD-01 施工标段')).toContainText('保函替代');
  await expect(page.getByText('申请保函')).toHaveCount(0);

  const letters = page.getByTestId('letter-table');
  await expect(letters).toContainText('晋商银行股份有限公司太原分行');
  await expect(letters).toContainText('JSBH-2026-110101');
  await expect(letters).toContainText('已出函');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('letter-download-BD-01').click(),
  ]);
  expect(download.suggestedFilename()).toBe('投标保函-BD-01-JSBH-2026-110101.pdf');
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  await context.close();
});
