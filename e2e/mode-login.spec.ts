import { expect, test } from '@playwright/test';
import { newClient } from './helpers';

// Runs against a server started with LOGIN_MODE=login (its own Playwright project).
test.describe('login mode "login"', () => {
  test('the server reports mode login', async ({ request }) => {
    const res = await request.get('/ks/portal/v1/home/config');
    expect(((await res.json()) as { data: { loginMode: string } }).data.loginMode).toBe('login');
  });

  test('/ is the sign-in page; the portal pages stay; /admin-business is not a route', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await expect(page.getByTestId('login-heading')).toHaveText('欢迎登录');
    await expect(page.getByTestId('portal-header')).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/transac');
    await expect(page.getByTestId('notice-row').first()).toBeVisible();
    await expect(page.getByTestId('nav-transac')).toHaveAttribute('aria-current', 'page');
    await page.goto('/market-list?kind=enterprise');
    await expect(page.getByTestId('market-row').first()).toBeVisible();

    await page.goto('/admin-business');
    await expect(page.getByTestId('notfound-home')).toBeVisible();
    await expect(page.getByTestId('login-submit')).toHaveCount(0);
    await context.close();
  });
});
