import { randomBytes } from 'node:crypto';
import { idNumberCheckChar } from '@ks/contracts';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

/**
 * A browser context that looks like its own client address (the e2e server trusts X-Forwarded-For),
 * random so that a restarted worker never reuses one and inherits its sign-in failures.
 */
export async function newClient(
  browser: Browser,
  { motion = false }: { motion?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const [a, b, c] = randomBytes(3);
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': `10.${a}.${b}.${(c! % 250) + 1}` },
    // as a user who asked for reduced motion: the app then runs no animations (antd's, the notice marquee), which
    // otherwise keep the compositor drawing 60 frames a second and take most of a CI core; `motion` for the spec
    // that checks an animation
    reducedMotion: motion ? 'no-preference' : 'reduce',
  });
  return { context, page: await context.newPage() };
}

export type Role = 'U' | 'M' | 'D';

export async function signIn(page: Page, account: string, role: Role, password = 'Demo@2026') {
  if (!/\/login$/.test(page.url())) await page.goto('/login');
  await page.getByTestId(`login-role-${role}`).click();
  await page.getByPlaceholder('请输入账号').fill(account);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
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

/**
 * Opens an administrator's page from the header's user dropdown (`header-menu-<key>`), as an administrator reaches it:
 * the dropdown animates in, so hover and click are retried until the URL has changed; then the pointer leaves and the
 * dropdown has closed.
 */
export async function openHeaderMenu(page: Page, key: string, url: RegExp) {
  await expect(async () => {
    await page.getByTestId('user-dropdown').hover({ timeout: 2000 });
    await page.getByTestId(`header-menu-${key}`).click({ timeout: 2000 });
    await expect(page).toHaveURL(url, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await page.mouse.move(700, 700);
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
}

/** Opens the user menu's 修改密码 dialog: the menu animates in, so the open-and-click is retried until the dialog shows. */
export async function openPasswordDialog(page: Page) {
  const old = page.getByTestId('password-change-old');
  await expect(async () => {
    if (!(await old.isVisible())) {
      await page.getByTestId('user-dropdown').click({ timeout: 2000 });
      await page.getByTestId('password-item').click({ timeout: 2000 });
    }
    await expect(old).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Waits until the page's network has been quiet for `quietMs` — no request started or finished — apart from the
 * tab's live event stream, which stays open for good (so Playwright's 'networkidle' never comes in the shell).
 */
export async function waitForQuiet(page: Page, quietMs = 500, timeoutMs = 20_000) {
  await page.waitForLoadState('load');
  let last = Date.now();
  const touch = (r: { url(): string }) => {
    if (!r.url().includes('/ks/live/v1/stream')) last = Date.now();
  };
  page.on('request', touch);
  page.on('requestfinished', touch);
  page.on('requestfailed', touch);
  try {
    const end = Date.now() + timeoutMs;
    while (Date.now() - last < quietMs && Date.now() < end) await page.waitForTimeout(100);
  } finally {
    page.off('request', touch);
    page.off('requestfinished', touch);
    page.off('requestfailed', touch);
  }
}

/** The latest SMS code the outbox holds for a phone (development mode: nothing is really sent). */
export async function smsCode(request: APIRequestContext, phone: string, after = 0, base = ''): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`${base}/ks/common/sms/outbox?phone=${phone}`);
        const body = (await res.json()) as { data: { id: number; params: { code?: string } }[] | null };
        const latest = body.data?.[0];
        code = latest && latest.id > after ? (latest.params.code ?? '') : '';
        return code;
      },
      { timeout: 10_000 },
    )
    .not.toBe('');
  return code;
}
export async function latestOutboxId(request: APIRequestContext, phone: string): Promise<number> {
  const res = await request.get(`/ks/common/sms/outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { id: number }[] | null };
  return body.data?.[0]?.id ?? 0;
}

/**
 * A person of this test's own, registered by real name through /realName (its phone proved through the developers'
 * outbox) and signed in on `page`: for a spec that changes an account (its password, its phone) which no other spec
 * may then find changed. Returns the account, its password and its phone.
 */
export async function registerPerson(
  page: Page,
  name = '陈晓雨',
): Promise<{ account: string; password: string; phone: string }> {
  const n = (Date.now() + randomBytes(2).readUInt16BE(0)) % 100_000;
  const first17 = `14010519880${1 + (n % 9)}1${n % 10}${String(n % 1000).padStart(3, '0')}`.slice(0, 17);
  const phone = `137${String(n).padStart(5, '0')}${String(randomBytes(1)[0]! % 100).padStart(2, '0')}9`;
  const account = `person${n}`;
  const password = 'Chenxy@2026';
  await page.goto('/realName');
  await page.getByTestId('realname-name').fill(name);
  await page.getByTestId('realname-id').fill(`${first17}${idNumberCheckChar(first17)}`);
  await page.getByTestId('realname-phone').fill(phone);
  await page.getByTestId('realname-sms-send').click();
  await page.getByTestId('realname-sms-code').fill(await smsCode(page.request, phone, 0, new URL(page.url()).origin));
  await page.getByTestId('realname-account').fill(account);
  await page.getByTestId('realname-password').fill(password);
  await page.getByTestId('realname-confirm').fill(password);
  await page.getByTestId('realname-submit').click();
  await expect(page.getByTestId('realname-done')).toContainText(account);
  await page.getByTestId('realname-to-login').click();
  await signIn(page, account, 'U', password);
  await expect(page.getByTestId('user-name')).toHaveText(name, { timeout: 30_000 });
  return { account, password, phone };
}

/** A field's column of the engine's dynamic form. */
export const col = (page: Page, code: string) => page.getByTestId(`form-col-${code}`);

/** Picks `label` in the select of the dynamic form's field `code`. */
export async function pickSelect(page: Page, code: string, label: string) {
  await col(page, code).locator('.ant-select').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label })
    .click();
  await expect(col(page, code)).toContainText(label);
}

/** A bid's 开标一览表 as typed into the upload dialog. */
export interface BidSummaryInput {
  price: string;
  durationDays: string;
  quality: string;
  manager: string;
}

/**
 * After a bid file is chosen on /sealedBid/index (issue 17): fill in its 开标一览表, sealed with the file, and start the
 * encrypted upload.
 */
export async function fillBidSummary(
  page: Page,
  s: BidSummaryInput = { price: '37680000.50', durationDays: '365', quality: '合格', manager: '张建国' },
) {
  await expect(page.getByTestId('bid-summary-form')).toBeVisible();
  await page.getByTestId('bid-summary-price').fill(s.price);
  await page.getByTestId('bid-summary-duration').fill(s.durationDays);
  await page.getByTestId('bid-summary-quality').fill(s.quality);
  await page.getByTestId('bid-summary-manager').fill(s.manager);
  await page.getByTestId('bid-summary-ok').click();
}
