CREATE TABLE "credit_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_kind" varchar(16) NOT NULL,
	"owner_id" uuid NOT NULL,
	"kind" varchar(8) NOT NULL,
	"title" varchar(200) NOT NULL,
	"score" numeric(6, 2) NOT NULL,
	"issuer" varchar(100) NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"is_public" boolean DEFAULT true NOT NULL,
	"remark" text
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" varchar(200) NOT NULL,
	"category" varchar(20) NOT NULL,
	"trade_type" varchar(20) NOT NULL,
	"region" varchar(20) NOT NULL,
	"project_code" varchar(64),
	"tenderer" varchar(200),
	"amount" numeric(16, 2),
	"body_html" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "performances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_kind" varchar(16) NOT NULL,
	"owner_id" uuid NOT NULL,
	"project_name" varchar(200) NOT NULL,
	"role" varchar(40) NOT NULL,
	"amount" numeric(16, 2),
	"completed_at" date
);
--> statement-breakpoint
CREATE TABLE "practitioners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(50) NOT NULL,
	"cert_no" varchar(40) NOT NULL,
	"practice_area" varchar(40) NOT NULL,
	"enterprise_id" uuid,
	"region" varchar(50),
	"credit_grade" varchar(8),
	"credit_score" numeric(6, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qualifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_kind" varchar(16) NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" varchar(100) NOT NULL,
	"level" varchar(40) NOT NULL,
	"cert_no" varchar(60) NOT NULL,
	"valid_until" date
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "address" varchar(200);--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "registered_capital" numeric(16, 2);--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "established_at" date;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "credit_grade" varchar(8);--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "credit_score" numeric(6, 2);--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practitioners" ADD CONSTRAINT "practitioners_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_records_owner_idx" ON "credit_records" USING btree ("owner_kind","owner_id") WHERE "credit_records"."is_public";--> statement-breakpoint
CREATE INDEX "notices_pub_idx" ON "notices" USING btree ("status","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notices_pub_category_idx" ON "notices" USING btree ("status","category","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notices_pub_trade_idx" ON "notices" USING btree ("status","trade_type","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notices_pub_region_idx" ON "notices" USING btree ("status","region","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "performances_owner_idx" ON "performances" USING btree ("owner_kind","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "practitioners_cert_uq" ON "practitioners" USING btree ("cert_no");--> statement-breakpoint
CREATE INDEX "practitioners_area_grade_idx" ON "practitioners" USING btree ("practice_area","credit_grade","name");--> statement-breakpoint
CREATE INDEX "qualifications_owner_idx" ON "qualifications" USING btree ("owner_kind","owner_id");--> statement-breakpoint
CREATE INDEX "enterprises_type_grade_idx" ON "enterprises" USING btree ("enterprise_type","credit_grade","name");