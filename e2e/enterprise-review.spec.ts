import { expect, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn, signOut } from './helpers';

/**
 * Issue 11: an enterprise's edit of 企业信息 reaches the public portal only after an administrator passes it.
 */
test('user1 edits 企业信息 → the portal is unchanged → the administrator passes it → the portal shows it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
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

  // user1 proposes a new address
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto('/system/companyInfo');
  await expect(page.getByTestId('company-review-note')).toContainText('须经管理员审核通过');
  const address = page.getByTestId('company-address');
  await expect(address).not.toHaveValue('');
  await address.fill(newAddress);
  await page.getByTestId('company-save').click();
  await expect(page.locator('.ant-message')).toContainText('已提交，待管理员审核通过后生效');
  const pending = page.getByTestId('company-change-pending');
  await expect(pending).toContainText('变更申请审核中');
  await expect(pending).toContainText(newAddress);

  // the portal still shows the approved address
  await portal.goto(detailUrl);
  await expect(portal.getByTestId('section-basic')).toBeVisible();
  await expect(portal.getByTestId('section-basic')).not.toContainText(newAddress);

  // the administrator passes it
  await signOut(page);
  await signIn(page, 'admin', 'M');
  await expectSignedIn(page, '平台管理员');
  await page.goto('/system/companyInfo');
  await expect(page.getByTestId('change-review-tab')).toContainText('1');
  const row = page.locator('[data-testid="change-table"] .ant-table-row', { hasText: '示例建设工程有限公司' });
  await expect(row.getByTestId('change-row-items')).toContainText(`注册地址：`);
  await expect(row.getByTestId('change-row-items')).toContainText(newAddress);
  await row.getByTestId('change-pass').click();
  await page.locator('.ant-popover:visible').getByTestId('confirm-ok').click();
  await expect(page.locator('.ant-message')).toContainText('已通过，门户已更新');
  await expect(row).toHaveCount(0);

  // now the portal shows it
  await portal.goto(detailUrl);
  await expect(portal.getByTestId('section-basic')).toContainText(newAddress);
  await visitor.context.close();
  await context.close();
});
