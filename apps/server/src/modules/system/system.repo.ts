import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { businessSystems } from '../../db/schema';

export function enabledSystems(db: Db) {
  return db
    .select()
    .from(businessSystems)
    .where(eq(businessSystems.enabled, true))
    .orderBy(asc(businessSystems.sort), asc(businessSystems.createdAt));
}
