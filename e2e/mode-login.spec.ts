import { expect, test } from '@playwright/test';
import { expectSignedIn, newClient, openPasswordDialog, signIn } from './helpers';

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

  // This server allows several sessions per account (SINGLE_SESSION=0): the other session ends because of the password
  // change itself, not because of a newer sign-in.
  test('a password change in the user menu signs the account out in its other browser', async ({ browser }) => {
    const a = await newClient(browser);
    const b = await newClient(browser);
    await signIn(a.page, 'dev', 'D');
    await expectSignedIn(a.page, '系统开发者');
    await signIn(b.page, 'dev', 'D');
    await expectSignedIn(b.page, '系统开发者');
    // both sessions live
    await a.page.reload();
    await expect(a.page.getByTestId('user-name')).toHaveText('系统开发者');

    await openPasswordDialog(a.page);
    await a.page.getByTestId('password-change-old').fill('Demo@2026');
    await a.page.getByTestId('password-change-new').fill('Taiyuan#2027');
    await a.page.getByTestId('password-change-confirm').fill('Taiyuan#2027');
    await a.page.getByTestId('password-change-submit').click();
    await expect(a.page.locator('.ant-message')).toContainText('密码已修改');

    // the other browser: its next request is refused and it is sent to sign in again
    await b.page.reload();
    await expect(b.page.getByTestId('prompt-dialog')).toContainText('登录凭证无效');
    await expect(b.page.getByTestId('login-submit')).toBeVisible({ timeout: 10_000 });
    // this browser goes on
    await a.page.reload();
    await expect(a.page.getByTestId('user-name')).toHaveText('系统开发者');
    await a.context.close();
    await b.context.close();
  });
});
