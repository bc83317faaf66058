CREATE TABLE "credit_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gn_coding" varchar(63) NOT NULL,
	"business_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"status" varchar(2) DEFAULT '1' NOT NULL,
	"kind" varchar(10),
	"change_type" varchar(200),
	"change_type_code" varchar(200),
	"logbook" text,
	"data_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"saved" boolean DEFAULT false NOT NULL,
	"submitted" boolean DEFAULT false NOT NULL,
	"sb_time" timestamp with time zone,
	"cz_time" timestamp with time zone,
	"audit_record" varchar(500),
	"auditor_name" varchar(64),
	"pass" boolean,
	"created_by" uuid,
	"created_by_name" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "credit_changes_status_ck" CHECK ("credit_changes"."status" in ('1', '2', '-1')),
	CONSTRAINT "credit_changes_round_ck" CHECK ("credit_changes"."round" >= 1),
	CONSTRAINT "credit_changes_kind_ck" CHECK ("credit_changes"."kind" is null or "credit_changes"."kind" in ('info', 'time', 'contact', 'other')),
	CONSTRAINT "credit_changes_submitted_ck" CHECK (not "credit_changes"."submitted" or ("credit_changes"."saved" and "credit_changes"."sb_time" is not null)),
	CONSTRAINT "credit_changes_decided_ck" CHECK ("credit_changes"."status" = '1' or ("credit_changes"."cz_time" is not null and "credit_changes"."pass" is not null)),
	CONSTRAINT "credit_changes_rejected_ck" CHECK ("credit_changes"."status" <> '-1' or coalesce(btrim("credit_changes"."audit_record"), '') <> '')
);
--> statement-breakpoint
CREATE TABLE "user_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" varchar(200) NOT NULL,
	"body" text NOT NULL,
	"link" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "contact_user_id" uuid;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "contact_name" varchar(64);--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "contact_phone" varchar(30);--> statement-breakpoint
ALTER TABLE "credit_changes" ADD CONSTRAINT "credit_changes_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_changes" ADD CONSTRAINT "credit_changes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_changes_round_uq" ON "credit_changes" USING btree ("gn_coding","business_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_changes_one_open_uq" ON "credit_changes" USING btree ("gn_coding","business_id") WHERE "credit_changes"."status" = '1';--> statement-breakpoint
CREATE INDEX "credit_changes_enterprise_idx" ON "credit_changes" USING btree ("enterprise_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_messages_user_idx" ON "user_messages" USING btree ("user_id","created_at" DESC NULLS LAST);