import type { LiveEventType } from '@ks/contracts';
import { useEffect, useRef } from 'react';

/**
 * The shell's one live channel (issue 14) on the web side: the signed-in layout opens one stream per tab
 * (`startLive`), and any component listens for the events it cares about with `useLiveEvent`. After a reconnect
 * that may have missed events the library sends 'resync' to every listener of every type that asked for it.
 */
type Handler = (data: Record<string, unknown>) => void;
const handlers = new Map<LiveEventType, Set<Handler>>();

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
