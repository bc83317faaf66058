import { LOGIN_ROLE_LABELS, type LoginRoleType } from '@ks/contracts';
import type { Db } from '../db/client';
import { operationLogs } from '../db/schema';

export interface Actor {
  userId: string | null;
  userName: string;
  loginRoleType: LoginRoleType | 'SYS';
  ip?: string | null;
}

export const SYSTEM_ACTOR: Actor = { userId: null, userName: '系统', loginRoleType: 'SYS' };

export function classificationOf(t: Actor['loginRoleType']): string {
  return t === 'SYS' ? '系统' : LOGIN_ROLE_LABELS[t];
}

/** Append one operation-log row; call inside the transaction of the change it records. */
export async function writeOpLog(
  db: Db,
  actor: Actor,
  entry: { glName: string; logbook: string; gnCoding?: string; recordId?: string; failInfo?: string | null },
): Promise<void> {
  await db.insert(operationLogs).values({
    glName: entry.glName,
    gnCoding: entry.gnCoding ?? null,
    recordId: entry.recordId ?? null,
    czrClassification: classificationOf(actor.loginRoleType),
    czrName: actor.userName,
    userId: actor.userId,
    logbook: entry.logbook,
    failInfo: entry.failInfo ?? null,
    ip: actor.ip ?? null,
  });
}
