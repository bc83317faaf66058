import { MESSAGE_KIND_JUMP, MESSAGE_TEXT, type MessageKind } from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, notFound, validationFailed } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { Caller } from '../../platform/permissions';
import { sanitizeRichText } from '../../platform/sanitize';
import { todoCounts } from '../engine/todos.service';
import { jumpResolver, nodeLinks } from './jumps';
import * as repo from './messages.repo';
import { sendUserMessages } from './send';

const GL = '消息中心';
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** The bell: the caller's open to-dos (one per record and node) and unread messages. */
export async function messageCounts(db: Db, c: Caller) {
  const [{ bySystem }, unread] = await Promise.all([todoCounts(db, c), repo.unreadCount(db, c.id)]);
  let todos = 0;
  for (const n of bySystem.values()) todos += n;
  return { todos, unread };
}

export async function messageList(
  db: Db,
  c: Caller,
  q: { curPage: number; pageSize: number; kind?: MessageKind; unreadOnly?: boolean },
) {
  const [{ records, total }, unread, resolve] = await Promise.all([
    repo.messagePage(db, c.id, { ...q, offset: (q.curPage - 1) * q.pageSize, limit: q.pageSize }),
    repo.unreadCount(db, c.id),
    jumpResolver(db, c.loginRoleType === 'M'),
  ]);
  const nodes = await nodeLinks(
    db,
    records.flatMap((r) => (r.m.gnCoding ? [r.m.gnCoding] : [])),
  );
  return {
    records: records.map(({ m, senderName }) => {
      const kind = m.kind as MessageKind;
      return {
        id: m.id,
        kind,
        title: m.title,
        body: m.body,
        reason: m.reason,
        senderName: senderName ?? null,
        createdAt: iso(m.createdAt)!,
        readAt: iso(m.readAt),
        path: resolve(
          MESSAGE_KIND_JUMP[kind] ?? 'message',
          m.gnCoding ? (nodes.get(m.gnCoding) ?? null) : null,
          m.recordId,
          m.link,
        ),
      };
    }),
    total,
    unread,
  };
}

/** Rejections of the caller's records, with the reviewer's reason and where the record opens. */
export async function rejectedMessages(db: Db, c: Caller, q: { curPage: number; pageSize: number }) {
  const page = await messageList(db, c, { ...q, kind: 'rejected' });
  const raw = await repo.messagePage(db, c.id, {
    kind: 'rejected',
    offset: (q.curPage - 1) * q.pageSize,
    limit: q.pageSize,
  });
  const byId = new Map(raw.records.map((r) => [r.m.id, r.m]));
  return {
    records: page.records.map((m) => ({
      id: m.id,
      title: m.title,
      reason: m.reason ?? '',
      gnCoding: byId.get(m.id)?.gnCoding ?? null,
      recordId: byId.get(m.id)?.recordId ?? null,
      createdAt: m.createdAt,
      readAt: m.readAt,
      path: m.path,
    })),
    total: page.total,
  };
}

/**
 * Marks the caller's messages read (the chosen ones, or all); the caller's other tabs and the senders of
 * administrators' messages (their receipts) are told.
 */
export async function readMessages(db: Db, c: Caller, input: { ids?: string[]; all?: boolean }, now: Date) {
  return db.transaction(async (tx) => {
    const ids = input.all ? null : (input.ids ?? []);
    const senders = ids ? await repo.sendersOf(tx, ids) : [];
    const updated = await repo.markRead(tx, c.id, ids, now);
    if (updated) {
      await publishEvent(tx, { users: [c.id] }, 'message', { read: true });
      const to = senders.flatMap((s) => (s.senderId ? [s.senderId] : []));
      if (to.length) await publishEvent(tx, { users: to }, 'message', { receipts: senders.map((s) => s.id) });
    }
    return { updated, unread: await repo.unreadCount(tx, c.id) };
  });
}

/**
 * An administrator's message: the body sanitised, to the chosen active users and every active member of the chosen
 * roles (as they are now), each recipient once; delivered live; an op-log row.
 */
export async function publishMessage(
  db: Db,
  actor: Actor,
  input: { title: string; body: string; users: string[]; roles: string[] },
  now: Date,
) {
  const body = sanitizeRichText(input.body).trim();
  if (
    !body
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, '')
      .trim() &&
    !/<img\b/i.test(body)
  ) {
    throw validationFailed({ body: [MESSAGE_TEXT.bodyRequired] });
  }
  const userIds = [...new Set(input.users)];
  const roleCodes = [...new Set(input.roles)];
  return db.transaction(async (tx) => {
    const active = await repo.activeUsers(tx, userIds);
    if (active.length !== userIds.length) throw validationFailed({ users: [MESSAGE_TEXT.noSuchRecipients] });
    const known = await repo.knownRoles(tx, roleCodes);
    if (known.size !== roleCodes.length) throw validationFailed({ roles: ['角色不存在'] });
    const recipients = [...new Set([...active, ...(await repo.membersOf(tx, roleCodes))])];
    if (!recipients.length) throw badRequest('所选角色下没有可接收消息的用户');
    const b = await repo.insertBroadcast(tx, {
      title: input.title,
      body,
      senderId: actor.userId,
      senderName: actor.userName,
      toUsers: userIds,
      toRoles: roleCodes,
      recipients: recipients.length,
      createdAt: now,
    });
    await sendUserMessages(
      tx,
      recipients.map((userId) => ({
        userId,
        kind: 'admin' as const,
        title: input.title,
        body,
        broadcastId: b.id,
        createdAt: now,
      })),
    );
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: b.id,
      logbook: `发布消息「${input.title}」：${recipients.length} 位接收人`,
    });
    return { id: b.id, recipients: recipients.length };
  });
}

export async function sentMessages(db: Db, q: { curPage: number; pageSize: number; keyword?: string }) {
  const { records, total } = await repo.sentPage(db, {
    keyword: q.keyword || undefined,
    offset: (q.curPage - 1) * q.pageSize,
    limit: q.pageSize,
  });
  const names = await repo.userNames(
    db,
    records.flatMap((r) => r.b.toUsers),
  );
  const roleNames = await repo.knownRoles(
    db,
    records.flatMap((r) => r.b.toRoles),
  );
  return {
    records: records.map(({ b, readCount }) => ({
      id: b.id,
      title: b.title,
      body: b.body,
      senderName: b.senderName,
      userNames: b.toUsers.map((id) => names.get(id) ?? id),
      roleNames: b.toRoles.map((code) => roleNames.get(code) ?? code),
      recipients: b.recipients,
      readCount: Number(readCount),
      createdAt: iso(b.createdAt)!,
    })),
    total,
  };
}

export async function messageReceipts(db: Db, id: string) {
  if (!(await repo.findBroadcast(db, id))) throw notFound(MESSAGE_TEXT.notFound);
  const rows = await repo.receiptsOf(db, id);
  return rows.map((r) => ({ ...r, readAt: iso(r.readAt) }));
}

export const recipientOptions = (db: Db, keyword?: string) => repo.recipientOptions(db, keyword || undefined);
