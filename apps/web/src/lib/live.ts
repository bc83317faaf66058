import { LIVE_EVENT_TYPES, LIVE_STREAM_PATH, type LiveEventType } from '@ks/contracts';
import { createParser } from 'eventsource-parser';
import { useEffect, useRef } from 'react';
import { getToken, onTokenRefreshed } from './session';

/**
 * The shell's one live channel (issue 14) on the web side: the signed-in layout opens one stream per tab
 * (`startLive`), and any component listens for the events it cares about with `useLiveEvent`. The stream is read
 * with fetch (so the bearer token goes in a header, never in a URL) and parsed with eventsource-parser. It
 * reconnects after a loss (1 s, 2 s, 4 s … 30 s) sending the last event id it saw; after every reconnect listeners of
 * 'resync' re-read what they show, since the gap may have held more than the server could replay. A stream the server
 * ends because the session ended (event `closed`, or 401/403 on connecting) is not reopened — unless a refresh token
 * renewed the session (issue 15): then it reopens with the new token.
 */
type Handler = (data: Record<string, unknown>) => void;
const handlers = new Map<LiveEventType, Set<Handler>>();
const KNOWN = new Set<string>(LIVE_EVENT_TYPES);

/** Hand an event to its listeners (the stream reader calls it; tests may too). */
export function dispatchLive(type: LiveEventType, data: Record<string, unknown>): void {
  for (const fn of handlers.get(type) ?? []) {
    try {
      fn(data);
    } catch (e) {
      console.error(e);
    }
  }
}

/** Listen for one type of live event while the component is mounted. */
export function useLiveEvent(type: LiveEventType, handler: Handler): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const fn: Handler = (d) => ref.current(d);
    const set = handlers.get(type) ?? new Set<Handler>();
    handlers.set(type, set);
    set.add(fn);
    return () => {
      set.delete(fn);
    };
  }, [type]);
}

export type LiveState = 'connecting' | 'open' | 'retrying' | 'stopped';

export interface LiveOptions {
  /** the session's token (default: the stored one) */
  token?: () => string | null;
  fetch?: typeof fetch;
  /** called when the state of the stream changes (the header shows a quiet hint while retrying) */
  onState?: (s: LiveState) => void;
  /** the first delay before reconnecting, ms (doubles up to 30 s) */
  retryMs?: number;
}

/** Open the tab's stream; returns a function that closes it. */
export function startLive(opts: LiveOptions = {}): () => void {
  const token = opts.token ?? getToken;
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const baseRetry = opts.retryMs ?? 1000;
  let stopped = false;
  let ctl: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastId: string | null = null;
  let attempts = 0;
  let everOpen = false;
  /** ids already handed out: a replay may repeat what the live path also delivered */
  const seen = new Set<string>();
  const setState = (s: LiveState) => opts.onState?.(s);

  /** set while the stream waits, ended with its session, for a refreshed token */
  let parked: string | null = null;
  let unsubscribe: (() => void) | null = null;

  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    ctl?.abort();
    unsubscribe?.();
    unsubscribe = null;
    setState('stopped');
  };

  /** The session of token `used` is over: reopen at once if the token was refreshed meanwhile, else wait for that. */
  const sessionEnded = (used: string) => {
    const now = token();
    if (now && now !== used) {
      attempts = 0;
      void connect();
      return;
    }
    parked = used;
    if (timer) clearTimeout(timer);
    setState('stopped');
    unsubscribe ??= onTokenRefreshed(() => {
      if (stopped || parked === null) return;
      parked = null;
      attempts = 0;
      void connect();
    });
  };

  const retry = () => {
    if (stopped) return;
    setState('retrying');
    const delay = Math.min(30_000, baseRetry * 2 ** Math.min(attempts, 5));
    attempts++;
    timer = setTimeout(connect, delay);
  };

  const connect = async () => {
    if (stopped) return;
    const t = token();
    if (!t) {
      stop();
      return;
    }
    setState('connecting');
    ctl = new AbortController();
    let ended = false;
    try {
      const res = await doFetch(LIVE_STREAM_PATH, {
        headers: {
          Accept: 'text/event-stream',
          Authorization: `Bearer ${t}`,
          ...(lastId ? { 'Last-Event-ID': lastId } : {}),
        },
        cache: 'no-store',
        signal: ctl.signal,
      });
      if (res.status === 401 || res.status === 403) {
        // the session is over (or may not stream): the next API call tells the user (or renews it)
        sessionEnded(t);
        return;
      }
      if (!res.ok || !res.body) throw new Error(`live stream: HTTP ${res.status}`);
      const reconnected = everOpen;
      everOpen = true;
      attempts = 0;
      setState('open');
      // whatever happened while away: re-read (the server also says so after a replay)
      if (reconnected && !lastId) dispatchLive('resync', {});
      const parser = createParser({
        onEvent: (e) => {
          if (e.event === 'closed') {
            ended = true;
            return;
          }
          if (e.id) {
            if (seen.has(e.id)) return;
            seen.add(e.id);
            if (seen.size > 500) seen.delete(seen.values().next().value as string);
            lastId = e.id;
          }
          if (!e.event || !KNOWN.has(e.event)) return;
          let data: Record<string, unknown> = {};
          try {
            const parsed: unknown = JSON.parse(e.data || '{}');
            if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
          } catch {
            // a malformed event is skipped
          }
          dispatchLive(e.event as LiveEventType, data);
        },
      });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(dec.decode(value, { stream: true }));
      }
    } catch {
      if (stopped) return;
    }
    if (ended) {
      sessionEnded(t);
      return;
    }
    retry();
  };

  void connect();
  return stop;
}
