import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn } from './helpers';

/**
 * Issue 13, screen 1: the change rounds of a credit record, round by round. user1 opens a change on a passed credit
 * record of its enterprise and meets each §5 message, saves, edits (修改), submits; the administrator rejects it
 * without a suggestion (refused), then with one (变更驳回, '-1'); user1 opens round 2 (第2轮变更); the administrator
 * passes it (变更通过, '2'); the record and the enterprise's grade show the new values on the administrator's page and
 * on the public credit list; the administrator sees every round read-only afterwards.
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'test-results', 'credit-change');
const ENTERPRISE = '示例建设工程有限公司';
const REVIEW_LIST = '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL';

const pdf = (title: string) =>
  Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

interface PassedRecord {
  id: string;
  standardName: string;
  score: number;
  highest: number;
  conduct: 'good' | 'bad';
  counting: boolean;
  startTime: string;
  endTime: string;
}

let user: { context: BrowserContext; page: Page };
let admin: { context: BrowserContext; page: Page };

const toast = (page: Page) => page.locator('.ant-message');
// the dialog's body (its modal root stays mounted while closing; destroyOnHidden empties it)
const dialog = (page: Page) => page.getByTestId('rfc-tabs');
const round = (page: Page, n: number) => page.getByTestId(`rfc-round-${n}`);

/** A call of the platform's API as the signed-in user of the page (its bearer token). */
async function api<T>(page: Page, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([u, b]) => {
      const raw = sessionStorage.getItem('token');
      const token = raw?.startsWith('"') ? JSON.parse(raw) : raw;
      const res = await fetch(u as string, {
        method: b === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      const env = await res.json();
      if (env.code !== 200) throw new Error(`${u}: ${env.code} ${env.message}`);
      return env.data;
    },
    [url, body] as const,
  ) as Promise<T>;
}

/** Presses 确定 in the confirmation that asks `question`. */
async function confirm(page: Page, question: string) {
  const box = page.locator('.ant-modal-confirm').filter({ hasText: question });
  await expect(box).toBeVisible();
  await box.getByRole('button', { name: '确定' }).click();
  await expect(box).toBeHidden();
}

async function expectToast(page: Page, text: string) {
  await expect(toast(page).filter({ hasText: text }).last()).toBeVisible();
}

/** A picture of the open dialog, whole (a tall window, so its body does not scroll). */
async function shot(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 2000 });
  await page.waitForTimeout(300);
  await page
    .getByTestId('rfc-dialog')
    .locator('.ant-modal')
    .screenshot({
      path: path.join(SHOTS, `${name}.png`),
    });
  if (size) await page.setViewportSize(size);
}

/** The 1 s button lock (§9) passes before the same button is pressed again. */
const unlock = (page: Page) => page.waitForTimeout(1100);

