-- Trigram indexes (pg_trgm) serve the substring search of free-text fields (`like '%…%'`) on engine node tables.
-- PostgreSQL ships it in contrib (a trusted extension: the database owner may create it); the embedded PGlite loads
-- it as an extension when it opens the database (db/client.ts).
create extension if not exists pg_trgm;
