import { threadId } from 'node:worker_threads';
import { Code, Msg } from '@ks/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { hashParams, hashPassword, passwordHashPool, setPasswordHashThreads, verifyPassword } from './password';
import { defaultHashThreads, HashWorkerLost, PasswordHashPool, QUEUED_PER_THREAD } from './password-pool';

const PARAMS = hashParams();
const salt = () => new Uint8Array(16).fill(7);
const pools: PasswordHashPool[] = [];
const poolOf = (threads: number) => {
  const p = new PasswordHashPool(threads);
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('password hashing pool (issue 20)', () => {
  it('hashes and checks on worker threads, never the main thread', async () => {
    const pool = poolOf(2);
    const h = await pool.hash('Demo@2026', salt(), PARAMS);
    expect(h).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=1\$/);
    expect(await pool.verify('Demo@2026', h)).toBe(true);
    expect(await pool.verify('Demo@2027', h)).toBe(false);
    expect(pool.answeredBy.length).toBe(3);
    expect(pool.answeredBy.every((id) => id !== threadId && id > 0)).toBe(true);
  });

  it('runs at most `threads` workers however many hashes are asked at once, and answers each its own', async () => {
    const pool = poolOf(2);
    const passwords = Array.from({ length: 12 }, (_, i) => `Pass@${i}word`);
    const asked = passwords.map((p) => pool.hash(p, salt(), PARAMS));
    expect(pool.workers).toBe(2);
    expect(pool.waiting).toBe(10);
    const hashes = await Promise.all(asked);
    expect(new Set(hashes).size).toBe(12);
    const checks = await Promise.all(hashes.map((h, i) => pool.verify(passwords[(i + 1) % 12]!, h)));
    expect(checks.every((ok) => !ok)).toBe(true);
    expect(await pool.verify(passwords[5]!, hashes[5]!)).toBe(true);
    expect(pool.workers).toBeLessThanOrEqual(2);
    expect(new Set(pool.answeredBy).size).toBeLessThanOrEqual(2);
  });

  it('refuses at once with 503 「服务器繁忙」 past threads × QUEUED_PER_THREAD waiting, and serves again after', async () => {
    const pool = poolOf(1);
    // one running, QUEUED_PER_THREAD waiting: the next is refused without queueing
    const accepted = Array.from({ length: QUEUED_PER_THREAD + 1 }, () => pool.hash('x', salt(), PARAMS));
    const refused = await pool.hash('x', salt(), PARAMS).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ httpStatus: 503, code: Code.SERVICE_UNAVAILABLE, message: Msg.SERVER_BUSY });
    expect(pool.waiting).toBe(QUEUED_PER_THREAD);
    await Promise.all(accepted);
    expect(await pool.hash('x', salt(), PARAMS)).toMatch(/^\$argon2id\$/);
  });

  it('a worker that dies fails only the hash it was running; the next hash gets a new worker', async () => {
    const pool = poolOf(1);
    const waiting = pool.hash('after', salt(), PARAMS);
    const crash = expect(pool.crashOne()).rejects.toBeInstanceOf(HashWorkerLost);
    // the crash is queued behind the first hash: it runs, then the worker dies holding the crash
    expect(await waiting).toMatch(/^\$argon2id\$/);
    await crash;
    const before = new Set(pool.answeredBy);
    const h = await pool.hash('again', salt(), PARAMS);
    expect(await pool.verify('again', h)).toBe(true);
    expect(before.has(pool.answeredBy.at(-1)!)).toBe(false);
    expect(pool.workers).toBe(1);
  });

  it('verifyPassword: a busy pool or a lost worker is an error, not a wrong password', async () => {
    const h = await hashPassword('Demo@2026');
    const pool = setPasswordHashThreads(1);
    try {
      const held = Array.from({ length: QUEUED_PER_THREAD + 1 }, () => hashPassword('x'));
      await expect(verifyPassword('Demo@2026', h)).rejects.toMatchObject({ httpStatus: 503 });
      await Promise.all(held);
      expect(passwordHashPool()).toBe(pool);
      expect(await verifyPassword('Demo@2026', h)).toBe(true);
      expect(await verifyPassword('Demo@2026', '$argon2id$v=19$garbage')).toBe(false);
      expect(await verifyPassword('Demo@2026', 'not a hash')).toBe(false);
      // the worker goes away in the middle of a check
      // (the expectation is attached before the pool closes: the rejection must never be unhandled in between)
      const checking = expect(verifyPassword('Demo@2026', h)).rejects.toBeInstanceOf(HashWorkerLost);
      await pool.close();
      await checking;
    } finally {
      setPasswordHashThreads(defaultHashThreads());
    }
  });

  it('defaults to half the cores, 1 to 4', () => {
    expect([1, 2, 3, 4, 8, 64].map((n) => defaultHashThreads(n))).toEqual([1, 1, 1, 2, 4, 4]);
  });
});
