CREATE TABLE "bid_opening_bids" (
	"bid_id" uuid PRIMARY KEY NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"decrypted_at" timestamp with time zone,
	"reason" varchar(200),
	"plain_storage_key" varchar(100),
	"price" numeric(15, 2),
	"duration_days" integer,
	"quality" varchar(50),
	"manager" varchar(20),
	"read_order" integer,
	"read_at" timestamp with time zone,
	CONSTRAINT "bid_opening_bids_status_ck" CHECK ("bid_opening_bids"."status" in ('pending', 'decrypted', 'late')),
	CONSTRAINT "bid_opening_bids_decrypted_ck" CHECK ("bid_opening_bids"."status" <> 'decrypted' or ("bid_opening_bids"."decrypted_at" is not null and "bid_opening_bids"."price" is not null and "bid_opening_bids"."plain_storage_key" is not null)),
	CONSTRAINT "bid_opening_bids_read_ck" CHECK ("bid_opening_bids"."read_at" is null or ("bid_opening_bids"."status" = 'decrypted' and "bid_opening_bids"."read_order" is not null))
);
--> statement-breakpoint
CREATE TABLE "bid_opening_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" varchar(10) NOT NULL,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by" uuid,
	CONSTRAINT "bid_opening_responses_kind_ck" CHECK ("bid_opening_responses"."kind" in ('confirm', 'objection')),
	CONSTRAINT "bid_opening_responses_text_ck" CHECK ("bid_opening_responses"."kind" = 'confirm' or "bid_opening_responses"."text" is not null)
);
--> statement-breakpoint
CREATE TABLE "bid_opening_signins" (
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bid_opening_signins_section_id_enterprise_id_pk" PRIMARY KEY("section_id","enterprise_id")
);
--> statement-breakpoint
CREATE TABLE "bid_openings" (
	"section_id" uuid PRIMARY KEY NOT NULL,
	"status" varchar(12) NOT NULL,
	"host_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"decrypt_minutes" integer,
	"decrypt_deadline" timestamp with time zone,
	"seed" char(64),
	"seed_commitment" char(64),
	"drawn_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"failure_reason" varchar(200),
	CONSTRAINT "bid_openings_status_ck" CHECK ("bid_openings"."status" in ('decrypting', 'reading', 'confirming', 'closed', 'failed')),
	CONSTRAINT "bid_openings_started_ck" CHECK ("bid_openings"."status" = 'failed' or ("bid_openings"."decrypt_deadline" is not null and "bid_openings"."seed" is not null and "bid_openings"."seed_commitment" is not null))
);
--> statement-breakpoint
ALTER TABLE "bid_files" ADD COLUMN "summary_cipher" text;--> statement-breakpoint
ALTER TABLE "bid_opening_bids" ADD CONSTRAINT "bid_opening_bids_bid_id_bid_files_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."bid_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_bids" ADD CONSTRAINT "bid_opening_bids_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_bids" ADD CONSTRAINT "bid_opening_bids_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_responses" ADD CONSTRAINT "bid_opening_responses_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_responses" ADD CONSTRAINT "bid_opening_responses_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_responses" ADD CONSTRAINT "bid_opening_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_responses" ADD CONSTRAINT "bid_opening_responses_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_signins" ADD CONSTRAINT "bid_opening_signins_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_signins" ADD CONSTRAINT "bid_opening_signins_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_opening_signins" ADD CONSTRAINT "bid_opening_signins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_openings" ADD CONSTRAINT "bid_openings_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_openings" ADD CONSTRAINT "bid_openings_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bid_opening_bids_section_idx" ON "bid_opening_bids" USING btree ("section_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bid_opening_bids_order_uq" ON "bid_opening_bids" USING btree ("section_id","read_order");--> statement-breakpoint
CREATE INDEX "bid_opening_responses_section_idx" ON "bid_opening_responses" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bid_opening_responses_confirm_uq" ON "bid_opening_responses" USING btree ("section_id","enterprise_id") WHERE "bid_opening_responses"."kind" = 'confirm';