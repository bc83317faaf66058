import { readFile } from 'node:fs/promises';
import { type BrowserContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, col, newClient, pickSelect, signIn } from './helpers';

/**
 * The schema engine end to end (issue 5), on the demo node 执业注册申请 (XYGL_ZYZC): user1 fills the configured form
 * (each rule's message for bad input), saves and submits; the administrator rejects at the first level with a
 * suggestion; user1 edits and resubmits; the administrator passes both levels; on the same node the search bar,
 * a filter tag, column sorting, the pager, the card view and the export work, and the operation log shows every step.
 * The tests build on each other and run in order.
 */
// one flow in steps; each step drives a long form, which on a loaded 2-core machine takes more than the default minute
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const NODE = 'XYGL_ZYZC';
const RUN = Date.now().toString(36).slice(-5).toUpperCase();
/** the record that goes through the review */
const NAME = `王建华${RUN}`;
const SUGGESTION = '身份证复印件不清晰，请重新上传';
/** records made through the API for the list: 11, so that a page of 10 has a second page */
const BATCH = `批量${RUN}`;
const BATCH_SIZE = 11;
const CATEGORIES = ['jzs1', 'jzs2', 'zjs'] as const;
const batchName = (i: number) => `${BATCH}${String(i).padStart(2, '0')}`;
const categoryOf = (i: number) => CATEGORIES[i % CATEGORIES.length]!;

let user: { context: BrowserContext; page: Page };
let admin: { context: BrowserContext; page: Page };

/** A 1 × 1 PNG and two small PDFs: the required attachments of 执业注册申请 (checked by their first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const pdf = (title: string) =>
  Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const ATTACHMENTS = [
  { no: '01', name: 'sfz.png', mimeType: 'image/png', buffer: PNG },
  { no: '02', name: 'zgzs.pdf', mimeType: 'application/pdf', buffer: pdf('zgzs') },
  { no: '03', name: 'sqb.pdf', mimeType: 'application/pdf', buffer: pdf('sqb') },
];

const toast = (page: Page) => page.locator('.ant-message');
const confirmBox = (page: Page) => page.locator('.ant-modal-confirm');
const tableRows = (page: Page) => page.getByTestId('engine-table').locator('.ks-table-tbody tr.ks-table-row');
const rowOf = (page: Page, text: string) => tableRows(page).filter({ hasText: text });

/** Presses 确定 in the confirmation dialog that asks `question`. */
async function confirm(page: Page, question: string) {
  const box = confirmBox(page).filter({ hasText: question });
  await expect(box).toBeVisible();
  await box.getByRole('button', { name: '确定' }).click();
  await expect(box).toBeHidden();
}

/** Types a date into a form field's picker and leaves it (Tab), as a user typing would. */
async function typeDate(page: Page, code: string, text: string) {
  const input = col(page, code).locator('input');
  await input.click();
  await input.fill(text);
  await input.press('Tab');
}

/** Back to the node's list through the sidebar (the app stays loaded). */
async function toList(page: Page) {
  await page.getByTestId(`side-item-${NODE}`).click();
  await expect(page).toHaveURL(new RegExp(`/dynamicPage/dynamicIndex\\?gnCoding=${NODE}`));
  await expect(page.getByTestId('engine-title')).toHaveText('执业注册申请');
}

/** The list narrowed by the search bar to `text` (the search is kept per list in the session). */
async function searchList(page: Page, text: string) {
  await toList(page);
  const input = page.getByTestId('search-field-xm');
  await input.fill(text);
  await page.getByTestId('search-submit').click();
  await expect(tableRows(page).first()).toContainText(text);
}

/** Opens the node from the business systems page and its sidebar, as a user does (the system is then the chosen one). */
async function openNode(page: Page) {
  await page.goto('/judge');
  await page.getByTestId('judge-systems').getByText('信用管理系统').click();
  await page.getByTestId(`side-item-${NODE}`).click();
  await expect(page).toHaveURL(new RegExp(`/dynamicPage/dynamicIndex\\?gnCoding=${NODE}`));
  await expect(page.getByTestId('engine-title')).toHaveText('执业注册申请');
}

async function review(page: Page, pass: boolean, suggestion = '') {
  const row = rowOf(page, NAME);
  await row.getByTestId('op-audit').click();
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('audit-form') });
  await expect(dialog).toBeVisible();
  if (suggestion) await page.getByTestId('audit-suggestion').fill(suggestion);
  await page.getByTestId(pass ? 'audit-pass' : 'audit-reject').click();
  await confirm(page, pass ? '确认通过？' : '确认不通过？');
  await expect(toast(page)).toContainText('操作成功');
  await expect(dialog).toBeHidden();
}

