import type { ServerResponse } from 'node:http';
import { LIVE_HEARTBEAT_MS, LIVE_REPLAY_MS, type LiveEventType } from '@ks/contracts';
import type { Db } from '../../db/client';
import type { LiveAudience } from '../../db/schema';
import { LIVE_CHANNEL } from '../../platform/live';
import { currentAuthEpoch } from '../auth/auth.repo';
import * as repo from './live.repo';

/** One open stream: a signed-in tab. */
export interface LiveStream {
  sessionId: string;
  userId: string;
  /** role codes of the caller when the stream opened (built-in and granted) */
  roles: ReadonlySet<string>;
  enterpriseId: string | null;
  res: ServerResponse;
}

export interface LiveHubDeps {
  db: Db;
  /** the database's LISTEN (Database.listen); without it the hub looks for new events every second */
  listen?: (channel: string, fn: (payload: string) => void) => Promise<void>;
  now?: () => Date;
  /** ms between heartbeats (tests shorten it) */
  heartbeatMs?: number;
  /** ms between checks that every streamed session is still live */
  sessionCheckMs?: number;
}

/** A stream that cannot take more than this (a stalled client) is closed; it reconnects and resyncs. */
const MAX_BUFFERED = 1 << 20;
/** How many recent event ids are remembered, so that an event is delivered once even if announced twice. */
const SEEN_MAX = 5000;

export function inAudience(a: LiveAudience, s: Pick<LiveStream, 'userId' | 'roles' | 'enterpriseId'>): boolean {
  if (a.everyone) return true;
  if (a.users?.includes(s.userId)) return true;
  if (a.roles?.some((r) => s.roles.has(r))) return true;
  if (s.enterpriseId && a.enterprises?.includes(s.enterpriseId)) return true;
  return false;
}

export function eventText(e: { id: number; type: string; data: unknown }): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * The live channel of one process (issue 14). Events are stored by `publishEvent` in the transaction of their change
 * and announced with `pg_notify('ks_live', id)`; every process LISTENs (PostgreSQL: a connection of its own;
 * PGlite: its own notifications, after the commit), reads the announced rows and writes each to its streams whose
 * caller is in the audience. Ids are remembered for a while so nothing is sent twice; after a lost LISTEN
 * connection the hub reads everything of the replay window it has not seen. Streams whose session was revoked,
 * expired or whose user was disabled are ended (checked when an account change is announced, and every minute).
 */
