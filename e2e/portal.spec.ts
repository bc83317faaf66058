import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn } from './helpers';

const PHONE = '0351-12345678';
const FILING = '晋ICP备20260001号-1';

type NavKey = 'home' | 'transac' | 'market';
const NAV_KEYS: NavKey[] = ['home', 'transac', 'market'];

interface Envelope<T> {
  code: number;
  data: T;
}

async function api<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<T>).data;
}

async function firstNoticeId(request: APIRequestContext): Promise<string> {
  const page = await api<{ records: { id: string }[] }>(request, '/ks/portal/v1/notices?pageSize=10');
  return page.records[0]!.id;
}

async function firstEntityId(request: APIRequestContext, kind: string): Promise<string> {
  const page = await api<{ records: { id: string }[] }>(request, `/ks/portal/v1/market/entities?kind=${kind}`);
  return page.records[0]!.id;
}

async function expectNav(page: Page, active: NavKey) {
  for (const key of NAV_KEYS) {
    const link = page.getByTestId(`nav-${key}`);
    if (key === active) await expect(link).toHaveAttribute('aria-current', 'page');
    else await expect(link).not.toHaveAttribute('aria-current', /.*/);
  }
  // the external hall link is never the active item
  await expect(page.getByTestId('nav-hall')).not.toHaveAttribute('aria-current', /.*/);
}

async function headerBackground(page: Page): Promise<string> {
  return page.getByTestId('portal-header').evaluate((el) => getComputedStyle(el).backgroundColor);
}

async function expectFooter(page: Page) {
  const footer = page.getByTestId('site-footer');
  await expect(footer.getByTestId('footer-phone')).toHaveText(`服务热线：${PHONE}`);
  const filing = footer.getByRole('link', { name: FILING });
  await expect(filing).toHaveAttribute('href', 'https://beian.miit.gov.cn');
  await expect(filing).toHaveAttribute('target', '_blank');
  await expect(footer.getByTestId('footer-describe')).not.toBeEmpty();
}

async function noticeTotal(page: Page): Promise<number> {
  return Number(await page.getByTestId('notice-total').textContent());
}

