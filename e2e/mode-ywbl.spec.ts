import { expect, test } from '@playwright/test';
import { newClient } from './helpers';
import { BID_HALL_URL } from './playwright.config';

// Runs against a server started with LOGIN_MODE=ywbl (its own Playwright project).
test.describe('login mode "ywbl"', () => {
  test('the server reports mode ywbl', async ({ request }) => {
    const res = await request.get('/ks/portal/v1/home/config');
    expect(((await res.json()) as { data: { loginMode: string } }).data.loginMode).toBe('ywbl');
  });

  test('/ is the sign-in page and /admin-business the 业务办理 sign-in', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await expect(page.getByTestId('login-heading')).toHaveText('欢迎登录');

    await page.goto('/admin-business');
    await expect(page.getByTestId('login-heading')).toHaveText('业务办理');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await expect(page).toHaveURL(/\/admin-business$/);

    // the portal pages stay reachable
    await page.goto('/transac');
    await expect(page.getByTestId('notice-row').first()).toBeVisible();
    await context.close();
  });

  test('signing in on /admin-business goes to the home URL', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/admin-business');
    await page.getByTestId('login-role-M').click();
    await page.getByPlaceholder('请输入账号').fill('admin');
    await page.getByPlaceholder('请输入密码').fill('Demo@2026');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page).toHaveURL(/\/system\/pageConfig$/);
    await context.close();
  });

  test('开标大厅 opens the configured external hall (BID_HALL_URL) in a new window', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/transac');
    const hall = page.getByTestId('nav-hall');
    await expect(hall).toHaveText(/开标大厅/);
    await expect(hall).toHaveAttribute('href', BID_HALL_URL);
    await expect(hall).toHaveAttribute('target', '_blank');
    expect(await hall.getAttribute('rel')).toContain('noopener');
    await context.close();
  });
});
