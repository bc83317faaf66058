import { expect, test } from './fixtures';
import { acknowledgePractice, newClient, signIn } from './helpers';

/**
 * The 招标文件 tab (issue 16): the project's side uploads a section's tender document before its sale starts (大同,
 * on sale from the day after tomorrow), sees who downloaded the 太原 section's documents (the centre sees names), writes
 * a clarification, which the centre passes and the side sends; user1, registered for 太原 BD-01, downloads the document
 * from /fiveInOne/registration (the download is recorded) and finds the clarification there.
 */
const shots = process.env.E2E_SHOTS ? process.env.E2E_SHOTS.replace(/\/$/, '') : null;
const SCHOOL = '太原市晋源区第二实验小学教学综合楼建设工程';
const SEWER = '大同市御河东路雨污分流改造工程';
const TITLE = '关于施工组织设计编制要求的澄清（E2E）';
const pdf = (title: string) =>
  Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

test('documents go up before the sale, downloads are recorded, a clarification is audited and sent', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const agent = await newClient(browser);
  let page = agent.page;
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  const open = async (project: string) => {
    await page.goto('/fiveInOne/list?systemCoding=ZBTB&gnCoding=ZBTB_XMDJ');
    const row = page.getByTestId('engine-list-dynamic').locator('tr').filter({ hasText: project });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByTestId('op-detail').click();
    await expect(page.getByTestId('five-title')).toHaveText(project);
    await page.getByRole('tab', { name: '招标文件' }).click();
  };

  // ── 大同: not on sale yet, so the side may still add a document ──
  await open(SEWER);
  const docs = page.getByTestId('doc-table');
  await expect(docs).toContainText('施工标段招标文件（正文）');
  await page.getByTestId('doc-upload').click();
  const dialog = page.getByTestId('doc-dialog');
  await dialog
    .getByTestId('doc-file')
    .locator('input[type=file]')
    .setInputFiles({ name: '工程量清单.pdf', mimeType: 'application/pdf', buffer: pdf('boq') });
  await expect(dialog.getByTestId('doc-file')).toContainText('工程量清单.pdf');
  await expect(dialog.getByTestId('doc-name')).toHaveValue('工程量清单');
  await dialog.getByTestId('doc-kind').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '工程量清单' }).click();
  await page.getByTestId('doc-save').click();
  await expect(docs.locator('tr', { hasText: '工程量清单.pdf' })).toBeVisible();

  // ── 太原: on sale — nothing more to add; the centre sees who downloaded ──
  await open(SCHOOL);
  await expect(page.getByTestId('files-timeline')).toContainText('已开始发售');
  await expect(page.getByTestId('doc-upload')).toHaveCount(0);
  await expect(page.getByTestId('download-records')).toContainText('张建国');
  // a clarification: written, submitted, passed by the centre, sent
  await page.getByTestId('clarify-new').click();
  const form = page.getByTestId('clarify-dialog');
  await form.getByTestId('clarify-title').fill(TITLE);
  await form.getByTestId('clarify-content').fill('施工组织设计中须单列冬季施工措施，其余要求不变。');
  await page.getByTestId('clarify-save').click();
  const row = page.getByTestId('clarify-table').locator('tr', { hasText: TITLE });
  await expect(row).toContainText('草稿');
  await row.getByText('提交', { exact: true }).click();
  await page.getByTestId('confirm-ok').last().click();
  await expect(row).toContainText('待审核');
  await row.getByText('审核', { exact: true }).click();
  await page.getByTestId('clarify-opinion').fill('同意发出');
  await page.getByTestId('clarify-audit-save').click();
  await expect(row).toContainText('审核通过');
  await row.getByText('发出', { exact: true }).click();
  await page.getByTestId('confirm-ok').last().click();
  await expect(row).toContainText('已发出');
  if (shots) await page.screenshot({ path: `${shots}/tender-files.png`, fullPage: true });
  await agent.context.close();

  // ── user1: downloads from the registration page; the download is its own record ──
  const bidder = await newClient(browser);
  page = bidder.page;
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto('/fiveInOne/registration?systemCoding=ZBTB&gnCoding=ZBTB_TBBM');
  const reg = page.getByTestId('registration-table').locator('tr', { hasText: 'BD-01 施工标段' }).filter({
    hasText: SCHOOL,
  });
  await reg.getByText('招标文件', { exact: true }).click();
  const drawer = page.getByTestId('bidder-files');
  await expect(drawer.getByTestId('clarify-table')).toContainText(TITLE);
  await expect(drawer.getByTestId('download-records').locator('tbody tr.ant-table-row')).toHaveCount(1);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    drawer.getByTestId('doc-table').getByText('下载').first().click(),
  ]);
  expect(download.suggestedFilename()).toContain('招标文件');
  await expect(drawer.getByTestId('download-records').locator('tbody tr.ant-table-row')).toHaveCount(2);
  await bidder.context.close();
});
