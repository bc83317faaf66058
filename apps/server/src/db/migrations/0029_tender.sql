CREATE TABLE "tender_sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"code" varchar(40) NOT NULL,
	"name" varchar(100) NOT NULL,
	"estimate" numeric(15, 2) NOT NULL,
	"deposit" numeric(15, 2) NOT NULL,
	"doc_sale_start" date NOT NULL,
	"doc_sale_end" date NOT NULL,
	"bid_deadline" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tender_sections_money_ck" CHECK ("tender_sections"."estimate" >= 0 and "tender_sections"."deposit" >= 0),
	CONSTRAINT "tender_sections_sale_ck" CHECK ("tender_sections"."doc_sale_end" >= "tender_sections"."doc_sale_start")
);
--> statement-breakpoint
ALTER TABLE "tender_sections" ADD CONSTRAINT "tender_sections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tender_sections_project_code_uq" ON "tender_sections" USING btree ("project_id","code");--> statement-breakpoint
CREATE INDEX "tender_sections_deadline_idx" ON "tender_sections" USING btree ("bid_deadline");