import { describe, expect, it } from 'vitest';
import { cacheStats, clearCaches, createCache } from './cache';

describe('platform caches', () => {
  it('evicts the least recently used entry past max, and reports every cache by name', () => {
    const c = createCache<string, number>('test.lru', { max: 2 });
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.has('b')).toBe(false);
    expect(c.get('a')).toBe(1);
    expect(cacheStats()['test.lru']).toEqual({ size: 2, max: 2 });
    clearCaches();
    expect(c.size).toBe(0);
  });

  it('drops entries older than ttlMs', async () => {
    const c = createCache<string, number>('test.ttl', { max: 10, ttlMs: 20 });
    c.set('a', 1);
    await new Promise((r) => setTimeout(r, 40));
    expect(c.get('a')).toBeUndefined();
  });

  it('refuses a second cache of the same name', () => {
    createCache('test.once', { max: 1 });
    expect(() => createCache('test.once', { max: 1 })).toThrow(/twice/);
  });

  it('hands what leaves to dispose, with the reason', () => {
    const gone: string[] = [];
    const c = createCache<string, number>('test.dispose', {
      max: 1,
      dispose: (v, k, why) => gone.push(`${k}=${v}:${why}`),
    });
    c.set('a', 1);
    c.set('a', 2);
    c.set('b', 3);
    c.delete('b');
    expect(gone).toEqual(['a=1:set', 'a=2:evict', 'b=3:delete']);
  });
});
