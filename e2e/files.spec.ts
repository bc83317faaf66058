import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page, type Request, test } from './fixtures';
import { acknowledgePractice, newClient, signIn } from './helpers';

/**
 * Files (issue 6) through the engine's record pages: user1 attaches an image and a PDF to a 保函申请 record and sees
 * their previews; a renamed .exe is refused; a 12 MB file goes up in chunks, survives a page reload mid-upload and
 * resumes with only the missing chunks (checked against the server's chunk records and the requests sent); a
 * cancelled upload frees its parts; an administrator sees the attachments read-only. The tests build on each other.
 */
test.describe.configure({ mode: 'serial' });

const NODE = 'DZBH_BHSQ';
const SYSTEM = 'DZBH';
const MB = 1024 * 1024;
const toast = (page: Page) => page.locator('.ant-message');

// a real 1×1 PNG, a small real PDF, and an executable (MZ header) named .png
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const EXE = Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]), randomBytes(2048)]);
/** A PDF header and random bytes: 12 MB is three chunks of 5242880 bytes (the last one shorter) */
const bigPdf = (size = 12 * MB) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size - 9)]);

const state: { recordId: string; token: string; uploadId: string } = { recordId: '', token: '', uploadId: '' };
let page: Page;

const detailUrl = (extra = '') =>
  `/dynamicPage/dynamicDetail?gnCoding=${NODE}&systemCoding=${SYSTEM}&id=${state.recordId}${extra}`;
const row = (annexNo: string) => page.getByTestId(`annex-row-${annexNo}`);
const chooseFile = (annexNo: string, name: string, buffer: Buffer, mimeType: string) =>
  row(annexNo).locator('input[type=file]').setInputFiles({ name, mimeType, buffer });

/** The chunk index a chunk-upload request carries (its text fields come before the file). */
function chunkOf(req: Request): number {
  const head = (req.postDataBuffer() ?? Buffer.alloc(0)).subarray(0, 2000).toString('latin1');
  const m = /name="chunk"\r\n\r\n(\d+)/.exec(head);
  return m ? Number(m[1]) : -1;
}

async function api(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res =
    method === 'GET'
      ? await request.get(url, { headers: { Authorization: `Bearer ${state.token}` } })
      : await request.post(url, { headers: { Authorization: `Bearer ${state.token}` }, data });
  return { status: res.status(), body: (await res.json()) as { code: number; data: any; message: string } };
}

test.beforeAll(async ({ browser }) => {
  ({ page } = await newClient(browser));
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await expect(page).toHaveURL(/\/system\/pageConfig$/);
  state.token = (await page.evaluate(() => sessionStorage.getItem('token'))) ?? '';
  const saved = await api(page.request, 'POST', '/ks/engine/v1/records/save', {
    gnCoding: NODE,
    values: {
      xmmc: `端到端附件测试${Date.now()}`,
      // 示例建设工程有限公司's credit code; a validity that has not begun (保函有效期 may not be in the past)
      sqdwdm: '91140100MA0K8G2J79',
      bhlx: 'tb',
      bhje: 200000,
      yxq: '2030-01-01,2030-12-31',
      lxr: '张建国',
      lxdh: '13800138000',
    },
  });
  expect(saved.body.message).toBe('保存成功');
  state.recordId = saved.body.data.id;
});

test.afterAll(async () => {
  await page.context().close();
});

