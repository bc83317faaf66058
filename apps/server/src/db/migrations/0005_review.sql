CREATE TABLE "record_audits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"node_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"action" varchar(8) NOT NULL,
	"suggestion" varchar(500),
	"user_id" uuid,
	"user_name" varchar(64) NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "todos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"system_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"assignee_type" varchar(8) NOT NULL,
	"assignee_id" varchar(64) NOT NULL,
	"business_name" varchar(200) NOT NULL,
	"submitter_name" varchar(64) NOT NULL,
	"sb_time" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "record_audits" ADD CONSTRAINT "record_audits_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_audits" ADD CONSTRAINT "record_audits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_system_id_business_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."business_systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_audits_record_idx" ON "record_audits" USING btree ("node_id","record_id","id");--> statement-breakpoint
CREATE INDEX "todos_open_idx" ON "todos" USING btree ("assignee_type","assignee_id","done_at","system_id");--> statement-breakpoint
CREATE INDEX "todos_record_idx" ON "todos" USING btree ("node_id","record_id");