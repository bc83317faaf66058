import { LRUCache } from 'lru-cache';

/**
 * The one home of the server's in-process caches. Each is an LRU with a bound on entries (and, where given, on age),
 * registered by name so that `cacheStats()` reports them all and tests can `clearCaches()`.
 *
 * Nothing here is the truth: every cache holds what can be read again from the database (a node's compiled catalogue
 * keyed by its schema version, a compiled pattern, a session read a moment ago), so a process that loses an entry, or
 * a second process that never had it, answers the same — only slower.
 */
export interface CacheOptions {
  /** Most entries kept; the least recently used goes first. */
  max: number;
  /** Entries older than this are not returned (milliseconds); none when absent. */
  ttlMs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry of caches of any key and value type
const registry = new Map<string, LRUCache<any, any>>();

export function createCache<K extends {}, V extends {}>(
  name: string,
  opts: CacheOptions & {
    /**
     * Frees what an entry holds (a worker's state, a handle) when it leaves: evicted, expired, deleted, cleared, or
     * replaced by another value (reason `set`).
     */
    dispose?: LRUCache.Disposer<K, V>;
  },
): LRUCache<K, V> {
  if (registry.has(name)) throw new Error(`cache ${name} is created twice`);
  const cache = new LRUCache<K, V>({
    max: opts.max,
    ...(opts.ttlMs ? { ttl: opts.ttlMs } : {}),
    ...(opts.dispose ? { dispose: opts.dispose } : {}),
  });
  registry.set(name, cache);
  return cache;
}

/** How full each cache is (for the admin health details and benchmarks). */
export function cacheStats(): Record<string, { size: number; max: number }> {
  const out: Record<string, { size: number; max: number }> = {};
  for (const [name, c] of registry) out[name] = { size: c.size, max: c.max };
  return out;
}

/** Empties every cache (tests, and after a restore of the database). */
export function clearCaches(): void {
  for (const c of registry.values()) c.clear();
}
