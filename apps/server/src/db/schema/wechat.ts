import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { sessions, users } from './account';
import { id, timestamptz } from './columns';

/**
 * Rotating refresh tokens (issue 15). Every sign-in starts a family; each session of the family has one refresh token
 * (stored as its SHA-256). Trading a refresh token for a new pair marks it rotated and ends its session (revoke reason
 * 'rotated'); a rotated token presented again ends every session of the family (reason 'reuse').
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    /** the sign-in this token descends from (all rotations share it) */
    familyId: uuid('family_id').notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    /** password | wechat | ca | sms: how the family signed in */
    method: varchar('method', { length: 16 }).notNull(),
    /** when the family signed in (the login-devices list shows it) */
    signedInAt: timestamptz('signed_in_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    /** the family's absolute end: rotation does not extend it */
    expiresAt: timestamptz('expires_at').notNull(),
    rotatedAt: timestamptz('rotated_at'),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    uniqueIndex('refresh_tokens_session_uq').on(t.sessionId),
  ],
);

/**
 * A WeChat QR ticket (login or bind): `state` of the qrconnect URL, five minutes, single use. The redirect_uri callback
 * records who scanned (openid, unionid, profile) or that they refused; scan-status consumes it.
 */
export const wechatTickets = pgTable(
  'wechat_tickets',
  {
    state: varchar('state', { length: 64 }).primaryKey(),
    /** login | bind */
    purpose: varchar('purpose', { length: 8 }).notNull(),
    /** bind: the signed-in account the WeChat is bound to */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** set by the callback */
    scannedAt: timestamptz('scanned_at'),
    denied: varchar('denied', { length: 1 }),
    openid: varchar('openid', { length: 128 }),
    unionid: varchar('unionid', { length: 128 }),
    nickname: varchar('nickname', { length: 100 }),
    headimgurl: text('headimgurl'),
    consumedAt: timestamptz('consumed_at'),
  },
  (t) => [
    index('wechat_tickets_expires_idx').on(t.expiresAt),
    check('wechat_tickets_purpose_ck', sql`${t.purpose} in ('login', 'bind')`),
    check('wechat_tickets_bind_user_ck', sql`${t.purpose} = 'login' or ${t.userId} is not null`),
  ],
);

/** One WeChat per account per app; a WeChat (openid of the app) is bound to one account at most. */
export const wechatBindings = pgTable(
  'wechat_bindings',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: varchar('app_id', { length: 64 }).notNull(),
    openid: varchar('openid', { length: 128 }).notNull(),
    unionid: varchar('unionid', { length: 128 }),
    nickname: varchar('nickname', { length: 100 }).notNull().default(''),
    headimgurl: text('headimgurl'),
    boundAt: timestamptz('bound_at').notNull(),
  },
  (t) => [
    uniqueIndex('wechat_bindings_user_app_uq').on(t.userId, t.appId),
    uniqueIndex('wechat_bindings_app_openid_uq').on(t.appId, t.openid),
    index('wechat_bindings_unionid_idx').on(t.unionid),
  ],
);