test('user1 attaches an image and a PDF to a record and sees their previews; a renamed .exe is refused', async () => {
  await page.goto(detailUrl('&mode=edit'));
  await expect(page.getByTestId('record-attachments')).toHaveAttribute('data-readonly', '0');
  await expect(row('01').getByTestId('annex-required')).toBeVisible();
  await expect(row('02').getByTestId('annex-template-02')).toHaveAttribute('href', /att-template\?name=bhsq-sqs\.pdf/);

  await chooseFile('01', '营业执照.png', PNG, 'image/png');
  await chooseFile('02', '保函申请书.pdf', PDF, 'application/pdf');
  await expect(row('01').getByTestId('attachment-name')).toHaveText('营业执照.png');
  await expect(row('02').getByTestId('attachment-name')).toHaveText('保函申请书.pdf');

  // an executable renamed .png: refused in the browser by its content, and by the server too
  await chooseFile('04', 'setup.png', EXE, 'image/png');
  await expect(toast(page)).toContainText('文件内容与扩展名不符，请上传真实的文件');
  await expect(row('04').getByTestId('attachment-file')).toHaveCount(0);
  const direct = await page.request.post('/ks/common/common/upload/attachment', {
    headers: { Authorization: `Bearer ${state.token}` },
    multipart: { gnCoding: NODE, file: { name: 'setup.png', mimeType: 'image/png', buffer: EXE } },
  });
  expect(direct.status()).toBe(400);
  expect((await direct.json()).message).toBe('文件内容与扩展名不符，请上传真实的文件');

  await page.getByTestId('form-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page).not.toHaveURL(/mode=edit/);

  // the detail view: read-only, with previews
  const card = page.getByTestId('record-attachments');
  await expect(card).toHaveAttribute('data-readonly', '1');
  await expect(card.getByTestId('attachment-file')).toHaveCount(2);
  const thumb = row('01').getByTestId('attachment-thumb');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await row('01').getByTestId('attachment-preview').click();
  const image = page.getByTestId('preview-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.keyboard.press('Escape');
  await expect(image).toBeHidden();

  await row('02').getByTestId('attachment-preview').click();
  const frame = page.getByTestId('preview-pdf');
  await expect(frame).toBeVisible();
  const src = (await frame.getAttribute('src')) ?? '';
  // the address ends with the file's name (a PDF viewer titles the document after it)
  expect(src).toMatch(/file\/download\/[^/?]+\.pdf\?fileId=.+&inline=1&exp=\d+&sig=/);
  // the frame's signed address serves the PDF inline, without the bearer token
  const pdf = await page.request.get(src);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect(pdf.headers()['content-disposition']).toMatch(/^inline/);
  await page.keyboard.press('Escape');
});

test('a 12 MB file goes up in chunks, survives a reload mid-upload and resumes with only the missing chunks', async () => {
  const file = bigPdf();
  await page.goto(detailUrl('&mode=edit'));
  await expect(page.getByTestId('record-attachments')).toHaveAttribute('data-readonly', '0');

  // chunk 0 goes through; the next one is held, so the reload lands mid-upload
  const firstSent: number[] = [];
  let dropHeld: () => Promise<void> = async () => undefined;
  await page.route('**/ks/upload/v1/chunk-upload', async (route) => {
    firstSent.push(chunkOf(route.request()));
    if (firstSent.length === 1) await route.continue();
    else dropHeld = () => route.abort('connectionreset');
  });
  // the md5 is computed in a Web Worker, a same-origin file of the build
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const task = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/upload-task'));
  const stored0 = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/chunk-upload') && r.status() === 200);
  await chooseFile('03', '招标文件.pdf', file, 'application/pdf');
  const first = (await (await task).json()).data;
  expect(first.total).toBe(3);
  expect(workers.some((u) => /\/assets\/md5\.worker-[\w-]+\.js$/.test(new URL(u).pathname))).toBe(true);
  expect(first.uploadUrlList.map((u: { chunk: number }) => u.chunk)).toEqual([0, 1, 2]);
  state.uploadId = first.uploadId;
  await stored0;
  expect(firstSent[0]).toBe(0);
  await expect(page.getByTestId('upload-progress-item')).toHaveAttribute('data-chunked', '1');
  await expect.poll(() => firstSent.length).toBe(2);

  // the server's chunk records: chunk 0 only
  const before = await api(page.request, 'GET', `/ks/upload/v1/upload-parts?uploadId=${state.uploadId}`);
  expect(before.body.data.status).toBe('uploading');
  expect(before.body.data.parts.map((p: { chunk: number }) => p.chunk)).toEqual([0]);

  // the held chunk never reaches the server: the connection drops as the page reloads
  await dropHeld();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page.getByTestId('record-attachments')).toHaveAttribute('data-readonly', '0');
  await expect(page.getByTestId('upload-progress-item')).toHaveCount(0);

  // choose the same file again: the same task, only chunks 1 and 2 are sent
  const resumedSent: number[] = [];
  await page.route('**/ks/upload/v1/chunk-upload', async (route) => {
    resumedSent.push(chunkOf(route.request()));
    await route.continue();
  });
  const again = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/upload-task'));
  const merged = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/file-merge'));
  await chooseFile('03', '招标文件.pdf', file, 'application/pdf');
  const resumed = (await (await again).json()).data;
  expect(resumed.uploadId).toBe(state.uploadId);
  expect(resumed.uploadUrlList.map((u: { chunk: number }) => u.chunk)).toEqual([1, 2]);
  const mergeAnswer = await (await merged).json();
  expect(mergeAnswer.data.fileSize).toBe(12 * MB);
  await page.unrouteAll();
  expect(resumedSent).toEqual([1, 2]);
  await expect(row('03').getByTestId('attachment-name')).toHaveText('招标文件.pdf');

  // the task is done: its chunk records went with the merge
  const after = await api(page.request, 'GET', `/ks/upload/v1/upload-parts?uploadId=${state.uploadId}`);
  expect(after.body.data.status).toBe('done');
  expect(after.body.data.parts).toEqual([]);

  await page.getByTestId('form-save').click();
  await expect(toast(page)).toContainText('保存成功');
  await expect(page.getByTestId('record-attachments').getByTestId('attachment-file')).toHaveCount(3);
});

test('cancelling a chunked upload asks first and frees its parts', async () => {
  await page.goto(detailUrl('&mode=edit'));
  await expect(page.getByTestId('record-attachments')).toHaveAttribute('data-readonly', '0');
  let held = 0;
  let release: (() => Promise<void>) | null = null;
  await page.route('**/ks/upload/v1/chunk-upload', async (route) => {
    held += 1;
    if (held === 1) await route.continue();
    else release = () => route.abort();
  });
  const releaseHeld = () => (release ? release() : Promise.resolve());
  const task = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/upload-task'));
  // just over one chunk: two chunks, the second held
  await chooseFile('04', '其他材料.pdf', bigPdf(5 * MB + 64 * 1024), 'application/pdf');
  const uploadId = (await (await task).json()).data.uploadId as string;
  await expect.poll(() => held).toBe(2);
  const parts = await api(page.request, 'GET', `/ks/upload/v1/upload-parts?uploadId=${uploadId}`);
  expect(parts.body.data.parts).toHaveLength(1);

  const item = page.getByTestId('upload-progress-item');
  await item.getByTestId('upload-cancel').click();
  await expect(page.getByText('确定取消上传「其他材料.pdf」吗？已上传的部分将被删除。')).toBeVisible();
  const cancelled = page.waitForResponse((r) => r.url().includes('/ks/upload/v1/upload-cancel'));
  await page.getByRole('button', { name: '确定' }).click();
  expect((await (await cancelled).json()).message).toBe('已取消上传');
  await expect(item).toContainText('正在取消');
  await releaseHeld();
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // freed: the task and its parts are gone
  const gone = await api(page.request, 'GET', `/ks/upload/v1/upload-parts?uploadId=${uploadId}`);
  expect(gone.status).toBe(404);
  await expect(item).toHaveCount(0, { timeout: 6000 });
  await expect(row('04').getByTestId('attachment-file')).toHaveCount(0);
});

test('an administrator sees the same record’s attachments read-only', async ({ browser }) => {
  const admin = await newClient(browser);
  await signIn(admin.page, 'admin', 'M');
  await expect(admin.page).toHaveURL(/\/system\/pageConfig$/);
  for (const extra of ['', '&mode=edit']) {
    await admin.page.goto(detailUrl(extra));
    const card = admin.page.getByTestId('record-attachments');
    await expect(card).toHaveAttribute('data-readonly', '1');
    await expect(card.getByTestId('attachment-file')).toHaveCount(3);
    await expect(card.getByTestId('attachment-upload')).toHaveCount(0);
    await expect(card.getByTestId('attachment-remove')).toHaveCount(0);
    await expect(admin.page.locator('[data-testid=record-attachments] input[type=file]')).toHaveCount(0);
  }
  await admin.page.getByTestId('annex-row-01').getByTestId('attachment-preview').click();
  const image = admin.page.getByTestId('preview-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await admin.context.close();
});

test('the rich-text editor uploads a video in chunks to the store and inserts its public address, which serves ranges', async () => {
  // 从业人员登记 has a 个人简介 rich-text field
  await page.goto('/dynamicPage/dynamicDetail?gnCoding=XYGL_CYRY&systemCoding=XYGL&mode=edit');
  const menu = page.locator('[data-menu-key="uploadVideo"]');
  await expect(menu).toBeVisible();
  const tasks: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/ks/upload/v1/upload-task')) tasks.push(req.postData() ?? '');
  });
  // an MP4 header (ftyp) and random bytes
  const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(64 * 1024)]);
  // the editor makes its file input on the click: retry until the chooser has opened and taken the file
  await expect(async () => {
    const chooser = page.waitForEvent('filechooser', { timeout: 3000 });
    await menu.click();
    await (await chooser).setFiles({ name: '项目宣传片.mp4', mimeType: 'video/mp4', buffer: video });
  }).toPass({ timeout: 20_000 });
  const source = page.locator('.w-e-text-container video source, .w-e-text-container video[src]').first();
  await expect(source).toHaveAttribute('src', /^\/ks\//);
  expect(JSON.parse(tasks[0] ?? '{}')).toMatchObject({ usage: 'video', fileName: '项目宣传片.mp4', chunk: 1 });
  const src = (await source.getAttribute('src')) ?? '';
  // public (no token), with ranges, the same bytes
  const ranged = await page.context().request.get(src, { headers: { Range: 'bytes=4-11' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-type']).toBe('video/mp4');
  expect((await ranged.body()).toString('latin1')).toBe('ftypmp42');
});
