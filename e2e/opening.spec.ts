import { OPENING_MSG } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, type Role, signIn } from './helpers';

/**
 * Issue 17, the remote opening hall, on the demo's SXGC-2026-1005 BD-01 (its deadline passed ten minutes before the
 * server seeded; user1, bid2 and bid3 sealed bids with the demo passphrase key): the agent opens it on time, the three
 * bidders sign in, two decrypt in their browsers within the minute the agent set, the third too late and is
 * excluded; the readings reach the supervisor's browser live; the bidders confirm (one objects first and is answered);
 * the agent closes and downloads the record; the supervisor follows every step; the log verifies; and the portal's
 * 开标大厅 reaches the hall.
 */
test.describe.configure({ mode: 'serial', timeout: 420_000 });

const PROJECT = '忻州市忻府区第三中学学生公寓楼建设工程';
const PASSPHRASE = 'Demo@2026';

async function person(browser: Parameters<typeof newClient>[0], account: string, role: Role = 'U') {
  const { context, page } = await newClient(browser);
  await signIn(page, account, role);
  if (account === 'user1') await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  return { context, page };
}

/** Unwrap the file key with the passphrase in the page, see the sealed 开标一览表, and hand the key over. */
async function unwrap(page: Page) {
  await page.getByTestId('opening-decrypt').click();
  await page.getByTestId('opening-passphrase').fill(PASSPHRASE);
  await page.getByTestId('opening-unwrap').click();
  await expect(page.getByTestId('opening-own-summary')).toBeVisible({ timeout: 30_000 });
}

