import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { tenderRegistrations } from '../../db/schema';

/**
 * Registrations (报名) for sections (issue 16). Other modules ask through `registrationOf` whether an enterprise is a
 * registered bidder of a section (sealed bids, deposits and guarantee letters are for registered bidders only).
 */
export async function registrationOf(q: DbOrTx, sectionId: string, enterpriseId: string) {
  const [r] = await q
    .select()
    .from(tenderRegistrations)
    .where(and(eq(tenderRegistrations.sectionId, sectionId), eq(tenderRegistrations.enterpriseId, enterpriseId)));
  return r ?? null;
}
