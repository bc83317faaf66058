import type { ChatThread, FaqItem, HelpGroup } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { dispatchLive } from '../../lib/live';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler } from '../../test/server';
import { firstFile, HelpViewer } from './HelpViewer';
import { ServiceChat } from './ServiceChat';

const file = (id: string, fileName: string, kind: 'pdf' | 'video' = 'pdf'): HelpGroup => ({
  id,
  groupName: fileName,
  fileName,
  filePath: `/ks/common/common/file/download?fileId=f-${id}`,
  fileId: `f-${id}`,
  kind,
  gnCoding: null,
  children: [],
  list: [],
});
const group = (id: string, groupName: string, children: HelpGroup[]): HelpGroup => ({
  id,
  groupName,
  fileName: '',
  filePath: '',
  fileId: null,
  kind: null,
  gnCoding: null,
  children,
  list: [],
});

function serve(handlers: Record<string, Handler>) {
  const server = createFakeServer(handlers);
  configureRequest({ transport: server.transport });
  return server;
}
afterEach(() => configureRequest());

const bodyOf = (req: TransportRequest) => JSON.parse(String(req.body)) as Record<string, unknown>;

function viewer(tab: 'help' | 'faq' = 'help') {
  return renderRoutes([
    {
      path: '/',
      element: (
        <HelpViewer
          open
          place={{ systemCoding: 'XYGL', gnCoding: 'XYGL_BGSQ' }}
          title="帮助中心"
          tab={tab}
          onTab={() => undefined}
          onClose={() => undefined}
        />
      ),
    },
  ]);
}

describe('help viewer (screen 10)', () => {
  it('shows the tree and the first file as a PDF frame from its preview address', async () => {
    const server = serve({
      'POST /ks/guide/node/descritons': () => ({
        data: [group('g1', '信用变更申请', [file('a', '指南.pdf')]), group('g2', '空分组', [])],
      }),
      'GET /ks/common/common/file/preview-url': () => ({ data: { url: '/ks/x/指南.pdf?sig=1', expiresAt: '' } }),
    });
    viewer();
    const frame = await screen.findByTestId('help-pdf');
    expect(frame.getAttribute('src')).toBe('/ks/x/指南.pdf?sig=1');
    expect(bodyOf(server.callsTo('/ks/guide/node/descritons')[0]!)).toEqual({
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_BGSQ',
    });
    // a group without files: 暂无帮助！
    await userEvent.click(screen.getByText('空分组'));
    expect(await screen.findByText('暂无帮助！')).toBeTruthy();
  });

  it('says 暂无数据 when the system has no help, and shows the FAQ cards', async () => {
    const faqs: FaqItem[] = [{ id: 'q1', question: '忘记密码怎么办？', answer: '通过短信验证码重设。' }];
    serve({
      'POST /ks/guide/node/descritons': () => ({ data: [] }),
      'POST /ks/guide/node/faq-list': () => ({ data: faqs }),
    });
    const { unmount } = viewer();
    expect(await screen.findByText('暂无数据')).toBeTruthy();
    unmount();
    viewer('faq');
    const card = await screen.findByTestId('faq-card');
    expect(card.textContent).toContain('忘记密码怎么办？');
    expect(card.textContent).toContain('通过短信验证码重设。');
  });

  it('picks the first file of the first group that has one', () => {
    expect(firstFile([group('g', 'a', []), group('h', 'b', [file('x', 'x.pdf')])])?.id).toBe('x');
    expect(firstFile([group('g', 'a', [])])).toBeNull();
  });
});

function chat(agent = false) {
  return renderRoutes([
    {
      path: '/',
      element: (
        <ServiceChat open onClose={() => undefined} systemCoding="XYGL" onOpenHelp={() => undefined} agent={agent} />
      ),
    },
  ]);
}

describe('customer service (screen 23)', () => {
  it('the robot shows the nearest questions, and offers 转人工 when it finds none', async () => {
    const server = serve({
      'POST /ks/service/v1/robot/ask': (req) =>
        bodyOf(req).question === '无关'
          ? { data: { matches: [] } }
          : {
              data: {
                matches: [
                  {
                    id: '1',
                    question: '信用变更怎么申请？',
                    answer: '进入信用变更申请…',
                    systemCoding: 'XYGL',
                    gnCoding: null,
                    score: 0.6,
                  },
                ],
              },
            },
    });
    chat();
    await userEvent.type(screen.getByTestId('chat-input'), '怎么申请信用变更');
    await userEvent.click(screen.getByTestId('robot-send'));
    const match = await screen.findByTestId('robot-match');
    expect(match.textContent).toContain('信用变更怎么申请？');
    expect(bodyOf(server.callsTo('/ks/service/v1/robot/ask')[0]!)).toEqual({
      question: '怎么申请信用变更',
      systemCoding: 'XYGL',
    });
    await userEvent.type(screen.getByTestId('chat-input'), '无关');
    await userEvent.click(screen.getByTestId('robot-send'));
    expect(await screen.findByText(/没有找到相关问题/)).toBeTruthy();
  });

  it('human mode shows the conversation and re-reads it when a live chat event arrives', async () => {
    let thread: ChatThread = {
      conversation: null,
      messages: [],
    };
    const conv = {
      id: 'c1',
      userId: 'u1',
      userName: '张建国',
      enterpriseName: null,
      status: 'open' as const,
      agentUnread: 0,
      userUnread: 0,
      lastMessage: '',
      lastMessageAt: '2026-11-26T02:00:00.000Z',
      createdAt: '2026-11-26T02:00:00.000Z',
    };
    const server = serve({
      'GET /ks/service/v1/chat/mine': () => ({ data: thread }),
      'POST /ks/service/v1/chat/send': (req) => {
        const text = String(bodyOf(req).text);
        const m = { id: 'm1', sender: 'user' as const, senderName: '张建国', body: text, createdAt: conv.createdAt };
        thread = { conversation: conv, messages: [m] };
        return { data: m };
      },
    });
    chat();
    await userEvent.click(screen.getByText('人工'));
    await userEvent.type(screen.getByTestId('chat-input'), '你好');
    await userEvent.click(screen.getByTestId('human-send'));
    expect((await screen.findByTestId('chat-mine')).textContent).toContain('你好');
    // an agent's reply: the server says so live, the panel re-reads
    thread = {
      conversation: conv,
      messages: [
        ...thread.messages,
        { id: 'm2', sender: 'agent', senderName: '平台管理员', body: '您好 &lt;b&gt;', createdAt: conv.createdAt },
      ],
    };
    const before = server.callsTo('/ks/service/v1/chat/mine').length;
    act(() => dispatchLive('chat', { conversationId: 'c1' }));
    const reply = await screen.findByTestId('chat-agent');
    expect(reply.textContent).toContain('您好 <b>');
    expect(within(reply).queryByRole('strong')).toBeNull();
    await waitFor(() => expect(server.callsTo('/ks/service/v1/chat/mine').length).toBeGreaterThan(before));
  });
});
