import { randomBytes } from 'node:crypto';
import { accountPasswordProblem } from '@ks/contracts';
import { argon2id, argon2Verify } from 'hash-wasm';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, parallelism 1.
const PARAMS = { iterations: 2, memorySize: 19_456, parallelism: 1, hashLength: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2id({ ...PARAMS, password, salt: randomBytes(16), outputType: 'encoded' });
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash: encoded });
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so both paths cost the same. */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(12).toString('hex'));
  return dummy;
}

/** Password strength for accounts created or changed (the rule the web runs too, from contracts). */
export const passwordProblem = accountPasswordProblem;
