import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appSettings } from '../db/schema';

export async function getSettings(db: Db, keys: string[]): Promise<Record<string, string>> {
  const rows = await db.select().from(appSettings).where(inArray(appSettings.key, keys));
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function getSetting(db: Db, key: string): Promise<string | null> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key));
  return row?.value ?? null;
}

/** Insert when absent; returns the value that is stored (an earlier writer wins a race). */
export async function putSettingIfAbsent(db: Db, key: string, value: string): Promise<string> {
  await db.insert(appSettings).values({ key, value }).onConflictDoNothing();
  return (await getSetting(db, key)) ?? value;
}

export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
}
