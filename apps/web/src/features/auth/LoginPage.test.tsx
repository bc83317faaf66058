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
import { ChangePasswordDialog, FORCED_PASSWORD_NOTICE } from './ChangePasswordDialog';
import LoginPage, { BACK_TO_PORTAL } from './LoginPage';
import { truncateReason } from './practice';

let pem = '';
let decrypt: (b64: string, label?: string) => Promise<string>;

beforeAll(async () => {
  ({ pem, decrypt } = await testKeyPair());
});

const success = (over: Partial<LoginResponse> = {}): LoginResponse => ({
  token: 'tok-login',
  refreshToken: 'refresh-login',
  userInfo: { ...userInfo, loginRoleType: 'U' },
  roles: ['user'],
  codeStatus: 0,
  ...over,
});

let captchaCount = 0;
let nonceCount = 0;
let captchaNeeded = false;
let loginHandler: Handler;
/** a PNG data URL whose bytes carry n, as the server sends captchas */
const pngOf = (n: number) => `data:image/png;base64,${btoa(`\x89PNG-${n}`)}`;
let server: ReturnType<typeof createFakeServer>;

beforeEach(() => {
  captchaCount = 0;
  nonceCount = 0;
  captchaNeeded = false;
  loginHandler = () => ({ data: success() });
  server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/common/public-key': () => ({ data: { publicKey: pem, nonce: `nonce-${++nonceCount}` } }),
    'GET /ks/common/captcha': () => {
      captchaCount++;
      return { data: { uuid: `uuid-${captchaCount}`, img: pngOf(captchaCount) } };
    },
    'POST /ks/common/login/captcha-required': () => ({ data: { captchaRequired: captchaNeeded } }),
    'PUT /ks/individual/login/update-secret': () => ({ data: null, message: '密码已修改' }),
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
  {
    path: '/',
    element: (
      <>
        <LoginPage />
        <ChangePasswordDialog />
      </>
    ),
  },
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

  it('sends logValue, passWord and loginRoleType encrypted (never plaintext) under a fresh nonce, without a token', async () => {
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
    expect(body.nonce).toBe('nonce-1');
    expect(await decrypt(body.logValue, 'nonce-1')).toBe('zhangsan中文');
    expect(await decrypt(body.passWord, 'nonce-1')).toBe('S3cret!密码');
    expect(await decrypt(body.loginRoleType, 'nonce-1')).toBe('U');
    // bound to the nonce: without it the ciphertext does not open
    await expect(decrypt(body.passWord)).rejects.toThrow();
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
    expect(await decrypt(loginBodies()[0].loginRoleType, loginBodies()[0].nonce)).toBe('M');
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
    expect(img.getAttribute('src')).toBe(pngOf(1));
    expect(screen.getByTestId('login-captcha').getAttribute('placeholder')).toBe('请输入验证码');

    await user.type(screen.getByTestId('login-captcha'), 'abcd');
    await user.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-prompt')).textContent).toContain('验证码错误');
    expect(loginBodies()[1]).toMatchObject({ uuid: 'uuid-1', code: 'abcd' });
    await waitFor(() => expect(screen.getByTestId('login-captcha-img').getAttribute('src')).toBe(pngOf(2)));
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

  it('codeStatus 1: the change-password dialog comes first and stays until the password is changed, then home', async () => {
    loginHandler = () => ({ data: success({ codeStatus: 1 }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'Temp@2026x');
    const form = await screen.findByTestId('password-change-form');
    expect(document.body.textContent).toContain(FORCED_PASSWORD_NOTICE);
    expect(screen.queryByTestId('home-page')).toBeNull();
    // the rules of the server, before anything is sent
    await user.type(screen.getByTestId('password-change-old'), 'Temp@2026x');
    await user.type(screen.getByTestId('password-change-new'), 'short');
    await user.type(screen.getByTestId('password-change-confirm'), 'other');
    await user.click(screen.getByTestId('password-change-submit'));
    expect(await within(form).findByText('密码长度应为 8 到 64 位')).toBeTruthy();
    expect(within(form).getByText('两次输入的新密码不一致')).toBeTruthy();
    expect(server.callsTo('/ks/individual/login/update-secret')).toHaveLength(0);

    await user.clear(screen.getByTestId('password-change-new'));
    await user.type(screen.getByTestId('password-change-new'), 'Better@2026');
    await user.clear(screen.getByTestId('password-change-confirm'));
    await user.type(screen.getByTestId('password-change-confirm'), 'Better@2026');
    await user.click(screen.getByTestId('password-change-submit'));
    expect(await screen.findByTestId('home-page')).toBeTruthy();
    const [call] = server.callsTo('/ks/individual/login/update-secret');
    const body = JSON.parse(String(call!.body));
    expect(await decrypt(body.oldPassword)).toBe('Temp@2026x');
    expect(await decrypt(body.newPassword)).toBe('Better@2026');
    expect(call!.headers.Authorization).toBe('Bearer tok-login');
  });

  it('tells the owner of a lock since the last sign-in before going on', async () => {
    const notice =
      '您的账号自上次登录以来因连续 5 次密码错误被锁定 1 次（最近一次：2026-11-25 09:00，来自 10.1.1.1）。';
    loginHandler = () => ({ data: success({ securityNotice: notice }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await fillAndSubmit(user, 'zhangsan', 'pw');
    expect((await screen.findByTestId('prompt-dialog')).textContent).toContain(notice);
    expect(screen.queryByTestId('home-page')).toBeNull();
    await user.click(screen.getByTestId('prompt-ok'));
    expect(await screen.findByTestId('home-page')).toBeTruthy();
  });

  it('shows the captcha as soon as the server says the account needs one, before any failure', async () => {
    captchaNeeded = true;
    const user = userEvent.setup();
    renderRoutes(routes, '/');
    await user.type(await screen.findByTestId('login-account'), 'zhangsan');
    await user.click(screen.getByTestId('login-password'));
    expect((await screen.findByTestId('login-captcha-img')).getAttribute('src')).toBe(pngOf(1));
    expect(JSON.parse(String(server.callsTo('/ks/common/login/captcha-required')[0]!.body))).toEqual({
      logValue: 'zhangsan',
    });
    await user.type(screen.getByTestId('login-password'), 'pw');
    await user.type(screen.getByTestId('login-captcha'), 'k3m7x');
    await user.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home-page');
    expect(loginBodies()[0]).toMatchObject({ uuid: 'uuid-1', code: 'k3m7x' });
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
