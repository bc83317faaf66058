import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { newClient, signIn } from './helpers';
import { FAKE_UPSTREAM_PORT, fakeUpstreamAppId } from './playwright.config';

/**
 * 数据交换 (issue 19) against the local fake of the upstream platform (apps/server/src/test/fake-upstream.ts), which
 * this server reaches with an app id of its own:
 * - 交易推送: the administrator tells the fake to fail the next push, a 变更公告 is published (written and submitted by
 *   the administrator, passed by the 审核员, through the API), and 交易推送 shows the failed attempt and the retry that
 *   succeeded; a second one fails every attempt, and the administrator's 重新推送 sends it;
 * - 监管审核: a sync pulls the registrations page by page with its progress on the page; the one with a wrong credit
 *   code is refused with the reason; passing a new one creates the enterprise (the public market list shows it);
 *   rejecting one asks for a reason; a second sync finds the registration that changed and shows the diff.
 */
const FAKE = `http://127.0.0.1:${FAKE_UPSTREAM_PORT}`;
const RUN = 1000 + (Date.now() % 9000);

const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const raw = sessionStorage.getItem('token') ?? localStorage.getItem('token') ?? '';
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw;
    }
  });
async function api(request: APIRequestContext, token: string, method: 'GET' | 'POST', url: string, data?: object) {
  const res =
    method === 'GET'
      ? await request.get(url, { headers: { authorization: `Bearer ${token}` } })
      : await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  const body = (await res.json()) as { code: number; data: any; message: string };
  return body;
}
/** Failures on purpose, for this server's requests only. */
async function control(request: APIRequestContext, baseURL: string, body: object) {
  const appId = fakeUpstreamAppId(new URL(baseURL).port);
  const res = await request.post(`${FAKE}/control`, { data: { appId, ...body } });
  expect(res.ok()).toBe(true);
}

/**
 * A 变更公告 of an open section (any without a notice waiting for review), written and submitted by the administrator
 * and passed by the centre's 审核员 through the API — the pass publishes it, and publishing queues its push.
 */
async function publishChangeNotice(request: APIRequestContext, admin: string, auditor: string, title: string) {
  const open = await api(request, admin, 'GET', '/ks/trade/registrations/sections');
  expect(open.code, open.message).toBe(200);
  const sections = open.data.records as { sectionId: string; projectName: string }[];
  const refused: string[] = [];
  for (const s of [...sections].reverse()) {
    // one notice of a section waits for review at a time
    const notices = await api(request, admin, 'GET', `/ks/xmrc/v1/notices?sectionId=${s.sectionId}`);
    if ((notices.data?.notices as { status: string }[] | undefined)?.some((n) => n.status === 'pending')) continue;
    const saved = await api(request, admin, 'POST', '/ks/xmrc/v1/notice/save', {
      sectionId: s.sectionId,
      kind: '变更公告',
      title,
      bodyHtml: '<p>招标文件第三章评标办法中“类似工程业绩”的认定口径补充说明，其余内容不变。</p>',
      affectsBids: false,
      reason: '补充说明评标办法',
    });
    if (saved.code !== 200) {
      refused.push(`${s.projectName}: ${saved.message}`);
      continue;
    }
    const submitted = await api(request, admin, 'POST', '/ks/xmrc/v1/notice/submit', {
      id: saved.data.id,
      version: saved.data.version,
    });
    if (submitted.code !== 200) {
      refused.push(`${s.projectName}: ${submitted.message}`);
      continue;
    }
    const passed = await api(request, auditor, 'POST', '/ks/engine/v1/records/audit', {
      gnCoding: 'ZBTB_ZBGG',
      id: submitted.data.id,
      version: submitted.data.version,
      pass: true,
      suggestion: '变更内容不影响投标文件编制，同意发布',
    });
    expect(passed.code, passed.message).toBe(200);
    return;
  }
  throw new Error(`no open section took a 变更公告: ${refused.join('; ')}`);
}

/** The push row of `title` on 交易推送 (the list reads again every few seconds). */
async function openPushes(page: Page, title: string) {
  await page.goto('/dexRecords/txPushLogs');
  await expect(page.getByTestId('dex-card')).toBeVisible({ timeout: 30_000 });
  const box = page.getByTestId('dex-keyword').getByRole('searchbox');
  await box.fill(title);
  await box.press('Enter');
  return page.getByTestId('dex-table').locator('tr.ant-table-row', { hasText: title });
}

