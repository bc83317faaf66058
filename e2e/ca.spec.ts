import { CA_MSG } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, waitForQuiet } from './helpers';

/**
 * CA certificate sign-in (issue 15) with the fake local signing agent (apps/server/src/test/fake-ca-agent.ts, started
 * by playwright.config.ts, whose SM2 root the ggfw servers trust): the demo enterprise's key is bound on /caRegister
 * with user1's password (the agent holds four: this SM2 one, an expired one, a foreign one, and the RSA one that
 * bids-ca.spec seals a bid with), signs in on /caLogin as 张建国, and /lock shows the binding with its expiry (即将过期: the test
 * certificate has 20 days left); the agent's expired certificate and one from an untrusted CA are refused in words.
 */
test.describe.configure({ mode: 'serial' });

const LABELS = {
  good: '示例建设工程有限公司（SM2）',
  expired: '示例建设工程有限公司（旧证书）',
  foreign: '示例建设工程有限公司（其他CA）',
};
const shots = process.env.E2E_SHOTS ? process.env.E2E_SHOTS.replace(/\/$/, '') : null;

async function choose(page: Page, label: string) {
  await page.getByTestId('ca-cert-select').click();
  await page.locator('.ant-select-item-option, .ks-select-item-option').filter({ hasText: label }).click();
}

test('bind on /caRegister, sign in on /caLogin, see the binding on /lock; expired and foreign keys are refused', async ({
  browser,
  baseURL,
}) => {
  // three pages, a sign-in with its reminder, and two refusals: one flow, longer than most
  test.setTimeout(120_000);
  const { context, page } = await newClient(browser);
  await page.goto(`${baseURL}/login`);
  await page.getByTestId('login-ca-link').click();
  await expect(page).toHaveURL(/\/caLoginPage$/);
  await expect(page.getByTestId('ca-landing-status')).toContainText('读取到 4 张证书');
  if (shots) await page.screenshot({ path: `${shots}/ca-landing.png`, fullPage: true });

  // bind the good key with user1's password
  await page.getByTestId('ca-landing-register').click();
  await expect(page).toHaveURL(/\/caRegister$/);
  await choose(page, LABELS.good);
  const info = page.getByTestId('ca-cert-info');
  await expect(info).toContainText('示例建设工程有限公司');
  await expect(info).toContainText('91140100MA0K8G2J7');
  await expect(page.getByTestId('ca-unbound')).toBeVisible();
  await page.getByTestId('ca-register-account').fill('user1');
  await page.getByTestId('ca-register-password').fill('Demo@2026');
  if (shots) await page.screenshot({ path: `${shots}/ca-register.png`, fullPage: true });
  await page.getByTestId('ca-register-submit').click();
  await expect(page.getByTestId('ca-register-done')).toContainText('证书绑定成功');

  // sign in with it
  await page.getByTestId('ca-register-to-login').click();
  await expect(page).toHaveURL(/\/caLogin$/);
  await choose(page, LABELS.good);
  await expect(page.getByTestId('ca-bound')).toBeVisible();
  await page.getByTestId('ca-login-submit').click();
  await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  await expect(page.getByTestId('user-name')).toHaveText('张建国');

  // /lock lists the binding and warns that it expires soon
  await page.goto(`${baseURL}/lock`);
  const row = page.locator('tr', { hasText: '91140100MA0K8G2J79' });
  // the shell, the page's chunk and the list load after a full navigation: slower than one step on a loaded machine
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('示例建设工程有限公司');
  await expect(row).toContainText('张建国');
  await expect(row.getByText('即将过期')).toBeVisible();
  await waitForQuiet(page);
  if (shots) await page.screenshot({ path: `${shots}/ca-lock.png`, fullPage: true });

  // the expired key and the foreign one: refused as soon as they are chosen, and again on 证书登录
  await page.goto(`${baseURL}/caLogin`);
  await choose(page, LABELS.expired);
  await expect(page.getByTestId('ca-cert-error')).toContainText(CA_MSG.expired);
  await page.getByTestId('ca-login-submit').click();
  await expect(page.getByTestId('ca-login-error')).toContainText(/证书已过期（有效期至 \d{4}-\d{2}-\d{2}）/);
  await choose(page, LABELS.foreign);
  await expect(page.getByTestId('ca-cert-error')).toHaveText(CA_MSG.foreign);
  await page.getByTestId('ca-login-submit').click();
  await expect(page.getByTestId('ca-login-error')).toHaveText(CA_MSG.foreign);
  if (shots) await page.screenshot({ path: `${shots}/ca-login-refused.png`, fullPage: true });
  await context.close();
});

test('/lock unbinds after a confirmation and then shows how to bind', async ({ browser, baseURL }) => {
  const { context, page } = await newClient(browser);
  // the key bound above signs in again
  await page.goto(`${baseURL}/caLogin`);
  await choose(page, LABELS.good);
  await page.getByTestId('ca-login-submit').click();
  await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  await page.goto(`${baseURL}/lock`);
  await page.getByTestId('ca-unbind').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('ca-empty')).toContainText('尚未绑定 CA 锁');
  await context.close();
});
