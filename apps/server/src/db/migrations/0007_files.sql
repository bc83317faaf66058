CREATE TABLE "attachment_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"annex_no" varchar(63) NOT NULL,
	"annex_name" varchar(100) NOT NULL,
	"annex_format" varchar(200) NOT NULL,
	"annex_size" integer DEFAULT 0 NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"file_type" varchar(40) DEFAULT '' NOT NULL,
	"template" varchar(100),
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storage_key" varchar(100) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"file_size" bigint NOT NULL,
	"md5" char(32) NOT NULL,
	"mime" varchar(100) NOT NULL,
	"extension" varchar(10) NOT NULL,
	"owner_id" uuid NOT NULL,
	"enterprise_id" uuid,
	"gn_coding" varchar(63),
	"record_id" uuid,
	"annex_no" varchar(63),
	"file_type" varchar(40),
	"visibility" varchar(8) DEFAULT 'private' NOT NULL,
	"source" varchar(12) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_parts" (
	"task_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"size" integer NOT NULL,
	"etag" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_parts_task_id_idx_pk" PRIMARY KEY("task_id","idx")
);
--> statement-breakpoint
CREATE TABLE "upload_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"md5" char(32) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"file_size" bigint NOT NULL,
	"chunk_count" integer NOT NULL,
	"chunk_size" integer NOT NULL,
	"owner_id" uuid NOT NULL,
	"enterprise_id" uuid,
	"gn_coding" varchar(63),
	"annex_no" varchar(63),
	"file_type" varchar(40),
	"usage" varchar(12) DEFAULT 'attachment' NOT NULL,
	"storage_key" varchar(100) NOT NULL,
	"storage_ref" varchar(1024) NOT NULL,
	"status" varchar(12) DEFAULT 'uploading' NOT NULL,
	"file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attachment_types" ADD CONSTRAINT "attachment_types_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_parts" ADD CONSTRAINT "upload_parts_task_id_upload_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."upload_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attachment_types_node_no_uq" ON "attachment_types" USING btree ("node_id","annex_no");--> statement-breakpoint
CREATE INDEX "files_md5_enterprise_idx" ON "files" USING btree ("md5","enterprise_id");--> statement-breakpoint
CREATE INDEX "files_md5_owner_idx" ON "files" USING btree ("md5","owner_id");--> statement-breakpoint
CREATE INDEX "files_record_idx" ON "files" USING btree ("gn_coding","record_id");--> statement-breakpoint
CREATE INDEX "files_storage_key_idx" ON "files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "upload_tasks_resume_idx" ON "upload_tasks" USING btree ("owner_id","md5","file_size","status");--> statement-breakpoint
CREATE INDEX "upload_tasks_expiry_idx" ON "upload_tasks" USING btree ("status","expires_at");