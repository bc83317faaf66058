import { Code, type LoginResponse, Msg, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearLoginPrompt } from '../../api/loginPrompt';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { testKeyPair } from '../../test/rsa';
import { createFakeServer, type Handler, platformInfo, userInfo } from '../../test/server';
import LoginPage, { BACK_TO_PORTAL, PASSWORD_RESET_NOTICE } from './LoginPage';
import { truncateReason } from './practice';

let pem = '';
let decrypt: (b64: string) => Promise<string>;

beforeAll(async () => {
  ({ pem, decrypt } = await testKeyPair());
});

const success = (over: Partial<LoginResponse> = {}): LoginResponse => ({
  token: 'tok-login',
  userInfo: { ...userInfo, loginRoleType: 'U' },
  roles: ['user'],
  codeStatus: 0,
  ...over,
});

let captchaCount = 0;
let loginHandler: Handler;
let server: ReturnType<typeof createFakeServer>;

beforeEach(() => {
  captchaCount = 0;
  loginHandler = () => ({ data: success() });
  server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/common/public-key': () => ({ data: { publicKey: pem } }),
    'GET /ks/common/captcha': () => {
      captchaCount++;
      return {
        data: { uuid: `uuid-${captchaCount}`, img: `<svg xmlns="http://www.w3.org/2000/svg">${captchaCount}</svg>` },
      };
    },
    'POST /ks/common/login': (req) => loginHandler(req),
  });
  configureRequest({ transport: server.transport });
});

afterEach(() => {
  configureRequest();
  act(() => {
    resetPrompts();
    clearLoginPrompt();
  });
});

const routes: RouteObject[] = [
  { path: '/', element: <LoginPage /> },
  { path: '/system/pageConfig', element: <div data-testid="home-page">home</div> },
  { path: '/custom/home', element: <div data-testid="custom-home">custom</div> },
];

