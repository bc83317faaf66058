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
  await putSettingsIfAbsent(db, { [key]: value });
  return (await getSetting(db, key)) ?? value;
}

/**
 * Insert those that are absent, in one statement: a writer racing with it waits for its commit, so settings made as a
 * set (a key pair) are stored whole, from one writer or the other.
 */
export async function putSettingsIfAbsent(db: Db, values: Record<string, string>): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value }));
  if (rows.length) await db.insert(appSettings).values(rows).onConflictDoNothing();
}

export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
}