export function createLiveHub(deps: LiveHubDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const streams = new Set<LiveStream>();
  const seen = new Set<number>();
  const pendingIds = new Set<number>();
  let catchUp = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let closed = false;
  let startedAt = 0;
  const timers: NodeJS.Timeout[] = [];

  const remember = (id: number) => {
    seen.add(id);
    if (seen.size > SEEN_MAX) {
      const first = seen.values().next().value;
      if (first !== undefined) seen.delete(first);
    }
  };

  const write = (s: LiveStream, text: string) => {
    if (s.res.writableEnded || s.res.destroyed) return;
    if (s.res.writableLength > MAX_BUFFERED) {
      end(s);
      return;
    }
    s.res.write(text);
  };

  const end = (s: LiveStream, last?: string) => {
    streams.delete(s);
    if (!s.res.writableEnded) {
      if (last) s.res.write(last);
      s.res.end();
    }
  };

  const deliver = (rows: repo.LiveEventRow[]) => {
    for (const e of rows) {
      if (seen.has(e.id)) continue;
      remember(e.id);
      const text = eventText(e);
      for (const s of streams) if (inAudience(e.audience, s)) write(s, text);
    }
  };

  /** Read what was announced (or, after a lost connection, everything recent not yet seen) and deliver it. */
  const pump = (): Promise<void> => {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        const ids = [...pendingIds];
        pendingIds.clear();
        const scan = catchUp;
        catchUp = false;
        try {
          if (ids.length) deliver(await repo.eventsByIds(db, ids));
          if (scan) {
            const since = new Date(Math.max(startedAt, now().getTime() - LIVE_REPLAY_MS));
            let after = 0;
            for (;;) {
              const rows = await repo.eventsSince(db, since, after, 500);
              deliver(rows);
              if (rows.length < 500) break;
              after = rows[rows.length - 1]!.id;
            }
          }
        } catch (e) {
          if (closed) return;
          // the database is away: try again with a scan once it answers
          catchUp = true;
          process.emitWarning(`live events: ${(e as Error).message}`);
          await new Promise((r) => setTimeout(r, 1000));
          pumpAgain = true;
        }
      } while (pumpAgain && !closed);
    })().finally(() => {
      pumping = null;
    });
    return pumping;
  };

  const onNotify = (payload: string) => {
    const id = Number(payload);
    if (payload && Number.isSafeInteger(id) && id > 0) pendingIds.add(id);
    else catchUp = true;
    void pump();
  };

  let checkedEpoch = currentAuthEpoch();
  let checking: Promise<void> | null = null;
  /** End the streams whose session is no longer live. */
  const checkSessions = (): Promise<void> => {
    checking ??= (async () => {
      const list = [...streams];
      if (!list.length) return;
      try {
        const live = await repo.liveSessionIds(db, [...new Set(list.map((s) => s.sessionId))], now());
        for (const s of list) if (!live.has(s.sessionId)) end(s, 'event: closed\ndata: {}\n\n');
      } catch (e) {
        if (!closed) process.emitWarning(`live sessions: ${(e as Error).message}`);
      }
    })().finally(() => {
      checking = null;
    });
    return checking;
  };

  return {
    /** Begin listening (call once, before serving). */
    async start() {
      startedAt = now().getTime();
      if (deps.listen) await deps.listen(LIVE_CHANNEL, onNotify);
      else {
        // no LISTEN: look for what is new every second
        let last = await repo.latestEventId(db);
        timers.push(
          setInterval(() => {
            void repo
              .eventsSince(db, new Date(0), last, 500)
              .then((rows) => {
                if (rows.length) last = rows[rows.length - 1]!.id;
                deliver(rows);
              })
              .catch(() => undefined);
          }, 1000),
        );
      }
      timers.push(
        setInterval(() => {
          const text = ': ping\n\n';
          for (const s of streams) write(s, text);
        }, deps.heartbeatMs ?? LIVE_HEARTBEAT_MS),
        // an account change (sign-out elsewhere, a disabled user) moves the auth epoch in every process
        setInterval(() => {
          const epoch = currentAuthEpoch();
          if (epoch === checkedEpoch) return;
          checkedEpoch = epoch;
          // the change may be committing just now: look now and once more shortly after
          void checkSessions();
          setTimeout(() => void checkSessions(), 1500).unref();
        }, 250),
        setInterval(() => void checkSessions(), deps.sessionCheckMs ?? 60_000),
        // one process or several: deleting what is past the replay window is harmless to repeat
        setInterval(
          () => void repo.deleteEventsBefore(db, new Date(now().getTime() - LIVE_REPLAY_MS)).catch(() => undefined),
          5 * 60_000,
        ),
      );
      for (const t of timers) t.unref();
    },

    /**
     * Serve a stream: headers, then what the tab missed since `lastEventId` (within the replay window), then live
     * events until either side ends it.
     */
    async open(s: LiveStream, lastEventId: number | null) {
      const res = s.res;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write('retry: 3000\n\n');
      streams.add(s);
      res.on('close', () => streams.delete(s));
      if (lastEventId !== null) {
        const rows = await repo.eventsSince(db, new Date(now().getTime() - LIVE_REPLAY_MS), lastEventId, 500);
        for (const e of rows) if (inAudience(e.audience, s)) write(s, eventText(e));
        // whatever could not be replayed (older than the window, or committed out of id order): re-read
        write(s, `event: resync\ndata: {}\n\n`);
      }
    },

    /** How many streams are open (health, benches). */
    size: () => streams.size,
    checkSessions,
    /** Flush: wait until announced events are delivered (tests). */
    settle: () => pumping ?? Promise.resolve(),

    /** End every stream and stop (the server is closing). */
    close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      for (const s of [...streams]) end(s);
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
export type { LiveEventType };