test.describe('public portal', () => {
  test('navigation follows the route; the header is transparent on / only; footer on every page', async ({
    browser,
  }) => {
    const { context, page } = await newClient(browser);
    const noticeId = await firstNoticeId(context.request);
    const entityId = await firstEntityId(context.request, 'enterprise');
    const routes: [string, NavKey][] = [
      ['/', 'home'],
      ['/transac', 'transac'],
      [`/transac-news?id=${noticeId}`, 'transac'],
      ['/market', 'market'],
      ['/market-list?kind=enterprise', 'market'],
      [`/market-details?kind=enterprise&id=${entityId}`, 'market'],
    ];
    for (const [url, active] of routes) {
      await page.goto(url);
      const header = page.getByTestId('portal-header');
      await expect(header).toBeVisible();
      await expectNav(page, active);
      if (url === '/') {
        await expect(header).toHaveAttribute('data-transparent', 'true');
        expect(await headerBackground(page)).toBe('rgba(0, 0, 0, 0)');
      } else {
        await expect(header).toHaveAttribute('data-transparent', 'false');
        expect(await headerBackground(page)).toBe('rgb(19, 98, 252)');
        await expect(page.getByTestId('breadcrumb')).toBeVisible();
      }
      await expectFooter(page);
    }
    // client-side navigation moves the active item too
    await page.goto('/');
    await page.getByTestId('nav-market').click();
    await expect(page).toHaveURL(/\/market$/);
    await expectNav(page, 'market');
    await expect(page.getByTestId('portal-header')).toHaveAttribute('data-transparent', 'false');
    await page.getByTestId('nav-home').click();
    await expectNav(page, 'home');
    await expect(page.getByTestId('portal-header')).toHaveAttribute('data-transparent', 'true');
    await context.close();
  });

  test("开标大厅 (no external hall configured) opens the platform's own hall in a new window", async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/transac');
    const hall = page.getByTestId('nav-hall');
    await expect(hall).toHaveText(/开标大厅/);
    await expect(hall).toHaveAttribute('href', '/bid/bidMeet');
    await expect(hall).toHaveAttribute('target', '_blank');
    await expect(hall).toHaveAttribute('rel', 'opener');
    // the 登录 entry leads to the sign-in page; there is no 注册 link
    await expect(page.getByRole('link', { name: '注册' })).toHaveCount(0);
    await page.getByTestId('nav-login').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await context.close();
  });

  test('home: statistics, notices by category and trade type, search and quick entries', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto('/');
    await expect(page.getByTestId('home-banner')).toBeVisible();
    await expect(page.getByTestId('stat-projects')).toContainText(/\d/);
    await expect(page.getByTestId('stat-amount')).toContainText(/(亿元|万元|元)/);
    await expect(page.getByTestId('stat-enterprises')).toContainText(/\d/);
    await expect(page.getByTestId('stat-notices')).toContainText(/\d/);

    const tabs = page.getByTestId('category-tabs');
    await expect(tabs.getByRole('tab')).toHaveText([
      '招标公告',
      '变更公告',
      '资格预审公告',
      '中标候选人公示',
      '中标结果公告',
      '终止公告',
    ]);
    const list = page.getByTestId('category-notices');
    await expect(list.getByRole('listitem').first()).toBeVisible();
    const firstTender = await list.getByRole('link').first().textContent();
    await tabs.getByRole('tab', { name: '中标结果公告' }).click();
    await expect(tabs.getByRole('tab', { name: '中标结果公告' })).toHaveAttribute('aria-selected', 'true');
    await expect(list.getByRole('link').first()).not.toHaveText(firstTender!);
    await expect(page.getByTestId('trade-type-card')).toHaveCount(6);

    await expect(page.getByTestId('quick-business')).toHaveAttribute('href', '/login');
    await expect(page.getByTestId('quick-credit')).toHaveAttribute('href', '/credit/creditPublicList');

    await page.getByTestId('home-search-input').fill('招标公告');
    await page.getByTestId('home-search-submit').click();
    await expect(page).toHaveURL(/\/transac\?keyword=/);
    await expect(page.getByTestId('filter-keyword')).toHaveValue('招标公告');
    await expect(page.getByTestId('notice-row').first()).toContainText('招标公告');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('transaction list: filters and page live in the URL and change the results', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/transac');
    const rows = page.getByTestId('notice-row');
    await expect(rows).toHaveCount(10);
    const total = await noticeTotal(page);
    expect(total).toBeGreaterThanOrEqual(60);

    // category
    await page.getByTestId('filter-category').getByRole('button', { name: '变更公告' }).click();
    await expect(page).toHaveURL(/category=%E5%8F%98%E6%9B%B4%E5%85%AC%E5%91%8A/);
    await expect.poll(() => noticeTotal(page)).toBeLessThan(total);
    const changeTotal = await noticeTotal(page);
    expect(changeTotal).toBeGreaterThan(0);
    for (const row of await rows.all()) await expect(row).toContainText('变更公告');

    // trade type narrows further (or keeps) the category list
    await page.getByTestId('filter-trade-type').getByRole('button', { name: '全部' }).click();
    await page.getByTestId('filter-category').getByRole('button', { name: '全部' }).click();
    await expect.poll(() => noticeTotal(page)).toBe(total);
    await page.getByTestId('filter-trade-type').getByRole('button', { name: '工程建设' }).click();
    await expect.poll(() => noticeTotal(page)).toBeLessThan(total);
    for (const row of await rows.all()) await expect(row).toContainText('工程建设');

    // region
    await page.getByTestId('filter-trade-type').getByRole('button', { name: '全部' }).click();
    await expect.poll(() => noticeTotal(page)).toBe(total);
    await page.getByTestId('filter-region').selectOption('太原市');
    await expect(page).toHaveURL(/region=/);
    await expect.poll(() => noticeTotal(page)).toBeLessThan(total);
    for (const row of await rows.all()) await expect(row).toContainText('太原市');
    await page.getByTestId('filter-reset').click();
    await expect.poll(() => noticeTotal(page)).toBe(total);

    // date range: a day long before the seed's notices matches nothing
    await page.getByTestId('filter-end-date').fill('2000-01-01');
    await expect(page).toHaveURL(/endDate=2000-01-01/);
    await expect(page.getByTestId('empty')).toHaveText(/暂无数据/);
    await page.getByTestId('filter-reset').click();
    await expect.poll(() => noticeTotal(page)).toBe(total);

    // keyword
    const firstTitle = (await page.getByTestId('notice-title').first().textContent())!;
    await page.getByTestId('filter-keyword').fill(firstTitle);
    await page.getByTestId('filter-search').click();
    await expect(page).toHaveURL(/keyword=/);
    await expect.poll(() => noticeTotal(page)).toBeLessThan(total);
    await expect(page.getByTestId('notice-title').first()).toHaveText(firstTitle);
    await page.getByTestId('filter-reset').click();
    await expect.poll(() => noticeTotal(page)).toBe(total);

    // pagination: page 2 shows other notices; back and forward restore the pages
    await page.getByRole('button', { name: '第 2 页' }).click();
    await expect(page).toHaveURL(/pageNum=2/);
    await expect(page.getByRole('button', { name: '第 2 页' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('notice-title').first()).not.toHaveText(firstTitle);
    const secondPageTitle = (await page.getByTestId('notice-title').first().textContent())!;
    await page.goBack();
    await expect(page.getByTestId('notice-title').first()).toHaveText(firstTitle);
    await page.goForward();
    await expect(page.getByTestId('notice-title').first()).toHaveText(secondPageTitle);

    // page size
    await page.getByLabel('每页条数').selectOption('20');
    await expect(page).toHaveURL(/pageSize=20/);
    await expect(rows).toHaveCount(20);

    // a link with filters opens the same list
    await page.goto('/transac?category=%E6%8B%9B%E6%A0%87%E5%85%AC%E5%91%8A&pageNum=2');
    await expect(
      page.getByTestId('filter-category').getByRole('button', { name: '招标公告', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: '第 2 页' })).toHaveAttribute('aria-current', 'page');
    await context.close();
  });

  test('notice detail with breadcrumb, sanitised body and attachments; unknown ids get a friendly page', async ({
    browser,
  }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/transac');
    const title = (await page.getByTestId('notice-title').first().textContent())!;
    await page.getByTestId('notice-title').first().click();
    await expect(page).toHaveURL(/\/transac-news\?id=[0-9a-f-]{36}$/);
    await expect(page.getByTestId('notice-detail-title')).toHaveText(title);
    const meta = page.getByTestId('notice-meta');
    for (const label of ['公告类别', '交易类型', '所在地区', '项目编号', '招标人', '金额', '发布时间']) {
      await expect(meta).toContainText(label);
    }
    await expect(page.getByTestId('notice-body')).not.toBeEmpty();
    await expect(page.getByTestId('notice-attachments')).toContainText('附件');
    const crumbs = page.getByTestId('breadcrumb');
    await expect(crumbs.getByRole('listitem')).toHaveText(['首页', '交易信息', '公告详情']);
    await crumbs.getByRole('link', { name: '交易信息' }).click();
    await expect(page).toHaveURL(/\/transac$/);

    await page.goto('/transac-news?id=00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('notice-not-found')).toContainText('公告不存在或已撤回');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByTestId('back-to-list').click();
    await expect(page).toHaveURL(/\/transac$/);
    await context.close();
  });

  test('market entities: entries, filters, pagination, details with every section, breadcrumbs', async ({
    browser,
  }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/market');
    await expect(page.getByTestId('breadcrumb').getByRole('listitem')).toHaveText(['首页', '市场主体']);
    await page.getByTestId('market-entry-agency').click();
    await expect(page).toHaveURL(/\/market-list\?kind=agency$/);
    await expect(page.getByTestId('breadcrumb').getByRole('listitem')).toHaveText(['首页', '市场主体', '招标代理机构']);
    await expect(page.getByTestId('market-row').first()).toBeVisible();
    // agencies have no type filter; practitioners filter by practice area
    await expect(page.getByTestId('filter-enterprise-type')).toHaveCount(0);
    await page.getByTestId('market-kind-tabs').getByRole('tab', { name: '从业人员' }).click();
    await expect(page).toHaveURL(/kind=practitioner/);
    const areas = page.getByTestId('filter-practice-area');
    await expect(areas.getByRole('button').nth(1)).toBeVisible();

    // enterprises: type and credit grade filters change the list, pagination works
    await page.goto('/market-list?kind=enterprise');
    const total = Number(await page.getByTestId('market-total').textContent());
    expect(total).toBeGreaterThanOrEqual(20);
    await expect(page.getByTestId('filter-practice-area')).toHaveCount(0);
    await page.getByTestId('filter-credit-grade').getByRole('button', { name: 'AAA', exact: true }).click();
    await expect(page).toHaveURL(/creditGrade=AAA/);
    await expect.poll(async () => Number(await page.getByTestId('market-total').textContent())).toBeLessThan(total);
    for (const g of await page.getByTestId('market-row').getByTestId('credit-grade').all())
      await expect(g).toHaveText('AAA');
    await page.getByTestId('filter-reset').click();
    await expect.poll(async () => Number(await page.getByTestId('market-total').textContent())).toBe(total);
    const types = page.getByTestId('filter-enterprise-type');
    await types.getByRole('button').nth(1).click();
    await expect(page).toHaveURL(/enterpriseType=/);
    await expect.poll(async () => Number(await page.getByTestId('market-total').textContent())).toBeLessThan(total);
    await page.getByTestId('filter-reset').click();
    const firstName = (await page.getByTestId('market-name').first().textContent())!;
    await page.getByRole('button', { name: '第 2 页' }).click();
    await expect(page).toHaveURL(/pageNum=2/);
    await expect(page.getByTestId('market-name').first()).not.toHaveText(firstName);
    await page.getByRole('button', { name: '第 1 页' }).click();

    // detail
    await page.getByTestId('market-name').first().click();
    await expect(page).toHaveURL(/\/market-details\?kind=enterprise&id=/);
    await expect(page.getByTestId('market-detail-name')).toHaveText(firstName);
    for (const section of ['section-basic', 'section-qualifications', 'section-performances', 'section-credit']) {
      await expect(page.getByTestId(section)).toBeVisible();
    }
    await expect(page.getByTestId('breadcrumb').getByRole('listitem')).toHaveText([
      '首页',
      '市场主体',
      '企业',
      '主体详情',
    ]);
    await page.getByTestId('breadcrumb').getByRole('link', { name: '企业' }).click();
    await expect(page).toHaveURL(/\/market-list\?kind=enterprise$/);
    await context.close();
  });

  test('信用公示 on the home page opens the public credit list with the enterprises’ grades', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/');
    await page.getByTestId('quick-credit').click();
    await expect(page).toHaveURL(/\/credit\/creditPublicList$/);
    await expect(page.getByTestId('public-row').first().getByTestId('credit-grade')).toBeVisible();
    await context.close();
  });

  test('/ loads no UI kit: no antd styles or class names on the portal', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/');
    await expect(page.getByTestId('category-notices')).toBeVisible();
    expect(await page.locator('[class*="ant-"]').count()).toBe(0);
    await context.close();
  });
});

