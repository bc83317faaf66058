import { type BrowserContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, newClient, signIn } from './helpers';

/**
 * Issue 11, field rules in the browser: every date, date-time and date range — and the other field types of screen
 * 13 — survives load → 编辑 → 保存 untouched with the stored values unchanged and no message; identifiers are
 * checked with their check digits.
 *
 * 1. 保函申请 (DZBH_BHSQ), as the issue tells it: user1 fills the form (开标时间 picked as a date-time), saves, opens
 *    编辑 and saves again without touching anything.
 * 2. A node a developer configures with one field of each type of screen 13: a record with a value in each is loaded
 *    into the form, saved untouched twice, and reads back the same.
 */
test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36).slice(-5).toUpperCase();
/** 示例建设工程有限公司's unified social credit code (seed/demo.ts: GB 32100 check character 9), and a wrong one. */
const CREDIT_CODE = '91140100MA0K8G2J79';
const WRONG_CODE = '91140100MA0K8G2J7A';

let user: { context: BrowserContext; page: Page };

const col = (page: Page, code: string) => page.getByTestId(`form-col-${code}`);
const toast = (page: Page) => page.locator('.ant-message');

type Api = { status: number; body: { code: number; data: any; message: string } };

/** A call of the API with the page's session (as the web's request client makes it). */
async function api(page: Page, url: string, body: object, method = 'POST'): Promise<Api> {
  return page.evaluate(
    async ({ url, body, method }) => {
      const res = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { url, body, method },
  );
}

/** Types a date or date-time into a picker and leaves it (Tab), as a user typing would. */
async function typeDate(page: Page, code: string, text: string) {
  const input = col(page, code).locator('input');
  await input.click();
  await input.fill(text);
  await input.press('Tab');
  await expect(input).toHaveValue(text);
}

/** Picks a day range in a range picker's calendar: types both ends, each confirmed with Enter. */
async function typeRange(page: Page, code: string, start: string, end: string) {
  const [from, to] = [col(page, code).locator('input').first(), col(page, code).locator('input').last()];
  await from.click();
  await from.fill(start);
  await from.press('Enter');
  await to.fill(end);
  await to.press('Enter');
  await expect(from).toHaveValue(start);
  await expect(to).toHaveValue(end);
}

test.beforeAll(async ({ browser }) => {
  user = await newClient(browser);
  await signIn(user.page, 'user1', 'U');
  await acknowledgePractice(user.page);
  await expect(user.page).toHaveURL(/\/system\/pageConfig$/);
});

test.afterAll(async () => {
  await user?.context.close();
});

test('保函申请: fill (开标时间 as a date-time), save, 编辑, save untouched: the same values, no message', async () => {
  test.setTimeout(120_000);
  const { page } = user;
  await page.goto('/judge');
  await page.getByTestId('judge-systems').getByText('电子保函系统').click();
  await page.getByTestId('side-item-DZBH_BHSQ').click();
  await expect(page.getByTestId('engine-title')).toHaveText('保函申请');
  await page.getByTestId('engine-add').click();
  await expect(page.getByTestId('dynamic-form')).toBeVisible();

  const project = `太原市综合管廊工程${RUN}`;
  await col(page, 'xmmc').locator('input').fill(project);
  // the credit code with a wrong check character is named when the field is left
  const code = col(page, 'sqdwdm').locator('input');
  await code.fill(WRONG_CODE);
  await code.press('Tab');
  await expect(col(page, 'sqdwdm')).toContainText(
    '「申请单位统一社会信用代码」不是有效的统一社会信用代码（校验位不符）',
  );
  await code.fill(CREDIT_CODE);
  await expect(col(page, 'sqdwdm')).not.toContainText('不是有效的');
  await col(page, 'bhlx').getByText('投标保函').click();
  await col(page, 'bhje').locator('input').fill('200000');
  await typeRange(page, 'yxq', '2030-03-01', '2030-06-30');
  await typeDate(page, 'kbsj', '2030-03-15 09:30');
  await typeDate(page, 'sqrq', '2026-01-05');
  await col(page, 'lxr').locator('input').fill('张建国');
  await col(page, 'lxdh').locator('input').fill('13800138000');
  await page.getByTestId('form-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
  const id = new URL(page.url()).searchParams.get('id')!;
  const first = await api(page, '/ks/engine/v1/records/detail', { gnCoding: 'DZBH_BHSQ', id });
  expect(first.body.data.values).toMatchObject({
    xmmc: project,
    sqdwdm: CREDIT_CODE,
    yxq: '2030-03-01,2030-06-30',
    kbsj: '2030-03-15 09:30',
    sqrq: '2026-01-05',
  });
  await expect(page.getByTestId('dynamic-form')).toContainText('2030-03-15 09:30');

  // 编辑 → 保存, nothing touched: saved (no 日期格式有误), and nothing changed but the version
  for (const round of [1, 2]) {
    await page.getByTestId('detail-op-edit').click();
    await expect(page).toHaveURL(/mode=edit/);
    await expect(col(page, 'kbsj').locator('input')).toHaveValue('2030-03-15 09:30');
    await expect(col(page, 'yxq').locator('input').first()).toHaveValue('2030-03-01');
    await expect(col(page, 'sqrq').locator('input')).toHaveValue('2026-01-05');
    await page.getByTestId('form-save').click();
    // saved: the read-only record again (a refused save would stay in the form with its messages)
    await expect(page).not.toHaveURL(/mode=edit/);
    await expect(page.getByTestId('detail-status')).toHaveText('草稿');
    await expect(page.locator('.ant-form-item-explain-error')).toHaveCount(0);
    const detail = () => api(page, '/ks/engine/v1/records/detail', { gnCoding: 'DZBH_BHSQ', id });
    await expect.poll(async () => (await detail()).body.data.version).toBe(first.body.data.version + round);
    expect((await detail()).body.data.values).toEqual(first.body.data.values);
  }
});

/** One field of each type of screen 13, with the options the option types need (inline). */
const OPTS = {
  list: [
    { label: '甲', value: 'a', children: [{ label: '甲一', value: 'a1' }] },
    { label: '乙', value: 'b', children: [{ label: '乙一', value: 'b1' }] },
  ],
};
const FLAT = {
  list: [
    { label: '甲', value: 'a' },
    { label: '乙', value: 'b' },
    { label: '丙', value: 'c' },
  ],
};
const ALL_TYPES = [
  { code: 'f_read', name: '说明', type: 'read-text' },
  { code: 'f_select', name: '下拉', type: 'select', options: FLAT },
  { code: 'f_filter', name: '搜索下拉', type: 'filter-select', options: FLAT },
  { code: 'f_sfilter', name: '下拉筛选', type: 'select-filter', options: FLAT },
  { code: 'f_link', name: '联动下拉', type: 'select-link', options: FLAT },
  { code: 'f_selm', name: '下拉多选', type: 'select-m', options: FLAT },
  { code: 'f_edit', name: '可输入下拉', type: 'select-edit', options: FLAT },
  { code: 'f_casc', name: '级联', type: 'cascader', options: OPTS },
  { code: 'f_casc1', name: '级联一', type: 'cascader-1', options: OPTS },
  { code: 'f_casc2', name: '级联二', type: 'cascader-2', options: OPTS },
  { code: 'f_casc3', name: '级联三', type: 'cascader-3', options: OPTS },
  { code: 'f_cascs', name: '多路级联', type: 'cascaders', options: OPTS },
  { code: 'f_smul', name: '多选下拉', type: 'select-multiple', options: FLAT },
  { code: 'f_tree', name: '树形多选', type: 'multi-select', options: OPTS },
  { code: 'f_sels', name: '多项选择', type: 'selects', options: FLAT },
  { code: 'f_chk', name: '复选', type: 'checkbox', options: FLAT },
  { code: 'f_radio', name: '单选', type: 'radio', options: FLAT },
  { code: 'f_tr', name: '穿梭框', type: 'transfer', options: FLAT },
  { code: 'f_tr1', name: '穿梭框一', type: 'transfer-1', options: FLAT },
  { code: 'f_sw', name: '开关', type: 'switch' },
  { code: 'f_sw1', name: '控制开关', type: 'switch-1' },
  { code: 'f_sw2', name: '固定开关', type: 'switch-2' },
  { code: 'f_yn', name: '是否', type: 'y_n_ent' },
  { code: 'f_rich', name: '富文本', type: 'editor' },
  { code: 'f_text', name: '文本', type: 'text' },
  { code: 'f_area', name: '多行文本', type: 'textarea' },
  { code: 'f_num', name: '数字', type: 'number' },
  { code: 'f_inum', name: '数字输入', type: 'input-number' },
  { code: 'f_sex', name: '性别', type: 'sex' },
  { code: 'f_dt', name: '日期时间', type: 'datetime' },
  { code: 'f_date', name: '日期', type: 'date' },
  { code: 'f_range', name: '日期区间', type: 'daterange' },
];
const VALUES = {
  f_select: 'a',
  f_filter: 'b',
  f_sfilter: 'c',
  f_link: 'a',
  f_selm: 'a;c',
  f_edit: '自填内容',
  f_casc: 'a/a1',
  f_casc1: 'b/b1',
  f_casc2: 'a/a1',
  f_casc3: 'b/b1',
  f_cascs: 'a/a1;b/b1',
  f_smul: 'b;c',
  f_tree: 'a1;b1',
  f_sels: 'a;b',
  f_chk: 'b;c',
  f_radio: 'c',
  f_tr: 'a;b',
  f_tr1: 'c',
  f_sw: '1',
  f_sw1: '0',
  f_sw2: '1',
  f_yn: '1',
  f_rich: '<p>项目<strong>概况</strong></p>',
  f_text: '示例文本',
  f_area: '第一行\n第二行',
  f_num: 12,
  f_inum: 3,
  f_sex: '女',
  f_dt: '2030-05-06 14:45',
  f_date: '2030-05-06',
  f_range: '2030-05-01,2030-05-31',
};

test('a node with every type of screen 13: a record loaded into the form saves untouched with the same values', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const gnCoding = `ZBTB_QLX${RUN}`;
  const dev = await newClient(browser);
  const admin = await newClient(browser);
  try {
    // the developer makes the node, its buttons and its fields; the administrator lets ordinary users use it
    await signIn(dev.page, 'dev', 'D');
    await expect(dev.page).toHaveURL(/\/system\/pageConfig$/);
    const node = await api(dev.page, '/ks/config/new/structure/child-menu', {
      systemCoding: 'ZBTB',
      gnCoding,
      title: `字段类型样例${RUN}`,
      nodeProperties: 'list',
    });
    expect(node.status, node.body.message).toBe(200);
    const buttons = await api(
      dev.page,
      '/ks/config/new/node/functions',
      {
        gnCoding,
        functions: [
          { code: 'add', name: '新增', kind: 'table' },
          { code: 'edit', name: '编辑', kind: 'table' },
          { code: 'detail', name: '详情', kind: 'table' },
        ],
      },
      'PUT',
    );
    expect(buttons.status, buttons.body.message).toBe(200);
    const fields = await api(dev.page, '/ks/config/node/fields', { gnCoding, fields: ALL_TYPES, version: 0 }, 'PUT');
    expect(fields.status, JSON.stringify(fields.body.data)).toBe(200);
    await signIn(admin.page, 'admin', 'M');
    await expect(admin.page).toHaveURL(/\/system\/pageConfig$/);
    const grant = await api(
      admin.page,
      '/ks/authority/v1/node/save-functions',
      { subjectType: 'role', subjectId: 'user', gnCoding, visible: true, functionCodes: ['add', 'edit', 'detail'] },
      'PUT',
    );
    expect(grant.status, grant.body.message).toBe(200);
  } finally {
    await dev.context.close();
    await admin.context.close();
  }

  const { page } = user;
  const saved = await api(page, '/ks/engine/v1/records/save', { gnCoding, values: VALUES });
  expect(saved.status, JSON.stringify(saved.body.data)).toBe(200);
  const { id } = saved.body.data;
  const stored = saved.body.data.values;
  expect(stored).toMatchObject(VALUES);

  for (const round of [1, 2]) {
    await page.goto(`/dynamicPage/dynamicDetail?gnCoding=${gnCoding}&systemCoding=ZBTB&id=${id}&mode=edit`);
    // a full page load of the back office with 32 widgets (the editor's chunk among them): give a busy machine time
    await expect(col(page, 'f_dt').locator('input')).toHaveValue('2030-05-06 14:45', { timeout: 30_000 });
    await expect(col(page, 'f_date').locator('input')).toHaveValue('2030-05-06');
    await expect(col(page, 'f_range').locator('input').last()).toHaveValue('2030-05-31');
    await expect(col(page, 'f_text').locator('input')).toHaveValue('示例文本');
    await page.getByTestId('form-save').click();
    await expect(page).not.toHaveURL(/mode=edit/);
    await expect(page.locator('.ant-form-item-explain-error')).toHaveCount(0);
    const detail = () => api(page, '/ks/engine/v1/records/detail', { gnCoding, id });
    await expect.poll(async () => (await detail()).body.data.version).toBe(saved.body.data.version + round);
    expect((await detail()).body.data.values).toEqual(stored);
  }
});
