import { CA_EXPIRY_WARN_DAYS, type CaExpiryState } from '@ks/contracts';
import { and, count, desc, eq, gt, ilike, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { caBindings, caNonces, enterprises, users } from '../../db/schema';
import { likePattern } from '../../db/sql';

export type BindingRow = typeof caBindings.$inferSelect;

export async function insertNonce(db: DbOrTx, nonce: string, expiresAt: Date): Promise<void> {
  await db.insert(caNonces).values({ nonce, expiresAt });
}

/** Spends a nonce (whoever asks first, in any process): its expiry when it existed, null when unknown or spent. */
export async function consumeNonce(db: DbOrTx, nonce: string): Promise<Date | null> {
  const rows = await db.delete(caNonces).where(eq(caNonces.nonce, nonce)).returning({ expiresAt: caNonces.expiresAt });
  return rows[0] ? new Date(rows[0].expiresAt) : null;
}

export async function deleteStaleNonces(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(caNonces).where(lt(caNonces.expiresAt, now));
}

export async function enterpriseByCreditCode(db: DbOrTx, creditCode: string) {
  const [e] = await db
    .select({ id: enterprises.id, name: enterprises.name, creditCode: enterprises.creditCode })
    .from(enterprises)
    .where(eq(enterprises.creditCode, creditCode));
  return e;
}

export async function enterpriseById(db: DbOrTx, id: string) {
  const [e] = await db
    .select({ id: enterprises.id, name: enterprises.name, creditCode: enterprises.creditCode })
    .from(enterprises)
    .where(eq(enterprises.id, id));
  return e;
}

/** The live binding of a certificate (by fingerprint), if any. */
export async function liveBinding(db: DbOrTx, fingerprint: string): Promise<BindingRow | undefined> {
  const [b] = await db
    .select()
    .from(caBindings)
    .where(and(eq(caBindings.fingerprint, fingerprint), isNull(caBindings.unboundAt)));
  return b;
}

export async function liveBindingById(db: DbOrTx, id: string): Promise<BindingRow | undefined> {
  const [b] = await db
    .select()
    .from(caBindings)
    .where(and(eq(caBindings.id, id), isNull(caBindings.unboundAt)));
  return b;
}

export async function insertBinding(db: DbOrTx, values: typeof caBindings.$inferInsert): Promise<BindingRow> {
  const [b] = await db.insert(caBindings).values(values).returning();
  return b!;
}

/** Ends a live binding; false when it was not live (already unbound by someone else). */
export async function unbind(db: DbOrTx, id: string, by: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(caBindings)
    .set({ unboundAt: at, unboundBy: by })
    .where(and(eq(caBindings.id, id), isNull(caBindings.unboundAt)))
    .returning({ id: caBindings.id });
  return rows.length > 0;
}

function expiryCondition(state: CaExpiryState, now: Date): SQL | undefined {
  const warn = new Date(now.getTime() + CA_EXPIRY_WARN_DAYS * 86_400_000);
  if (state === 'expired') return lte(caBindings.notAfter, now);
  if (state === 'expiring') return and(gt(caBindings.notAfter, now), lte(caBindings.notAfter, warn));
  return gt(caBindings.notAfter, warn);
}

/** Live bindings, newest first: of one enterprise, or of all (enterpriseId null); keyword and expiry filters. */
export async function listBindings(
  db: DbOrTx,
  q: {
    enterpriseId: string | null;
    keyword?: string;
    expiry?: CaExpiryState;
    now: Date;
    offset: number;
    limit: number;
  },
) {
  const conds: (SQL | undefined)[] = [isNull(caBindings.unboundAt)];
  if (q.enterpriseId) conds.push(eq(caBindings.enterpriseId, q.enterpriseId));
  if (q.keyword) {
    const p = likePattern(q.keyword);
    conds.push(
      or(
        ilike(enterprises.name, p),
        ilike(caBindings.creditCode, p),
        ilike(caBindings.holder, p),
        ilike(caBindings.serial, p),
      ),
    );
  }
  if (q.expiry) conds.push(expiryCondition(q.expiry, q.now));
  const where = and(...conds);
  const [total] = await db
    .select({ n: count() })
    .from(caBindings)
    .innerJoin(enterprises, eq(enterprises.id, caBindings.enterpriseId))
    .where(where);
  const records = await db
    .select({ binding: caBindings, enterpriseName: enterprises.name, boundBy: users.userName })
    .from(caBindings)
    .innerJoin(enterprises, eq(enterprises.id, caBindings.enterpriseId))
    .innerJoin(users, eq(users.id, caBindings.userId))
    .where(where)
    .orderBy(desc(caBindings.boundAt), desc(caBindings.id))
    .offset(q.offset)
    .limit(q.limit);
  return { total: Number(total?.n ?? 0), records };
}

export async function userById(db: DbOrTx, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u;
}
