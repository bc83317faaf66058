import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn } from './helpers';

/**
 * Issue 14, screens 10 and 23: the help viewer shows the credit system's seeded PDF help in a frame and its FAQ; the
 * customer-service robot answers a seeded question asked in other words; a human chat message of user1 reaches the
 * administrator's console and the reply comes back to user1 live (two browsers, no reload).
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'test-results', 'help-service');
const CHANGE_PAGE = '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL';

let user: { context: BrowserContext; page: Page };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, baseURL }) => {
  user = await newClient(browser);
  await user.page.goto(`${baseURL}/login`);
  await signIn(user.page, 'user1', 'U');
  await acknowledgePractice(user.page);
  await expectSignedIn(user.page, '张建国');
});
test.afterAll(async () => {
  await user?.context.close();
});

test('help viewer: the node and system help, the PDF in a frame, the FAQ cards', async () => {
  const { page } = user;
  await page.goto(CHANGE_PAGE);
  const pdf = page.waitForResponse((r) => r.url().includes('/file/download/') && r.request().resourceType() !== 'xhr');
  await page.getByTestId('help-button').click();
  const viewer = page.getByTestId('help-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('help-group')).toHaveText(['信用变更申请', '系统使用说明']);
  await expect(viewer.getByTestId('help-file')).toHaveText(['信用变更申请操作指南.pdf', '信用管理系统操作手册.pdf']);
  const frame = viewer.getByTestId('help-pdf');
  await expect(frame).toBeVisible();
  const src = await frame.getAttribute('src');
  expect(src).toMatch(/\/ks\/common\/common\/file\/download\/.+fileId=.+&inline=1&exp=\d+&sig=/);
  const res = await pdf;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  await page.screenshot({ path: path.join(SHOTS, 'help-viewer.png') });

  // the other file of the tree
  await viewer.getByTestId('help-file').nth(1).click();
  await expect(frame).toHaveAttribute('src', /%E4%BF%A1%E7%94%A8%E7%AE%A1%E7%90%86|操作手册/);

  await viewer.getByRole('tab', { name: '常见问题' }).click();
  await expect(viewer.getByTestId('faq-card').first()).toContainText('信用变更怎么申请？');
  await expect(viewer.getByTestId('faq-card')).toHaveCount(5);
  await page.screenshot({ path: path.join(SHOTS, 'help-faq.png') });
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

test('robot: a seeded question asked in other words, with a link to the help', async () => {
  const { page } = user;
  await page.getByTestId('service-button').click();
  const chat = page.getByTestId('service-chat');
  await expect(chat).toBeVisible();
  await chat.getByTestId('chat-input').fill('怎么申请信用变更');
  await chat.getByTestId('robot-send').click();
  const matches = chat.getByTestId('robot-match');
  await expect(matches.first()).toContainText('信用变更怎么申请？');
  expect(await matches.count()).toBeLessThanOrEqual(3);
  await page.screenshot({ path: path.join(SHOTS, 'robot.png') });
  await matches.first().getByTestId('robot-help-link').click();
  const viewer = page.getByTestId('help-viewer');
  await expect(viewer.getByRole('tab', { name: '常见问题', selected: true })).toBeVisible();
  await expect(viewer.getByTestId('faq-card').first()).toContainText('信用变更怎么申请？');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

test('human chat: user1 → the console, the reply comes back live', async ({ browser, baseURL }) => {
  const { page } = user;
  const chat = page.getByTestId('service-chat');
  if (!(await chat.isVisible())) await page.getByTestId('service-button').click();
  await chat.getByTestId('to-human').click();
  const text = `信用记录有误，想咨询更正流程 ${Date.now()}`;
  await chat.getByTestId('chat-input').fill(`${text}<script>alert(1)</script>`);
  await chat.getByTestId('human-send').click();
  await expect(chat.getByTestId('chat-mine').last()).toContainText(text);

  const admin = await newClient(browser);
  try {
    const a = admin.page;
    await a.goto(`${baseURL}/login`);
    await signIn(a, 'admin', 'M');
    await expectSignedIn(a, '平台管理员');
    // the help administration lists the seeded groups, files and questions
    await a.goto('/system/helpManage');
    await expect(a.getByTestId('help-groups')).toContainText('系统使用说明');
    await expect(a.getByTestId('admin-help-file').first()).toBeVisible();
    await expect(a.getByTestId('faq-table')).toContainText('忘记密码怎么办？');
    await a.screenshot({ path: path.join(SHOTS, 'help-manage.png'), fullPage: true });
    await a.goto('/system/serviceConsole');
    const row = a.getByTestId('console-conversation').filter({ hasText: '张建国' }).first();
    await expect(row).toBeVisible();
    await row.click();
    await expect(a.getByTestId('console-user-message').last()).toContainText(text);

    // while the console is open, a second message of user1 arrives without a reload (chat-queue / thread)
    const second = `补充说明 ${Date.now()}`;
    await chat.getByTestId('chat-input').fill(second);
    await chat.getByTestId('human-send').click();
    await expect(row).toContainText(second);

    const reply = `您好，请在“信用变更申请”中提交更正材料 ${Date.now()}`;
    await a.getByTestId('console-input').fill(reply);
    await a.getByTestId('console-send').click();
    await expect(a.getByTestId('console-agent-message').last()).toContainText(reply);
    await a.screenshot({ path: path.join(SHOTS, 'console.png') });

    // user1's panel shows the reply without a reload
    await expect(chat.getByTestId('chat-agent').last()).toContainText(reply);
    await page.screenshot({ path: path.join(SHOTS, 'human-chat.png') });
  } finally {
    await admin.context.close();
  }
});
