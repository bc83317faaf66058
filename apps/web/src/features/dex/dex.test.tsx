import type { DexPushDetail, DexPushRow } from '@ks/contracts';
import { DEX_MSG } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));

const push = (over: Partial<DexPushRow> = {}): DexPushRow => ({
  id: uuid(1),
  businessKey: `notice:${uuid(9)}`,
  kind: 'notice',
  title: '太原市滨河东路改造工程招标公告',
  status: 'failed',
  attempts: 5,
  lastStatus: 500,
  lastError: '上级平台返回 HTTP 500',
  nextAttemptAt: null,
  sentAt: null,
  createdAt: '2026-11-28T02:00:00.000Z',
  updatedAt: '2026-11-28T02:05:00.000Z',
  ...over,
});

const detail = (p: DexPushRow): DexPushDetail => ({
  push: p,
  attempts: [
    {
      attempt: 1,
      startedAt: '2026-11-28T02:00:01.000Z',
      httpStatus: 500,
      durationMs: 35,
      ok: false,
      error: '上级平台返回 HTTP 500',
    },
    {
      attempt: 2,
      startedAt: '2026-11-28T02:00:11.000Z',
      httpStatus: null,
      durationMs: 10_000,
      ok: false,
      error: '上级平台 10000 毫秒内未应答',
    },
  ],
});

describe('/dexRecords/txPushLogs', () => {
  it('lists pushes, shows every attempt, and re-sends a failed push after confirmation', async () => {
    let row = push();
    const lists: unknown[] = [];
    const resends: unknown[] = [];
    setupShell({
      handlers: {
        'POST /ks/sync/v1/push/list': (req) => {
          lists.push(json(req));
          return { data: { records: [row], total: 1, configured: true, maxAttempts: 5 } };
        },
        'POST /ks/sync/v1/push/detail': () => ({ data: detail(row) }),
        'POST /ks/sync/v1/push/resend': (req) => {
          resends.push(json(req));
          row = push({ status: 'queued', attempts: 0, nextAttemptAt: '2026-11-28T02:06:00.000Z' });
          return { data: detail(row), message: DEX_MSG.resent };
        },
      },
    });
    renderRoutes(routes, '/dexRecords/txPushLogs');
    const status = await screen.findByTestId(`dex-status-${row.businessKey}`, {}, SLOW);
    expect(status.textContent).toBe('推送失败');
    expect(screen.queryByTestId('dex-unconfigured')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByTestId(`dex-attempts-${row.businessKey}`));
    const attempts = await screen.findByTestId('dex-attempts');
    await waitFor(() => expect(within(attempts).getByText('无应答')).toBeTruthy());
    expect(within(attempts).getByText('上级平台返回 HTTP 500')).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId(`dex-resend-${row.businessKey}`));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(resends).toEqual([{ id: uuid(1) }]));
    await waitFor(() => expect(screen.getByTestId(`dex-status-${row.businessKey}`).textContent).toBe('排队中'));
    expect(screen.queryByTestId(`dex-resend-${row.businessKey}`)).toBeNull();
    expect(lists[0]).toMatchObject({ pageNum: 1 });
  });

  it('says plainly that no upstream is configured, and hides 重新推送 from a developer', async () => {
    const row = push();
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/sync/v1/push/list': () => ({ data: { records: [row], total: 1, configured: false, maxAttempts: 5 } }),
      },
    });
    renderRoutes(routes, '/dexRecords/txPushLogs');
    const alert = await screen.findByTestId('dex-unconfigured', {}, SLOW);
    expect(alert.textContent).toContain('未配置上级平台');
    expect(screen.queryByTestId(`dex-resend-${row.businessKey}`)).toBeNull();
  });
});