const shots = process.env.E2E_SHOTS ? process.env.E2E_SHOTS.replace(/\/$/, '') : null;

test.describe.configure({ mode: 'serial' });

test('a push to the upstream fails, is retried and sent, every attempt logged; a failed one is re-sent', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  // the centre's 审核员 passes the notices (an administrator does not review what it submitted itself)
  const centre = await newClient(browser);
  await signIn(centre.page, 'auditor', 'U');
  await expect(centre.page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  const auditor = await tokenOf(centre.page);
  const { context, page } = await newClient(browser);
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  const token = await tokenOf(page);

  // ── the first push fails once, then the retry goes through ──
  const first = `数据交换推送测试变更公告（E2E ${RUN}-1）`;
  await control(page.request, baseURL!, { target: 'push', fail: 1, mode: 'http-500' });
  await publishChangeNotice(page.request, token, auditor, first);
  let row = await openPushes(page, first);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.locator('[data-testid^="dex-status-"]')).toHaveText('已推送', { timeout: 30_000 });
  await row.locator('[data-testid^="dex-attempts-"]').click();
  const attempts = page.getByTestId('dex-attempts');
  await expect(attempts.locator('tr.ant-table-row')).toHaveCount(2, { timeout: 15_000 });
  await expect(attempts.locator('tr.ant-table-row').nth(0)).toContainText('失败');
  await expect(attempts.locator('tr.ant-table-row').nth(0)).toContainText('上级平台返回 HTTP 500');
  await expect(attempts.locator('tr.ant-table-row').nth(1)).toContainText('成功');
  await expect(attempts.locator('tr.ant-table-row').nth(1)).toContainText('200');
  if (shots) await page.screenshot({ path: `${shots}/dex-push-attempts.png` });
  await page.keyboard.press('Escape');

  // ── the second fails every attempt; the administrator sends it again ──
  const second = `数据交换推送测试变更公告（E2E ${RUN}-2）`;
  await control(page.request, baseURL!, { target: 'push', fail: 3, mode: 'http-500' });
  await publishChangeNotice(page.request, token, auditor, second);
  row = await openPushes(page, second);
  await expect(row.locator('[data-testid^="dex-status-"]')).toHaveText('推送失败', { timeout: 45_000 });
  await expect(row).toContainText('上级平台返回 HTTP 500');
  await row.locator('[data-testid^="dex-resend-"]').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.locator('.ant-message')).toContainText('已重新排队推送');
  await expect(row.locator('[data-testid^="dex-status-"]')).toHaveText('已推送', { timeout: 30_000 });
  await row.locator('[data-testid^="dex-attempts-"]').click();
  // three failed attempts, then the re-sent one
  await expect(attempts.locator('tr.ant-table-row')).toHaveCount(4, { timeout: 15_000 });
  await expect(attempts.locator('tr.ant-table-row').filter({ hasText: '失败' })).toHaveCount(3);
  await expect(attempts.locator('tr.ant-table-row').last()).toContainText('成功');
  // the upstream got each business key's data once
  const received = (await (await page.request.get(`${FAKE}/received`)).json()) as {
    body: { data?: { title?: string } };
  }[];
  expect(received.filter((r) => r.body?.data?.title === second).length).toBe(4);
  await context.close();
  await centre.context.close();
});

