CREATE TABLE "expert_extraction_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"extraction_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"seq" integer NOT NULL,
	"expert_id" uuid NOT NULL,
	"specialty" varchar(40) NOT NULL,
	"name" varchar(40) NOT NULL,
	"gender" varchar(4) DEFAULT '' NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"employer" varchar(200) DEFAULT '' NOT NULL,
	"title" varchar(40) DEFAULT '' NOT NULL,
	"region" varchar(20) DEFAULT '' NOT NULL,
	"answer" varchar(10) DEFAULT 'pending' NOT NULL,
	"note" varchar(500) DEFAULT '' NOT NULL,
	"answered_at" timestamp with time zone,
	"answered_by" varchar(64),
	"replacement" boolean DEFAULT false NOT NULL,
	"drawn_at" timestamp with time zone NOT NULL,
	CONSTRAINT "expert_extraction_members_answer_ck" CHECK ("expert_extraction_members"."answer" in ('pending', 'confirmed', 'declined')),
	CONSTRAINT "expert_extraction_members_decline_ck" CHECK ("expert_extraction_members"."answer" <> 'declined' or length(btrim("expert_extraction_members"."note")) > 0),
	CONSTRAINT "expert_extraction_members_answered_ck" CHECK (("expert_extraction_members"."answer" = 'pending') = ("expert_extraction_members"."answered_at" is null))
);
--> statement-breakpoint
CREATE TABLE "expert_extractions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" varchar(32) NOT NULL,
	"project_name" varchar(200) NOT NULL,
	"section_name" varchar(200) NOT NULL,
	"project_ref" varchar(64) DEFAULT '' NOT NULL,
	"location" varchar(200) DEFAULT '' NOT NULL,
	"opening_at" varchar(16) NOT NULL,
	"evaluation_start_at" varchar(16) NOT NULL,
	"conditions" jsonb NOT NULL,
	"status" varchar(10) DEFAULT 'draft' NOT NULL,
	"seed_hash" varchar(64),
	"seed" varchar(64),
	"committed_at" timestamp with time zone,
	"pool_hash" varchar(64),
	"pool_snapshot" jsonb,
	"pool_size" integer,
	"eligible" jsonb,
	"drawn_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"created_by" uuid,
	"created_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expert_extractions_status_ck" CHECK ("expert_extractions"."status" in ('draft', 'drawn', 'confirmed', 'published')),
	CONSTRAINT "expert_extractions_commit_ck" CHECK (("expert_extractions"."seed_hash" is null) = ("expert_extractions"."seed" is null) and ("expert_extractions"."seed" is null) = ("expert_extractions"."committed_at" is null) and ("expert_extractions"."seed" is null) = ("expert_extractions"."pool_hash" is null) and ("expert_extractions"."seed" is null) = ("expert_extractions"."pool_snapshot" is null)),
	CONSTRAINT "expert_extractions_drawn_ck" CHECK ("expert_extractions"."status" = 'draft' or ("expert_extractions"."seed" is not null and "expert_extractions"."drawn_at" is not null)),
	CONSTRAINT "expert_extractions_hex_ck" CHECK ("expert_extractions"."seed" is null or ("expert_extractions"."seed" ~ '^[0-9a-f]{64}$' and "expert_extractions"."seed_hash" ~ '^[0-9a-f]{64}$'))
);
--> statement-breakpoint
ALTER TABLE "expert_extraction_members" ADD CONSTRAINT "expert_extraction_members_extraction_id_expert_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."expert_extractions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_extractions" ADD CONSTRAINT "expert_extractions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "expert_extraction_members_seq_uq" ON "expert_extraction_members" USING btree ("extraction_id","line","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "expert_extraction_members_expert_uq" ON "expert_extraction_members" USING btree ("extraction_id","expert_id");--> statement-breakpoint
CREATE INDEX "expert_extraction_members_recent_idx" ON "expert_extraction_members" USING btree ("expert_id","drawn_at");--> statement-breakpoint
CREATE UNIQUE INDEX "expert_extractions_code_uq" ON "expert_extractions" USING btree ("code");--> statement-breakpoint
CREATE INDEX "expert_extractions_created_idx" ON "expert_extractions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "expert_extractions_status_idx" ON "expert_extractions" USING btree ("status","created_at");