test('a section opens on time; bids are decrypted, read out live, confirmed and recorded', async ({ browser }) => {
  const agent = await person(browser, 'agent');
  // the hall's list (the sidebar's 开标大厅 routes here) and the due section
  await agent.page.goto('/bid/overview');
  const row = agent.page.locator('tr', { hasText: PROJECT });
  await expect(row).toContainText('等待开标');
  await expect(row).toContainText('主持人');
  await row.getByRole('link', { name: '进入开标大厅' }).click();
  await expect(agent.page).toHaveURL(/\/bid\/bidMeet\?sectionId=/);
  const hallUrl = new URL(agent.page.url());
  const hallPath = `${hallUrl.pathname}${hallUrl.search}`;
  await expect(agent.page.getByTestId('opening-status')).toHaveText('等待开标');

  // the supervisor watches from a second browser; the bidders come in and sign in
  const supervisor = await person(browser, 'supervisor');
  const bidders = await Promise.all(['user1', 'bid2', 'bid3'].map((a) => person(browser, a)));
  for (const p of [supervisor, ...bidders]) await p.page.goto(hallPath);
  // before the opening no bidder sees who else bid, nor any price
  await expect(bidders[0]!.page.getByTestId('opening-bids')).not.toContainText('刘志强');
  for (const b of bidders) {
    await b.page.getByTestId('opening-signin').click();
    await expect(b.page.getByTestId('opening-signin')).toHaveCount(0);
  }

  // the agent opens with a one-minute decryption time
  await agent.page.getByTestId('opening-start').click();
  await agent.page.getByTestId('opening-start-minutes').fill('1');
  await agent.page.getByTestId('opening-start-ok').click();
  const started = Date.now();
  await expect(agent.page.getByTestId('opening-status')).toHaveText('投标文件解密中');

  // user1 and bid2 decrypt in their browsers in time; bid3 unwraps but hands the key over too late
  const [user1, bid2, bid3] = bidders as [typeof agent, typeof agent, typeof agent];
  await expect(user1.page.getByTestId('opening-decrypt')).toBeVisible({ timeout: 20_000 });
  await Promise.all(
    [user1, bid2].map(async (b) => {
      await unwrap(b.page);
      await b.page.getByTestId('opening-submit-key').click();
      await expect(b.page.getByTestId('opening-mine')).toContainText('已解密', { timeout: 30_000 });
    }),
  );
  await unwrap(bid3.page);
  await expect(bid3.page.getByTestId('opening-own-summary')).toContainText('16,958,720.00');
  const wait = started + 60_000 + 3000 - Date.now();
  if (wait > 0) await bid3.page.waitForTimeout(wait);
  await bid3.page.getByTestId('opening-submit-key').click();
  await expect(bid3.page.getByText(OPENING_MSG.decryptLate)).toBeVisible({ timeout: 15_000 });
  // the refusal is told in a dialog; the decryption dialog has closed itself
  await bid3.page.getByRole('button', { name: /确\s*定/ }).click({ timeout: 15_000 });
  await expect(bid3.page.locator('.ant-modal-wrap:visible')).toHaveCount(0);

  // the order is drawn from the committed seed; the late bid is excluded with its reason
  await expect(agent.page.getByTestId('opening-draw')).toBeVisible({ timeout: 30_000 });
  await agent.page.getByTestId('opening-draw').click();
  await expect(agent.page.getByTestId('opening-seed')).toBeVisible();
  // 评审系数 K drawn publicly from the same seed, shown to everyone in the hall
  await expect(agent.page.getByTestId('opening-k')).toContainText(/^0\.9[2-8]（备选 0\.92、/);
  await expect(supervisor.page.getByTestId('opening-k')).toContainText(/^0\.9[2-8]/, { timeout: 20_000 });
  await expect(agent.page.getByTestId('opening-bids')).toContainText('逾期未解密');
  await expect(supervisor.page.getByTestId('opening-bids')).toContainText('未在规定的 1 分钟内解密', {
    timeout: 20_000,
  });

  // 唱标: each reading reaches the supervisor's browser as it is read, without a reload
  await agent.page.getByTestId('opening-read').click();
  await expect(supervisor.page.getByTestId('opening-reading-current')).toContainText(/17,(286,450\.00|512,300\.50)/, {
    timeout: 10_000,
  });
  await agent.page.getByTestId('opening-read').click();
  for (const price of ['17,286,450.00', '17,512,300.50']) {
    await expect(supervisor.page.getByTestId('opening-bids')).toContainText(price, { timeout: 10_000 });
  }
  await expect(agent.page.getByTestId('opening-status')).toHaveText('开标结果确认中');

  // bid2 objects first, and the agent answers on the record; then every bidder confirms
  await bid2.page.getByTestId('opening-object').click();
  await bid2.page.getByTestId('opening-objection-text').fill('请核实我单位工期是否唱为 360 日历天');
  await bid2.page.getByTestId('opening-objection-ok').click();
  const answer = agent.page.locator('[data-testid^="opening-answer-"]').first();
  await expect(answer).toBeVisible({ timeout: 20_000 });
  await answer.click();
  await agent.page.getByTestId('opening-answer-text').fill('经核对开标一览表，工期为 360 日历天，唱标无误');
  await agent.page.getByTestId('opening-answer-ok').click();
  for (const b of [user1, bid2, bid3]) {
    await expect(b.page.getByTestId('opening-confirm')).toBeVisible({ timeout: 20_000 });
    await b.page.getByTestId('opening-confirm').click({ timeout: 15_000 });
    await b.page.getByTestId('confirm-ok').click({ timeout: 15_000 });
    await expect(b.page.getByTestId('opening-confirm')).toHaveCount(0);
  }

  // the agent closes; the record is a PDF
  await expect(agent.page.getByTestId('opening-close')).toBeVisible({ timeout: 20_000 });
  await agent.page.getByTestId('opening-close').click();
  await agent.page.getByTestId('confirm-ok').click();
  await expect(agent.page.getByTestId('opening-status')).toHaveText('开标结束');
  const [download] = await Promise.all([
    agent.page.waitForEvent('download'),
    agent.page.getByTestId('opening-record').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^开标记录-BD-01\.pdf$/);

  // the supervisor followed every step in the log
  const events = supervisor.page.getByTestId('opening-events');
  for (const text of [
    '签到',
    '开标：3 份投标文件',
    '解密成功',
    '被拒绝',
    '公开随机种子',
    '唱标第 2 家',
    '答复',
    '开标结束',
  ]) {
    await expect(events).toContainText(text, { timeout: 20_000 });
  }

  // the log verifies; the portal's 开标大厅 reaches the hall
  await supervisor.page.goto('/bid/ledger');
  await expect(supervisor.page.getByTestId('ledger-verdict')).toHaveText('✓ 日志完整，未发现篡改', { timeout: 20_000 });
  await agent.page.goto('/transac');
  const link = agent.page.getByTestId('nav-hall');
  await expect(link).toHaveAttribute('target', '_blank');
  const [popup] = await Promise.all([agent.context.waitForEvent('page'), link.click()]);
  await expect(popup).toHaveURL(/\/bid\/bidMeet$/);
  await expect(popup.getByTestId('opening-section-select')).toBeVisible({ timeout: 20_000 });

  for (const p of [agent, supervisor, ...bidders]) await p.context.close();
});
