import { creditCodeCheckChar, DEFAULT_TIME_ZONE, dateIn, formatIn } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * Issue 19, 统计分析: the agency enters a project in 阳泉市 (a city the demo has no transactions in) with two sections,
 * the 审核员 passes its 进场登记, and the administrator's 全量统计 of the sections' month and region shows exactly
 * those two transactions — their count and amount — and its drill-down (the region's bar, then the table) lists them;
 * the participating enterprises export downloads; 数据统计 counts the passed entry and lists it.
 */
test.describe.configure({ timeout: 180_000 });

const DAY = 86_400_000;

/** A JSON call of the API as the page's signed-in user. */
async function api<T = { code: number; data: Record<string, unknown>; message: string }>(
  page: Page,
  path: string,
  body: unknown,
): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
        },
        body: JSON.stringify(body),
      });
      return res.json();
    },
    { path, body },
  );
}

async function signedIn(page: Page, account: string, role: 'U' | 'M') {
  await signIn(page, account, role);
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('token')), { timeout: 30_000 }).toBeTruthy();
}

test('statistics show the numbers of the transactions entered in the test, and the drill-down lists them', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const projectName = `阳泉市城区统计演示道路改造工程${stamp}`;
  const deadline = new Date(Date.now() + 30 * DAY);
  const month = formatIn(deadline, 'YYYY-MM', DEFAULT_TIME_ZONE);
  const day = (k: number) => dateIn(new Date(Date.now() + k * DAY), DEFAULT_TIME_ZONE);

  // the agency enters the project and its sections, and submits it
  const agent = await newClient(browser);
  await signedIn(agent.page, 'agent', 'U');
  const saved = await api(agent.page, '/ks/engine/v1/records/save', {
    gnCoding: 'ZBTB_XMDJ',
    values: {
      xmmc: projectName,
      xmbh: `TJ-${stamp}`,
      xmlx: '市政公用工程',
      zbfs: '公开招标',
      zbr: '阳泉市城区住房和城乡建设局',
      zbrdm: `11140302MB1958163${creditCodeCheckChar('11140302MB1958163')}`,
      xmszd: '山西省/阳泉市/城区',
      ztz: 5_000_000,
      zjly: '财政资金',
      lxr: '统计演示',
      lxdh: '13835100009',
    },
  });
  expect(saved.code, saved.message).toBe(200);
  const projectId = String(saved.data.id);
  for (const [code, estimate] of [
    ['BD-01', 1_234_567.89],
    ['BD-02', 2_000_000],
  ] as const) {
    const s = await api(agent.page, '/ks/xmrc/v1/bd/save', {
      projectId,
      code,
      name: `${code} 施工标段`,
      estimate,
      deposit: 0,
      docSaleStart: day(0),
      docSaleEnd: day(6),
      bidDeadline: new Date(`${dateIn(deadline, DEFAULT_TIME_ZONE)}T09:30:00+08:00`).toISOString(),
    });
    expect(s.code, s.message).toBe(200);
  }
  const submitted = await api(agent.page, '/ks/engine/v1/records/submit', {
    gnCoding: 'ZBTB_XMDJ',
    id: projectId,
    version: Number(saved.data.version),
  });
  expect(submitted.code, submitted.message).toBe(200);

  // the 审核员 passes the entry
  const auditor = await newClient(browser);
  await signedIn(auditor.page, 'auditor', 'U');
  const passed = await api(auditor.page, '/ks/engine/v1/records/audit', {
    gnCoding: 'ZBTB_XMDJ',
    id: projectId,
    version: Number(submitted.data.version),
    pass: true,
    suggestion: '材料齐全，同意进场',
  });
  expect(passed.code, passed.message).toBe(200);

  // the administrator's statistics of that month and region
  const { context, page } = await newClient(browser);
  await signedIn(page, 'admin', 'M');
  await page.goto(`/custom/statistics?startMonth=${month}&endMonth=${month}&region=${encodeURIComponent('阳泉市')}`);
  await expect(page.getByTestId('stats-filters')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('stats-total-count')).toContainText('2', { timeout: 30_000 });
  // 3,234,567.89 元 = 323.46 万元
  await expect(page.getByTestId('stats-total-amount')).toContainText('323.46');
  await expect(page.getByTestId('stats-chart-region')).toHaveAttribute('aria-label', /阳泉市 2/);
  await expect(page.getByTestId('stats-chart-type')).toHaveAttribute('aria-label', /市政公用工程/);

  // the region's bar drills down to its transactions
  const bar = page.getByTestId('stats-chart-region').locator('path[fill="#1362fc"]').first();
  await bar.click({ force: true });
  await expect(page.getByTestId('stats-drill-title')).toContainText('阳泉市');
  const table = page.getByTestId('stats-txn-table');
  await expect(table.getByText(projectName)).toHaveCount(2);
  await expect(table.getByText('1,234,567.89')).toBeVisible();
  await expect(table.getByText('2,000,000.00')).toBeVisible();
  await expect(page.getByText('共 2 个标段')).toBeVisible();

  // the participating enterprises of the period download as xlsx
  const download = page.waitForEvent('download');
  await page.getByTestId('stats-participants-export').click();
  expect((await download).suggestedFilename()).toMatch(/^参与交易企业_\d{12}\.xlsx$/);

  // 数据统计: the entry counts as passed, and the count opens it
  await page.getByText('办件与待办统计').click();
  await expect(page).toHaveURL(/\/custom\/completeCount/);
  await page.getByTestId('stats-count-ZBTB_XMDJ-passed').click();
  await expect(page.getByTestId('stats-drill-title')).toContainText('项目进场登记 · 已通过');
  await expect(page.getByTestId('stats-drill-table').getByText(projectName)).toBeVisible({ timeout: 30_000 });

  await Promise.all([context.close(), agent.context.close(), auditor.context.close()]);
});
