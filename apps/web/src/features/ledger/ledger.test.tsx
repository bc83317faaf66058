import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { createPortalServer } from '../../test/portal';
import { renderRoutes } from '../../test/render';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

const SLOW = { timeout: 20_000 };
const HEAD = 'a3f1'.repeat(16);
const intact = {
  intact: true,
  checked: 42,
  headSeq: 42,
  headHash: HEAD,
  anchors: 2,
  broken: null,
  checkedAt: '2026-11-27T02:00:00.000Z',
};

describe('/bid/ledger (public)', () => {
  it('shows an intact chain with its head and the published anchors, asked without a token', async () => {
    const server = createPortalServer({
      'GET /ks/bid/v1/ledger/verify': () => ({ data: intact }),
      'GET /ks/bid/v1/ledger/anchors': () => ({
        data: {
          records: [
            { day: '2026-11-26', seq: 40, hash: 'b'.repeat(64), publishedAt: '2026-11-26T16:00:05.000Z' },
            { day: '2026-11-25', seq: 0, hash: '0'.repeat(64), publishedAt: '2026-11-25T16:00:05.000Z' },
          ],
        },
      }),
    });
    configureRequest({ transport: server.transport });
    renderRoutes(routes, '/bid/ledger', { antd: false });
    expect((await screen.findByTestId('ledger-verdict', {}, SLOW)).textContent).toBe('✓ 日志完整，未发现篡改');
    expect(screen.getByTestId('ledger-checked').textContent).toBe('42 条');
    expect(screen.getByTestId('ledger-head-hash').textContent).toBe(HEAD);
    const anchors = await screen.findByTestId('ledger-anchors');
    await waitFor(() => expect(anchors.textContent).toContain('第 40 条'));
    expect(anchors.textContent).toContain('（尚无记录）');
    const call = server.callsTo('/ks/bid/v1/ledger/verify')[0]!;
    expect(call.headers?.Authorization ?? call.headers?.authorization).toBeUndefined();
  }, 60_000);

  it('names the entry that broke, and checks again on 重新校验', async () => {
    let n = 0;
    const server = createPortalServer({
      'GET /ks/bid/v1/ledger/verify': () => {
        n++;
        return {
          data: {
            ...intact,
            intact: false,
            checked: 6,
            broken: { seq: 7, reason: 'hash', message: '第 7 条记录的内容与其哈希不符（记录被修改）' },
          },
        };
      },
      'GET /ks/bid/v1/ledger/anchors': () => ({ data: { records: [] } }),
    });
    configureRequest({ transport: server.transport });
    const user = userEvent.setup();
    renderRoutes(routes, '/bid/ledger', { antd: false });
    expect((await screen.findByTestId('ledger-verdict', {}, SLOW)).textContent).toBe(
      '✗ 校验失败：第 7 条记录的内容与其哈希不符（记录被修改）',
    );
    expect(screen.getByTestId('ledger-anchors').textContent).toContain('尚未公布锚点');
    await user.click(screen.getByTestId('ledger-recheck'));
    await waitFor(() => expect(n).toBe(2));
  }, 60_000);
});
