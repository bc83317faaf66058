import type { MessageItem } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { dispatchLive } from '../../lib/live';
import { renderRoutes } from '../../test/render';
import { createFakeServer } from '../../test/server';
import { bellCount, MessageBell } from './MessageBell';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
const todo = (n: number, systemCoding = 'XYGL') => ({
  id: uuid(n),
  gnName: '从业人员登记',
  gnCoding: 'XYGL_CYRY',
  systemCoding,
  recordId: uuid(1000 + n),
  level: 1,
  sbTime: '2026-11-20T02:30:00.000Z',
  businessName: `事项${n}`,
  userName: `提交人${n}`,
  path: `/dynamicPage/dynamicDetail?gnCoding=XYGL_CYRY&systemCoding=XYGL&id=${uuid(1000 + n)}`,
});
const message = (n: number, over: Partial<MessageItem> = {}): MessageItem => ({
  id: uuid(n),
  kind: 'admin',
  title: `消息${n}`,
  body: '<p>正文<script>alert(1)</script></p>',
  reason: null,
  senderName: '管理员',
  createdAt: '2026-11-20T02:30:00.000Z',
  readAt: null,
  path: null,
  ...over,
});
const body = (r: TransportRequest) => JSON.parse(String(r.body ?? '{}'));

function setup(o: { todos?: number; unread?: number; todoTotal?: number; messages?: MessageItem[] } = {}) {
  const state = {
    counts: { todos: o.todos ?? 0, unread: o.unread ?? 0 },
    todoTotal: o.todoTotal ?? 0,
    messages: o.messages ?? [],
  };
  const server = createFakeServer({
    'GET /ks/message/v1/counts': () => ({ data: state.counts }),
    'GET /ks/notification/v1/audit/system-list': () => ({
      data: state.todoTotal
        ? [
            { systemCoding: 'XYGL', systemName: '信用管理系统', todoCount: state.todoTotal },
            { systemCoding: 'ZBTB', systemName: '招投标系统', todoCount: 3 },
          ]
        : [],
    }),
    'POST /ks/notification/v1/audit/todo-list': (r) => {
      const { curPage, pageSize } = body(r);
      const from = (curPage - 1) * pageSize;
      const n = Math.max(0, Math.min(pageSize, state.todoTotal - from));
      return { data: { records: Array.from({ length: n }, (_, i) => todo(from + i + 1)), total: state.todoTotal } };
    },
    'POST /ks/message/v1/list': () => ({
      data: {
        records: state.messages,
        total: state.messages.length,
        unread: state.messages.filter((m) => !m.readAt).length,
      },
    }),
    'POST /ks/message/v1/audit/rejected-msg': () => ({
      data: {
        records: [
          {
            id: uuid(77),
            title: '从业人员登记被驳回',
            reason: '证件不清晰',
            gnCoding: 'XYGL_CYRY',
            recordId: uuid(78),
            createdAt: '2026-11-20T02:30:00.000Z',
            readAt: null,
            path: '/dynamicPage/dynamicDetail?gnCoding=XYGL_CYRY&systemCoding=XYGL&id=x',
          },
        ],
        total: 1,
      },
    }),
    'POST /ks/message/v1/read': (r) => {
      const b = body(r);
      state.messages = state.messages.map((m) =>
        b.all || b.ids?.includes(m.id) ? { ...m, readAt: '2026-11-21T00:00:00.000Z' } : m,
      );
      state.counts = { ...state.counts, unread: state.messages.filter((m) => !m.readAt).length };
      return { data: { updated: 1, unread: state.counts.unread } };
    },
  });
  configureRequest({ transport: server.transport });
  return { server, state };
}

function Where() {
  const l = useLocation();
  return <div data-testid="where">{`${l.pathname}${l.search}`}</div>;
}
const render = (isAdmin = false) =>
  renderRoutes(
    [
      {
        path: '*',
        element: (
          <>
            <MessageBell color="#fff" isAdmin={isAdmin} />
            <Where />
          </>
        ),
      },
    ],
    '/system/pageConfig',
  );
const badgeText = (testId: string) =>
  screen.getByTestId(testId).querySelector('.ant-scroll-number')?.getAttribute('title');

describe('the bell (screen 17, §9)', () => {
  it('counts to-dos and unread messages together, capped at 999', async () => {
    expect(bellCount({ todos: 3, unread: 4 })).toBe(7);
    setup({ todos: 990, unread: 20 });
    render();
    await waitFor(() => expect(badgeText('bell-count')).toBe('1010'));
    expect(screen.getByTestId('bell-count').textContent).toContain('999+');
    // only administrators see the unread count beside it
    expect(screen.queryByTestId('bell-unread')).toBeNull();
  });

  it('administrators see the unread count too', async () => {
    setup({ todos: 1, unread: 5 });
    render(true);
    expect((await screen.findByTestId('bell-unread')).textContent).toBe('未读 5');
  });

  it('re-reads its counts on a live event without a reload', async () => {
    const { state } = setup({ todos: 1, unread: 0 });
    render();
    await waitFor(() => expect(badgeText('bell-count')).toBe('1'));
    state.counts = { todos: 2, unread: 1 };
    act(() => dispatchLive('todos', { systemCoding: 'XYGL', gnCoding: 'XYGL_CYRY' }));
    await waitFor(() => expect(badgeText('bell-count')).toBe('3'));
    state.counts = { todos: 2, unread: 4 };
    act(() => dispatchLive('message', {}));
    await waitFor(() => expect(badgeText('bell-count')).toBe('6'));
    state.counts = { todos: 0, unread: 0 };
    act(() => dispatchLive('resync', {}));
    await waitFor(() => expect(screen.getByTestId('bell-count').querySelector('.ant-scroll-number')).toBeNull());
  });
});

