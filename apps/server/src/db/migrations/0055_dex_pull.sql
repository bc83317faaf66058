CREATE TABLE "dex_reg_audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_id" uuid,
	"job_id" uuid,
	"upstream_id" varchar(64),
	"action" varchar(10) NOT NULL,
	"diff" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"actor_id" uuid,
	"actor_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dex_reg_audits_action_ck" CHECK ("dex_reg_audits"."action" in ('new','changed','unchanged','rejected','approved','dismissed'))
);
--> statement-breakpoint
CREATE TABLE "dex_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"upstream_id" varchar(64) NOT NULL,
	"name" varchar(200) NOT NULL,
	"credit_code" varchar(64) NOT NULL,
	"legal_person" varchar(50),
	"registered_capital" numeric(16, 2),
	"region" varchar(50),
	"address" varchar(200),
	"established_at" date,
	"ent_type" varchar(40),
	"reg_type" varchar(20),
	"reg_status" varchar(20),
	"upstream_updated_at" timestamp with time zone,
	"raw" jsonb NOT NULL,
	"state" varchar(10) NOT NULL,
	"last_change" varchar(10) NOT NULL,
	"reason" text,
	"diff" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enterprise_id" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"last_job_id" uuid,
	"decided_by_id" uuid,
	"decided_by_name" varchar(64),
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dex_registrations_state_ck" CHECK ("dex_registrations"."state" in ('pending','approved','dismissed','invalid')),
	CONSTRAINT "dex_registrations_change_ck" CHECK ("dex_registrations"."last_change" in ('new','changed','unchanged','rejected')),
	CONSTRAINT "dex_registrations_reason_ck" CHECK ("dex_registrations"."state" not in ('dismissed','invalid') or "dex_registrations"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "dex_sync_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" varchar(10) DEFAULT 'queued' NOT NULL,
	"full" boolean DEFAULT false NOT NULL,
	"phase" varchar(10),
	"since" timestamp with time zone,
	"cursor" timestamp with time zone,
	"pages" integer DEFAULT 0 NOT NULL,
	"fetched" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"new_count" integer DEFAULT 0 NOT NULL,
	"changed_count" integer DEFAULT 0 NOT NULL,
	"unchanged_count" integer DEFAULT 0 NOT NULL,
	"rejected_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_by_id" uuid,
	"started_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "dex_sync_jobs_status_ck" CHECK ("dex_sync_jobs"."status" in ('queued','running','done','failed'))
);
--> statement-breakpoint
ALTER TABLE "dex_reg_audits" ADD CONSTRAINT "dex_reg_audits_registration_id_dex_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."dex_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_reg_audits" ADD CONSTRAINT "dex_reg_audits_job_id_dex_sync_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."dex_sync_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_reg_audits" ADD CONSTRAINT "dex_reg_audits_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_registrations" ADD CONSTRAINT "dex_registrations_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_registrations" ADD CONSTRAINT "dex_registrations_last_job_id_dex_sync_jobs_id_fk" FOREIGN KEY ("last_job_id") REFERENCES "public"."dex_sync_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_registrations" ADD CONSTRAINT "dex_registrations_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dex_sync_jobs" ADD CONSTRAINT "dex_sync_jobs_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dex_reg_audits_registration_ix" ON "dex_reg_audits" USING btree ("registration_id","created_at");--> statement-breakpoint
CREATE INDEX "dex_reg_audits_job_ix" ON "dex_reg_audits" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dex_registrations_upstream_uq" ON "dex_registrations" USING btree ("upstream_id");--> statement-breakpoint
CREATE INDEX "dex_registrations_state_ix" ON "dex_registrations" USING btree ("state","updated_at","id");--> statement-breakpoint
CREATE INDEX "dex_registrations_updated_ix" ON "dex_registrations" USING btree ("upstream_updated_at","id");--> statement-breakpoint
CREATE INDEX "dex_registrations_credit_ix" ON "dex_registrations" USING btree ("credit_code");--> statement-breakpoint
CREATE UNIQUE INDEX "dex_sync_jobs_active_uq" ON "dex_sync_jobs" USING btree ((true)) WHERE "dex_sync_jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "dex_sync_jobs_created_ix" ON "dex_sync_jobs" USING btree ("created_at");