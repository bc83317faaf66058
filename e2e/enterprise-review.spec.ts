import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn, signOut } from './helpers';

/**
 * Issues 11 and 13: an enterprise's edit of 企业信息 is a change round (信息变更, screen 1) and reaches the public portal
 * only after an administrator passes it.
 */

const pdf = (title: string) =>
  Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

async function upload(page: Page, testId: string, name: string) {
  const box = page.getByTestId('rfc-round-1').getByTestId(testId);
  await box.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/pdf', buffer: pdf(name) });
  await expect(box).toContainText(name);
}

async function confirm(page: Page, question: string) {
  const box = page.locator('.ant-modal-confirm').filter({ hasText: question });
  await expect(box).toBeVisible();
  await box.getByRole('button', { name: '确定' }).click();
}

test('user1 changes 企业信息 in a change round → the portal is unchanged → the administrator passes it → the portal shows it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const newAddress = `太原市小店区长治路 227 号 ${Date.now() % 100000} 室`;
  const { context, page } = await newClient(browser);
  // a visitor of the portal, in a browser of their own
  const visitor = await newClient(browser);
  const portal = visitor.page;

  // what the portal shows of the demo enterprise
  await portal.goto(`/market-list?kind=enterprise&keyword=${encodeURIComponent('示例建设')}`);
  await portal.getByTestId('market-name').first().click();
  await expect(portal.getByTestId('section-basic')).toBeVisible();
  const detailUrl = portal.url();
  const before = (await portal.getByTestId('section-basic').textContent())!;
  expect(before).not.toContain(newAddress);

  // user1 opens an information round with a new address
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto('/system/companyInfo');
  await expect(page.getByTestId('company-review-note')).toContainText('须通过「信息变更」办理');
  await expect(page.getByTestId('company-address')).toHaveCount(0);
  await page.getByTestId('company-change').click();
  const r1 = page.getByTestId('rfc-round-1');
  await expect(r1.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '1');
  const cascader = r1.getByTestId('rfc-type');
  await expect(async () => {
    if (!(await page.locator('.ant-cascader-dropdown:visible').count())) await cascader.click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '信息变更' }).click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '企业基本信息' }).click();
    await expect(cascader).toContainText('企业基本信息', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  const address = r1.getByTestId('rfc-row-address').locator('input');
  await expect(address).not.toHaveValue('');
  await address.fill(newAddress);
  await r1.getByTestId('rfc-reason').fill('公司办公地址迁址，申请变更注册地址');
  await upload(page, 'rfc-attachments', '迁址说明.pdf');
  await upload(page, 'rfc-annex-files-bgsqb', '变更申请表.pdf');
  await upload(page, 'rfc-annex-files-yyzz', '营业执照.pdf');
  await r1.getByTestId('rfc-save').click();
  await expect(page.locator('.ant-message')).toContainText('保存成功');
  await expect(r1.getByTestId('rfc-data-address')).toContainText(newAddress);
  await page.waitForTimeout(1100);
  await r1.getByTestId('rfc-submit').click();
  await confirm(page, '确定提交本轮变更吗？提交后将不能修改。');
  await expect(page.locator('.ant-message')).toContainText('已提交，等待审核');
  const pending = page.getByTestId('company-change-pending');
  await expect(pending).toContainText('信息变更办理中');
  await expect(pending).toContainText(newAddress);
  // the page shows the public value until the round passes
  await expect(page.getByTestId('company-address-text')).not.toContainText(newAddress);

  // the portal still shows the approved address
  await portal.goto(detailUrl);
  await expect(portal.getByTestId('section-basic')).toBeVisible();
  await expect(portal.getByTestId('section-basic')).not.toContainText(newAddress);

  // the administrator passes it in the change dialog
  await signOut(page);
  await signIn(page, 'admin', 'M');
  await expectSignedIn(page, '平台管理员');
  await page.goto('/system/companyInfo');
  await expect(page.getByTestId('change-review-tab')).toContainText('1');
  const row = page.locator('[data-testid="change-table"] .ant-table-row', { hasText: '示例建设工程有限公司' });
  await expect(row.getByTestId('change-row-items')).toContainText('注册地址：');
  await expect(row.getByTestId('change-row-items')).toContainText(newAddress);
  await row.getByTestId('change-open').click();
  const review = page.getByTestId('rfc-round-1');
  await expect(review.getByTestId('rfc-data-address')).toContainText(newAddress);
  await review.getByTestId('rfc-pass').click();
  await confirm(page, '确认通过？');
  await expect(page.locator('.ant-message')).toContainText('变更通过，新的内容已生效');
  await expect(review.getByTestId('rfc-status')).toHaveText('变更通过');
  await review.getByTestId('rfc-close').click();
  await expect(row).toHaveCount(0);

  // now the portal shows it
  await portal.goto(detailUrl);
  await expect(portal.getByTestId('section-basic')).toContainText(newAddress);
  await visitor.context.close();
  await context.close();
});