describe('the message centre: 待办', () => {
  it('shows systems with badges capped at 99, 6 to-dos a page, at most 5 pager buttons', async () => {
    const user = userEvent.setup();
    const { server } = setup({ todos: 150, todoTotal: 150 });
    render();
    await user.click(screen.getByTestId('message-bell'));
    const pane = await screen.findByTestId('todo-pane');
    await waitFor(() => expect(within(pane).getAllByTestId('todo-item')).toHaveLength(6));
    expect(within(screen.getByTestId('todo-system-XYGL-badge')).getByText('99+')).toBeTruthy();
    expect(screen.getByTestId('todo-system-ZBTB-badge').textContent).toContain('3');
    const items = () => screen.getByTestId('todo-pager').querySelectorAll('.ant-pagination-item');
    expect(items().length).toBeLessThanOrEqual(5);
    // a page in the middle still shows at most 5 page buttons
    for (const n of ['3', '4', '5']) await user.click(within(screen.getByTestId('todo-pager')).getByTitle(n));
    await waitFor(() => expect(within(pane).getAllByTestId('todo-item')[0]!.textContent).toContain('事项25'));
    expect(items().length).toBe(5);
    const last = server.callsTo('/ks/notification/v1/audit/todo-list').at(-1)!;
    expect(body(last)).toMatchObject({ curPage: 5, pageSize: 6 });
    // each item: business name, node, submitter, time
    const first = within(pane).getAllByTestId('todo-item')[0]!;
    expect(first.textContent).toContain('从业人员登记');
    expect(first.textContent).toContain('提交人25');
    expect(first.textContent).toMatch(/2026-11-20 \d\d:30/);
    // choosing a system asks for its to-dos
    await user.click(screen.getByTestId('todo-system-ZBTB'));
    await waitFor(() =>
      expect(body(server.callsTo('/ks/notification/v1/audit/todo-list').at(-1)!)).toMatchObject({
        systemCoding: 'ZBTB',
        curPage: 1,
      }),
    );
  });

  it('opens a to-do in its node and closes the drawer', async () => {
    const user = userEvent.setup();
    setup({ todos: 2, todoTotal: 2 });
    render();
    await user.click(screen.getByTestId('message-bell'));
    const items = await screen.findAllByTestId('todo-item');
    await user.click(items[1]!);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(todo(2).path));
  });

  it('says 暂无数据 when there are none', async () => {
    const user = userEvent.setup();
    setup();
    render();
    await user.click(screen.getByTestId('message-bell'));
    expect((await screen.findByTestId('todo-empty')).textContent).toContain('暂无数据');
    await user.click(screen.getByTestId('tab-messages'));
    expect((await screen.findByTestId('message-empty')).textContent).toContain('暂无数据');
  });
});

describe('the message centre: 消息', () => {
  it('marks unread ones, opens a message (read, sanitised body) and marks all read', async () => {
    const user = userEvent.setup();
    const { server } = setup({
      unread: 2,
      messages: [message(1), message(2, { readAt: '2026-11-20T03:00:00.000Z' }), message(3)],
    });
    render();
    await user.click(screen.getByTestId('message-bell'));
    await user.click(screen.getByTestId('tab-messages'));
    const items = await screen.findAllByTestId('message-item');
    expect(items.map((i) => i.getAttribute('data-unread'))).toEqual(['true', 'false', 'true']);
    await user.click(items[0]!);
    const modal = await screen.findByTestId('message-body');
    expect(modal.innerHTML).toContain('正文');
    expect(modal.innerHTML).not.toContain('script');
    await waitFor(() => expect(server.callsTo('/ks/message/v1/read')).toHaveLength(1));
    expect(body(server.callsTo('/ks/message/v1/read')[0]!)).toEqual({ ids: [uuid(1)] });
    await user.click(screen.getByTestId('message-modal-close'));
    await waitFor(() =>
      expect(screen.getAllByTestId('message-item').map((i) => i.getAttribute('data-unread'))).toEqual([
        'false',
        'false',
        'true',
      ]),
    );
    await user.click(screen.getByTestId('message-read-all'));
    await waitFor(() => expect(body(server.callsTo('/ks/message/v1/read').at(-1)!)).toEqual({ all: true }));
    await waitFor(() =>
      expect(screen.getAllByTestId('message-item').every((i) => i.getAttribute('data-unread') === 'false')).toBe(true),
    );
  });

  it('a message about a record opens it; 驳回 lists rejections with their reasons', async () => {
    const user = userEvent.setup();
    const path = '/dynamicPage/dynamicDetail?gnCoding=XYGL_CYRY&systemCoding=XYGL&id=r1';
    setup({ unread: 1, messages: [message(5, { kind: 'result', title: '审核通过', path })] });
    render();
    await user.click(screen.getByTestId('message-bell'));
    await user.click(screen.getByTestId('tab-messages'));
    await user.click(screen.getByTestId('message-view-rejected'));
    const item = await screen.findByText('从业人员登记被驳回');
    expect(screen.getByTestId('message-reason').textContent).toBe('驳回原因：证件不清晰');
    expect(item).toBeTruthy();
    await user.click(screen.getByTestId('message-view-all'));
    await user.click(await screen.findByText('审核通过'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(path));
  });
});