test('监管审核: a sync pulls the registrations with progress; refused, passed and rejected ones', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { context, page } = await newClient(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin', 'M');
  await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  // slow pages, so the progress can be watched
  await control(page.request, baseURL!, { target: 'registrations', fail: 0, delayMs: 1500 });
  try {
    await page.goto('/dexRecords/regAuditLogs');
    await expect(page.getByTestId('reg-card')).toBeVisible({ timeout: 30_000 });
    // the demo's earlier syncs are there already
    await expect(page.getByTestId('reg-sync-status')).toHaveText('已完成');
    // a full sync: every registration, three pages of five
    const sync = page.getByTestId('reg-sync');
    await page.getByTestId('reg-sync-full').click();
    const progress = page.getByTestId('reg-sync-progress');
    await expect(progress).toBeVisible({ timeout: 15_000 });
    await expect(progress).toContainText(/正在拉取上游数据|正在写入|等待开始/);
    await expect(sync).toBeDisabled();
    await expect(page.getByTestId('reg-sync-full')).toBeDisabled();
    if (shots) await page.screenshot({ path: `${shots}/dex-sync-progress.png` });
    await expect(page.getByTestId('reg-sync-status')).toHaveText('已完成', { timeout: 60_000 });
    await expect(progress).toBeHidden();
    await expect(sync).toBeEnabled();
  } finally {
    await control(page.request, baseURL!, { target: 'registrations', fail: 0, delayMs: 0 });
  }

  const search = async (keyword: string) => {
    const box = page.getByTestId('reg-keyword').getByRole('searchbox');
    await box.fill(keyword);
    await box.press('Enter');
  };
  const table = page.getByTestId('reg-table');

  // the wrong credit code: refused with the reason
  await search('平定县宏达');
  const invalidRow = table.locator('tr.ant-table-row', { hasText: '阳泉市平定县宏达建筑工程有限公司' });
  await expect(invalidRow.locator('[data-testid^="reg-state-"]')).toHaveText('校验未通过');
  await expect(invalidRow).toContainText('统一社会信用代码校验位有误');
  await expect(invalidRow.locator('[data-testid^="reg-approve-"]')).toHaveCount(0);

  // passing a new one creates the enterprise
  const candidates = [
    '山西晋阳路桥建设有限公司',
    '晋城市太行市政工程有限公司',
    '运城市河东水利工程有限公司',
    '忻州市五台山园林绿化工程有限公司',
    '吕梁市汾阳建材供应有限公司',
  ];
  const pendingOne = async (except?: string) => {
    for (const name of candidates) {
      if (name === except) continue;
      await search(name);
      const r = table.locator('tr.ant-table-row', { hasText: name });
      await expect(r).toBeVisible();
      if ((await r.locator('[data-testid^="reg-state-"]').textContent()) === '待审核') return { name, row: r };
    }
    throw new Error('no registration waits for review');
  };
  const passed = await pendingOne();
  await passed.row.locator('[data-testid^="reg-open-"]').click();
  const drawer = page.getByTestId('reg-detail');
  await expect(drawer).toContainText('企业库中尚无该企业，通过后将新建');
  await expect(page.getByTestId('reg-local-diff')).toContainText(passed.name);
  if (shots) await page.screenshot({ path: `${shots}/dex-reg-detail.png` });
  await page.getByTestId('reg-drawer-approve').click();
  await page.locator('.ant-popover:visible').getByTestId('confirm-ok').click();
  await expect(page.locator('.ant-message')).toContainText('审核通过，已写入企业库');
  await expect(page.getByTestId('reg-detail-state')).toHaveText('已通过');
  await expect(page.getByTestId('reg-history')).toContainText('审核通过');
  await page.keyboard.press('Escape');
  await expect(passed.row.locator('[data-testid^="reg-state-"]')).toHaveText('已通过');
  const market = await page.request.get(
    `/ks/portal/v1/market/entities?kind=enterprise&keyword=${encodeURIComponent(passed.name)}`,
  );
  const found = (await market.json()) as { data: { records: { name: string }[] } };
  expect(found.data.records.map((r) => r.name)).toContain(passed.name);

  // rejecting asks for a reason
  const rejected = await pendingOne(passed.name);
  await rejected.row.locator('[data-testid^="reg-reject-"]').click();
  const dialog = page.locator('.ant-modal:visible', { has: page.getByTestId('reg-reject-reason') });
  await expect(dialog).toContainText(`驳回「${rejected.name}」`);
  await page.getByTestId('reg-reject-ok').click();
  await expect(dialog).toContainText('请填写驳回原因');
  await page.getByTestId('reg-reject-reason').fill('注册地址与营业执照不一致，待企业更正后重新同步');
  await page.getByTestId('reg-reject-ok').click();
  await expect(page.locator('.ant-message')).toContainText('已驳回');
  await expect(rejected.row.locator('[data-testid^="reg-state-"]')).toHaveText('已驳回');
  await expect(rejected.row).toContainText('注册地址与营业执照不一致');

  // a second sync: the registration that changed waits for review again, with its diff
  await page.getByTestId('reg-sync').click();
  await expect(page.getByTestId('reg-sync-status')).toHaveText('已完成', { timeout: 60_000 });
  await search('安泰电力');
  const changing = table.locator('tr.ant-table-row', { hasText: '朔州市朔城区安泰电力工程有限公司' });
  await changing.locator('[data-testid^="reg-open-"]').click();
  const diff = page.getByTestId('reg-diff');
  await expect(diff).toContainText('法定代表人');
  await expect(diff).toContainText('白俊峰');
  await expect(diff).toContainText('白晓燕');
  if (shots) await page.screenshot({ path: `${shots}/dex-reg-diff.png` });
  await context.close();
});
