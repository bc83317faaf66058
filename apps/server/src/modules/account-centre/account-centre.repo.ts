import { and, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

export async function userById(db: DbOrTx, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

/** Another active account that has this phone. */
export async function phoneTakenByOther(db: DbOrTx, phone: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), eq(users.status, 'active'), ne(users.id, userId)))
    .limit(1);
  return rows.length > 0;
}

export async function setPhone(db: DbOrTx, userId: string, phone: string, at: Date): Promise<void> {
  await db.update(users).set({ phone, phoneVerifiedAt: at, updatedAt: at }).where(eq(users.id, userId));
}

export async function setPhoneVerified(db: DbOrTx, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ phoneVerifiedAt: at, updatedAt: at }).where(eq(users.id, userId));
}

export async function setPhoto(db: DbOrTx, userId: string, photo: string, at: Date): Promise<void> {
  await db.update(users).set({ photo, updatedAt: at }).where(eq(users.id, userId));
}
