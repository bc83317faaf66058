import { idNumberCheckChar } from '@ks/contracts';
import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, openHeaderMenu, signIn, waitForQuiet } from './helpers';

/**
 * Issue 14, the message centre (screen 17): an administrator's message reaches user1's bell — live once the event
 * stream has landed on main (/work/wt/status/live-ready), after a reload before — user1 opens it and the administrator's
 * receipts say it was read; the bell's 待办 opens a record in its node, where it can be reviewed.
 */

/** Screenshots for a look at the widgets, when E2E_SHOTS names a directory. */
const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png` });
};
const bellCount = async (page: Page) =>
  Number((await page.getByTestId('bell-count').locator('.ant-scroll-number').getAttribute('title')) ?? '0');
const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem('token') ?? sessionStorage.getItem('token') ?? '';
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw;
    }
  });
async function api(request: APIRequestContext, token: string, url: string, data: object) {
  const res = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  const body = (await res.json()) as { code: number; data: any; message: string };
  expect(body.code, `${url}: ${body.message}`).toBe(200);
  return body.data;
}

test("an administrator's message reaches user1's bell; user1 reads it; the receipts say so", async ({ browser }) => {
  test.setTimeout(120_000);
  const title = `系统维护通知 ${Date.now() % 100000}`;
  const user = await newClient(browser);
  await signIn(user.page, 'user1', 'U');
  await acknowledgePractice(user.page);
  await expect(user.page.getByTestId('message-bell')).toBeVisible();
  await expect(user.page.getByTestId('bell-count')).toBeVisible();
  await waitForQuiet(user.page);
  const before = await bellCount(user.page);

  const admin = await newClient(browser);
  await signIn(admin.page, 'admin', 'M');
  await expect(admin.page.getByTestId('user-name')).toBeVisible();
  // 消息发布 is in the administrator's dropdown
  await openHeaderMenu(admin.page, 'messagePublish', /\/system\/messagePublish$/);
  await expect(admin.page.getByTestId('header-menu-messagePublish')).toBeHidden();
  await admin.page.getByTestId('message-publish').click();
  const dialog = admin.page.getByTestId('message-publish-dialog');
  await dialog.getByTestId('message-title-input').fill(title);
  const users = dialog.getByTestId('message-users');
  await users.click();
  await users.locator('input').fill('user1');
  await admin.page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '（user1）' }).click();
  await admin.page.keyboard.press('Escape');
  const area = dialog.locator('[data-testid="message-body-editor-area"] [data-slate-editor]');
  await expect(area).toBeVisible({ timeout: 20_000 });
  await area.click();
  await admin.page.keyboard.type('今晚 22:00 至 23:00 系统维护，请提前保存数据。');
  await shot(admin.page, 'message-publish-dialog');
  await admin.page.getByTestId('message-publish-ok').click();
  await expect(admin.page.locator('.ant-message')).toContainText('发送成功');
  const row = admin.page.locator('[data-testid="sent-table"] .ant-table-row', { hasText: title });
  await expect(row.getByTestId('sent-read')).toContainText('0/1');

  // user1's bell: live, or after a reload until the stream has landed
  await expect.poll(() => bellCount(user.page), { timeout: 15_000 }).toBe(before + 1);
  await user.page.getByTestId('message-bell').click();
  await user.page.getByTestId('tab-messages').click();
  const item = user.page.getByTestId('message-item').filter({ hasText: title });
  await expect(item).toHaveAttribute('data-unread', 'true');
  await shot(user.page, 'message-centre-messages');
  await item.click();
  await expect(user.page.getByTestId('message-body')).toContainText('系统维护');
  await user.page.getByTestId('message-modal-close').click();
  await expect(item).toHaveAttribute('data-unread', 'false');
  await expect.poll(() => bellCount(user.page)).toBe(before);

  // the administrator's receipts: user1 read it
  await expect(row.getByTestId('sent-read')).toContainText('1/1', { timeout: 15_000 });
  await row.getByTestId('sent-receipts').click();
  const drawer = admin.page.getByTestId('receipts-drawer');
  await expect(drawer.getByTestId('receipt-user1')).toHaveText('已读');
  await expect(drawer.getByTestId('receipts-summary')).toContainText('已读 1 位');
  await shot(admin.page, 'message-receipts');
  await user.context.close();
  await admin.context.close();
});

test("the bell's 待办 opens a record in its node, where the administrator reviews it", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const n = Date.now() % 1000;
  const project = `测试人员${String.fromCharCode(0x4e00 + n)}`;
  // user1 registers a person in 从业人员登记 (reviewed by the 审核员 or an administrator) through the API
  const user = await newClient(browser);
  await signIn(user.page, 'user1', 'U');
  await acknowledgePractice(user.page);
  const token = await tokenOf(user.page);
  const first17 = `140105${1960 + (n % 40)}0${1 + (n % 9)}1${n % 10}${String(n).padStart(3, '0')}`;
  const saved = await api(request, token, '/ks/engine/v1/records/save', {
    gnCoding: 'XYGL_CYRY',
    values: {
      xm: project,
      xb: '男',
      sfzh: `${first17}${idNumberCheckChar(first17)}`,
      lxdh: '13934120561',
      szdq: ['山西省', '太原市', '小店区'],
      xl: '本科',
      gznx: 5,
      rzrq: '2020-03-02',
      sfbl: '0',
    },
  });
  const admin = await newClient(browser);
  await signIn(admin.page, 'admin', 'M');
  await expect(admin.page.getByTestId('user-name')).toBeVisible();
  await waitForQuiet(admin.page);
  const before = await bellCount(admin.page);
  // the message centre open on its 待办 tab: the system's badge moves too, without a reload
  await admin.page.getByTestId('message-bell').click();
  const systemBadge = admin.page.getByTestId('todo-system-XYGL-badge');
  await expect(systemBadge).toBeVisible();
  const systemCount = async () =>
    Number(
      (await systemBadge
        .locator('.ant-scroll-number')
        .getAttribute('title')
        .catch(() => null)) ?? '0',
    );
  const systemBefore = await systemCount();
  const submitted = await api(request, token, '/ks/engine/v1/records/submit', {
    gnCoding: 'XYGL_CYRY',
    id: saved.id,
    version: saved.version,
  });
  await expect.poll(() => bellCount(admin.page), { timeout: 15_000 }).toBe(before + 1);
  await expect.poll(systemCount, { timeout: 15_000 }).toBe(systemBefore + 1);
  const todo = admin.page.getByTestId('todo-item').filter({ hasText: project });
  await expect(todo).toBeVisible();
  await expect(todo).toContainText('从业人员登记');
  await shot(admin.page, 'message-centre-todos');
  await todo.click();
  await expect(admin.page).toHaveURL(
    new RegExp(`/dynamicPage/dynamicDetail\\?gnCoding=XYGL_CYRY&systemCoding=\\w+&id=${saved.id}`),
  );
  await expect(admin.page.getByTestId('message-drawer')).toBeHidden();
  await expect(admin.page.getByText(project).first()).toBeVisible();
  await shot(admin.page, 'message-centre-record');
  // the decision (the administrator's, through the API): the to-do leaves the bell without a reload
  const adminToken = await tokenOf(admin.page);
  const decided = await api(request, adminToken, '/ks/engine/v1/records/audit', {
    gnCoding: 'XYGL_CYRY',
    id: saved.id,
    version: submitted.version,
    pass: false,
    suggestion: '身份证复印件不清晰，请重新上传',
  });
  expect(decided.status).toBe('rejected');
  await expect.poll(() => bellCount(admin.page), { timeout: 15_000 }).toBe(before);
  await user.context.close();
  await admin.context.close();
});
