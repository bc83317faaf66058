import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

/**
 * A browser context that looks like its own client address (the e2e server trusts X-Forwarded-For),
 * random so that a restarted worker never reuses one and inherits its sign-in failures.
 */
export async function newClient(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const [a, b, c] = randomBytes(3);
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': `10.${a}.${b}.${(c! % 250) + 1}` },
  });
  return { context, page: await context.newPage() };
}

export type Role = 'U' | 'M' | 'D';

export async function signIn(page: Page, account: string, role: Role, password = 'Demo@2026') {
  if (!/\/login$/.test(page.url())) await page.goto('/login');
  await page.getByTestId(`login-role-${role}`).click();
  await page.getByPlaceholder('请输入账号').fill(account);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

/**
 * Closes the practicing-status reminder user1 gets after signing in. The click is retried until the dialog has gone:
 * a click that lands while the dialog is still opening can be lost.
 */
export async function acknowledgePractice(page: Page) {
  const dialog = page.getByTestId('practice-dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  // a click that closed the dialog is not repeated (on a loaded machine the dialog may close slowly)
  await expect(async () => {
    if (await dialog.isVisible()) await page.getByTestId('practice-ok').click({ timeout: 3000 });
    await expect(dialog).toBeHidden({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
}

export async function expectSignedIn(page: Page, userName: string) {
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  await expect(page.getByTestId('user-name')).toHaveText(userName);
}

export async function signOut(page: Page) {
  // The user menu animates in; retry the open-and-click (and the confirmation 退出登录 asks for) until the app has
  // left for the portal.
  await expect(async () => {
    if (new URL(page.url()).pathname !== '/') {
      const confirm = page.getByTestId('logout-confirm');
      if (!(await confirm.isVisible())) {
        await page.getByTestId('user-dropdown').click({ timeout: 2000 });
        await page.getByTestId('logout-item').click({ timeout: 2000 });
      }
      await confirm.click({ timeout: 2000 });
    }
    await expect(page).toHaveURL(/\/$/, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
}
