import { expect, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * The five-in-one entry (issue 16): the administrator opens 项目进场登记 from the sidebar, opens a demo project's
 * detail, and divides it into a section — a sale period shorter than the legal 5 days is refused on its field with
 * the rule named, the corrected section is saved and listed, then deleted after a confirmation.
 */
const shots = process.env.E2E_SHOTS ? process.env.E2E_SHOTS.replace(/\/$/, '') : null;

test('an administrator opens a project from 项目进场登记 and keeps its sections to the timeline rules', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/);

  await page.goto('/fiveInOne/list?systemCoding=ZBTB&gnCoding=ZBTB_XMDJ');
  const list = page.getByTestId('engine-list-dynamic');
  await expect(list).toBeVisible({ timeout: 30_000 });
  const row = list.locator('tr').filter({ hasText: '长治市潞州区城市公园绿化提升工程' });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByTestId('op-detail').click();

  await expect(page).toHaveURL(/\/fiveInOne\/detail\?/);
  await expect(page.getByTestId('five-title')).toHaveText('长治市潞州区城市公园绿化提升工程');
  await expect(page.getByTestId('five-values')).toContainText('SXGC-2026-1103');
  await expect(page.getByTestId('section-table')).toContainText('尚无标段');

  // a sale period of 4 days: refused on its field, naming the rule
  await page.getByTestId('section-add').click();
  const dialog = page.getByTestId('section-dialog');
  await expect(dialog.getByTestId('section-rules')).toContainText('招标文件发售期不少于 5 日');
  await dialog.getByTestId('section-code').fill('BD-01');
  await dialog.getByTestId('section-name').fill('绿化施工标段');
  await dialog.getByTestId('section-estimate').fill('6500000');
  await dialog.getByTestId('section-deposit').fill('130000');
  const day = (n: number) => {
    const d = new Date(Date.now() + n * 86_400_000 + 8 * 3_600_000);
    return d.toISOString().slice(0, 10);
  };
  const saleFrom = dialog.getByPlaceholder('开始日期');
  const saleTo = dialog.getByPlaceholder('结束日期');
  await saleFrom.click();
  await saleFrom.fill(day(3));
  await saleTo.fill(day(6));
  await saleTo.press('Enter');
  const deadline = dialog.getByLabel('投标截止（开标）时间');
  await deadline.click();
  await deadline.fill(`${day(30)} 09:30`);
  await deadline.press('Enter');
  await page.getByTestId('section-save').click();
  await expect(dialog.locator('.ant-form-item-has-error')).toContainText(
    '招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日',
  );

  // five days: saved and listed
  await saleFrom.click();
  await saleFrom.fill(day(3));
  await saleTo.fill(day(7));
  await saleTo.press('Enter');
  await page.getByTestId('section-save').click();
  await expect(dialog).toBeHidden();
  const table = page.getByTestId('section-table');
  await expect(table).toContainText('绿化施工标段');
  await expect(table).toContainText('130,000.00');
  await expect(table).toContainText(`${day(3)} 至 ${day(7)}`);
  if (shots) await page.screenshot({ path: `${shots}/five-in-one-detail.png`, fullPage: true });

  // 场地预约: the section's opening room, booked from the project (the subject names the project and the section)
  await page.getByRole('tab', { name: '场地预约' }).click();
  await expect(page.getByTestId('venue-section')).toContainText('BD-01 绿化施工标段');
  await expect(page.getByTestId('venue-subject')).toHaveValue(
    '长治市潞州区城市公园绿化提升工程 BD-01 绿化施工标段 开标',
  );
  const pick = async (testId: string, text: string) => {
    await page.getByTestId(testId).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  await pick('venue-room', '第二开标室');
  await page.getByTestId('venue-date').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(day(21));
  await page.keyboard.press('Enter');
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
  await pick('venue-start', '09:00');
  await pick('venue-end', '11:00');
  await page.getByTestId('venue-book-submit').click();
  await expect(page.getByText(`已预约 第二开标室 ${day(21)} 09:00–11:00`)).toBeVisible();
  await expect(page.getByTestId('venue-my-bookings')).toContainText('BD-01 绿化施工标段 开标');
  if (shots) await page.screenshot({ path: `${shots}/five-in-one-venue.png`, fullPage: true });
  await page.getByRole('tab', { name: '项目信息' }).click();

  // deleted after a confirmation
  await page.getByTestId('section-delete-BD-01').click();
  await page.getByTestId('confirm-ok').click();
  await expect(table).toContainText('尚无标段');
  await context.close();
});