test.describe('portal notice administration', () => {
  test('an admin creates a notice with unsafe HTML, publishes it (sanitised on the portal), then withdraws it', async ({
    browser,
  }) => {
    // the editor and the uploader load their own chunks
    test.setTimeout(120_000);
    const { context, page } = await newClient(browser);
    const title = `E2E测试公告${Date.now()}`;
    await signIn(page, 'admin', 'M');
    await expectSignedIn(page, '平台管理员');
    await page.getByTestId('portal-notices-entry').click();
    await expect(page).toHaveURL(/\/system\/portalNotices$/);
    await expect(page.locator('[data-testid="notice-table"] .ant-table-row').first()).toBeVisible();

    // create
    await page.getByTestId('notice-create').click();
    const drawer = page.getByRole('dialog', { name: '新建公告' });
    await expect(drawer).toBeVisible();
    await drawer.getByLabel('标题').fill(title);
    for (const [label, option] of [
      ['公告类别', '招标公告'],
      ['交易类型', '工程建设'],
      ['地区', '太原市'],
    ] as const) {
      // The dropdown animates in: retry until the chosen value shows in the select.
      await expect(async () => {
        await drawer.getByLabel(label, { exact: true }).click();
        await page
          .locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`)
          .click({ timeout: 2000 });
        await expect(drawer.locator('.ant-form-item').filter({ hasText: label })).toContainText(option, {
          timeout: 1000,
        });
      }).toPass({ timeout: 15_000 });
    }
    await drawer.getByLabel('项目编号').fill('E14010020269001');
    await drawer.getByLabel('项目名称').fill('太原市E2E测试道路改造工程');
    await drawer.getByLabel('标段名称').fill('施工一标段');
    await drawer.getByLabel('金额').fill('1234567.89');
    // the body is written in the rich-text editor; pasted HTML with a script and a handler is sanitised on the way in
    const editable = drawer.getByTestId('notice-body-area').locator('[data-slate-editor]');
    await expect(editable).toBeVisible({ timeout: 20_000 });
    await editable.click();
    await page.keyboard.type('正文');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(async () => {
      const html = '<p>粘贴</p><script>window.__x=1</script><img src=x onerror="window.__y=1">';
      await navigator.clipboard.write([
        new ClipboardItem({
          'text/html': new Blob([html], { type: 'text/html' }),
          'text/plain': new Blob(['粘贴'], { type: 'text/plain' }),
        }),
      ]);
    });
    await page.keyboard.press('Control+V');
    await expect(editable).toContainText('粘贴');
    await drawer.getByTestId('notice-preview-open').click();
    const preview = page.getByTestId('notice-preview');
    await expect(preview).toContainText('正文');
    expect(await preview.innerHTML()).not.toContain('onerror');
    await page.locator('.ant-modal:visible .ant-modal-close').click();
    // attachments are uploaded files, not typed addresses
    await drawer
      .getByTestId('notice-attachments')
      .locator('input[type=file]')
      .setInputFiles({ name: '招标文件.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%e2e\n') });
    await expect(drawer.getByTestId('notice-attachments').getByTestId('attachment-name')).toHaveText(['招标文件.pdf']);
    await drawer.getByTestId('notice-save').click();
    await expect(page.locator('.ant-message')).toContainText('保存成功');
    await expect(drawer).toBeHidden();

    // find it, publish it
    await page.getByPlaceholder('公告标题关键字').fill(title);
    await page.getByRole('button', { name: '搜索' }).click();
    const row = page.locator('[data-testid="notice-table"] .ant-table-row', { hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('notice-status')).toHaveText('草稿');
    await row.getByTestId('notice-publish').click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await expect(page.locator('.ant-message')).toContainText('操作成功');
    await expect(row.getByTestId('notice-status')).toHaveText('已发布');

    // it is on the portal, sanitised
    const portal = await context.newPage();
    await portal.goto(`/transac?keyword=${encodeURIComponent(title)}`);
    await expect(portal.getByTestId('notice-row')).toHaveCount(1);
    await portal.getByTestId('notice-title').click();
    await expect(portal.getByTestId('notice-detail-title')).toHaveText(title);
    await expect(portal.getByTestId('notice-body')).toContainText('正文');
    await expect(portal.getByTestId('notice-meta')).toContainText('1,234,567.89 元');
    await expect(portal.getByTestId('notice-meta')).toContainText('太原市E2E测试道路改造工程');
    await expect(portal.getByTestId('notice-meta')).toContainText('施工一标段');
    const attachment = portal.getByTestId('notice-attachments').getByRole('link', { name: '招标文件.pdf' });
    await expect(attachment).toHaveAttribute('href', /^\/ks\/common\/common\/file\/download\?fileId=[0-9a-f-]{36}$/);
    // a public file: anyone may download it
    const file = await portal.request.get((await attachment.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
    const detailUrl = portal.url();
    expect(await portal.evaluate(() => (window as unknown as { __x?: unknown }).__x)).toBeUndefined();
    expect(await portal.evaluate(() => (window as unknown as { __y?: unknown }).__y)).toBeUndefined();
    const html = await portal.content();
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('window.__x');

    // withdraw: gone from the portal
    await row.getByTestId('notice-withdraw').click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: '确定' }).click();
    await expect(page.locator('.ant-message')).toContainText('操作成功');
    await expect(row.getByTestId('notice-status')).toHaveText('已撤回');
    await portal.goto(`/transac?keyword=${encodeURIComponent(title)}`);
    await expect(portal.getByTestId('empty')).toHaveText(/暂无数据/);
    await expect(portal.getByTestId('notice-row')).toHaveCount(0);
    await portal.goto(detailUrl);
    await expect(portal.getByTestId('notice-not-found')).toBeVisible();
    await context.close();
  });

  test('a user without a grant on the PORTAL_NOTICE node sees 403', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await signIn(page, 'user1', 'U');
    await acknowledgePractice(page);
    await expect(page).toHaveURL(/\/system\/pageConfig$/);
    await expect(page.getByTestId('portal-notices-entry')).toHaveCount(0);
    await page.goto('/system/portalNotices');
    await expect(page.getByTestId('forbidden')).toContainText('无权访问');
    await expect(page.getByTestId('notice-table')).toHaveCount(0);
    await context.close();
  });
});
