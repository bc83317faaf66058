import type { CurrentNotice } from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { dispatchLive } from '../../lib/live';
import { renderRoutes } from '../../test/render';
import { createFakeServer, userInfo } from '../../test/server';
import { closesOnly, marqueeSeconds, noticeText, SystemNotices } from './SystemNotices';

const LIST = '/ks/notification/v1/audit/notice-list';
const READ = '/ks/notification/v1/audit/notice-read';
const DISMISS = '/ks/notification/v1/audit/notice-dismiss';

const notice = (over: Partial<CurrentNotice>): CurrentNotice => ({
  msgId: '11111111-1111-4111-8111-111111111111',
  type: 2,
  title: '关于开标大厅调整的通知',
  msg: '<p>开标大厅迁至二层</p>',
  url: null,
  urlName: null,
  show: true,
  ...over,
});

function setup(initial: CurrentNotice[]) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-user');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
  vi.spyOn(browser, 'pathname').mockReturnValue('/judge');
  const state = { list: initial };
  const bodies: { path: string; msgId: string }[] = [];
  const server = createFakeServer({
    [`GET ${LIST}`]: () => ({ data: state.list }),
    [`POST ${READ}`]: (req) => {
      const { msgId } = JSON.parse(String(req.body)) as { msgId: string };
      bodies.push({ path: READ, msgId });
      state.list = state.list.filter((n) => n.type === 1 || n.msgId !== msgId);
      return { data: null };
    },
    [`POST ${DISMISS}`]: (req) => {
      const { msgId } = JSON.parse(String(req.body)) as { msgId: string };
      bodies.push({ path: DISMISS, msgId });
      state.list = state.list.filter((n) => n.msgId !== msgId);
      return { data: null };
    },
  });
  configureRequest({ transport: server.transport });
  renderRoutes([{ path: '/', element: <SystemNotices /> }], '/');
  return { server, state, bodies };
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

describe('the modal notice (type 2)', () => {
  it('shows the title, the sanitised body and the attachment; 我知道了 reports the read, then it is gone', async () => {
    const { bodies, server } = setup([
      notice({
        msg: '<p>请及时更新<img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script><b>资质</b></p>',
        url: '/ks/common/common/file/download?fileId=abc',
        urlName: '维护方案.pdf',
      }),
    ]);
    const dialog = await screen.findByTestId('notice-modal-body');
    expect(screen.getByText('关于开标大厅调整的通知')).toBeTruthy();
    expect(dialog.innerHTML).toContain('<b>资质</b>');
    expect(dialog.innerHTML).not.toMatch(/script|onerror/);
    const link = screen.getByTestId('notice-attachment');
    expect(link.getAttribute('href')).toBe('/ks/common/common/file/download?fileId=abc');
    expect(link.textContent).toBe('维护方案.pdf');
    await userEvent.setup().click(screen.getByTestId('notice-ack'));
    await waitFor(() => expect(bodies).toEqual([{ path: READ, msgId: '11111111-1111-4111-8111-111111111111' }]));
    await waitFor(() => expect(screen.queryByTestId('notice-modal-body')).toBeNull());
    // re-read after the read: the server no longer lists it
    await waitFor(() => expect(server.callsTo(LIST).length).toBe(2));
  });

  it('only closes a msgId of -99, and shows the next one', async () => {
    const { bodies } = setup([
      notice({ msgId: '-99', title: '仅关闭' }),
      notice({ msgId: '22222222-2222-4222-8222-222222222222', title: '第二条' }),
    ]);
    await screen.findByText('仅关闭');
    await userEvent.setup().click(screen.getByTestId('notice-ack'));
    await screen.findByText('第二条');
    expect(bodies).toEqual([]);
  });

  it('does not offer an attachment link to another site', async () => {
    setup([notice({ url: 'https://evil.example/x.pdf', urlName: '附件' })]);
    await screen.findByTestId('notice-modal-body');
    expect(screen.queryByTestId('notice-attachment')).toBeNull();
  });
});

describe('the marquee bar (type 1)', () => {
  const bar = notice({
    msgId: '33333333-3333-4333-8333-333333333333',
    type: 1,
    title: '系统例行维护通知',
    msg: '<p>每周六 22:00 至次日 02:00 维护</p>',
  });

  it('scrolls the notice text with a CSS animation; × closes it for now and reports it read', async () => {
    const { bodies } = setup([bar]);
    const track = await screen.findByTestId('notice-marquee');
    expect(track.className).toContain('ks-notice-track');
    expect(track.style.animationDuration).toMatch(/^\d+s$/);
    expect(screen.getByTestId('notice-bar-item').textContent).toBe('系统例行维护通知：每周六 22:00 至次日 02:00 维护');
    await userEvent.setup().click(screen.getByTestId('notice-bar-close'));
    await waitFor(() => expect(screen.queryByTestId('notice-bar')).toBeNull());
    await waitFor(() => expect(bodies).toEqual([{ path: READ, msgId: bar.msgId }]));
  });

  it('不再显示 dismisses it on the server', async () => {
    // (a bar closed with × stays closed in this tab: another notice)
    const other = { ...bar, msgId: '55555555-5555-4555-8555-555555555555' };
    const { bodies } = setup([other]);
    await userEvent.setup().click(await screen.findByTestId('notice-bar-dismiss'));
    await waitFor(() => expect(bodies).toEqual([{ path: DISMISS, msgId: other.msgId }]));
    expect(screen.queryByTestId('notice-bar')).toBeNull();
  });
});

describe('live', () => {
  it('re-reads on the notice event and after a reconnect', async () => {
    const { server, state } = setup([]);
    await waitFor(() => expect(server.callsTo(LIST).length).toBe(1));
    state.list = [notice({ msgId: '44444444-4444-4444-8444-444444444444', title: '新发布的通知' })];
    act(() => dispatchLive('notice', { id: '44444444-4444-4444-8444-444444444444' }));
    await screen.findByText('新发布的通知');
    act(() => dispatchLive('resync', {}));
    await waitFor(() => expect(server.callsTo(LIST).length).toBe(3));
  });
});

describe('helpers', () => {
  it('reads the text of HTML, times the marquee and knows the close-only id', () => {
    expect(noticeText('<p>一</p><p>二 <b>三</b></p><script>x()</script>')).toBe('一二 三');
    expect(marqueeSeconds('短')).toBe(15);
    expect(marqueeSeconds('长'.repeat(400))).toBe(60);
    expect(closesOnly(-99)).toBe(true);
    expect(closesOnly('-99')).toBe(true);
    expect(closesOnly('11111111-1111-4111-8111-111111111111')).toBe(false);
  });
});
