import { creditCodeCheckChar, idNumberCheckChar, REGISTER_MESSAGES as M } from '@ks/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearLoginPrompt } from '../../api/loginPrompt';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { testKeyPair } from '../../test/rsa';
import { createFakeServer, platformInfo } from '../../test/server';
import LoginPage from '../auth/LoginPage';
import CreditCodeLoginPage from './CreditCodeLoginPage';
import EnterpriseRegisterPage from './EnterpriseRegisterPage';
import RealNamePage from './RealNamePage';
import RegistrationProgressPage from './RegistrationProgress';

const BASE = '91140700MA0L3R5K2';
const CODE = `${BASE}${creditCodeCheckChar(BASE)}`;
const WRONG = `${BASE}${CODE[17] === '0' ? '1' : '0'}`;
const ID = `14010219900307123${idNumberCheckChar('14010219900307123')}`;

let pem = '';
beforeAll(async () => {
  ({ pem } = await testKeyPair());
});

let server: ReturnType<typeof createFakeServer>;
let registered = false;
beforeEach(() => {
  registered = false;
  server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/portal/v1/common/enterprise-types': () => ({ data: [{ label: '施工企业', value: '施工企业' }] }),
    'GET /ks/common/public-key': () => ({ data: { publicKey: pem, nonce: 'n-1' } }),
    'POST /ks/register/v1/enterprise/verify': () => ({ data: { creditCode: CODE, registered } }),
    'POST /ks/register/v1/sms/phone-code': () => ({ data: { resendAfterSeconds: 60, mode: 'outbox' } }),
    'POST /ks/register/v1/sms/phone-verify': () => ({ data: { proof: 'proof-1' } }),
    'POST /ks/register/v1/user-register': () => ({
      status: 409,
      code: 409,
      message: M.idNumberTaken,
      data: { fieldErrors: { idNumber: [M.idNumberTaken] } },
    }),
    'GET /ks/register/v1/enterprise/registration': () => ({
      data: {
        applicationNo: 'ZC20261126000001',
        enterpriseName: '晋中市恒泰建筑工程有限公司',
        status: 'rejected',
        submittedAt: '2026-11-20T02:00:00.000Z',
        decidedAt: '2026-11-21T02:00:00.000Z',
        reason: '营业执照照片不清晰',
        activated: false,
      },
    }),
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

const at = (path: string, element: React.ReactNode): RouteObject[] => [
  { path, element },
  { path: '*', element: <div data-testid="elsewhere">elsewhere</div> },
];

describe('企业注册', () => {
  it('refuses a wrong check character with the clear message before asking the server', async () => {
    const user = userEvent.setup();
    renderRoutes(at('/creditCode/register', <EnterpriseRegisterPage />), '/creditCode/register');
    await user.type(await screen.findByTestId('register-credit-code'), WRONG.toLowerCase());
    await user.click(screen.getByTestId('register-code-next'));
    expect(await screen.findByText(M.creditCodeCheckDigit)).toBeTruthy();
    expect(server.callsTo('/ks/register/v1/enterprise/verify')).toHaveLength(0);
  });

  it('a free code leads to the application form with the code locked; a taken one says so and links on', async () => {
    const user = userEvent.setup();
    registered = true;
    renderRoutes(at('/creditCode/register', <EnterpriseRegisterPage />), '/creditCode/register');
    await user.type(await screen.findByTestId('register-credit-code'), CODE);
    await user.click(screen.getByTestId('register-code-next'));
    expect(await screen.findByTestId('register-code-taken')).toBeTruthy();
    registered = false;
    await user.click(screen.getByTestId('register-code-next'));
    const locked = (await screen.findByTestId('register-code-locked')) as HTMLInputElement;
    expect(locked.value).toBe(CODE);
    expect(locked.disabled).toBe(true);
  });
});

describe('个人实名注册', () => {
  it('checks the ID number as typed, counts the SMS button down with the outbox hint, and puts a 409 on its field', async () => {
    const user = userEvent.setup();
    renderRoutes(at('/realName', <RealNamePage />), '/realName');
    const id = await screen.findByTestId('realname-id');
    await user.type(id, '14010219990230123X');
    await user.tab();
    expect(await screen.findByText(M.idNumberBirthDate)).toBeTruthy();
    await user.clear(id);
    await user.type(id, ID);
    await user.type(screen.getByTestId('realname-name'), '李晓明');
    await user.type(screen.getByTestId('realname-phone'), '13912345678');
    await user.click(screen.getByTestId('realname-sms-send'));
    await waitFor(() => expect(screen.getByTestId('realname-sms-send').textContent).toMatch(/秒后重新获取/));
    expect(screen.getByTestId('sms-outbox-hint').textContent).toContain('开发发件箱');
    expect(screen.getByTestId('sms-outbox-link').getAttribute('href')).toBe('/smsOutbox?phone=13912345678');
    await user.type(screen.getByTestId('realname-sms-code'), '123456');
    await user.type(screen.getByTestId('realname-account'), 'lixiaoming');
    await user.type(screen.getByTestId('realname-password'), 'Person@2026');
    await user.type(screen.getByTestId('realname-confirm'), 'Person@2026');
    await user.click(screen.getByTestId('realname-submit'));
    expect(await screen.findByText(M.idNumberTaken)).toBeTruthy();
    const body = JSON.parse(String(server.callsTo('/ks/register/v1/user-register')[0]!.body));
    expect(body.proof).toBe('proof-1');
    expect(body.password).not.toBe('Person@2026');
  }, 20_000);
});

describe('注册进度查询', () => {
  it('shows a rejection with its reason', async () => {
    renderRoutes(
      at('/creditCode/progress', <RegistrationProgressPage />),
      `/creditCode/progress?creditCode=${CODE}&keyWord=ZC20261126000001`,
    );
    expect((await screen.findByTestId('progress-reason')).textContent).toContain('营业执照照片不清晰');
    expect(screen.getByTestId('progress-status').textContent).toBe('已驳回');
  });
});

describe('sign-in pages', () => {
  it('the sign-in page has one row of registration links', async () => {
    renderRoutes(at('/login', <LoginPage />), '/login');
    const row = await screen.findByTestId('register-links');
    expect(Array.from(row.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['企业注册', '/creditCode/register'],
      ['个人实名注册', '/realName'],
      ['统一社会信用代码登录', '/creditCode'],
      ['企业激活', '/creditCode/activate'],
    ]);
  });

  it('the credit-code sign-in has no role tabs and refuses a wrong code as typed', async () => {
    const user = userEvent.setup();
    renderRoutes(at('/creditCode', <CreditCodeLoginPage />), '/creditCode');
    const account = await screen.findByTestId('login-account');
    expect(account.getAttribute('placeholder')).toBe('请输入统一社会信用代码');
    expect(screen.queryByTestId('login-role-M')).toBeNull();
    await user.type(account, WRONG);
    await user.type(screen.getByTestId('login-password'), 'Ent@2026ok');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText(M.creditCodeCheckDigit)).toBeTruthy();
    expect(server.callsTo('/ks/common/login')).toHaveLength(0);
    expect(screen.getByTestId('register-link-login').getAttribute('href')).toBe('/login');
  });
});
