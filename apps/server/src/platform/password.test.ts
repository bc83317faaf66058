import { describe, expect, it } from 'vitest';
import { ARGON2_PARAMS, hashParams, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('uses OWASP’s argon2id minimum outside the test runner, and in production always', () => {
    expect(ARGON2_PARAMS).toMatchObject({ memorySize: 19_456, iterations: 2, parallelism: 1 });
    expect(hashParams({ NODE_ENV: 'production' })).toBe(ARGON2_PARAMS);
    expect(hashParams({ NODE_ENV: 'development' })).toBe(ARGON2_PARAMS);
    expect(hashParams({ NODE_ENV: 'production', VITEST: 'true' })).toBe(ARGON2_PARAMS);
    expect(hashParams({ NODE_ENV: 'test', VITEST: 'true' }).memorySize).toBeLessThan(ARGON2_PARAMS.memorySize);
  });

  it('hashes with argon2id and checks only the right password', async () => {
    const h = await hashPassword('Demo@2026');
    expect(h).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword('Demo@2026', h)).toBe(true);
    expect(await verifyPassword('Demo@2027', h)).toBe(false);
    expect(await verifyPassword('Demo@2026', 'not a hash')).toBe(false);
  });
});
