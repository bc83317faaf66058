import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users, wechatBindings, wechatTickets } from '../../db/schema';

export type TicketRow = typeof wechatTickets.$inferSelect;
export type BindingRow = typeof wechatBindings.$inferSelect;

export async function insertTicket(db: DbOrTx, values: typeof wechatTickets.$inferInsert): Promise<void> {
  await db.insert(wechatTickets).values(values);
}

export async function ticketOf(db: DbOrTx, state: string): Promise<TicketRow | undefined> {
  const [t] = await db.select().from(wechatTickets).where(eq(wechatTickets.state, state));
  return t;
}

/** Record who scanned (or that they refused) on a live, unscanned ticket: false when it was not such a ticket. */
export async function recordScan(
  db: DbOrTx,
  state: string,
  now: Date,
  scan:
    | { denied: true }
    | { denied: false; openid: string; unionid: string | null; nickname: string; headimgurl: string | null },
): Promise<boolean> {
  const rows = await db
    .update(wechatTickets)
    .set(
      scan.denied
        ? { scannedAt: now, denied: '1' }
        : {
            scannedAt: now,
            openid: scan.openid,
            unionid: scan.unionid,
            nickname: scan.nickname,
            headimgurl: scan.headimgurl,
          },
    )
    .where(
      and(
        eq(wechatTickets.state, state),
        isNull(wechatTickets.scannedAt),
        isNull(wechatTickets.consumedAt),
        gt(wechatTickets.expiresAt, now),
      ),
    )
    .returning({ state: wechatTickets.state });
  return rows.length > 0;
}

/** Use a scanned ticket once: false when it was used already. */
export async function consumeTicket(db: DbOrTx, state: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(wechatTickets)
    .set({ consumedAt: now })
    .where(and(eq(wechatTickets.state, state), isNull(wechatTickets.consumedAt)))
    .returning({ state: wechatTickets.state });
  return rows.length > 0;
}

/** Tickets ended more than a day ago. */
export async function deleteStaleTickets(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(wechatTickets).where(lt(wechatTickets.expiresAt, new Date(now.getTime() - 24 * 3600_000)));
}

/** The binding of this WeChat: by unionid (the same person across the open platform's apps) or this app's openid. */
export async function bindingOfWechat(
  db: DbOrTx,
  appId: string,
  openid: string,
  unionid: string | null,
): Promise<BindingRow | undefined> {
  const [b] = await db
    .select()
    .from(wechatBindings)
    .where(
      or(
        and(eq(wechatBindings.appId, appId), eq(wechatBindings.openid, openid)),
        unionid ? eq(wechatBindings.unionid, unionid) : sql`false`,
      ),
    )
    // this app's own binding first
    .orderBy(sql`(${wechatBindings.appId} = ${appId} and ${wechatBindings.openid} = ${openid}) desc`)
    .limit(1);
  return b;
}

export async function bindingOfUser(db: DbOrTx, userId: string, appId: string): Promise<BindingRow | undefined> {
  const [b] = await db
    .select()
    .from(wechatBindings)
    .where(and(eq(wechatBindings.userId, userId), eq(wechatBindings.appId, appId)));
  return b;
}

export async function insertBinding(db: DbOrTx, values: typeof wechatBindings.$inferInsert): Promise<BindingRow> {
  const [b] = await db.insert(wechatBindings).values(values).returning();
  return b!;
}

export async function updateBindingProfile(
  db: DbOrTx,
  id: string,
  profile: { nickname: string; headimgurl: string | null; unionid: string | null },
): Promise<BindingRow> {
  const [b] = await db.update(wechatBindings).set(profile).where(eq(wechatBindings.id, id)).returning();
  return b!;
}

export async function bindingsOfUser(db: DbOrTx, userId: string): Promise<BindingRow[]> {
  return db
    .select()
    .from(wechatBindings)
    .where(eq(wechatBindings.userId, userId))
    .orderBy(asc(wechatBindings.boundAt), asc(wechatBindings.id));
}

/** Remove one of the user's bindings: the removed row, or undefined when it is not theirs (or gone). */
export async function deleteBinding(db: DbOrTx, userId: string, id: string): Promise<BindingRow | undefined> {
  const [b] = await db
    .delete(wechatBindings)
    .where(and(eq(wechatBindings.id, id), eq(wechatBindings.userId, userId)))
    .returning();
  return b;
}

export async function userById(db: DbOrTx, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u;
}
