import { addDays, appToday, weekStartOf } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, signIn } from './helpers';

/**
 * Issue 16, venue booking: an agent (user1) books a room; a second booking of the same room and time is refused with
 * the database's verdict (该场地在所选时段已被预约); the public /venue shows the slot busy without any name; the
 * administrator finds the booking on the week calendar, moves it and cancels it (each asked first).
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const today = appToday();
/** two weeks ahead: past the demo's bookings (this week and the next) */
const day = addDays(today, 14);
const ROOM = '第三开标室';
const SUBJECT = '太原市万柏林区和平南路人行道改造工程（E2E）开标';
const BOOKING = '/meetingVenue/booking?gnCoding=CDYY_CDYY&systemCoding=CDYY';
const CALENDAR = '/meetingVenue/meeting?gnCoding=CDYY_CDYY&systemCoding=CDYY';

async function pick(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

async function fillBooking(page: Page, start: string, end: string) {
  await pick(page, 'venue-room', ROOM);
  await page.getByTestId('venue-date').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(day);
  await page.keyboard.press('Enter');
  // the calendar popup closes (it would cover the time selects)
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
  await pick(page, 'venue-start', start);
  await pick(page, 'venue-end', end);
  await page.getByTestId('venue-subject').fill(SUBJECT);
}

test('an agent books a room; the same room and time again is refused with the message', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto(BOOKING);
  await expect(page.getByTestId('venue-booking-page')).toBeVisible({ timeout: 30_000 });
  await fillBooking(page, '14:00', '15:30');
  await expect(page.getByTestId('venue-day-busy')).toContainText('全天空闲');
  await page.getByTestId('venue-book-submit').click();
  await expect(page.getByText(`已预约 ${ROOM} ${day} 14:00–15:30`)).toBeVisible();
  const mine = page.getByTestId('venue-my-bookings');
  await expect(mine.locator('tr', { hasText: SUBJECT })).toContainText(`${day} 14:00–15:30`);

  // the same slot again (from another half hour inside it): the server refuses, the form says why
  await fillBooking(page, '15:00', '16:00');
  await expect(page.getByTestId('venue-day-busy')).toContainText('14:00–15:30');
  await page.getByTestId('venue-book-submit').click();
  await expect(page.getByTestId('venue-book-error')).toContainText('该场地在所选时段已被预约');
  await expect(mine.locator('tr', { hasText: SUBJECT })).toHaveCount(1);
  await context.close();
});

test('/venue shows the slot busy to a visitor, with no name or subject', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await page.goto(`/venue?week=${weekStartOf(day)}`);
  const cell = page.getByTestId(`venue-cell-${ROOM}-${day}`);
  await expect(cell).toContainText('14:00–15:30 已占用', { timeout: 30_000 });
  const text = await page.getByTestId('venue-public').textContent();
  for (const secret of [SUBJECT, '张建国', '示例建设工程有限公司']) expect(text).not.toContain(secret);
  await context.close();
});

test('the administrator sees it on the calendar, moves it and cancels it', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  await page.goto(CALENDAR);
  await expect(page.getByTestId('venue-calendar')).toBeVisible({ timeout: 30_000 });
  const weeks = Math.round((Date.parse(weekStartOf(day)) - Date.parse(weekStartOf(today))) / (7 * 24 * 3600_000));
  for (let i = 0; i < weeks; i++) await page.getByTestId('venue-next').click();
  await expect(page.getByTestId('venue-week')).toContainText(weekStartOf(day));
  const cell = page.getByTestId(`venue-cal-${ROOM}-${day}`);
  const block = cell.getByTestId('venue-block').filter({ hasText: SUBJECT });
  await expect(block).toContainText('14:00–15:30');
  await block.click();
  const detail = page.getByTestId('venue-detail');
  await expect(detail).toContainText('张建国');
  await expect(detail).toContainText('示例建设工程有限公司');

  // 改期 to 16:00–17:00, confirmed
  await page.getByTestId('venue-move').click();
  await pick(page, 'venue-start', '16:00');
  await pick(page, 'venue-end', '17:00');
  await page.getByTestId('venue-move-reason').fill('开标时间调整');
  await page.getByTestId('venue-move-ok').click();
  await page.getByTestId('venue-move-confirm').click();
  await expect(
    page.locator('.ant-message-notice').filter({ hasText: `已改期至 ${ROOM} ${day} 16:00–17:00` }),
  ).toBeVisible();
  await expect(cell.getByTestId('venue-block').filter({ hasText: SUBJECT })).toContainText('16:00–17:00');

  // 取消预约 with a reason: the block leaves the calendar
  await cell.getByTestId('venue-block').filter({ hasText: SUBJECT }).click();
  await expect(page.getByTestId('venue-history')).toContainText('改期');
  await page.getByTestId('venue-cancel').click();
  await page.getByTestId('venue-cancel-reason').fill('招标文件澄清，开标顺延');
  await page.getByTestId('venue-cancel-ok').click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '预约已取消' })).toBeVisible();
  await expect(cell.getByTestId('venue-block').filter({ hasText: SUBJECT })).toHaveCount(0);
  await context.close();
});
