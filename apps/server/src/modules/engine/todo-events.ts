import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessSystems, menuNodes } from '../../db/schema';
import { publishEvent } from '../../platform/live';

/** A to-do as far as its announcement needs it: its node and who it is for. */
export interface TodoAssignee {
  nodeId: string;
  assigneeType: string;
  assigneeId: string;
}

/**
 * Tells the assignees of to-dos just opened or closed ('todos', per node: {systemCoding, gnCoding}) — user ids and
 * role codes as the rows name them. Call it in the transaction that wrote the rows: the event commits with them.
 */
export async function announceTodos(q: DbOrTx, rows: readonly TodoAssignee[]): Promise<void> {
  if (!rows.length) return;
  const nodeIds = [...new Set(rows.map((r) => r.nodeId))];
  const nodes = await q
    .select({ id: menuNodes.id, gnCoding: menuNodes.gnCoding, systemCoding: businessSystems.gnCoding })
    .from(menuNodes)
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .where(inArray(menuNodes.id, nodeIds));
  for (const n of nodes) {
    const mine = rows.filter((r) => r.nodeId === n.id);
    await publishEvent(
      q,
      {
        users: mine.filter((r) => r.assigneeType === 'user').map((r) => r.assigneeId),
        roles: mine.filter((r) => r.assigneeType === 'role').map((r) => r.assigneeId),
      },
      'todos',
      { systemCoding: n.systemCoding, gnCoding: n.gnCoding },
    );
  }
}
