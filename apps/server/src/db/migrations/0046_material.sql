CREATE TABLE "material_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"period" varchar(7) NOT NULL,
	"city" varchar(32) NOT NULL,
	"status" varchar(16) DEFAULT 'draft' NOT NULL,
	"row_count" integer NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"imported_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "material_periods_status_ck" CHECK ("material_periods"."status" in ('draft', 'published', 'withdrawn')),
	CONSTRAINT "material_periods_period_ck" CHECK ("material_periods"."period" ~ '^20[0-9]{2}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
CREATE TABLE "material_prices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "material_prices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"period_id" uuid NOT NULL,
	"row_no" integer NOT NULL,
	"county" varchar(32) DEFAULT '' NOT NULL,
	"classification" varchar(32) NOT NULL,
	"material_group" varchar(64) NOT NULL,
	"code" varchar(32) NOT NULL,
	"name" varchar(128) NOT NULL,
	"spec" varchar(128) DEFAULT '' NOT NULL,
	"unit" varchar(16) NOT NULL,
	"price_ex" numeric(12, 2) NOT NULL,
	"price_in" numeric(12, 2) NOT NULL,
	"remark" varchar(256) DEFAULT '' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (code || ' ' || name) STORED NOT NULL,
	CONSTRAINT "material_prices_price_ck" CHECK ("material_prices"."price_ex" >= 0 and "material_prices"."price_in" >= "material_prices"."price_ex")
);
--> statement-breakpoint
ALTER TABLE "material_periods" ADD CONSTRAINT "material_periods_imported_by_id_users_id_fk" FOREIGN KEY ("imported_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_prices" ADD CONSTRAINT "material_prices_period_id_material_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."material_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "material_periods_published_uq" ON "material_periods" USING btree ("period","city") WHERE "material_periods"."status" = 'published';--> statement-breakpoint
CREATE INDEX "material_periods_city_idx" ON "material_periods" USING btree ("city","status","period");--> statement-breakpoint
CREATE UNIQUE INDEX "material_prices_key_uq" ON "material_prices" USING btree ("period_id","county","code","spec");--> statement-breakpoint
CREATE INDEX "material_prices_code_idx" ON "material_prices" USING btree ("period_id","code","id");--> statement-breakpoint
CREATE INDEX "material_prices_class_idx" ON "material_prices" USING btree ("period_id","classification","material_group","code");--> statement-breakpoint
CREATE INDEX "material_prices_county_idx" ON "material_prices" USING btree ("period_id","county","code");--> statement-breakpoint
CREATE INDEX "material_prices_search_trgm_idx" ON "material_prices" USING gin ("search_text" gin_trgm_ops);