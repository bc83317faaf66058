import { randomBytes } from 'node:crypto';
import { AccountMsg, PASSWORD_HISTORY_DEPTH, passwordPolicyProblem } from '@ks/contracts';
import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { passwordHistory, users } from '../db/schema';
import { AppError, validationFailed } from './errors';
import { defaultHashThreads, HashWorkerLost, PasswordHashPool } from './password-pool';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, parallelism 1.
export const ARGON2_PARAMS = { iterations: 2, memorySize: 19_456, parallelism: 1, hashLength: 32 } as const;
/**
 * Under the test runner only (vitest sets VITEST; never in production): a cheap argon2id, since the suites sign in
 * thousands of times and each check at full cost is 0.2 s of a core. A hash carries its own parameters, so checking
 * follows whichever made it.
 */
const TEST_PARAMS = { iterations: 1, memorySize: 256, parallelism: 1, hashLength: 32 } as const;
export const hashParams = (env: NodeJS.ProcessEnv = process.env) =>
  env.VITEST === 'true' && env.NODE_ENV !== 'production' ? TEST_PARAMS : ARGON2_PARAMS;
const PARAMS = hashParams();

/** The hashing threads (platform/password-pool.ts); main sets their number from PASSWORD_HASH_THREADS. */
let pool: PasswordHashPool | null = null;
const hashPool = () => {
  pool ??= new PasswordHashPool(defaultHashThreads());
  return pool;
};
/** Use `threads` hashing threads from now on (the pool before finishes nothing new and stops). */
export function setPasswordHashThreads(threads: number): PasswordHashPool {
  const before = pool;
  pool = new PasswordHashPool(threads);
  if (before) void before.close();
  return pool;
}
/** The pool in use (tests). */
export const passwordHashPool = () => hashPool();

export function hashPassword(password: string): Promise<string> {
  return hashPool().hash(password, randomBytes(16), PARAMS);
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  // not a PHC argon2 string: no worker needed to say no
  if (!encoded.startsWith('$argon2')) return false;
  try {
    return await hashPool().verify(password, encoded);
  } catch (e) {
    // a refusal of the pool (busy) or a lost worker is not a wrong password (it would count toward a lock-out);
    // a stored hash hash-wasm cannot read is a no
    if (e instanceof AppError || e instanceof HashWorkerLost) throw e;
    return false;
  }
}

/** A hash to verify against when the account does not exist, so both paths cost the same. */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(12).toString('hex'));
  return dummy;
}

/**
 * Password strength for accounts created or changed (the rule the web runs too, from contracts): 8–64 characters,
 * three of four classes, not containing the account name. `checkNewPassword` adds the history.
 */
export const passwordProblem = (password: string, account?: string | null) => passwordPolicyProblem(password, account);

/** How many earlier hashes a user keeps (more than the policy looks at, none forever). */
const HISTORY_KEPT = 5;

/** Is this one of the account's last PASSWORD_HISTORY_DEPTH passwords (the current one and those before it)? */
export async function passwordReused(db: DbOrTx, userId: string, password: string): Promise<boolean> {
  const [current] = await db.select({ h: users.passwordHash }).from(users).where(eq(users.id, userId));
  const earlier = await db
    .select({ h: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(PASSWORD_HISTORY_DEPTH - 1);
  const hashes = [current?.h, ...earlier.map((r) => r.h)].filter((h): h is string => Boolean(h));
  for (const h of hashes) if (await verifyPassword(password, h)) return true;
  return false;
}

/**
 * The whole policy for a password being set on an existing account: the rule, then the history. A problem is a 400 on
 * `field`.
 */
export async function checkNewPassword(
  db: DbOrTx,
  user: { id: string; account: string },
  password: string,
  field = 'newPassword',
): Promise<void> {
  const problem = passwordProblem(password, user.account);
  if (problem) throw validationFailed({ [field]: [problem] });
  if (await passwordReused(db, user.id, password)) throw validationFailed({ [field]: [AccountMsg.PASSWORD_REUSED] });
}

/** Keep the account's current hash in its history before it is replaced (the newest HISTORY_KEPT are kept). */
export async function rememberPassword(db: DbOrTx, userId: string, at: Date): Promise<void> {
  const [current] = await db.select({ h: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!current) return;
  await db.insert(passwordHistory).values({ userId, passwordHash: current.h, createdAt: at });
  const keep = db
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(HISTORY_KEPT);
  await db.delete(passwordHistory).where(and(eq(passwordHistory.userId, userId), notInArray(passwordHistory.id, keep)));
}
