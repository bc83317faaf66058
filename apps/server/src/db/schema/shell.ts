import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { businessSystems } from './platform';

/**
 * The configurable shell: a menu tree per business system whose items are nodes (spec §3 menu item, §7
 * Configuration). A node's code (gn_coding) is unique across systems and immutable; its properties drive routing.
 */
export const menuNodes = pgTable(
  'menu_nodes',
  {
    id: id(),
    systemId: uuid('system_id')
      .notNull()
      .references(() => businessSystems.id),
    parentId: uuid('parent_id').references((): AnyPgColumn => menuNodes.id),
    gnCoding: varchar('gn_coding', { length: 63 }).notNull(),
    title: varchar('title', { length: 30 }).notNull(),
    icon: varchar('icon', { length: 40 }),
    /** 是 shown in the sidebar, 否 hidden */
    itShows: varchar('it_shows', { length: 2 }).notNull().default('是'),
    nodeProperties: varchar('node_properties', { length: 30 }).notNull().default('list'),
    style: varchar('style', { length: 10 }).notNull().default('table'),
    nodeSetFlag: boolean('node_set_flag').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    groupName: varchar('group_name', { length: 30 }),
    dataSource: varchar('data_source', { length: 63 }).notNull().default('engine'),
    sort: integer('sort').notNull().default(0),
    /** screen 20: the score the sidebar shows beside the node (e.g. a credit standard's full marks); null: none */
    score: numeric('score', { precision: 7, scale: 2 }),
    /** §3 table columns of the node's list */
    columns: jsonb('columns').notNull().default([]),
    /** §3 card style, null until configured */
    cardStyle: jsonb('card_style'),
    charts: jsonb('charts').notNull().default([]),
    /** the schema engine's field list (contracts FieldDef[]); the node's record table follows it */
    fields: jsonb('fields').notNull().default([]),
    /** the node's uniqueness constraints (contracts UniqueKey[]), each kept by a unique index on its record table */
    uniqueKeys: jsonb('unique_keys').notNull().default([]),
    /** version of `fields`, bumped by every schema change (optimistic: a stale save is a 409) */
    fieldsVersion: integer('fields_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('menu_nodes_gn_coding_uq').on(t.gnCoding),
    index('menu_nodes_tree_idx').on(t.systemId, t.parentId, t.sort),
  ],
);

/** `node_id`: the node a row belongs to, which takes the row with it when deleted. */
export const ownedByNode = () =>
  uuid('node_id')
    .notNull()
    .references(() => menuNodes.id, { onDelete: 'cascade' });

/**
 * The one code space of business systems and nodes (both travel as gnCoding), case-insensitive: a node's table is
 * named from its code in lower case, so `RaceNode` and `racenode` must never both exist. Kept by row triggers on
 * business_systems and menu_nodes (migration), so the database refuses the second of two concurrent creates
 * (a unique violation: 409) whatever the application checked before.
 */
export const gnCodes = pgTable('gn_codes', {
  /** lower(gn_coding) */
  code: varchar('code', { length: 63 }).primaryKey(),
  /** system | node */
  kind: varchar('kind', { length: 8 }).notNull(),
  ownerId: uuid('owner_id').notNull(),
});

/** Buttons of a node (spec §3 operation: code, name, color, show). */
export const nodeFunctions = pgTable(
  'node_functions',
  {
    id: id(),
    nodeId: ownedByNode(),
    code: varchar('code', { length: 40 }).notNull(),
    name: varchar('name', { length: 20 }).notNull(),
    color: varchar('color', { length: 7 }).notNull().default('#409EFF'),
    show: boolean('show').notNull().default(true),
    /** table | form */
    kind: varchar('kind', { length: 8 }).notNull().default('table'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('node_functions_node_code_uq').on(t.nodeId, t.code)],
);

/** Roles: the built-in admin / developer / user (by loginRoleType) and roles administrators add. */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    code: varchar('code', { length: 63 }).notNull(),
    name: varchar('name', { length: 30 }).notNull(),
    builtin: boolean('builtin').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_code_uq').on(t.code)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/**
 * Permission grants: a role (by code) or a user (by id) may see a node (function_code '') and press its functions.
 * Checked on every request (a state read before may be reused only while `access_version` has not moved), so a change
 * takes effect on the next request.
 */
export const grants = pgTable(
  'grants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subjectType: varchar('subject_type', { length: 8 }).notNull(),
    subjectId: varchar('subject_id', { length: 64 }).notNull(),
    nodeId: ownedByNode(),
    functionCode: varchar('function_code', { length: 40 }).notNull().default(''),
  },
  (t) => [
    uniqueIndex('grants_uq').on(t.subjectType, t.subjectId, t.nodeId, t.functionCode),
    index('grants_node_idx').on(t.nodeId, t.functionCode),
  ],
);

/**
 * One row whose `v` moves with every change to what a caller's node state is made of: grants, roles, user_roles,
 * node_functions and menu_nodes (statement triggers, migration 0008). A node state read together with `v` is still
 * exact while `v` has not moved; the list statement checks that instead of reading the state again.
 */
export const accessVersion = pgTable('access_version', {
  id: integer('id').primaryKey(),
  v: bigint('v', { mode: 'number' }).notNull().default(0),
});

export const displayGroups = pgTable(
  'display_groups',
  {
    id: id(),
    systemId: uuid('system_id')
      .notNull()
      .references(() => businessSystems.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 30 }).notNull(),
    icon: varchar('icon', { length: 40 }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('display_groups_system_name_uq').on(t.systemId, t.name)],
);

/** Header dropdown entries (spec §2), each for the login role types listed. */
export const headerMenus = pgTable('header_menus', {
  key: varchar('key', { length: 40 }).primaryKey(),
  label: varchar('label', { length: 20 }).notNull(),
  path: varchar('path', { length: 200 }).notNull(),
  icon: varchar('icon', { length: 40 }).notNull(),
  roleTypes: jsonb('role_types').$type<string[]>().notNull(),
  sort: integer('sort').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
});

export const userThemes = pgTable('user_themes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  theme: jsonb('theme').notNull(),
  updatedAt: updatedAt(),
});