test.beforeAll(async ({ browser }) => {
  [user, admin] = await Promise.all([newClient(browser), newClient(browser)]);
  // both sign in at once (two accounts: neither ends the other's session)
  await Promise.all([
    (async () => {
      await signIn(user.page, 'user1', 'U');
      // user1 has an abnormal practicing status: the reminder comes first
      await acknowledgePractice(user.page);
      await expect(user.page).toHaveURL(/\/system\/pageConfig$/);
    })(),
    (async () => {
      await signIn(admin.page, 'admin', 'M');
      await expect(admin.page).toHaveURL(/\/system\/pageConfig$/);
    })(),
  ]);
  // records for the list, saved by user1 through the API the form uses
  const saved = await user.page.evaluate(
    async ({ names, categories, node }) => {
      const token = sessionStorage.getItem('token') ?? '';
      const save = async (xm: string, i: number) => {
        const res = await fetch('/ks/engine/v1/records/save', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            gnCoding: node,
            values: {
              xm,
              xb: i % 2 ? '女' : '男',
              sfzh: '140105199001011238',
              lxdh: '13800138000',
              zclb: categories[i],
            },
          }),
        });
        return res.status;
      };
      return Promise.all(names.map(save));
    },
    {
      names: Array.from({ length: BATCH_SIZE }, (_, i) => batchName(i + 1)),
      categories: Array.from({ length: BATCH_SIZE }, (_, i) => categoryOf(i + 1)),
      node: NODE,
    },
  );
  expect(saved).toEqual(Array(BATCH_SIZE).fill(200));
});

test.afterAll(async () => {
  await user?.context.close();
  await admin?.context.close();
});

test('user1 fills 执业注册申请: each rule’s message for bad input, then saves and submits', async () => {
  const { page } = user;
  await openNode(page);
  await page.getByTestId('engine-add').click();
  const form = page.getByTestId('dynamic-form');
  await expect(form).toBeVisible();

  // nothing filled: every required field says so
  await page.getByTestId('form-save').click();
  for (const name of ['姓名', '性别', '身份证号', '联系电话', '注册类别']) {
    await expect(form).toContainText(`${name}必填`);
  }
  // the ID number is checked as GB 11643 says once the field is left: the pattern alone is not enough
  const sfzh = col(page, 'sfzh').locator('input');
  await sfzh.fill('140105199001011234');
  await sfzh.press('Tab');
  await expect(col(page, 'sfzh')).toContainText('「身份证号」不是有效的身份证号码（校验位不符）');
  const lxdh = col(page, 'lxdh').locator('input');
  await lxdh.fill('138');
  await lxdh.press('Tab');
  await expect(col(page, 'lxdh')).toContainText('「联系电话」不是有效的手机号码（应为以1开头的11位数字）');
  // 发证日期 may not be later than today
  await typeDate(page, 'fzrq', '2099-01-01');
  await expect(col(page, 'fzrq')).toContainText(/「发证日期」不能晚于今天（\d{4}-\d{2}-\d{2}）/);
  // 有效期至 may not precede 发证日期 (its parent date)
  await typeDate(page, 'fzrq', '2024-06-01');
  await typeDate(page, 'yxq', '2024-01-01');
  await expect(col(page, 'yxq')).toContainText('有效期至不能早于发证日期');
  // switch-1 是否变更注册 shows 变更原因 and requires it
  await expect(col(page, 'bgyy')).toHaveCount(0);
  await col(page, 'sfbg').getByRole('switch').click();
  await expect(col(page, 'bgyy')).toBeVisible();
  // the rest valid
  await col(page, 'xm').locator('input').fill(NAME);
  await col(page, 'xb').getByText('男').click();
  await sfzh.fill('140105199001011238');
  await lxdh.fill('13912345678');
  await pickSelect(page, 'zclb', '二级注册建造师');
  await page.getByTestId('form-save').click();
  await expect(col(page, 'bgyy')).toContainText('请选择变更原因');
  for (const name of ['姓名', '性别', '身份证号', '联系电话', '注册类别']) {
    await expect(form).not.toContainText(`${name}必填`);
  }
  await expect(page.locator('.ant-message-notice', { hasText: '保存成功' })).toHaveCount(0);

  // fixed, with the required attachments: saved, and shown read-only as a draft
  for (const a of ATTACHMENTS) {
    const cell = page.getByTestId(`annex-files-${a.no}`);
    await cell.locator('input[type=file]').setInputFiles({ name: a.name, mimeType: a.mimeType, buffer: a.buffer });
    await expect(cell.getByTestId('attachment-name')).toHaveText(a.name);
  }
  await typeDate(page, 'yxq', '2029-05-31');
  await col(page, 'bgyy').locator('textarea').fill('执业单位变更');
  await expect(col(page, 'yxq').locator('input')).toHaveValue('2029-05-31');
  await expect(col(page, 'yxq')).not.toContainText('不能早于');
  await page.getByTestId('form-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
  await expect(page.getByTestId('detail-status')).toHaveText('草稿');
  await expect(page.getByTestId('dynamic-form')).toContainText('140105199001011238');
  for (const a of ATTACHMENTS) {
    await expect(page.getByTestId(`annex-files-${a.no}`).getByTestId('attachment-name')).toHaveText(a.name);
  }

  // submitted after a confirmation
  await page.getByTestId('detail-op-submit').click();
  await confirm(page, '确认提交？');
  await expect(toast(page)).toContainText('提交成功');
  await expect(page.getByTestId('detail-status')).toHaveText('审核中');
  // the submitter may not review
  await expect(page.getByTestId('detail-op-audit')).toHaveCount(0);
});

test('the administrator sees the to-do and rejects at the first level, only with a suggestion', async () => {
  const { page } = admin;
  await openNode(page);
  await expect(page.getByTestId(`side-badge-${NODE}`)).toContainText('1');
  await searchList(page, NAME);
  const row = rowOf(page, NAME);
  await expect(row.getByTestId('status-tag')).toHaveText('审核中');
  await row.getByTestId('op-audit').click();
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('audit-form') });
  await expect(dialog).toContainText(`审核「执业注册申请」：${NAME}`);
  // 驳回 without a suggestion sends nothing
  await page.getByTestId('audit-reject').click();
  await expect(dialog).toContainText('请填写审核建议');
  await expect(confirmBox(page)).toHaveCount(0);
  await page.getByTestId('audit-cancel').click();
  await review(page, false, SUGGESTION);
  await expect(row.getByTestId('status-tag')).toHaveText('已驳回');
  await expect(row.getByTestId('op-audit')).toHaveCount(0);
  // the enterprise's record is the enterprise's to edit and resubmit: nothing of the kind is offered to the reviewer
  await expect(row.getByTestId('op-edit')).toHaveCount(0);
  await expect(row.getByTestId('op-submit')).toHaveCount(0);
  await expect(row.getByTestId('op-detail')).toBeVisible();
});

