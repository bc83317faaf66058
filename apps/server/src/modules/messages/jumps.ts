import { recordRoute, routeForNode } from '@ks/contracts';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessSystems, menuNodes } from '../../db/schema';
import { noticeJumpsWithNodes } from '../shell/settings.repo';

/** A node as a link needs it: its code, what it is, and its system's code. */
export interface NodeLink {
  gnCoding: string;
  nodeProperties: string;
  systemCoding: string;
}

/**
 * Where a to-do or a message opens, following the notice-jump settings of /system/jumpNoticeCfg (enabled ones, oldest
 * first; msgType → node). An item about no record of a node (an administrator's message) goes to the node of the
 * first jump of its type, else to its stored link (a path of this site), else nowhere. An item about a record opens
 * the record: in the jump's node when a jump of its type names the record's own node, and in its own node otherwise —
 * a jump to another node is not followed for it, since that node cannot show the record (the demo's "信用记录待审核"
 * would otherwise send every to-do of 信用管理 to the credit records page).
 */
export async function jumpResolver(q: DbOrTx, isAdmin: boolean) {
  const jumps: (NodeLink & { msgType: string })[] = [];
  for (const r of await noticeJumpsWithNodes(q)) {
    if (!r.j.enabled) continue;
    jumps.push({
      msgType: r.j.msgType,
      gnCoding: r.n.gnCoding,
      nodeProperties: r.n.nodeProperties,
      systemCoding: r.s.gnCoding,
    });
  }
  return (
    msgType: string,
    own: NodeLink | null,
    recordId: string | null,
    link: string | null = null,
  ): string | null => {
    const ofType = jumps.filter((j) => j.msgType === msgType);
    if (own) {
      const jump = ofType.find((j) => j.gnCoding === own.gnCoding) ?? own;
      return recordRoute(jump, jump.systemCoding, recordId, isAdmin);
    }
    const jump = ofType[0];
    if (jump) return routeForNode(jump, jump.systemCoding, isAdmin);
    return link?.startsWith('/') && !link.startsWith('//') ? link : null;
  };
}

/** The nodes these codes name, with their systems' codes. */
export async function nodeLinks(q: DbOrTx, gnCodings: readonly string[]): Promise<Map<string, NodeLink>> {
  const codes = [...new Set(gnCodings)];
  if (!codes.length) return new Map();
  const rows = await q
    .select({
      gnCoding: menuNodes.gnCoding,
      nodeProperties: menuNodes.nodeProperties,
      systemCoding: businessSystems.gnCoding,
    })
    .from(menuNodes)
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .where(inArray(menuNodes.gnCoding, codes));
  return new Map(rows.map((r) => [r.gnCoding, r]));
}
