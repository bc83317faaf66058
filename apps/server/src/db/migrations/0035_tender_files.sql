CREATE TABLE "tender_clarifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"title" varchar(200) NOT NULL,
	"content" text NOT NULL,
	"file_id" uuid,
	"affects_bids" boolean DEFAULT false NOT NULL,
	"new_deadline" timestamp with time zone,
	"old_deadline" timestamp with time zone,
	"status" varchar(10) DEFAULT 'draft' NOT NULL,
	"opinion" varchar(500),
	"created_by" uuid NOT NULL,
	"created_by_name" varchar(64) NOT NULL,
	"submitted_at" timestamp with time zone,
	"audited_by" uuid,
	"audited_by_name" varchar(64),
	"audited_at" timestamp with time zone,
	"sent_by" uuid,
	"sent_by_name" varchar(64),
	"sent_at" timestamp with time zone,
	"recipients" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tender_clarifications_status_ck" CHECK ("tender_clarifications"."status" in ('draft', 'submitted', 'passed', 'rejected', 'sent')),
	CONSTRAINT "tender_clarifications_decided_ck" CHECK ("tender_clarifications"."status" not in ('passed', 'rejected', 'sent') or ("tender_clarifications"."audited_at" is not null and "tender_clarifications"."audited_by" is not null)),
	CONSTRAINT "tender_clarifications_rejected_ck" CHECK ("tender_clarifications"."status" <> 'rejected' or coalesce(length("tender_clarifications"."opinion"), 0) > 0),
	CONSTRAINT "tender_clarifications_sent_ck" CHECK ("tender_clarifications"."status" <> 'sent' or ("tender_clarifications"."sent_at" is not null and "tender_clarifications"."sent_by" is not null))
);
--> statement-breakpoint
CREATE TABLE "tender_document_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"section_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"user_name" varchar(64) NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"ip" varchar(45),
	"downloaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tender_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"kind" varchar(10) NOT NULL,
	"name" varchar(100) NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"uploaded_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tender_documents_kind_ck" CHECK ("tender_documents"."kind" in ('招标文件', '工程量清单', '图纸', '其他'))
);
--> statement-breakpoint
ALTER TABLE "tender_clarifications" ADD CONSTRAINT "tender_clarifications_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_clarifications" ADD CONSTRAINT "tender_clarifications_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_clarifications" ADD CONSTRAINT "tender_clarifications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_clarifications" ADD CONSTRAINT "tender_clarifications_audited_by_users_id_fk" FOREIGN KEY ("audited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_clarifications" ADD CONSTRAINT "tender_clarifications_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_document_downloads" ADD CONSTRAINT "tender_document_downloads_document_id_tender_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."tender_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_document_downloads" ADD CONSTRAINT "tender_document_downloads_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_document_downloads" ADD CONSTRAINT "tender_document_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_document_downloads" ADD CONSTRAINT "tender_document_downloads_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_documents" ADD CONSTRAINT "tender_documents_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_documents" ADD CONSTRAINT "tender_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_documents" ADD CONSTRAINT "tender_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tender_clarifications_section_idx" ON "tender_clarifications" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE INDEX "tender_doc_downloads_section_idx" ON "tender_document_downloads" USING btree ("section_id","downloaded_at");--> statement-breakpoint
CREATE INDEX "tender_doc_downloads_ent_idx" ON "tender_document_downloads" USING btree ("enterprise_id","section_id");--> statement-breakpoint
CREATE INDEX "tender_doc_downloads_doc_idx" ON "tender_document_downloads" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "tender_doc_downloads_time_idx" ON "tender_document_downloads" USING btree ("downloaded_at","id");--> statement-breakpoint
CREATE INDEX "tender_documents_section_idx" ON "tender_documents" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tender_documents_file_uq" ON "tender_documents" USING btree ("file_id");