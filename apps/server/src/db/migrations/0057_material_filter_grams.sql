-- btree_gin lets one GIN index hold the period, county and class (=) beside the character pairs (@>): a name search
-- within a class is one index scan instead of a class bitmap ANDed with the pairs' (bench:material). PostgreSQL ships
-- it in contrib (a trusted extension since 13); the embedded PGlite loads it as an extension module (db/client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "material_prices_filter_grams_idx" ON "material_prices" USING gin ("period_id","county","classification","grams");