/** Audit levels of a node and the way each level decides (single / all / any). */
export const auditLevels = pgTable(
  'audit_levels',
  {
    id: id(),
    nodeId: ownedByNode(),
    level: integer('level').notNull(),
    name: varchar('name', { length: 30 }).notNull(),
    way: varchar('way', { length: 8 }).notNull().default('any'),
    reviewerRoles: jsonb('reviewer_roles').$type<string[]>().notNull().default([]),
    reviewerUserIds: jsonb('reviewer_user_ids').$type<string[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('audit_levels_node_level_uq').on(t.nodeId, t.level)],
);

/** Where a message of a type jumps to (jumpNoticeCfg). */
export const noticeJumps = pgTable('notice_jumps', {
  id: id(),
  name: varchar('name', { length: 30 }).notNull(),
  msgType: varchar('msg_type', { length: 10 }).notNull(),
  nodeId: ownedByNode(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
});

export const styleTemplates = pgTable('style_templates', {
  id: id(),
  name: varchar('name', { length: 30 }).notNull(),
  kind: varchar('kind', { length: 8 }).notNull(),
  columns: jsonb('columns'),
  cardStyle: jsonb('card_style'),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** Every schema change of a node's record table: the field list saved and the DDL it ran. */
export const nodeSchemaHistory = pgTable(
  'node_schema_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    nodeId: ownedByNode(),
    version: integer('version').notNull(),
    fields: jsonb('fields').notNull(),
    ddl: jsonb('ddl').$type<string[]>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('node_schema_history_uq').on(t.nodeId, t.version)],
);

/** Review history of engine records (the auditFlow column): submissions, decisions and revocations. */
export const recordAudits = pgTable(
  'record_audits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    nodeId: ownedByNode(),
    recordId: uuid('record_id').notNull(),
    level: integer('level').notNull(),
    /** submit | pass | reject | revoke */
    action: varchar('action', { length: 8 }).notNull(),
    suggestion: varchar('suggestion', { length: 500 }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: varchar('user_name', { length: 64 }).notNull(),
    /** the round: bumped by every submission, so decisions of an earlier round never count again */
    round: integer('round').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index('record_audits_record_idx').on(t.nodeId, t.recordId, t.id)],
);

/**
 * Per engine node, a `v` that moves with every change to its records (a statement trigger on the node's table, made
 * with it) and to its to-do items (a row trigger on todos): a count of the node's records made when `v` (and
 * `access_version`) had a value still holds while they have it.
 */
export const nodeDataVersions = pgTable('node_data_versions', {
  nodeId: uuid('node_id').primaryKey(),
  v: bigint('v', { mode: 'number' }).notNull().default(0),
});

/** To-do items of reviewers: open until the level is decided or the submission revoked. */
export const todos = pgTable(
  'todos',
  {
    id: id(),
    nodeId: ownedByNode(),
    systemId: uuid('system_id')
      .notNull()
      .references(() => businessSystems.id, { onDelete: 'cascade' }),
    recordId: uuid('record_id').notNull(),
    level: integer('level').notNull(),
    /** role | user */
    assigneeType: varchar('assignee_type', { length: 8 }).notNull(),
    assigneeId: varchar('assignee_id', { length: 64 }).notNull(),
    businessName: varchar('business_name', { length: 200 }).notNull(),
    submitterName: varchar('submitter_name', { length: 64 }).notNull(),
    sbTime: timestamptz('sb_time').notNull(),
    doneAt: timestamptz('done_at'),
  },
  (t) => [
    index('todos_open_idx').on(t.assigneeType, t.assigneeId, t.doneAt, t.systemId),
    // the message centre's counts (per system and node, distinct records) read open to-dos from this index alone
    index('todos_open_cover_idx')
      .on(t.assigneeType, t.assigneeId, t.systemId, t.nodeId, t.recordId)
      .where(sql`${t.doneAt} is null`),
    index('todos_record_idx').on(t.nodeId, t.recordId),
  ],
);
