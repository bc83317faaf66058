import type { ChatConversation, ChatMessage, ChatThread } from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { sanitizePlainText } from '../../platform/sanitize';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './chat.repo';

/**
 * Customer service, human mode (screen 23): a user's conversation with the administrators. A user has one open
 * conversation at a time and sees only their own; administrators answer from the console. Messages are plain text,
 * sanitised before they are stored. Every message tells the user's tabs (`chat`) and the agents (`chat-queue`) live.
 */

const GL_NAME = '在线客服';
const AGENTS = { roles: ['admin'] };

const isAgent = (a: AuthContext) => a.user.loginRoleType === 'M';

function toConversation(c: repo.ConversationView): ChatConversation {
  return {
    id: c!.id,
    userId: c!.userId,
    userName: c!.userName,
    enterpriseName: c!.enterpriseName,
    status: c!.status === 'closed' ? 'closed' : 'open',
    agentUnread: c!.agentUnread,
    userUnread: c!.userUnread,
    lastMessage: c!.lastMessage,
    lastMessageAt: c!.lastMessageAt.toISOString(),
    createdAt: c!.createdAt.toISOString(),
  };
}

const toMessage = (m: { id: string; sender: string; senderName: string; body: string; createdAt: Date }) =>
  ({
    id: m.id,
    sender: m.sender === 'agent' ? 'agent' : 'user',
    senderName: m.senderName,
    body: m.body,
    createdAt: m.createdAt.toISOString(),
  }) satisfies ChatMessage;

/** Plain text without markup: what is left after the sanitiser, never empty. */
function cleanText(text: string): string {
  const body = sanitizePlainText(text).trim();
  if (!body) throw badRequest('消息内容不能为空');
  return body;
}

async function threadOf(db: Db, c: repo.ConversationView): Promise<ChatThread> {
  if (!c) return { conversation: null, messages: [] };
  return { conversation: toConversation(c), messages: (await repo.messagesOf(db, c.id)).map(toMessage) };
}

/** The caller's current (open, else latest) conversation; the agents' messages count as read. */
export async function mine(db: Db, auth: AuthContext): Promise<ChatThread> {
  const c = await repo.latestOf(db, auth.user.id);
  if (c && c.userUnread > 0) {
    await repo.updateConversation(db, c.id, { userUnread: 0 });
    c.userUnread = 0;
  }
  return threadOf(db, c);
}

/** A user's message: into their open conversation (a new one when none is open). */
export async function send(db: Db, auth: AuthContext, text: string, now: Date): Promise<ChatMessage> {
  if (isAgent(auth)) throw forbidden('管理员请在客服工作台回复用户');
  const body = cleanText(text);
  return db.transaction(async (tx) => {
    const c = await repo.openConversationOf(tx, auth.user.id, now);
    const m = await repo.insertMessage(tx, {
      conversationId: c.id,
      sender: 'user',
      senderId: auth.user.id,
      body,
      createdAt: now,
    });
    await repo.updateConversation(tx, c.id, { agentUnread: c.agentUnread + 1, lastMessageAt: now });
    await publishEvent(tx, AGENTS, 'chat-queue', { conversationId: c.id });
    await publishEvent(tx, { users: [auth.user.id] }, 'chat', { conversationId: c.id });
    return toMessage({ ...m, senderName: auth.user.userName });
  });
}

/** The console's list of open (or closed) conversations, unread first. */
export async function queue(db: Db, status: 'open' | 'closed'): Promise<ChatConversation[]> {
  return (await repo.queue(db, status)).map(toConversation);
}

/** One conversation: its user's own, or any for an administrator; the other side's messages count as read. */
export async function thread(db: Db, auth: AuthContext, id: string): Promise<ChatThread> {
  const c = await repo.conversationView(db, id);
  if (!c || (!isAgent(auth) && c.userId !== auth.user.id)) throw notFound('会话不存在');
  if (isAgent(auth) && c.agentUnread > 0) {
    await repo.updateConversation(db, c.id, { agentUnread: 0 });
    c.agentUnread = 0;
  } else if (!isAgent(auth) && c.userUnread > 0) {
    await repo.updateConversation(db, c.id, { userUnread: 0 });
    c.userUnread = 0;
  }
  return threadOf(db, c);
}

/** An administrator's answer in an open conversation. */
export async function reply(
  db: Db,
  auth: AuthContext,
  input: { conversationId: string; text: string },
  now: Date,
): Promise<ChatMessage> {
  const body = cleanText(input.text);
  return db.transaction(async (tx) => {
    const c = await repo.lockConversation(tx, input.conversationId);
    if (!c) throw notFound('会话不存在');
    if (c.status !== 'open') throw conflict('会话已结束');
    const m = await repo.insertMessage(tx, {
      conversationId: c.id,
      sender: 'agent',
      senderId: auth.user.id,
      body,
      createdAt: now,
    });
    await repo.updateConversation(tx, c.id, { userUnread: c.userUnread + 1, agentUnread: 0, lastMessageAt: now });
    await publishEvent(tx, { users: [c.userId] }, 'chat', { conversationId: c.id });
    await publishEvent(tx, AGENTS, 'chat-queue', { conversationId: c.id });
    return toMessage({ ...m, senderName: auth.user.userName });
  });
}

/** An administrator ends a conversation; its messages stay. */
export async function close(db: Db, auth: AuthContext, conversationId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const c = await repo.lockConversation(tx, conversationId);
    if (!c) throw notFound('会话不存在');
    if (c.status !== 'open') throw conflict('会话已结束');
    await repo.updateConversation(tx, c.id, {
      status: 'closed',
      closedAt: now,
      closedBy: auth.user.id,
      agentUnread: 0,
    });
    await writeOpLog(tx, auth.actor, { glName: GL_NAME, recordId: c.id, logbook: '结束客服会话' });
    await publishEvent(tx, { users: [c.userId] }, 'chat', { conversationId: c.id });
    await publishEvent(tx, AGENTS, 'chat-queue', { conversationId: c.id });
  });
}
