import { FEEDBACK_MESSAGES, FEEDBACK_QUESTIONNAIRES, SESSION_KEYS } from '@ks/contracts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { AntdProviders } from '../../app/AntdProviders';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, platformInfo, systems, userInfo } from '../../test/server';
import { FeedbackDrawer, feedbackBody } from './FeedbackDrawer';

const ADD = '/ks/feedback/add';
const P = FEEDBACK_QUESTIONNAIRES.product.questions;
const S = FEEDBACK_QUESTIONNAIRES.service.questions;

function serve(
  add: Handler = () => ({ data: { id: '00000000-0000-4000-8000-000000000001' }, message: FEEDBACK_MESSAGES.thanks }),
) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-feedback');
  const server = createFakeServer({ [`POST ${ADD}`]: add });
  configureRequest({ transport: server.transport });
  return server;
}

function renderDrawer(onClose = vi.fn()) {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <AntdProviders>
        <FeedbackDrawer open onClose={onClose} />
      </AntdProviders>
    </AppProviders>,
  );
  return onClose;
}

/** Clicks the n-th star (1–5) of a question's Rate. */
async function rate(user: ReturnType<typeof userEvent.setup>, testId: string, n: number) {
  const stars = within(await screen.findByTestId(testId)).getAllByRole('radio');
  await user.click(stars[n - 1]!);
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('feedbackBody', () => {
  it('sends the rated questions only, and the text only when it is not blank', () => {
    expect(feedbackBody({ 'product/0': 5, 'product/1': 0, 'service/2': 3 }, '  好用  ')).toEqual({
      list: [
        { evaluateType: 'product', question: P[0], score: 5 },
        { evaluateType: 'service', question: S[2], score: 3 },
      ],
      text: '好用',
    });
    expect(feedbackBody({ 'service/0': 1 }, ' \n ')).toEqual({
      list: [{ evaluateType: 'service', question: S[0], score: 1 }],
    });
  });
});

describe('FeedbackDrawer', () => {
  it('shows both questionnaires with the five labelled ratings', async () => {
    serve();
    const user = userEvent.setup();
    renderDrawer();
    expect(await screen.findByText('产品问卷')).toBeTruthy();
    expect(screen.getByText('服务问卷')).toBeTruthy();
    for (const q of [...P, ...S]) expect(screen.getByText(q, { exact: false })).toBeTruthy();
    await rate(user, 'feedback-rate-product-0', 5);
    // the chosen rating's label beside the stars
    expect(screen.getAllByText('非常完美').length).toBeGreaterThan(0);
    await rate(user, 'feedback-rate-product-1', 1);
    expect(screen.getAllByText('不满意').length).toBeGreaterThan(0);
  });

  it('submits the ratings and the text, thanks the user and closes 800 ms later', async () => {
    let answeredAt = 0;
    const server = serve(() => {
      answeredAt = Date.now();
      return { data: { id: '00000000-0000-4000-8000-000000000001' }, message: FEEDBACK_MESSAGES.thanks };
    });
    const user = userEvent.setup();
    let closedAt = 0;
    const onClose = renderDrawer(
      vi.fn(() => {
        closedAt = Date.now();
      }),
    );
    await rate(user, 'feedback-rate-product-0', 4);
    await rate(user, 'feedback-rate-service-1', 2);
    await user.type(screen.getByTestId('feedback-text'), '希望增加短信提醒');
    await user.click(screen.getByTestId('feedback-submit'));
    expect(await screen.findByText(FEEDBACK_MESSAGES.thanks)).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(790);
    const calls = server.callsTo(ADD);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]!.body))).toEqual({
      list: [
        { evaluateType: 'product', question: P[0], score: 4 },
        { evaluateType: 'service', question: S[1], score: 2 },
      ],
      text: '希望增加短信提醒',
    });
  });

  it('leaves the text out when it is blank', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderDrawer();
    await rate(user, 'feedback-rate-service-0', 3);
    await user.type(screen.getByTestId('feedback-text'), '   ');
    await user.click(screen.getByTestId('feedback-submit'));
    await waitFor(() => expect(server.callsTo(ADD)).toHaveLength(1));
    expect(JSON.parse(String(server.callsTo(ADD)[0]!.body))).toEqual({
      list: [{ evaluateType: 'service', question: S[0], score: 3 }],
    });
  });

  it('asks for a rating before sending anything', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderDrawer();
    await user.click(await screen.findByTestId('feedback-submit'));
    expect(await screen.findByText(FEEDBACK_MESSAGES.nothingRated)).toBeTruthy();
    expect(server.callsTo(ADD)).toHaveLength(0);
  });

  it('a refusal shows in the global prompt and keeps the drawer open', async () => {
    vi.spyOn(browser, 'pathname').mockReturnValue('/system/pageConfig');
    serve(() => ({ status: 400, message: FEEDBACK_MESSAGES.scoreRange }));
    const user = userEvent.setup();
    const onClose = renderDrawer();
    await rate(user, 'feedback-rate-product-0', 4);
    await user.click(screen.getByTestId('feedback-submit'));
    await waitFor(() => expect(currentPrompt()?.message).toBe(FEEDBACK_MESSAGES.scoreRange));
    await new Promise((r) => setTimeout(r, 900));
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the header', () => {
  function shell(loginRoleType: 'M' | 'U') {
    const roles = loginRoleType === 'M' ? ['admin'] : ['user'];
    const me = { ...userInfo, loginRoleType };
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-header');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(me));
    sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
    const server = createFakeServer({
      'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
      'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: me, roles } }),
      'POST /ks/authority/manager/system-list': () => ({ data: systems }),
      'GET /ks/common/weather': () => ({ data: { configured: false, message: '天气服务未配置' } }),
    });
    configureRequest({ transport: server.transport });
  }

  it('gives ordinary users the 反馈 button, which opens the drawer', async () => {
    shell('U');
    const user = userEvent.setup();
    renderRoutes(routes, '/system/pageConfig');
    await user.click(await screen.findByTestId('feedback-button', {}, { timeout: 20_000 }));
    expect(await screen.findByText('意见反馈', { selector: '.ant-drawer-title' })).toBeTruthy();
    expect(screen.getByTestId('weather-widget')).toBeTruthy();
  }, 60_000);

  it('administrators read the results instead: no 反馈 button', async () => {
    shell('M');
    renderRoutes(routes, '/system/pageConfig');
    expect(await screen.findByTestId('weather-widget', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByTestId('feedback-button')).toBeNull();
  }, 60_000);
});
