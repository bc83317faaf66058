import { and, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { appSettings, smsCodes, smsOutbox } from '../../db/schema';

export type SmsCodeRow = typeof smsCodes.$inferSelect;

/** One sender at a time per phone (every process): the limits are read and the new code written under it. */
export async function serialisePhone(tx: Tx, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ks_sms:${phone}`}))`);
}

/** Codes sent to a phone since an instant (all purposes), and the newest one's time. */
export async function sentSince(
  db: DbOrTx,
  phone: string,
  since: Date,
): Promise<{ count: number; latest: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, latest: sql<Date | null>`max(${smsCodes.createdAt})` })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), gte(smsCodes.createdAt, since)));
  const latest = row?.latest ?? null;
  return { count: Number(row?.count ?? 0), latest: latest === null ? null : new Date(latest) };
}

/** The newest code sent to a phone (any purpose). */
export async function latestSent(db: DbOrTx, phone: string): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: smsCodes.createdAt })
    .from(smsCodes)
    .where(eq(smsCodes.phone, phone))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}

/** A newer code replaces the live ones of the same phone and purpose. */
export async function voidLive(db: DbOrTx, phone: string, purpose: string, at: Date): Promise<void> {
  await db
    .update(smsCodes)
    .set({ voidedAt: at })
    .where(
      and(
        eq(smsCodes.phone, phone),
        eq(smsCodes.purpose, purpose),
        isNull(smsCodes.spentAt),
        isNull(smsCodes.voidedAt),
      ),
    );
}

export async function insertCode(
  db: DbOrTx,
  row: {
    phone: string;
    purpose: string;
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
    ip: string | null;
    userId: string | null;
  },
): Promise<void> {
  await db.insert(smsCodes).values(row);
}

/** The newest code of a phone and purpose (locked when `tx` is a transaction that will change it). */
export async function latestCode(db: DbOrTx, phone: string, purpose: string, lock = false): Promise<SmsCodeRow | null> {
  const q = db
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/**
 * Counts one wrong code; the attempt that reaches `max` voids it. Conditional on the code still being live, so it
 * is counted once whoever else is checking it.
 */
export async function countWrong(db: DbOrTx, id: string, max: number, at: Date): Promise<number | null> {
  const [row] = await db
    .update(smsCodes)
    .set({
      attempts: sql`${smsCodes.attempts} + 1`,
      voidedAt: sql`case when ${smsCodes.attempts} + 1 >= ${max} then ${at.toISOString()}::timestamptz else null end`,
    })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.spentAt), isNull(smsCodes.voidedAt)))
    .returning({ attempts: smsCodes.attempts });
  return row?.attempts ?? null;
}

/** Spends a live code (and stores its proof, when one is given); false when it was no longer live. */
export async function spendCode(
  db: DbOrTx,
  id: string,
  at: Date,
  proof: { hash: string; expiresAt: Date } | null,
  max: number,
): Promise<boolean> {
  const rows = await db
    .update(smsCodes)
    .set({
      spentAt: at,
      ...(proof ? { proofHash: proof.hash, proofExpiresAt: proof.expiresAt } : {}),
    })
    .where(
      and(
        eq(smsCodes.id, id),
        isNull(smsCodes.spentAt),
        isNull(smsCodes.voidedAt),
        gt(smsCodes.expiresAt, at),
        lt(smsCodes.attempts, max),
      ),
    )
    .returning({ id: smsCodes.id });
  return rows.length > 0;
}

/** Spends a live proof of a phone and purpose; false when there is none. */
export async function spendProof(
  db: DbOrTx,
  phone: string,
  purpose: string,
  proofHash: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(smsCodes)
    .set({ proofSpentAt: at })
    .where(
      and(
        eq(smsCodes.proofHash, proofHash),
        eq(smsCodes.phone, phone),
        eq(smsCodes.purpose, purpose),
        isNull(smsCodes.proofSpentAt),
        gt(smsCodes.proofExpiresAt, at),
      ),
    )
    .returning({ id: smsCodes.id });
  return rows.length > 0;
}

export async function insertOutbox(
  db: DbOrTx,
  row: { phone: string; template: string; params: Record<string, string>; text: string; createdAt: Date },
): Promise<void> {
  await db.insert(smsOutbox).values(row);
}

export async function outbox(db: DbOrTx, phone: string | undefined, limit: number) {
  return db
    .select()
    .from(smsOutbox)
    .where(phone ? eq(smsOutbox.phone, phone) : undefined)
    .orderBy(desc(smsOutbox.createdAt), desc(smsOutbox.id))
    .limit(limit);
}

/** The stored value of a secret setting, made from `fresh` when absent (an earlier writer wins a race). */
export async function secretOf(db: DbOrTx, key: string, fresh: string): Promise<string> {
  await db.insert(appSettings).values({ key, value: fresh }).onConflictDoNothing();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  if (!row) throw new Error(`setting ${key} missing`);
  return row.value;
}
