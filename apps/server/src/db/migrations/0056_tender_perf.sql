ALTER TABLE "tender_sections" ADD COLUMN "perf_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "perf_min_amount" numeric(15, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "perf_years" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD CONSTRAINT "tender_sections_perf_ck" CHECK ("tender_sections"."perf_count" between 0 and 20 and "tender_sections"."perf_years" between 1 and 10 and "tender_sections"."perf_min_amount" >= 0);