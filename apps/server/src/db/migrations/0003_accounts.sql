CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"org_type" varchar(20) NOT NULL,
	"region" varchar(50) NOT NULL,
	"credit_code" varchar(18),
	"contact" varchar(50),
	"phone" varchar(30),
	"address" varchar(200),
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(50) NOT NULL,
	"system_coding" varchar(63) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"materials" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time_limit_days" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_name_uq" ON "organizations" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_credit_code_uq" ON "organizations" USING btree ("credit_code") WHERE "organizations"."credit_code" is not null;--> statement-breakpoint
CREATE INDEX "organizations_type_region_idx" ON "organizations" USING btree ("org_type","region");--> statement-breakpoint
CREATE UNIQUE INDEX "service_items_name_uq" ON "service_items" USING btree ("name");--> statement-breakpoint
CREATE INDEX "service_items_enabled_sort_idx" ON "service_items" USING btree ("enabled","sort");