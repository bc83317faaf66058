ALTER TABLE "bid_openings" ADD COLUMN "k_candidates" jsonb;--> statement-breakpoint
ALTER TABLE "bid_openings" ADD COLUMN "k_value" numeric(4, 2);