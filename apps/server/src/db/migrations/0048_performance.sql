ALTER TABLE "performances" ADD COLUMN "builder" varchar(200);--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "region" varchar(60);--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "started_at" date;--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "record_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "performances_record_uq" ON "performances" USING btree ("record_id");