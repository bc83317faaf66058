import { expect, test } from './fixtures';
import { newClient, registerPerson, signIn, waitForQuiet } from './helpers';

/**
 * The user centre (issue 15), as a person this test registers by real name (an account of its own: the demo accounts
 * are signed in with by other specs, which must not find their password changed): change the phone with a code read
 * from the developers' outbox, upload a portrait (shown in the header), change the password — the old one no longer
 * signs in, and the new one does from a second browser. (That a password change ends the account's OTHER sessions is
 * checked on the server, account-centre.test.ts: these servers run with SINGLE_SESSION=1, where a second sign-in
 * already ends the first.)
 */

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const NEW_PHONE = '13722223333';
const NEW_PASSWORD = 'Audit#E2e2026';

test('user centre: phone via the outbox, portrait, password', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const { context, page } = await newClient(browser);
  const me = await registerPerson(page);
  const practice = page.getByTestId('practice-ok');
  await page.goto('/userCenter/uCenter');
  if (await practice.isVisible().catch(() => false)) await practice.click();
  await expect(page.getByTestId('ucenter-phone-value')).toHaveText(`${me.phone.slice(0, 3)}****${me.phone.slice(7)}`);

  // 手机号: a code to the new phone, read from the outbox as a developer would
  await page.getByTestId('ucenter-phone-change').click();
  await page.getByTestId('ucenter-phone-new').fill(NEW_PHONE);
  await page.getByTestId('ucenter-phone-send').click();
  await expect(page.getByTestId('ucenter-phone-send')).toContainText('秒后重发');
  const outbox = await page.request.get(`${baseURL}/ks/common/sms/outbox?phone=${NEW_PHONE}`);
  const messages = (await outbox.json()).data as { params: { code: string }; text: string }[];
  expect(messages[0]!.text).toContain('您的验证码为');
  await page.getByTestId('ucenter-phone-code').fill(messages[0]!.params.code);
  await page.getByTestId('ucenter-phone-submit').click();
  await expect(page.getByTestId('ucenter-phone-value')).toHaveText('137****3333');
  await expect(page.getByTestId('ucenter-phone')).toContainText('已验证');

  // the outbox page shows it too
  const dev = await context.newPage();
  await dev.goto(`/smsOutbox`);
  await expect(dev.getByTestId('sms-outbox-notice')).toHaveText(
    '开发发件箱：短信服务未配置，验证码仅在此显示，生产环境不可用',
  );
  await expect(dev.getByTestId('sms-outbox-table')).toContainText(NEW_PHONE);
  await dev.close();

  // 头像: uploaded, re-encoded by the server, shown in the section and the header
  await page
    .getByTestId('ucenter-portrait')
    .locator('input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1PX });
  const img = page.getByTestId('ucenter-portrait-img').locator('img');
  await expect(img).toHaveAttribute('src', /\/ks\/common\/common\/file\/download\?fileId=/);
  const src = await img.getAttribute('src');
  const served = await page.request.get(`${baseURL}${src}`);
  expect(served.headers()['content-type']).toContain('image/webp');
  await expect(page.locator(`header img[src="${src}"]`).first()).toBeVisible();

  // 登录记录: this sign-in is listed
  await expect(page.getByTestId('ucenter-log-table')).toContainText('成功');

  // 密码: the policy is enforced on the server too (history), then the change
  const pw = page.getByTestId('ucenter-password');
  await page.getByTestId('ucenter-password-old').fill(me.password);
  await page.getByTestId('ucenter-password-new').fill(NEW_PASSWORD);
  await page.getByTestId('ucenter-password-confirm').fill(NEW_PASSWORD);
  await page.getByTestId('ucenter-password-submit').click();
  await expect(page.getByText('密码已修改，其他设备上的登录已退出')).toBeVisible();
  await expect(pw.getByTestId('ucenter-password-age')).toContainText('密码已使用 0 天');
  await waitForQuiet(page);

  // a second browser: the old password is refused, the new one signs in
  const second = await newClient(browser);
  await signIn(second.page, me.account, 'U', me.password);
  await expect(second.page.getByText('账号或密码错误')).toBeVisible();
  await signIn(second.page, me.account, 'U', NEW_PASSWORD);
  await expect(second.page).not.toHaveURL(/\/login$/, { timeout: 30_000 });
  await second.context.close();
  await context.close();
});
