import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Column builders the tables share: the generated uuid key, and times with their time zone. */

/** `id uuid primary key default gen_random_uuid()` */
export const id = () => uuid('id').primaryKey().defaultRandom();

/** A `timestamptz` column. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** `created_at timestamptz not null default now()` */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** `updated_at timestamptz not null default now()` (the code that changes a row sets it). */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();
