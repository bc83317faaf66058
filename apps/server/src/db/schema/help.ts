import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { files } from './files';

/**
 * Help of a business system or one of its nodes (spec screen 10, §3 help group): groups of help files (PDF or video,
 * uploaded through the files module and bound to the group's file row) and question-and-answer items. A row with no
 * gn_coding is the system's own help, shown on every page of the system.
 */
export const helpGroups = pgTable(
  'help_groups',
  {
    id: id(),
    systemCoding: varchar('system_coding', { length: 63 }).notNull(),
    /** the node; null: the whole system */
    gnCoding: varchar('gn_coding', { length: 63 }),
    groupName: varchar('group_name', { length: 60 }).notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('help_groups_place_idx').on(t.systemCoding, t.gnCoding, t.sort)],
);

/** A help file of a group: the stored file (files module, source `help`), its kind (pdf | video). */
export const helpFiles = pgTable(
  'help_files',
  {
    id: id(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => helpGroups.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    kind: varchar('kind', { length: 8 }).notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('help_files_group_idx').on(t.groupId, t.sort)],
);

/**
 * Frequently asked questions of a system or node. `search_text` (question and answer) carries a trigram GIN index:
 * the customer-service robot finds the nearest questions by pg_trgm word similarity, which handles Chinese without a
 * segmenter.
 */
export const helpFaqs = pgTable(
  'help_faqs',
  {
    id: id(),
    systemCoding: varchar('system_coding', { length: 63 }).notNull(),
    gnCoding: varchar('gn_coding', { length: 63 }),
    question: varchar('question', { length: 200 }).notNull(),
    answer: text('answer').notNull(),
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`question || ' ' || answer`),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('help_faqs_place_idx').on(t.systemCoding, t.gnCoding, t.sort),
    index('help_faqs_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/**
 * Customer-service conversations (screen 23, human mode): one user with the administrators. A user has at most one
 * open conversation; closed ones stay as history. Unread counts per side drive the console's order and badges.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** open | closed */
    status: varchar('status', { length: 8 }).notNull().default('open'),
    /** messages of the user the agents have not read yet */
    agentUnread: integer('agent_unread').notNull().default(0),
    /** messages of the agents the user has not read yet */
    userUnread: integer('user_unread').notNull().default(0),
    lastMessageAt: timestamptz('last_message_at').notNull().defaultNow(),
    closedAt: timestamptz('closed_at'),
    closedBy: uuid('closed_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_conversations_user_idx').on(t.userId, t.createdAt),
    index('chat_conversations_queue_idx').on(t.status, t.lastMessageAt),
  ],
);

/** One message of a conversation: plain text, sanitised before it is stored. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    /** the order of a conversation's messages (several may share a time) */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    /** user | agent */
    sender: varchar('sender', { length: 8 }).notNull(),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_conversation_idx').on(t.conversationId, t.seq)],
);
