import { expect, type Page, test } from './fixtures';
import { newClient, signIn } from './helpers';

/**
 * Issue 19, charts from real data: a developer configures a chart of 场地管理 in 图表设置 — its preview already draws
 * the node's real numbers — and saves it; the administrator opening 场地管理 sees it above the list, with the counts
 * of the rooms the list holds.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const NODE = 'CDYY_CDGL';
const SETTING = `/system/echartsSetting?gnCoding=${NODE}&systemCoding=CDYY`;
const LIST = `/dynamicPage/dynamicIndex?gnCoding=${NODE}&systemCoding=CDYY`;
const TITLE = '各类型场地数';

/** Calls the API with the page's session. */
async function api<T>(page: Page, method: string, url: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
        },
        body: JSON.stringify(body),
      });
      return (await res.json()).data;
    },
    { method, url, body },
  );
}

/** The rooms per type as the list answers them, largest first (ties by name), in the chart's words. */
async function expectedWords(page: Page): Promise<string> {
  const page1 = await api<{ records: { values: { lx: string | null } }[]; total: number }>(
    page,
    'POST',
    '/ks/engine/v1/records/list',
    { gnCoding: NODE, pageNum: 1, pageSize: 50 },
  );
  expect(page1.total).toBeGreaterThan(0);
  expect(page1.records).toHaveLength(page1.total);
  const counts = new Map<string, number>();
  for (const r of page1.records) counts.set(r.values.lx ?? '（空）', (counts.get(r.values.lx ?? '（空）') ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sorted.map(([k, n]) => `${k} ${n}`).join('，');
}

test('a chart configured in 图表设置 draws the node’s real numbers, in the preview and above the list', async ({
  browser,
}) => {
  const dev = await newClient(browser);
  await signIn(dev.page, 'dev', 'D');
  await expect(dev.page).toHaveURL(/\/system\/pageConfig/);
  const words = await expectedWords(dev.page);

  await dev.page.goto(SETTING);
  await dev.page.getByTestId('chart-add').click();
  await dev.page.getByTestId('chart-title').fill(TITLE);
  await dev.page.getByTestId('chart-dimension').click();
  await dev.page.keyboard.type('lx');
  await dev.page.keyboard.press('Escape');
  const preview = dev.page.getByTestId('chart-preview').getByTestId('chart-bar');
  await expect(preview).toHaveAttribute('aria-label', `${TITLE}预览：${TITLE}：${words}`, { timeout: 15_000 });
  await expect(preview.locator('svg')).toBeVisible();
  await dev.page.getByTestId('save-charts').click();
  await expect(dev.page.getByText('保存成功')).toBeVisible();

  const admin = await newClient(browser);
  await signIn(admin.page, 'admin', 'M');
  await expect(admin.page).toHaveURL(/\/system\/pageConfig/);
  await admin.page.goto(LIST);
  const chart = admin.page.getByTestId('node-charts').getByTestId('node-chart');
  await expect(chart).toHaveAttribute('aria-label', `${TITLE}：${TITLE}：${await expectedWords(admin.page)}`, {
    timeout: 15_000,
  });
  await expect(chart.locator('svg')).toBeVisible();
  await admin.page.screenshot({ path: test.info().outputPath('node-charts.png'), fullPage: true });

  // the node as it was for the other specs
  await api(dev.page, 'PUT', '/ks/config/node/charts', { gnCoding: NODE, charts: [] });
  await dev.context.close();
  await admin.context.close();
});
