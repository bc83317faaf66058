import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, openHeaderMenu, signIn } from './helpers';

/**
 * Feedback and weather (issue 14, screens 11 and 24): the header's weather popover shows what the fake AMap service
 * answers (started with the servers by playwright.config.ts); user1 sends feedback with and without a text through
 * the drawer; an administrator sees both on 用户反馈 (/system/feedback).
 */
test.describe.configure({ mode: 'serial' });

const THANKS = '感谢您的反馈，您的意见将会是我们不断进步的动力！';
const TEXT = `希望增加招标公告按地市订阅（e2e ${Date.now().toString(36)}）`;
const shots = process.env.E2E_SHOTS ? process.env.E2E_SHOTS.replace(/\/$/, '') : null;

async function signedIn(page: Page, account: string, role: 'U' | 'M') {
  await signIn(page, account, role);
  if (account === 'user1') await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
}

/** Clicks the n-th star of a question's rating. */
async function rate(page: Page, testId: string, n: number) {
  await page
    .getByTestId(testId)
    .locator('.ant-rate-star')
    .nth(n - 1)
    .click();
}

/** Opens the drawer, rates, types the text (if any), submits, and waits for the thanks and the drawer to close. */
async function sendFeedback(page: Page, ratings: [string, number][], text?: string) {
  await page.getByTestId('feedback-button').click();
  const drawer = page.getByRole('dialog', { name: '意见反馈' });
  await expect(drawer).toBeVisible();
  for (const [id, n] of ratings) await rate(page, id, n);
  if (text) await page.getByTestId('feedback-text').fill(text);
  if (shots && text) await page.screenshot({ path: `${shots}/feedback-drawer.png` });
  await page.getByTestId('feedback-submit').click();
  // the toast of an earlier submission may still be showing
  await expect(page.locator('.ant-message').getByText(THANKS).last()).toBeVisible();
  await expect(drawer).toBeHidden();
}

test('the weather popover shows the fake AMap service’s weather and forecast', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signedIn(page, 'user1', 'U');
  const widget = page.getByTestId('weather-widget');
  await expect(widget.getByTestId('weather-summary')).toHaveText('12°C 太原市');
  await widget.hover();
  const panel = page.getByTestId('weather-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('weather-city')).toHaveText('太原市');
  await expect(panel.getByTestId('weather-weather')).toHaveText('多云');
  await expect(panel.getByTestId('weather-temperature')).toHaveText('12°C');
  await expect(panel.getByTestId('weather-wind')).toHaveText('西北风 ≤3级');
  await expect(panel.getByTestId('weather-humidity')).toHaveText('41%');
  const rows = panel.getByTestId('weather-forecast-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('11-27 周五');
  await expect(rows.nth(1)).toContainText('0~9°C');
  await expect(rows.nth(1).getByTestId('weather-icon-light-rain')).toBeVisible();
  await expect(rows.nth(2).getByTestId('weather-icon-sleet')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/weather-popover.png` });
  await context.close();
});

test('feedback with and without a text is stored and shown to administrators', async ({ browser }) => {
  test.setTimeout(90_000);
  const user = await newClient(browser);
  await signedIn(user.page, 'user1', 'U');
  await sendFeedback(
    user.page,
    [
      ['feedback-rate-product-0', 5],
      ['feedback-rate-product-1', 4],
      ['feedback-rate-service-0', 4],
    ],
    TEXT,
  );
  await sendFeedback(user.page, [['feedback-rate-service-3', 1]]);
  await user.context.close();

  const admin = await newClient(browser);
  const { page } = admin;
  await signedIn(page, 'admin', 'M');
  // administrators reach the page from the header dropdown, as the other /system pages
  await openHeaderMenu(page, 'feedbackStats', /\/system\/feedback$/);
  // today's feedback only
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const [from, to] = [page.getByPlaceholder('开始日期'), page.getByPlaceholder('结束日期')];
  await from.click();
  await from.fill(today);
  await from.press('Enter');
  await to.fill(today);
  await to.press('Enter');
  await expect(from).toHaveValue(today);
  await expect(to).toHaveValue(today);

  const texts = page.getByTestId('feedback-texts');
  const row = texts.locator('tr').filter({ hasText: TEXT });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('张建国');
  await expect(row).toContainText(today);
  // both submissions are counted, one of them without a text
  const stat = (title: string) =>
    page.locator('.ant-statistic').filter({ hasText: title }).locator('.ant-statistic-content-value');
  await expect
    .poll(async () => Number(await stat('反馈次数').textContent()) - Number(await stat('填写意见').textContent()))
    .toBeGreaterThanOrEqual(1);
  expect(Number(await stat('填写意见').textContent())).toBeGreaterThanOrEqual(1);
  // the text-less submission's 不满意 is in 整体服务态度是否满意's distribution and average
  const service = page.getByTestId('feedback-stats-service');
  const q4 = service.locator('tr').filter({ hasText: '整体服务态度是否满意' });
  await expect(q4.getByTestId('feedback-average')).toBeVisible();
  await expect(q4.getByTestId('feedback-distribution')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/feedback-admin.png`, fullPage: true });
  await admin.context.close();
});
