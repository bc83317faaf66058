CREATE TABLE "tender_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"contact" varchar(20) NOT NULL,
	"phone" varchar(11) NOT NULL,
	"matched" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"registered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "qual_relation" varchar(2) DEFAULT '且' NOT NULL;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "qual_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "notice_id" uuid;--> statement-breakpoint
ALTER TABLE "tender_sections" ADD COLUMN "notice_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tender_registrations" ADD CONSTRAINT "tender_registrations_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_registrations" ADD CONSTRAINT "tender_registrations_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tender_registrations" ADD CONSTRAINT "tender_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tender_registrations_section_ent_uq" ON "tender_registrations" USING btree ("section_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "tender_registrations_ent_idx" ON "tender_registrations" USING btree ("enterprise_id");--> statement-breakpoint
ALTER TABLE "tender_sections" ADD CONSTRAINT "tender_sections_relation_ck" CHECK ("tender_sections"."qual_relation" in ('且', '或'));