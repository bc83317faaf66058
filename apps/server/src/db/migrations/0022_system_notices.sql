CREATE TABLE "notice_reads" (
	"user_id" uuid NOT NULL,
	"notice_id" uuid NOT NULL,
	"read_at" timestamp with time zone,
	"dismissed" boolean DEFAULT false NOT NULL,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "notice_reads_user_id_notice_id_pk" PRIMARY KEY("user_id","notice_id")
);
--> statement-breakpoint
CREATE TABLE "system_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" smallint NOT NULL,
	"title" varchar(100) NOT NULL,
	"msg" text NOT NULL,
	"url" varchar(500),
	"url_name" varchar(200),
	"audience" varchar(16) NOT NULL,
	"role_code" varchar(63),
	"enterprise_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"status" varchar(16) DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_notices_type_ck" CHECK ("system_notices"."type" in (1, 2)),
	CONSTRAINT "system_notices_window_ck" CHECK ("system_notices"."end_at" > "system_notices"."start_at")
);
--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_notice_id_system_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."system_notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_notices" ADD CONSTRAINT "system_notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_reads_notice_idx" ON "notice_reads" USING btree ("notice_id","read_at");--> statement-breakpoint
CREATE INDEX "system_notices_current_idx" ON "system_notices" USING btree ("status","end_at");--> statement-breakpoint
CREATE INDEX "system_notices_updated_idx" ON "system_notices" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Administrators reach 系统通知管理 from the header dropdown, as the other administration pages.
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('systemNotice', '系统通知管理', '/system/systemNotice', 'NotificationOutlined', '["M"]', 8)
ON CONFLICT DO NOTHING;
