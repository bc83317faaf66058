CREATE TABLE "enterprise_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"values" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"submitted_by" uuid NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "enterprise_changes_status_ck" CHECK ("enterprise_changes"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "enterprise_changes_reason_ck" CHECK ("enterprise_changes"."status" <> 'rejected' or coalesce("enterprise_changes"."reason", '') <> '')
);
--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "project_name" varchar(200);--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "section_name" varchar(200);--> statement-breakpoint
ALTER TABLE "enterprise_changes" ADD CONSTRAINT "enterprise_changes_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_changes" ADD CONSTRAINT "enterprise_changes_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_changes" ADD CONSTRAINT "enterprise_changes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_changes_one_pending_uq" ON "enterprise_changes" USING btree ("enterprise_id") WHERE "enterprise_changes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "enterprise_changes_enterprise_idx" ON "enterprise_changes" USING btree ("enterprise_id","submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "enterprise_changes_status_idx" ON "enterprise_changes" USING btree ("status","submitted_at" DESC NULLS LAST);