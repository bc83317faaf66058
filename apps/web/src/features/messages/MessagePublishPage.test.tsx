import type { SentMessage } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { createFakeServer } from '../../test/server';
import MessagePublishPage from './MessagePublishPage';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const sent: SentMessage = {
  id: '00000000-0000-4000-a000-000000000001',
  title: '系统维护通知',
  body: '<p>今晚维护</p>',
  senderName: '平台管理员',
  userNames: ['张建国'],
  roleNames: ['审核员'],
  recipients: 3,
  readCount: 1,
  createdAt: '2026-11-20T02:30:00.000Z',
};

describe('消息发布 (administrators)', () => {
  it('lists sent messages with read x/y and shows who read them in the receipts drawer', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /ks/message/v1/sent': () => ({ data: { records: [sent], total: 1 } }),
      'GET /ks/message/v1/receipt': () => ({
        data: [
          { userId: 'a', userName: '张建国', logValue: 'user1', readAt: '2026-11-20T03:00:00.000Z' },
          { userId: 'b', userName: '王晓燕', logValue: 'auditor', readAt: null },
          { userId: 'c', userName: '李明', logValue: 'aud2', readAt: null },
        ],
      }),
    });
    configureRequest({ transport: server.transport });
    renderRoutes([{ path: '*', element: <MessagePublishPage /> }], '/system/messagePublish');
    const row = (await screen.findByText('系统维护通知')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('sent-read').textContent).toBe('1/3');
    expect(row.textContent).toContain('审核员');
    expect(row.textContent).toContain('张建国');
    await user.click(within(row).getByTestId('sent-receipts'));
    const drawer = await screen.findByTestId('receipts-drawer');
    await waitFor(() => expect(within(drawer).getByTestId('receipt-user1').textContent).toBe('已读'));
    expect(within(drawer).getByTestId('receipt-auditor').textContent).toBe('未读');
    expect(within(drawer).getByTestId('receipts-summary').textContent).toBe('共 3 位接收人，已读 1 位，未读 2 位');
    expect(server.callsTo('/ks/message/v1/receipt')[0]!.url).toContain(`id=${sent.id}`);
  });
});
