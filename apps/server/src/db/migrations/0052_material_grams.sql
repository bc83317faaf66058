-- The character pairs of a text (its bigrams), distinct and sorted: what material_prices.grams holds (a keyword's pairs
-- are looked up in its GIN index). Immutable, so a generated column may call it.
CREATE OR REPLACE FUNCTION material_grams(t text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT substr(t, i, 2) ORDER BY substr(t, i, 2)), '{}'::text[])
        FROM generate_series(1, length(t) - 1) AS i $$;--> statement-breakpoint
ALTER TABLE "material_prices" ADD COLUMN "grams" text[] GENERATED ALWAYS AS (material_grams(lower(code || ' ' || name))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "material_prices_grams_idx" ON "material_prices" USING gin ("grams");