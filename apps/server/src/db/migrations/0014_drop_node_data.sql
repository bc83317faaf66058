-- The record tables of engine nodes (n_<code>) were created with a "data" jsonb column that nothing reads or writes
-- (every field has a typed column of its own): it goes from the tables of the nodes that exist.
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND a.attname = 'data' AND NOT a.attisdropped
      AND EXISTS (SELECT 1 FROM "menu_nodes" m WHERE 'n_' || lower(m."gn_coding") = c.relname)
  LOOP
    EXECUTE format('ALTER TABLE %I DROP COLUMN "data"', t.relname);
  END LOOP;
END $$;
