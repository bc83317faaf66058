import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn } from './helpers';

/**
 * Issue 19, 资料库: an administrator uploads a new version of the 信用承诺书 standard file (chunked upload, usage library)
 * and makes it current; user1 sees it marked 当前版本 on /standardFile/letterBook and named on the credit commitment
 * book, and downloads it.
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'test-results', 'library');
const LETTER_BOOK = '/standardFile/letterBook?gnCoding=ZBTB_BZWJ&systemCoding=ZBTB';
const COMMITMENT_BOOK = '/credit/commitmentbook?gnCoding=XYGL_XYCN&systemCoding=XYGL';
const VERSION = '2026.9';
const TITLE = '信用承诺书范本（E2E 修订版）';
const FILE = '信用承诺书范本-E2E.pdf';

const pdf = (title: string) =>
  Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

test('a new 信用承诺书 version goes up, becomes current, and user1 sees and downloads it', async ({ browser }) => {
  // ── the administrator: 上传新版本 on the 信用承诺书 series, then 设为当前版本 when asked ──
  const admin = await newClient(browser);
  let page = admin.page;
  await page.goto('/login');
  await signIn(page, 'admin', 'M');
  await expectSignedIn(page, '平台管理员');
  await page.goto(LETTER_BOOK);
  const series = page.locator('[data-testid="letterbook-series"][data-series="信用承诺书"]');
  await expect(series.getByTestId('library-current-tag')).toHaveCount(1);
  await series.getByTestId('letterbook-new-version').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '上传新版本' });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('library-title').fill(TITLE);
  await dialog.getByTestId('library-version').fill(VERSION);
  await dialog.getByTestId('library-description').fill('端到端测试上传的新版本');
  await dialog
    .getByTestId('library-uploader')
    .locator('input[type=file]')
    .setInputFiles({ name: FILE, mimeType: 'application/pdf', buffer: pdf(FILE) });
  await expect(dialog.getByTestId('library-uploaded')).toContainText(FILE, { timeout: 30_000 });
  await page.getByTestId('library-upload-save').click();
  await page.getByTestId('library-make-current').click();
  const row = series.locator('tr', { hasText: VERSION });
  await expect(row.getByTestId('library-current-tag')).toBeVisible();
  await expect(series.getByTestId('library-current-tag')).toHaveCount(1);
  await expect(series).toContainText(`当前 ${VERSION}`);
  await page.screenshot({ path: path.join(SHOTS, 'letterbook-admin.png') });
  await admin.context.close();

  // ── user1: the letter book marks it current; the commitment book names it and downloads it ──
  const user = await newClient(browser);
  page = user.page;
  await page.goto('/login');
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await expectSignedIn(page, '张建国');
  await page.goto(LETTER_BOOK);
  const mine = page.locator('[data-testid="letterbook-series"][data-series="信用承诺书"]');
  const current = mine.locator('tr', { hasText: VERSION });
  await expect(current.getByTestId('library-current-tag')).toBeVisible();
  await expect(mine.locator('tr', { hasText: '2026.1' }).getByTestId('library-current-tag')).toHaveCount(0);
  await expect(page.getByTestId('library-set-current')).toHaveCount(0);
  await expect(page.getByTestId('library-upload')).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'letterbook-user.png') });

  await page.goto(COMMITMENT_BOOK);
  const standard = page.getByTestId('standard-template');
  await expect(standard.getByTestId('standard-template-title')).toHaveText(TITLE);
  await expect(standard.getByTestId('standard-template-version')).toHaveText(`当前版本 ${VERSION}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    standard.getByTestId('standard-template-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe(FILE);
  const saved = await download.path();
  expect((await readFile(saved)).subarray(0, 5).toString()).toBe('%PDF-');
  await page.screenshot({ path: path.join(SHOTS, 'commitment-book.png') });
  await user.context.close();
});
