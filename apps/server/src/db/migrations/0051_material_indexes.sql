DROP INDEX "material_prices_class_idx";--> statement-breakpoint
DROP INDEX "material_prices_county_idx";--> statement-breakpoint
ALTER TABLE "material_prices" drop column "search_text";--> statement-breakpoint
ALTER TABLE "material_prices" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(code || ' ' || name)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "material_prices_class_idx" ON "material_prices" USING btree ("period_id","classification","material_group","code","id");--> statement-breakpoint
CREATE INDEX "material_prices_county_idx" ON "material_prices" USING btree ("period_id","county","classification","code","id");--> statement-breakpoint
-- dropping the column dropped its trigram index: made again on the new (lower-cased) column
CREATE INDEX "material_prices_search_trgm_idx" ON "material_prices" USING gin ("search_text" gin_trgm_ops);