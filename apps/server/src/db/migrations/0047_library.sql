CREATE TABLE "library_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" varchar(12) NOT NULL,
	"series" varchar(60) NOT NULL,
	"title" varchar(100) NOT NULL,
	"version" varchar(30) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_id" uuid NOT NULL,
	"current" boolean DEFAULT false NOT NULL,
	"uploader_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_items_kind_ck" CHECK ("library_items"."kind" in ('tool', 'manual', 'video', 'template'))
);
--> statement-breakpoint
ALTER TABLE "library_items" ADD CONSTRAINT "library_items_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_items" ADD CONSTRAINT "library_items_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "library_items_version_uq" ON "library_items" USING btree ("kind","series","version");--> statement-breakpoint
CREATE UNIQUE INDEX "library_items_current_uq" ON "library_items" USING btree ("kind","series") WHERE "library_items"."current";--> statement-breakpoint
CREATE UNIQUE INDEX "library_items_file_uq" ON "library_items" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "library_items_kind_idx" ON "library_items" USING btree ("kind","created_at");