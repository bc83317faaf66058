import { FEEDBACK_QUESTIONNAIRES, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo, systems, userInfo } from '../../test/server';

const P = FEEDBACK_QUESTIONNAIRES.product.questions;
const S = FEEDBACK_QUESTIONNAIRES.service.questions;

const stat = (evaluateType: string, question: string, distribution: number[]) => {
  const count = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
  return { evaluateType, question, count, average: count ? Math.round((sum / count) * 100) / 100 : null, distribution };
};

function setup(loginRoleType: 'M' | 'U') {
  const roles = loginRoleType === 'M' ? ['admin'] : ['user'];
  const me = { ...userInfo, loginRoleType };
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-fb-admin');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(me));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
  vi.spyOn(browser, 'pathname').mockReturnValue('/system/feedback');
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: me, roles } }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'GET /ks/feedback/admin/summary': () => ({
      data: {
        submissions: 3,
        withText: 1,
        questions: [
          stat('product', P[0]!, [0, 1, 0, 0, 1]),
          ...P.slice(1).map((q) => stat('product', q, [0, 0, 0, 0, 0])),
          ...S.map((q, i) => stat('service', q, i === 0 ? [0, 0, 1, 0, 1] : [0, 0, 0, 0, 0])),
        ],
      },
    }),
    'GET /ks/feedback/admin/texts': () => ({
      data: {
        total: 1,
        records: [
          {
            id: '00000000-0000-4000-8000-000000000009',
            text: '希望增加招标公告订阅功能',
            userName: '张建国',
            account: 'user1',
            enterpriseName: '示例建设工程有限公司',
            average: 4,
            createdAt: '2031-03-01T02:00:00.000Z',
          },
        ],
      },
    }),
  });
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('FeedbackAdminPage', () => {
  it('shows per question the average and the distribution, and the texts with user and time', async () => {
    setup('M');
    renderRoutes(routes, '/system/feedback');
    const product = await screen.findByTestId('feedback-stats-product', {}, { timeout: 30_000 });
    await waitFor(() => expect(within(product).getAllByTestId('feedback-average')[0]!.textContent).toBe('3.50'));
    // one chart per question, its bars labelled 不满意 … 非常完美
    expect(within(product).getAllByTestId('feedback-distribution')).toHaveLength(P.length);
    expect(within(product).getAllByText('非常完美').length).toBeGreaterThan(0);
    const service = screen.getByTestId('feedback-stats-service');
    expect(within(service).getAllByTestId('feedback-average')[0]!.textContent).toBe('4.00');
    const texts = await screen.findByTestId('feedback-texts');
    await waitFor(() => expect(texts.textContent).toContain('希望增加招标公告订阅功能'));
    expect(texts.textContent).toContain('张建国');
    expect(texts.textContent).toContain('2031-03-01 10:00');
  }, 60_000);

  it('is an administrators’ page', async () => {
    const server = setup('U');
    renderRoutes(routes, '/system/feedback');
    expect(await screen.findByText(/仅管理员可访问/)).toBeTruthy();
    expect(server.callsTo('/ks/feedback/admin/summary')).toHaveLength(0);
  });
});
