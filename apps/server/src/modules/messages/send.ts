import type { MessageKind } from '@ks/contracts';
import type { DbOrTx } from '../../db/client';
import { userMessages } from '../../db/schema';
import { publishEvent } from '../../platform/live';

export interface NewMessage {
  userId: string;
  kind: MessageKind;
  title: string;
  /** plain text, or HTML already sanitised */
  body: string;
  reason?: string | null;
  /** the record the message is about (it opens there) */
  gnCoding?: string | null;
  recordId?: string | null;
  link?: string | null;
  broadcastId?: string | null;
  createdAt?: Date;
}

/**
 * The one way a message reaches users' message centres: stores the messages in the caller's transaction and tells
 * each recipient's tabs ('message'), delivered once the transaction commits. Answers the new ids in order.
 */
export async function sendUserMessages(tx: DbOrTx, messages: readonly NewMessage[]): Promise<string[]> {
  if (!messages.length) return [];
  const rows = await tx
    .insert(userMessages)
    .values(
      messages.map((m) => ({
        userId: m.userId,
        kind: m.kind,
        title: m.title.slice(0, 200),
        body: m.body,
        reason: m.reason ?? null,
        gnCoding: m.gnCoding ?? null,
        recordId: m.recordId ?? null,
        link: m.link ?? null,
        broadcastId: m.broadcastId ?? null,
        ...(m.createdAt ? { createdAt: m.createdAt } : {}),
      })),
    )
    .returning({ id: userMessages.id });
  const kinds = [...new Set(messages.map((m) => m.kind))];
  await publishEvent(tx, { users: messages.map((m) => m.userId) }, 'message', { kinds });
  return rows.map((r) => r.id);
}
