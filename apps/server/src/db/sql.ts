/**
 * Small helpers every repository shares: LIKE patterns of a user's keyword, and telling a unique or exclusion violation
 * apart.
 */

/** `%keyword%` in which `%`, `_` and `\` of the user's keyword match themselves. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Did the statement fail on a unique constraint (SQLSTATE 23505) — on `constraint` when named? Both drivers are
 * covered: node-postgres reports the error itself, drizzle wraps it (`cause`).
 */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const hit = err?.code === '23505' ? err : err?.cause?.code === '23505' ? err.cause : null;
  if (!hit) return false;
  if (!constraint) return true;
  const name = hit.constraint;
  // a driver that does not report the constraint: assume it is the one asked about
  return name === undefined || name === constraint;
}

/**
 * Did the statement fail on an exclusion constraint (SQLSTATE 23P01) — on `constraint` when named? Both drivers, as
 * isUniqueViolation.
 */
export function isExclusionViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const hit = err?.code === '23P01' ? err : err?.cause?.code === '23P01' ? err.cause : null;
  if (!hit) return false;
  if (!constraint) return true;
  return hit.constraint === undefined || hit.constraint === constraint;
}

/**
 * Was the transaction chosen as a deadlock's victim (SQLSTATE 40P01)? Two transactions inserting conflicting rows
 * under an exclusion constraint each wait for the other's tuple (PostgreSQL checks the constraint after inserting):
 * one is aborted, and running it again meets the other's committed row — a plain violation.
 */
/** Error codes of a database that cannot be reached or went away: sockets, and SQLSTATE classes 08 and 57P. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

/**
 * Is this (or what caused it: Drizzle wraps the driver's error) the database being unreachable — down, restarting,
 * the network gone — rather than a fault of the request or of the code? The API answers 503 for it, and the pool
 * opens fresh connections once the database is back.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  let err = e as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; err && depth < 4; depth++) {
    if (typeof err.code === 'string' && UNAVAILABLE_CODES.has(err.code)) return true;
    if (typeof err.message === 'string' && UNAVAILABLE_TEXT.test(err.message)) return true;
    err = err.cause as typeof err;
  }
  return false;
}

export function isDeadlock(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '40P01' || err?.cause?.code === '40P01';
}
