import { expect, test } from './fixtures';
import { acknowledgePractice, expectSignedIn, newClient, signIn, signOut, waitForQuiet } from './helpers';

test.describe('sign-in', () => {
  test('admin and dev sign in, see their role and systems, and sign out', async ({ browser }) => {
    for (const [account, role, name, roleLabel] of [
      ['admin', 'M', '平台管理员', '管理员'],
      ['dev', 'D', '系统开发者', '开发者'],
    ] as const) {
      const { context, page } = await newClient(browser);
      await signIn(page, account, role);
      await expectSignedIn(page, name);
      await expect(page.getByTestId('user-card-role')).toHaveText(roleLabel);
      await expect(page.getByTestId('system-card-XYGL')).toContainText('信用管理系统');
      const stored = await page.evaluate(() => ({
        token: sessionStorage.getItem('token'),
        roles: sessionStorage.getItem('roles'),
        userInfo: sessionStorage.getItem('userInfo'),
      }));
      expect(stored.token).toBeTruthy();
      expect(JSON.parse(stored.roles!)).toEqual(role === 'M' ? ['admin'] : ['user']);
      expect(JSON.parse(stored.userInfo!).userName).toBe(name);
      await signOut(page);
      expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
      // signed out: the landing page is closed again
      await page.goto('/system/pageConfig');
      await expect(page).toHaveURL(/\/$/);
      await context.close();
    }
  });

  test('user1 sees the practicing-status dialog with reasons cut at 16 characters, then signs out', async ({
    browser,
  }) => {
    const { context, page } = await newClient(browser);
    await signIn(page, 'user1', 'U');
    const dialog = page.getByTestId('practice-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('大同市');
    await expect(dialog).toContainText('注册证书有效期已届满，未按期办理...');
    await expect(dialog).not.toContainText('延续注册');
    await acknowledgePractice(page);
    await expectSignedIn(page, '张建国');
    await expect(page.getByTestId('user-card-enterprise')).toContainText('示例建设工程有限公司');
    await signOut(page);
    await context.close();
  });

  test('the title is the platform name and the footer shows phone and filing code', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/login');
    await expect(page).toHaveTitle('公共资源交易与信用管理平台');
    const filing = page.getByRole('link', { name: '晋ICP备20260001号-1' });
    await expect(filing).toHaveAttribute('href', 'https://beian.miit.gov.cn');
    await expect(filing).toHaveAttribute('target', '_blank');
    await expect(page.getByText(/服务热线/)).toContainText('0351-12345678');
    await context.close();
  });

  test('the pages run under the content security policy without violations or script errors', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const res = await page.goto('/login');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signIn(page, 'dev', 'D');
    await expectSignedIn(page, '系统开发者');
    await expect(page.getByTestId('system-card-XYGL')).toBeVisible();
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a wrong password is refused inline, and a captcha appears after 3 failures', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/login');
    for (let i = 0; i < 3; i++) {
      await signIn(page, 'nobody-e2e', 'U', `Wrong${i}`);
      await expect(page.getByTestId('login-prompt')).toContainText('账号或密码错误');
    }
    await expect(page.getByTestId('login-captcha-img')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await context.close();
  });

  test('credentials never leave the browser in plaintext', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    const bodies: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/ks/common/login')) bodies.push(r.postData() ?? '');
    });
    await signIn(page, 'dev', 'D');
    await expectSignedIn(page, '系统开发者');
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toContain('Demo@2026');
    expect(bodies[0]).not.toContain('"dev"');
    await context.close();
  });
});

test.describe('route guard and request client', () => {
  test('anonymous /system/pageConfig goes to / (the public portal in login mode ggfw)', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/system/pageConfig');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('home-banner')).toBeVisible();
    await expect(page.getByTestId('nav-home')).toHaveAttribute('aria-current', 'page');
    await context.close();
  });

  test('an unknown route: anonymous visitors go to /, signed-in ones see the 404 page whose button goes home', async ({
    browser,
  }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, 'dev', 'D');
    await expectSignedIn(page, '系统开发者');
    await page.goto('/no/such/page');
    await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
    await page.getByTestId('notfound-home').click();
    // home for a signed-in visitor is the stored home URL
    await expect(page).toHaveURL(/\/system\/pageConfig$/);
    await context.close();
  });

  test('a signed-in visitor at / goes to the home URL', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await signIn(page, 'dev', 'D');
    await expectSignedIn(page, '系统开发者');
    await page.goto('/');
    await expect(page).toHaveURL(/\/system\/pageConfig$/);
    await context.close();
  });

  test('a token revoked on the server: prompt, then storage cleared and /login', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await signIn(page, 'admin', 'M');
    await expectSignedIn(page, '平台管理员');
    // Revoke the session behind the page's back, as a logout in another tab would.
    const status = await page.evaluate(async () => {
      const r = await fetch('/ks/common/logout', {
        headers: { authorization: `Bearer ${sessionStorage.getItem('token')}` },
      });
      return r.status;
    });
    expect(status).toBe(200);
    await page.reload();
    await expect(page.getByTestId('prompt-dialog')).toContainText('登录凭证无效');
    await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  test('signing in elsewhere ends this session with 10017', async ({ browser }) => {
    const a = await newClient(browser);
    await signIn(a.page, 'dev', 'D');
    await expectSignedIn(a.page, '系统开发者');
    const b = await newClient(browser);
    await signIn(b.page, 'dev', 'D');
    await expectSignedIn(b.page, '系统开发者');
    await a.page.reload();
    // the prompt shows for half a second before the sign-in page, which then says it itself (on a loaded machine the
    // prompt's half second may pass between two looks)
    await expect(a.page.getByTestId('prompt-dialog').or(a.page.getByTestId('login-ended')).first()).toContainText(
      '其他地方登录',
    );
    await expect(a.page).toHaveURL(/\/login$/);
    await a.context.close();
    await b.context.close();
  });

  test('a different platform version forces one reload', async ({ browser }) => {
    const { context, page } = await newClient(browser);
    await page.goto('/login');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('platformVersion'))).toBeTruthy();
    const version = await page.evaluate(() => localStorage.getItem('platformVersion'));
    await page.evaluate(() => localStorage.setItem('platformVersion', 'stale-version'));
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.reload();
    // the first load sees the stale version, stores the current one and reloads once more
    await expect.poll(() => loads).toBeGreaterThanOrEqual(2);
    await waitForQuiet(page);
    expect(await page.evaluate(() => localStorage.getItem('platformVersion'))).toBe(version);
    await context.close();
  });
});