test('user1 sees 驳回 with the suggestion, edits and resubmits', async () => {
  const { page } = user;
  await toList(page);
  const row = rowOf(page, NAME);
  await expect(row.getByTestId('status-tag')).toHaveText('已驳回');
  await expect(row.getByTestId('op-submit')).toHaveText('重新提交');
  await row.getByTestId('op-detail').click();
  await expect(page.getByTestId('detail-status')).toHaveText('已驳回');
  await expect(page.getByTestId('detail-rejected')).toContainText(`已被驳回：${SUGGESTION}`);
  await page.getByTestId('detail-op-edit').click();
  await col(page, 'bz').locator('textarea').fill('已重新上传清晰的身份证复印件');
  await page.getByTestId('form-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page.getByTestId('detail-status')).toHaveText('已驳回');
  await page.getByTestId('detail-op-submit').click();
  await confirm(page, '确认提交？');
  await expect(toast(page).filter({ hasText: '提交成功' })).toBeVisible();
  await expect(page.getByTestId('detail-status')).toHaveText('审核中');
});

test('the administrator passes the first and the second level: the record is 已通过', async () => {
  const { page } = admin;
  await searchList(page, NAME);
  const row = rowOf(page, NAME);
  await review(page, true);
  // now at 复审, which is the administrator's as well
  await expect(row.getByTestId('status-tag')).toHaveText('审核中');
  await review(page, true);
  await expect(row.getByTestId('status-tag')).toHaveText('已通过');
  await expect(row.getByTestId('op-audit')).toHaveCount(0);
  await row.getByTestId('op-detail').click();
  await expect(page.getByTestId('detail-status')).toHaveText('已通过');
  await expect(page.getByTestId('engine-detail-dynamic')).toContainText('审核完成');
});

test('the operation log lists every step: save, submit, reject, edit, resubmit, pass, pass', async () => {
  const { page } = user;
  await toList(page);
  const row = rowOf(page, NAME);
  await expect(row.getByTestId('status-tag')).toHaveText('已通过');
  await row.getByTestId('op-logs').click();
  const dialog = page.locator('.ant-modal', { hasText: '操作日志' });
  const entries = dialog.locator('.ant-table-tbody tr.ant-table-row');
  await expect(entries).toHaveCount(10);
  const column = async (i: number) =>
    entries.evaluateAll((trs, n) => trs.map((tr) => tr.querySelectorAll('td')[n]?.textContent ?? ''), i);
  expect(await column(4)).toEqual([
    '新增记录',
    ...ATTACHMENTS.map(() => expect.stringMatching(/^新增附件：(sfz\.png|zgzs\.pdf|sqb\.pdf)（/)),
    '提交审核（第 1 次），待初审',
    `驳回：${SUGGESTION}`,
    '修改记录',
    '提交审核（第 2 次），待初审',
    '初审通过，待复审',
    '复审通过，审核完成',
  ]);
  expect(await column(2)).toEqual([
    ...Array(5).fill('企业/个人'),
    '管理员',
    '企业/个人',
    '企业/个人',
    '管理员',
    '管理员',
  ]);
  await page.getByTestId('logs-close').click();
  await expect(dialog).toBeHidden();
});

test('on the same node: the search bar, a filter tag, sorting, the pager, the card view and the export', async () => {
  const { page } = admin;
  await toList(page);
  // the search bar narrows the list to the batch: 11 records, a second page of one
  await page.getByTestId('search-field-xm').fill(BATCH);
  await page.getByTestId('search-submit').click();
  const pager = page.getByTestId('engine-table-pager');
  await expect(pager).toContainText(`共 ${BATCH_SIZE} 条`);
  await expect(tableRows(page)).toHaveCount(10);
  for (const name of await tableRows(page).locator('td:nth-child(2)').allTextContents()) {
    expect(name).toContain(BATCH);
  }
  // sorting by 姓名, ascending then descending, asks the server for that order
  const sorter = page
    .getByTestId('engine-table')
    .locator('thead th', { hasText: '姓名' })
    .locator('.ks-table-column-sorters');
  const firstName = () => tableRows(page).first().locator('td:nth-child(2)');
  await sorter.click();
  await expect(firstName()).toHaveText(batchName(1));
  await expect(tableRows(page).nth(9).locator('td:nth-child(2)')).toHaveText(batchName(10));
  // the pager: page 2 holds the 11th, numbered on from page 1
  await pager.getByTitle('2', { exact: true }).click();
  await expect(tableRows(page)).toHaveCount(1);
  await expect(firstName()).toHaveText(batchName(11));
  await expect(tableRows(page).first().locator('td').first()).toHaveText('11');
  await sorter.click();
  await expect(tableRows(page)).toHaveCount(10);
  await expect(firstName()).toHaveText(batchName(11));

  // a filter tag narrows further: 注册类别 一级注册造价工程师
  const zjs = Array.from({ length: BATCH_SIZE }, (_, i) => i + 1).filter((i) => categoryOf(i) === 'zjs');
  await page.getByTestId('filter-chip-zclb-zjs').click();
  await expect(page.getByTestId('search-tag-zclb-zjs')).toContainText('注册类别：一级注册造价工程师');
  await expect(pager).toContainText(`共 ${zjs.length} 条`);
  await expect(tableRows(page)).toHaveCount(zjs.length);
  expect(await tableRows(page).locator('td:nth-child(2)').allTextContents()).toEqual(zjs.map(batchName).reverse());

  // the same records as cards
  await page.getByTestId('engine-view').getByText('卡片').click();
  const cards = page.getByTestId('card-item');
  await expect(cards).toHaveCount(zjs.length);
  expect(await cards.getByTestId('card-title').allTextContents()).toEqual(zjs.map(batchName).reverse());
  await expect(cards.first()).toContainText('一级注册造价工程师');
  await expect(page.getByTestId('card-list-footer')).toHaveText('没有更多了~');

  // the export of the current filter: an xlsx file (a zip) named after the node
  const downloading = page.waitForEvent('download');
  await page.getByTestId('engine-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^执业注册申请_\d{12}\.xlsx$/);
  const bytes = await readFile((await download.path()) as string);
  expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  await expect(toast(page)).toContainText('导出成功');

  // the view is remembered for the node: back from a card's detail, the list is cards again
  await cards.first().getByTestId('card-title').click();
  await expect(page.getByTestId('detail-status')).toHaveText('草稿');
  await page.getByTestId('detail-back').click();
  await expect(page.getByTestId('card-item')).toHaveCount(zjs.length);
  await page.getByTestId('engine-view').getByText('表格').click();
  await expect(tableRows(page)).toHaveCount(zjs.length);
});
