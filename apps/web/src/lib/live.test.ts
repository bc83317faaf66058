import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dispatchLive, startLive, useLiveEvent } from './live';
import { setTokens } from './session';

/** A fetch whose answers are streams the test writes into. */
function fakeServer() {
  const calls: { headers: Record<string, string>; push: (text: string) => void; end: () => void }[] = [];
  const statuses: number[] = [];
  const fetchFn = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const status = statuses.shift() ?? 200;
    if (status !== 200) return new Response('{}', { status });
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        ctl = c;
      },
    });
    const enc = new TextEncoder();
    calls.push({
      headers: init?.headers as Record<string, string>,
      push: (text) => ctl.enqueue(enc.encode(text)),
      end: () => ctl.close(),
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  return { fetchFn: fetchFn as unknown as typeof fetch, calls, statuses };
}

const tick = (ms = 0) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('live channel (web)', () => {
  let stop: (() => void) | null = null;
  afterEach(() => stop?.());

  it('hands each event to the listeners of its type, once, with the token in a header', async () => {
    const srv = fakeServer();
    const todos = vi.fn();
    const notices = vi.fn();
    renderHook(() => {
      useLiveEvent('todos', todos);
      useLiveEvent('notice', notices);
    });
    stop = startLive({ token: () => 'tok', fetch: srv.fetchFn });
    await tick();
    expect(srv.calls[0]!.headers.Authorization).toBe('Bearer tok');
    srv.calls[0]!.push('retry: 3000\n\nid: 7\nevent: todos\ndata: {"gnCoding":"X"}\n\n: ping\n\n');
    srv.calls[0]!.push('id: 7\nevent: todos\ndata: {"gnCoding":"X"}\n\nid: 8\nevent: notice\ndata: {"id":"n"}\n\n');
    srv.calls[0]!.push('id: 9\nevent: unknown-type\ndata: {}\n\n');
    await tick();
    expect(todos).toHaveBeenCalledTimes(1);
    expect(todos).toHaveBeenCalledWith({ gnCoding: 'X' });
    expect(notices).toHaveBeenCalledWith({ id: 'n' });
  });

  it('reconnects after a loss with the last event id, and the resync re-reads', async () => {
    const srv = fakeServer();
    const resync = vi.fn();
    renderHook(() => useLiveEvent('resync', resync));
    stop = startLive({ token: () => 'tok', fetch: srv.fetchFn, retryMs: 5 });
    await tick();
    srv.calls[0]!.push('id: 41\nevent: message\ndata: {}\n\n');
    await tick();
    srv.calls[0]!.end();
    await tick(30);
    expect(srv.calls).toHaveLength(2);
    expect(srv.calls[1]!.headers['Last-Event-ID']).toBe('41');
    srv.calls[1]!.push('event: resync\ndata: {}\n\n');
    await tick();
    expect(resync).toHaveBeenCalledTimes(1);
  });

  it('stops for good when the session ends (closed event, or 401)', async () => {
    const srv = fakeServer();
    const states: string[] = [];
    stop = startLive({ token: () => 'tok', fetch: srv.fetchFn, retryMs: 5, onState: (s) => states.push(s) });
    await tick();
    srv.calls[0]!.push('event: closed\ndata: {}\n\n');
    srv.calls[0]!.end();
    await tick(40);
    expect(srv.calls).toHaveLength(1);
    expect(states.at(-1)).toBe('stopped');

    const srv2 = fakeServer();
    srv2.statuses.push(401);
    const states2: string[] = [];
    const stop2 = startLive({ token: () => 'tok', fetch: srv2.fetchFn, retryMs: 5, onState: (s) => states2.push(s) });
    await tick(40);
    expect(srv2.fetchFn).toHaveBeenCalledTimes(1);
    expect(states2.at(-1)).toBe('stopped');
    stop2();
  });

  it('reopens with the new token when a refresh token renewed the ended session (issue 15)', async () => {
    const srv = fakeServer();
    let current = 'tok-1';
    stop = startLive({ token: () => current, fetch: srv.fetchFn, retryMs: 5 });
    await tick();
    srv.calls[0]!.push('event: closed\ndata: {}\n\n');
    srv.calls[0]!.end();
    await tick(40);
    expect(srv.calls).toHaveLength(1);
    current = 'tok-2';
    act(() => setTokens({ token: 'tok-2', refreshToken: 'r-2' }));
    await tick(10);
    expect(srv.calls).toHaveLength(2);
    expect(srv.calls[1]!.headers.Authorization).toBe('Bearer tok-2');
  });

  it('retries after a server error with a growing delay', async () => {
    const srv = fakeServer();
    srv.statuses.push(502, 502);
    stop = startLive({ token: () => 'tok', fetch: srv.fetchFn, retryMs: 5 });
    await tick(60);
    expect(srv.fetchFn).toHaveBeenCalledTimes(3);
    expect(srv.calls).toHaveLength(1);
  });

  it('a listener that throws does not keep the others from hearing', () => {
    const good = vi.fn();
    renderHook(() => {
      useLiveEvent('chat', () => {
        throw new Error('boom');
      });
      useLiveEvent('chat', good);
    });
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    dispatchLive('chat', { conversationId: 'c' });
    expect(good).toHaveBeenCalledWith({ conversationId: 'c' });
    err.mockRestore();
  });
});