function loginBodies(): Record<string, string>[] {
  return server.callsTo('/ks/common/login').map((c: TransportRequest) => JSON.parse(String(c.body)));
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>, account: string, password: string) {
  await user.type(await screen.findByTestId('login-account'), account);
  await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('LoginPage', () => {
  it('shows the three roles, the inputs with their placeholders and the 登录 button', async () => {
    renderRoutes(routes, '/');
    const account = await screen.findByTestId('login-account');
    expect(account.getAttribute('placeholder')).toBe('请输入账号');
    expect(screen.getByTestId('login-password').getAttribute('placeholder')).toBe('请输入密码');
    expect(screen.getByTestId('login-role-U').textContent).toBe('企业/个人');
    expect(screen.getByTestId('login-role-M').textContent).toBe('管理员');
    expect(screen.getByTestId('login-role-D').textContent).toBe('开发者');
    expect(screen.getByTestId('login-submit').textContent).toBe('登录');
    expect(screen.queryByTestId('login-captcha')).toBeNull();
    expect((await screen.findByTestId('login-platform-name')).textContent).toBe(platformInfo.platformName);
  });

  it('sends logValue, passWord and loginRoleType encrypted (never plaintext), without a token', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'stale-token');
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan中文', 'S3cret!密码');
    await screen.findByTestId('home-page');
    const [body] = loginBodies();
    expect(body.logValue).not.toContain('zhangsan');
    expect(body.passWord).not.toContain('S3cret');
    expect(body.loginRoleType).not.toBe('U');
    expect(atob(body.logValue)).toHaveLength(256);
    expect(await decrypt(body.logValue)).toBe('zhangsan中文');
    expect(await decrypt(body.passWord)).toBe('S3cret!密码');
    expect(await decrypt(body.loginRoleType)).toBe('U');
    expect(body.uuid).toBeUndefined();
    expect(server.callsTo('/ks/common/login')[0].headers.Authorization).toBeUndefined();
  });

  it('on success stores token, userInfo and roles and goes to /system/pageConfig', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');
    await screen.findByTestId('home-page');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-login');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '{}').userName).toBe('张三');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.roles) ?? '[]')).toEqual(['user']);
  });

  it('goes to the stored homeUrl when there is one', async () => {
    sessionStorage.setItem(SESSION_KEYS.homeUrl, '/custom/home');
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');
    expect(await screen.findByTestId('custom-home')).toBeTruthy();
  });

  it('the 管理员 tab sends loginRoleType M; Enter in the password field submits', async () => {
    loginHandler = () => ({ data: success({ userInfo: { ...userInfo, loginRoleType: 'M' }, roles: ['admin'] }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await user.click(await screen.findByTestId('login-role-M'));
    await user.type(screen.getByTestId('login-account'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'pw{Enter}');
    await screen.findByTestId('home-page');
    expect(await decrypt(loginBodies()[0].loginRoleType)).toBe('M');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.roles) ?? '[]')).toEqual(['admin']);
  });

  it('does not submit with empty fields', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await user.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('请输入账号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(server.callsTo('/ks/common/login')).toHaveLength(0);
  });

  it('shows a login error inline and no captcha while the server does not ask for one', async () => {
    loginHandler = () => ({ status: 400, message: Msg.BAD_CREDENTIALS, data: { captchaRequired: false } });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'wrong');
    expect((await screen.findByTestId('login-prompt')).textContent).toContain('账号或密码错误');
    expect(screen.queryByTestId('login-captcha')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });

  it('shows the captcha when the error data asks for it, sends uuid and code, and refreshes it after each failure', async () => {
    let attempt = 0;
    loginHandler = () => {
      attempt++;
      if (attempt === 1) return { status: 400, message: Msg.BAD_CREDENTIALS, data: { captchaRequired: true } };
      if (attempt === 2) return { status: 400, message: Msg.CAPTCHA_WRONG, data: { captchaRequired: true } };
      return { data: success() };
    };
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');

    expect((await screen.findByTestId('login-prompt')).textContent).toContain('账号或密码错误');
    const img = await screen.findByTestId('login-captcha-img');
    expect(img.getAttribute('src')).toBe(
      `data:image/svg+xml;utf8,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg">1</svg>')}`,
    );
    expect(screen.getByTestId('login-captcha').getAttribute('placeholder')).toBe('请输入验证码');

    await user.type(screen.getByTestId('login-captcha'), 'abcd');
    await user.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-prompt')).textContent).toContain('验证码错误或已过期，请重新输入');
    expect(loginBodies()[1]).toMatchObject({ uuid: 'uuid-1', code: 'abcd' });
    await waitFor(() => expect(screen.getByTestId('login-captcha-img').getAttribute('src')).toContain('2'));
    expect((screen.getByTestId('login-captcha') as HTMLInputElement).value).toBe('');

    await user.click(screen.getByTestId('login-captcha-refresh'));
    await waitFor(() => expect(captchaCount).toBe(3));

    await user.type(screen.getByTestId('login-captcha'), 'wxyz');
    await user.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home-page');
    expect(loginBodies()[2]).toMatchObject({ uuid: 'uuid-3', code: 'wxyz' });
  });

  it('shows the lock message of a 429 inline, with the captcha', async () => {
    loginHandler = () => ({
      status: 429,
      message: '登录失败次数过多，账号已锁定，请于 2030-01-01 10:00:00 后再试',
      data: { captchaRequired: true, lockedUntil: '2030-01-01T02:00:00.000Z' },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');
    expect((await screen.findByTestId('login-prompt')).textContent).toContain('账号已锁定');
    expect(await screen.findByTestId('login-captcha-img')).toBeTruthy();
  });

  it('codeStatus 0 with an abnormal practicing status shows 执业状态提醒 with reasons cut at 16 characters', async () => {
    const longReason = '该地区执业资格证书已过期且未在规定期限内办理延续注册手续';
    loginHandler = () => ({
      data: success({
        userInfo: {
          ...userInfo,
          loginRoleType: 'U',
          practicingStatus: {
            abnormal: '您在以下地区的执业状态异常',
            practiceDetails: [
              { region: '太原市', status: 1, reason: longReason },
              { region: '大同市', status: 2, reason: '正常' },
              { region: '晋中市', status: 1, reason: '社保缴纳单位不一致' },
              { region: '长治市', status: 0, reason: '待核验' },
            ],
          },
        },
      }),
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');

    const dialog = await screen.findByTestId('practice-dialog');
    expect(document.body.textContent).toContain('执业状态提醒');
    const items = within(dialog).getAllByTestId('practice-item');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('太原市');
    expect(items[0].textContent).toContain(`${longReason.slice(0, 16)}...`);
    expect(items[0].textContent).not.toContain(longReason);
    expect(items[1].textContent).toContain('晋中市');
    expect(items[1].textContent).toContain('社保缴纳单位不一致');
    expect(items[1].textContent).not.toContain('...');
    expect(dialog.textContent).not.toContain('大同市');
    expect(screen.queryByTestId('home-page')).toBeNull();

    const ok = screen.getByTestId('practice-ok');
    expect(ok.textContent).toBe('我知道了');
    await user.click(ok);
    expect(await screen.findByTestId('home-page')).toBeTruthy();
  });

  it('codeStatus 1 first shows the password-reset notice, then continues home', async () => {
    loginHandler = () => ({ data: success({ codeStatus: 1 }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');
    const prompt = await screen.findByTestId('prompt-dialog');
    expect(prompt.textContent).toContain(PASSWORD_RESET_NOTICE);
    expect(PASSWORD_RESET_NOTICE).toBe('您的密码已被管理员重置，请尽快修改密码');
    expect(screen.queryByTestId('home-page')).toBeNull();
    await user.click(screen.getByTestId('prompt-ok'));
    expect(await screen.findByTestId('home-page')).toBeTruthy();
  });

  it('shows the footer with the platform description, hotline and filing link', async () => {
    renderRoutes(routes, '/');
    const footer = await screen.findByTestId('site-footer');
    await waitFor(() => expect(footer.textContent).toContain(platformInfo.describe));
    expect(footer.textContent).toContain(`服务热线：${platformInfo.phone}`);
  });
});

describe('truncateReason', () => {
  it('keeps up to 16 characters and appends ... only when longer', () => {
    expect(truncateReason('一二三四五六七八九十一二三四五六')).toBe('一二三四五六七八九十一二三四五六');
    expect(truncateReason('一二三四五六七八九十一二三四五六七')).toBe('一二三四五六七八九十一二三四五六...');
    expect(truncateReason('')).toBe('');
  });

  it('says why the last session ended (/login?reason=…), and drops the reason from the address', async () => {
    for (const [code, message] of [
      [Code.SIGNED_IN_ELSEWHERE, Msg.SIGNED_IN_ELSEWHERE],
      [Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED],
      [Code.TOKEN_INVALID, Msg.TOKEN_INVALID],
    ] as const) {
      const { router, unmount } = renderRoutes(routes, `/?reason=${code}`);
      expect((await screen.findByTestId('login-ended')).textContent).toContain(message);
      await waitFor(() => expect(router.state.location.search).toBe(''));
      // still shown once the address no longer carries it
      expect(screen.getByTestId('login-ended').textContent).toContain(message);
      unmount();
    }
  });

  it('shows no reason for a code that does not end a session, nor for text', async () => {
    for (const reason of ['500', '<b>x</b>', '']) {
      const { unmount } = renderRoutes(routes, `/?reason=${encodeURIComponent(reason)}`);
      await screen.findByTestId('login-account');
      expect(screen.queryByTestId('login-ended')).toBeNull();
      unmount();
    }
  });

  it('the reason gives way once the user signs in again', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, `/?reason=${Code.SIGNED_IN_ELSEWHERE}`);
    await screen.findByTestId('login-ended');
    loginHandler = () => ({ status: 400, code: 400, message: '账号或密码错误' });
    await fillAndSubmit(user, 'user1', 'wrong');
    expect((await screen.findByTestId('login-prompt')).textContent).toContain('账号或密码错误');
    expect(screen.queryByTestId('login-ended')).toBeNull();
  });

  it('links back to the public portal', async () => {
    renderRoutes(routes, '/');
    const link = await screen.findByTestId('login-portal-link');
    expect(link.textContent).toContain(BACK_TO_PORTAL);
    expect(link.getAttribute('href')).toBe('/');
  });
});