/** Picks 信息变更 / 信用记录信息 in the cascader (again, should a click land while the menu is still opening). */
async function chooseType(page: Page, r: number) {
  const cascader = round(page, r).getByTestId('rfc-type');
  await expect(async () => {
    if (!(await page.locator('.ant-cascader-dropdown:visible').count())) await cascader.click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '信息变更' }).click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '信用记录信息' }).click();
    await expect(cascader).toContainText('信用记录信息', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

async function upload(page: Page, r: number, testId: string, name: string) {
  const box = round(page, r).getByTestId(testId);
  await box.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/pdf', buffer: pdf(name) });
  await expect(box).toContainText(name);
}

/** Types a date into the new-value picker of a field and leaves it with Enter. */
async function typeDate(page: Page, r: number, code: string, value: string) {
  const input = round(page, r).getByTestId(`rfc-row-${code}`).locator('input');
  // the picker's panel opening can put the old value back under a fast fill: type until the input holds it
  await expect(async () => {
    await input.click();
    await input.fill(value);
    await expect(input).toHaveValue(value, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await input.press('Enter');
}

async function typeScore(page: Page, r: number, value: string) {
  const input = round(page, r).getByTestId(`rfc-row-score`).locator('input');
  await input.fill(value);
  await input.press('Tab');
}

/** user1's 企业信息 page, and the change dialog on the record. */
async function openRecord(page: Page, id: string) {
  await page.goto('/system/companyInfo');
  const row = page.locator(`[data-testid="credit-record-row"][data-id="${id}"]`);
  await expect(row).toBeVisible();
  await row.getByTestId('credit-record-change').click();
  await expect(dialog(page)).toBeVisible();
}

/** The administrator opens the submitted round from 信用变更申请 (the to-dos) by its 审核 button. */
async function openReview(page: Page, standardName: string, op = 'op-audit') {
  await page.goto(REVIEW_LIST);
  const row = page
    .getByTestId('engine-table')
    .locator('.ks-table-tbody tr.ks-table-row')
    .filter({ hasText: ENTERPRISE })
    .filter({ hasText: standardName })
    .first();
  await expect(row).toBeVisible();
  await row.getByTestId(op).click();
  await expect(dialog(page)).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  [user, admin] = await Promise.all([newClient(browser), newClient(browser)]);
  await signIn(user.page, 'user1', 'U');
  await acknowledgePractice(user.page);
  await signIn(admin.page, 'admin', 'M');
  await expectSignedIn(admin.page, '平台管理员');
});

test.afterAll(async () => {
  await user?.context.close();
  await admin?.context.close();
});

test('a credit record changes round by round: refused, rejected, passed — and the grade follows', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const u = user.page;
  const a = admin.page;

  // a passed, counting good-conduct record of user1's enterprise, and the grade before
  const list = await api<{ records: PassedRecord[] }>(u, '/ks/credit/record/list', {
    subjectKind: 'enterprise',
    status: 'passed',
    conduct: 'good',
    pageNum: 1,
    pageSize: 50,
  });
  // one without change rounds yet (a run on a used database leaves rounds behind)
  let rec: PassedRecord | undefined;
  for (const r of list.records.filter((x) => x.counting && x.score < x.highest)) {
    const rounds = await api<unknown[]>(u, '/ks/rfc/change-records', {
      change: false,
      businessId: r.id,
      gnCoding: 'XYGL_XYJL',
      systemCoding: 'XYGL',
    });
    if (rounds.length === 0) {
      rec = r;
      break;
    }
  }
  expect(rec, 'a counting good-conduct record below its highest, without rounds').toBeTruthy();
  const record = rec!;
  const before = await api<{ grade: { score: number; level: string } }>(u, '/ks/credit/common/info', {
    subjectKind: 'enterprise',
  });
  const newScore = record.highest;
  const expectedScore = Math.round((before.grade.score + newScore - record.score) * 100) / 100;

  // ── round 1: every §5 message, save, 修改, submit ──
  await openRecord(u, record.id);
  await expect(u.getByTestId('rfc-tab-1')).toHaveText('第1轮变更');
  const r1 = round(u, 1);
  await expect(r1.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '1');
  await expect(r1.getByTestId('rfc-reason')).toHaveAttribute('rows', '2');
  await expect(r1.getByTestId('rfc-suggestion-text')).toHaveAttribute('rows', '5');
  await expect(r1.getByTestId('rfc-template')).toHaveAttribute('href', /\/ks\/rfc\/template\?gnCoding=XYGL_XYJL/);

  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '请选择变更类型！');
  await chooseType(u, 1);
  await unlock(u);
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '请输入变更原因！');
  await r1.getByTestId('rfc-reason').fill('该奖项复核后应按最高分计分，特申请更正分值');
  await unlock(u);
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '请上传附件！');
  await upload(u, 1, 'rfc-attachments', '信用变更说明.pdf');
  await unlock(u);
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '附件为必填项，请上传【变更申请表、证明材料】附件！');
  await upload(u, 1, 'rfc-annex-files-bgsqb', '变更申请表.pdf');
  await upload(u, 1, 'rfc-annex-files-zmcl', '获奖证书.pdf');

  // the before/after form: old values read-only beside the new ones
  await expect(r1.getByTestId('rfc-old-score')).toHaveText(String(record.score));
  await expect(r1.getByTestId('rfc-old-standard')).toHaveText(record.standardName);
  // an end before the start: refused and cleared
  const dayBefore = new Date(Date.parse(`${record.startTime}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await typeDate(u, 1, 'end_time', dayBefore);
  await expectToast(u, '结束时间不能早于开始时间');
  await expect(r1.getByTestId('rfc-row-end_time').locator('input')).toHaveValue('');
  // a score above the standard's highest: refused with the highest named, and cleared
  await typeScore(u, 1, String(record.highest + 1));
  await expectToast(u, `分值不能超过该信用标准的最高分${record.highest}分，请作废本次申报后另行添加其他信用标准项！`);
  await expect(r1.getByTestId('rfc-row-score').locator('input')).toHaveValue('');
  // a negative score: refused and cleared
  await typeScore(u, 1, '-1');
  await expectToast(u, '分值不能为负数');
  await expect(r1.getByTestId('rfc-row-score').locator('input')).toHaveValue('');
  // the form's failure message
  await unlock(u);
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '校验未通过，请检查页面输入');

  await typeDate(u, 1, 'end_time', record.endTime);
  await typeScore(u, 1, String(newScore));
  await unlock(u);
  await shot(u, 'user-round1-editing');
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '保存成功');
  // saved: read-only until 修改
  await expect(r1.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '0');
  await expect(r1.getByTestId('rfc-data-score')).toContainText(String(newScore));
  await expect(r1.getByTestId('rfc-buttons').getByRole('button')).toHaveText(['修改', '提交', '关闭']);
  await r1.getByTestId('rfc-edit').click();
  await expect(r1.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '1');
  await r1.getByTestId('rfc-submit').click();
  await expectToast(u, '请先保存！');
  await r1.getByTestId('rfc-save').click();
  await expectToast(u, '保存成功');
  await expect(r1.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '0');
  await unlock(u);
  await r1.getByTestId('rfc-submit').click();
  await confirm(u, '确定提交本轮变更吗？提交后将不能修改。');
  await expectToast(u, '已提交，等待审核');
  await expect(dialog(u)).toBeHidden();

  // ── the administrator: reject without a suggestion (refused), then with one ──
  await openReview(a, record.standardName);
  const ar1 = round(a, 1);
  await expect(ar1.getByTestId('rfc-buttons').getByRole('button')).toHaveText(['驳回', '通过', '关闭']);
  // the enterprise's files, read-only for the administrator
  await expect(ar1.getByTestId('rfc-attachments')).toContainText('信用变更说明.pdf');
  await expect(ar1.getByTestId('rfc-attachments').locator('input[type=file]')).toHaveCount(0);
  await expect(ar1.getByTestId('rfc-suggestion')).toHaveAttribute('rows', '5');
  await shot(a, 'admin-round1-review');
  await ar1.getByTestId('rfc-reject').click();
  await expectToast(a, '请填写审核建议');
  await ar1.getByTestId('rfc-suggestion').fill('获奖证书未加盖发证机关印章，请补充后重新申请');
  await unlock(a);
  await ar1.getByTestId('rfc-reject').click();
  await confirm(a, '确认不通过？');
  await expectToast(a, '变更已驳回');
  await expect(ar1.getByTestId('rfc-status')).toHaveText('变更驳回');
  await expect(ar1).toHaveAttribute('data-change', '-1');
  await expect(ar1.getByTestId('rfc-buttons').getByRole('button')).toHaveText(['关闭']);
  await ar1.getByTestId('rfc-close').click();

  // nothing changed: the record keeps its score
  const afterReject = await api<{ grade: { score: number } }>(u, '/ks/credit/common/info', {
    subjectKind: 'enterprise',
  });
  expect(afterReject.grade.score).toBe(before.grade.score);

  // ── round 2 ──
  await openRecord(u, record.id);
  await expect(u.getByTestId('rfc-tab-2')).toHaveText('第2轮变更');
  const r2 = round(u, 2);
  await expect(r2.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '1');
  await chooseType(u, 2);
  await r2.getByTestId('rfc-reason').fill('已补充加盖印章的获奖证书，申请按最高分计分');
  await upload(u, 2, 'rfc-attachments', '信用变更说明（补充）.pdf');
  await upload(u, 2, 'rfc-annex-files-bgsqb', '变更申请表（盖章）.pdf');
  await upload(u, 2, 'rfc-annex-files-zmcl', '获奖证书（盖章）.pdf');
  await typeScore(u, 2, String(newScore));
  await r2.getByTestId('rfc-save').click();
  await expectToast(u, '保存成功');
  await expect(r2.getByTestId('rfc-initiate')).toHaveAttribute('data-editing', '0');
  // round 1 stays as it was decided
  await u.getByTestId('rfc-tab-1').click();
  await expect(round(u, 1).getByTestId('rfc-status')).toHaveText('变更驳回');
  await expect(round(u, 1).getByTestId('rfc-suggestion-text')).toHaveValue(
    '获奖证书未加盖发证机关印章，请补充后重新申请',
  );
  await expect(round(u, 1).getByTestId('rfc-buttons').getByRole('button')).toHaveText(['关闭']);
  await u.getByTestId('rfc-tab-2').click();
  await unlock(u);
  await r2.getByTestId('rfc-submit').click();
  await confirm(u, '确定提交本轮变更吗？提交后将不能修改。');
  await expectToast(u, '已提交，等待审核');
  await expect(dialog(u)).toBeHidden();

  // ── the administrator passes it ──
  await openReview(a, record.standardName);
  const ar2 = round(a, 2);
  await expect(ar2.getByTestId('rfc-data-score')).toContainText(String(newScore));
  await ar2.getByTestId('rfc-suggestion').fill('材料齐全，同意变更');
  await ar2.getByTestId('rfc-pass').click();
  await confirm(a, '确认通过？');
  await expectToast(a, '变更通过，新的内容已生效');
  await expect(ar2.getByTestId('rfc-status')).toHaveText('变更通过');
  await expect(ar2).toHaveAttribute('data-change', '2');
  await ar2.getByTestId('rfc-close').click();

  // ── the new values: the administrator's page (the enterprise's drawer), the enterprise's page, the public list ──
  await a.goto('/system/companyInfo');
  await a.getByRole('tab', { name: '企业信息管理' }).click();
  const keyword = a.getByTestId('filter-keyword').locator('input');
  await keyword.fill(ENTERPRISE);
  await keyword.press('Enter');
  const entRow = a.locator('[data-testid="enterprise-table"] .ant-table-row', { hasText: ENTERPRISE }).first();
  await entRow.getByTestId('enterprise-open').click();
  const drawer = a.locator('.ant-drawer');
  await expect(drawer.getByTestId('credit-score')).toHaveText(String(expectedScore));
  const adminRow = drawer.locator(`[data-testid="credit-record-row"][data-id="${record.id}"]`);
  await expect(adminRow.getByTestId('credit-record-score')).toHaveText(`+${newScore}`);

  await u.goto('/system/companyInfo');
  await expect(u.getByTestId('credit-score')).toHaveText(String(expectedScore));
  const after = await api<{ grade: { score: number; level: string } }>(u, '/ks/credit/common/info', {
    subjectKind: 'enterprise',
  });
  expect(after.grade.score).toBe(expectedScore);
  await expect(u.getByTestId('credit-level')).toHaveText(after.grade.level);

  // the public credit list (no sign-in): the new score and level
  const res = await a.request.get(`/ks/credit/public/list?keyword=${encodeURIComponent(ENTERPRISE)}`);
  const pub = (await res.json()) as { data: { records: { name: string; score: number; level: string }[] } };
  const row = pub.data.records.find((r) => r.name === ENTERPRISE);
  expect(row).toMatchObject({ score: expectedScore, level: after.grade.level });
  // and on its page, as a visitor without sign-in sees it
  const visitor = await newClient(browser);
  try {
    await visitor.page.goto(`/credit/creditPublicList?keyword=${encodeURIComponent(ENTERPRISE)}`);
    const pubRow = visitor.page.getByTestId('public-row').filter({ hasText: ENTERPRISE }).first();
    await expect(pubRow.locator('[data-label="信用分"]')).toHaveText(String(expectedScore));
    await expect(pubRow.locator('[data-label="信用等级"]')).toHaveText(after.grade.level);
  } finally {
    await visitor.context.close();
  }

  // ── the administrator sees every round read-only afterwards ──
  await a.goto(REVIEW_LIST);
  await openReview(a, record.standardName, 'op-detail');
  await expect(a.getByTestId('rfc-tab-1')).toHaveText('第1轮变更');
  await expect(a.getByTestId('rfc-tab-2')).toHaveText('第2轮变更');
  await expect(round(a, 2).getByTestId('rfc-buttons').getByRole('button')).toHaveText(['关闭']);
  await expect(round(a, 2).getByTestId('rfc-suggestion')).toHaveCount(0);
  await expect(round(a, 2).getByTestId('rfc-suggestion-text')).toHaveValue('材料齐全，同意变更');
  await a.getByTestId('rfc-tab-1').click();
  await expect(round(a, 1).getByTestId('rfc-status')).toHaveText('变更驳回');
  await expect(round(a, 1).getByTestId('rfc-buttons').getByRole('button')).toHaveText(['关闭']);
  await a.getByTestId('rfc-tab-2').click();
  await shot(a, 'admin-rounds-after');
});
