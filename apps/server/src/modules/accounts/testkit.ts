import { and, eq } from 'drizzle-orm';
import { operationLogs } from '../../db/schema';
import type { TestApp } from '../../test/harness';

/** Helpers shared by the administration pages' integration tests (test-only module). */

export const qs = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** Operation-log rows of one business and record. */
export async function opLogs(t: TestApp, glName: string, recordId: string) {
  return t.database.db
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.glName, glName), eq(operationLogs.recordId, recordId)));
}
