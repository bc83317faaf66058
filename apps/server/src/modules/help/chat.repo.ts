import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { chatConversations, chatMessages, enterprises, users } from '../../db/schema';

/** Queries of customer-service conversations and their messages (screen 23). */

export type ConversationRow = typeof chatConversations.$inferSelect;

const lastMessage = sql<string>`coalesce((select m.body from ${chatMessages} m where m.conversation_id = ${chatConversations.id} order by m.seq desc limit 1), '')`;

const conversationColumns = {
  id: chatConversations.id,
  userId: chatConversations.userId,
  userName: users.userName,
  enterpriseName: enterprises.name,
  status: chatConversations.status,
  agentUnread: chatConversations.agentUnread,
  userUnread: chatConversations.userUnread,
  lastMessage,
  lastMessageAt: chatConversations.lastMessageAt,
  createdAt: chatConversations.createdAt,
};

const withPeople = (db: DbOrTx) =>
  db
    .select(conversationColumns)
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.userId))
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId));

export type ConversationView = Awaited<ReturnType<typeof conversationView>>;

export async function conversationView(db: DbOrTx, id: string) {
  const [c] = await withPeople(db).where(eq(chatConversations.id, id));
  return c;
}

/** The user's open conversation, else their latest one. */
export async function latestOf(db: DbOrTx, userId: string) {
  const [c] = await withPeople(db)
    .where(eq(chatConversations.userId, userId))
    .orderBy(sql`${chatConversations.status} = 'open' desc`, desc(chatConversations.createdAt))
    .limit(1);
  return c;
}

/** The console's list: unread first, then the latest message first. */
export async function queue(db: DbOrTx, status: 'open' | 'closed') {
  return withPeople(db)
    .where(eq(chatConversations.status, status))
    .orderBy(sql`${chatConversations.agentUnread} > 0 desc`, desc(chatConversations.lastMessageAt))
    .limit(200);
}

export async function lockConversation(tx: Tx, id: string) {
  const [c] = await tx.select().from(chatConversations).where(eq(chatConversations.id, id)).for('update');
  return c;
}

/** The user's open conversation, locked; a new one when there is none (one open conversation per user). */
export async function openConversationOf(tx: Tx, userId: string, now: Date) {
  // serialise a user's first messages: two tabs must not open two conversations
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('chat:' || ${userId}))`);
  const [c] = await tx
    .select()
    .from(chatConversations)
    .where(and(eq(chatConversations.userId, userId), eq(chatConversations.status, 'open')))
    .for('update');
  if (c) return c;
  const [n] = await tx.insert(chatConversations).values({ userId, lastMessageAt: now, createdAt: now }).returning();
  return n!;
}

export async function insertMessage(tx: Tx, row: typeof chatMessages.$inferInsert) {
  const [m] = await tx.insert(chatMessages).values(row).returning();
  return m!;
}

export async function updateConversation(tx: DbOrTx, id: string, set: Partial<typeof chatConversations.$inferInsert>) {
  await tx.update(chatConversations).set(set).where(eq(chatConversations.id, id));
}

export async function messagesOf(db: DbOrTx, conversationId: string) {
  return db
    .select({
      id: chatMessages.id,
      sender: chatMessages.sender,
      senderName: users.userName,
      body: chatMessages.body,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.senderId))
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(asc(chatMessages.seq))
    .limit(500);
}
