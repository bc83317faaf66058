CREATE TABLE "cost_detections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"status" varchar(10) DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text,
	"files" jsonb NOT NULL,
	"results" jsonb,
	"published_at" timestamp with time zone,
	CONSTRAINT "cost_detections_status_ck" CHECK ("cost_detections"."status" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "cost_detections_failed_ck" CHECK (("cost_detections"."status" = 'failed') = ("cost_detections"."error" is not null))
);
--> statement-breakpoint
CREATE TABLE "cost_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"storage_key" varchar(255) NOT NULL,
	"size" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"tree" jsonb NOT NULL,
	"meta" jsonb NOT NULL,
	"bid_price" numeric(16, 2),
	"control_price" numeric(16, 2),
	"line_count" integer NOT NULL,
	"uploaded_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_files_sha_ck" CHECK ("cost_files"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "cost_detections" ADD CONSTRAINT "cost_detections_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_detections" ADD CONSTRAINT "cost_detections_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_files" ADD CONSTRAINT "cost_files_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_files" ADD CONSTRAINT "cost_files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_files" ADD CONSTRAINT "cost_files_uploaded_by_id_users_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cost_detections_active_uq" ON "cost_detections" USING btree ("section_id") WHERE "cost_detections"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "cost_detections_section_idx" ON "cost_detections" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE INDEX "cost_detections_claim_idx" ON "cost_detections" USING btree ("status","lease_until");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_files_bidder_uq" ON "cost_files" USING btree ("section_id","enterprise_id");