import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, signIn, signOut } from './helpers';

/**
 * The configurable shell (issue 4): a developer builds a system with menus and nodes, an administrator grants,
 * and an ordinary user sees exactly what was granted. The tests build on each other and run in order.
 */
test.describe.configure({ mode: 'serial' });

const SYSTEM = `E2E${Date.now().toString(36).toUpperCase()}`;
const NODE_A = `${SYSTEM}_A`;
const NODE_B = `${SYSTEM}_B`;
const NODE_HIDDEN = `${SYSTEM}_H`;

async function signedIn(page: Page, account: string, role: 'U' | 'M' | 'D') {
  await signIn(page, account, role);
  // user1 has an abnormal practicing status: the reminder comes first
  if (account === 'user1') await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
}

const toast = (page: Page) => page.locator('.ant-message');

/** Opens an antd Select and clicks an option ("列表", "新增（add）"), retrying until `done` holds. */
async function pickOption(page: Page, selectTestId: string, label: string, done: () => Promise<void>) {
  await expect(async () => {
    await page.getByTestId(selectTestId).click();
    const option = page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${label}(（|$)`) })
      .first();
    await option.click({ timeout: 2000 });
    await done();
  }).toPass({ timeout: 15_000 });
}

async function createMenu(page: Page, code: string, title: string, opts: { hidden?: boolean } = {}) {
  await page.getByTestId('add-sibling').click();
  await page.getByTestId('menu-title-input').fill(title);
  await page.getByTestId('menu-code-input').fill(code);
  await pickOption(page, 'menu-property', '列表', () =>
    expect(
      page
        .getByTestId('menu-form')
        .locator('.ant-select-content, .ant-select-selection-item')
        .filter({ hasText: /^列表$/ }),
    ).toHaveCount(1, { timeout: 1000 }),
  );
  if (opts.hidden) await page.getByTestId('menu-itshows').getByText('否', { exact: true }).click();
  await page.getByTestId('menu-save').click();
  await expect(page.getByTestId(`menu-node-${code}`)).toBeVisible();
}

test('a developer creates a system (with each §5 message for bad input), adds menus and nodes, and reorders them', async ({
  browser,
}) => {
  const { context, page } = await newClient(browser);
  await signedIn(page, 'dev', 'D');
  await page.goto('/judge');
  await page.getByTestId('judge-new-system').click();
  const form = page.getByTestId('new-system-form');
  await expect(form).toBeVisible();

  // empty: every required message
  await page.getByTestId('new-system-submit').click();
  await expect(form).toContainText('请输入系统全称');
  await expect(form).toContainText('请输入系统简称');
  await expect(form).toContainText('系统编码格式为字母开头，以及数字、下划线组成');
  // a title of 9 characters, a code starting with a digit
  await page.getByTestId('new-system-name').fill('端到端测试系统');
  await page.getByTestId('new-system-title').fill('一二三四五六七八九');
  await page.getByTestId('new-system-code').fill('1abc');
  await page.getByTestId('new-system-submit').click();
  await expect(form).toContainText('长度在 1 到 8 个字符');
  await expect(form).toContainText('系统编码格式为字母开头，以及数字、下划线组成');
  // a code that exists already: the server's 409 lands on the field
  await page.getByTestId('new-system-title').fill('端到端');
  await page.getByTestId('new-system-code').fill('XYGL');
  await page.getByTestId('new-system-submit').click();
  await expect(form).toContainText('编码已存在，请更换');
  // valid: the dialog closes, the form resets, 系统已生成, the list has it
  await page.getByTestId('new-system-code').fill(SYSTEM);
  await page.getByTestId('new-system-submit').click();
  await expect(toast(page)).toContainText('系统已生成');
  await expect(form).toBeHidden();
  await expect(page.getByTestId('judge-systems')).toContainText(SYSTEM);
  await page.getByTestId('judge-new-system').click();
  await expect(page.getByTestId('new-system-name')).toHaveValue('');
  await page.getByTestId('new-system-cancel').click();

  // menus and nodes
  await page.goto(`/system/menuSetUp?systemCoding=${SYSTEM}`);
  await expect(page.getByTestId('menu-tree-card')).toBeVisible();
  await createMenu(page, NODE_A, '甲节点');
  await createMenu(page, NODE_B, '乙节点');
  await createMenu(page, NODE_HIDDEN, '隐藏节点', { hidden: true });
  const order = () =>
    page
      .locator('[data-testid^="menu-node-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')?.replace('menu-node-', '')));
  await expect.poll(order).toEqual([NODE_A, NODE_B, NODE_HIDDEN]);

  // the buttons of 甲节点: 新增 and 导出 from the standard dictionary
  await page.getByTestId(`menu-node-${NODE_A}`).click();
  await page.getByTestId('menu-tabs').getByRole('tab', { name: /按钮/ }).click();
  const rows = page.getByTestId('functions-table').locator('.ant-table-row');
  for (const [i, name] of ['新增', '导出'].entries()) {
    await pickOption(page, 'function-dictionary', name, () => expect(rows).toHaveCount(i + 1, { timeout: 1000 }));
  }
  await expect(page.getByTestId('functions-table').locator('input[value="新增"]')).toHaveCount(1);
  await expect(page.getByTestId('functions-table').locator('input[value="导出"]')).toHaveCount(1);
  await page.getByTestId('save-functions').click();
  await expect(toast(page)).toContainText('保存成功');

  // reorder: 乙 up above 甲
  await page.getByTestId(`menu-node-${NODE_B}`).click();
  await page.getByTestId('menu-up').click();
  await expect.poll(order).toEqual([NODE_B, NODE_A, NODE_HIDDEN]);
  await page.reload();
  await expect.poll(order).toEqual([NODE_B, NODE_A, NODE_HIDDEN]);
  await context.close();
});

test('an administrator grants a node and one function to the role 企业/个人', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signedIn(page, 'admin', 'M');
  for (const [system, node, fn] of [
    [SYSTEM, NODE_A, 'export'],
    ['PTGL', 'PORTAL_NOTICE', 'add'],
  ] as const) {
    await page.goto(`/system/permissConfig?subjectType=role&subjectId=user&systemCoding=${system}`);
    await expect(page.getByTestId('grant-matrix')).toBeVisible();
    await page.getByTestId(`fn-${node}-${fn}`).check();
    await expect(page.getByTestId(`visible-${node}`)).toBeChecked();
    await page.getByTestId('save-grants').click();
    await expect(toast(page)).toContainText('保存成功');
  }
  await context.close();
});

test('user1 sees exactly the granted menus and buttons, never a hidden menu, and the theme persists', async ({
  browser,
}) => {
  const { context, page } = await newClient(browser);
  await signedIn(page, 'user1', 'U');
  await page.goto('/judge');
  await page.getByTestId('judge-systems').getByText(SYSTEM).click();
  const side = page.getByTestId('side-menu');
  await expect(side.getByTestId(`side-item-${NODE_A}`)).toBeVisible();
  await expect(side.getByTestId(`side-item-${NODE_B}`)).toHaveCount(0);
  await expect(side.getByTestId(`side-item-${NODE_HIDDEN}`)).toHaveCount(0);
  await expect(side).not.toContainText('隐藏节点');
  // the node has no fields yet: the not-yet-available page names it and keeps the sidebar
  await expect(page).toHaveURL(new RegExp(`/dynamicPage/dynamicIndex\\?gnCoding=${NODE_A}`));
  await expect(page.getByTestId('pending-page')).toContainText('暂未开放');
  await expect(page.getByText('该节点尚未配置字段')).toHaveCount(0);
  await expect(side.getByTestId(`side-item-${NODE_A}`)).toBeVisible();

  // buttons: only 新建公告 of the notice functions was granted
  await page.goto('/system/portalNotices');
  await expect(page.getByTestId('notice-create')).toBeVisible();
  await expect(page.locator('[data-testid="notice-table"] .ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('notice-edit')).toHaveCount(0);
  await expect(page.getByTestId('notice-publish')).toHaveCount(0);
  await expect(page.getByTestId('notice-withdraw')).toHaveCount(0);
  await expect(page.getByTestId('notice-delete')).toHaveCount(0);

  // theme: dark, saved on the server, back after signing in again
  await page.getByTestId('theme-button').click();
  await page.getByTestId('theme-mode').getByText('深色').click();
  await page.getByTestId('theme-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await signOut(page);
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
  await signedIn(page, 'user1', 'U');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // put it back for other tests
  await page.getByTestId('theme-button').click();
  await page.getByTestId('theme-reset').click();
  await page.getByTestId('theme-save').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await context.close();
});
