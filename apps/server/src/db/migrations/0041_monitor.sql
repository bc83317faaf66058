CREATE TABLE "supervision_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"supervisor_id" uuid NOT NULL,
	"supervisor_name" varchar(64) NOT NULL,
	"assigned_by_id" uuid NOT NULL,
	"assigned_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by_name" varchar(64),
	"revoke_reason" text,
	CONSTRAINT "supervision_assignments_revoke_ck" CHECK (("supervision_assignments"."revoked_at" is null) = ("supervision_assignments"."revoked_by_name" is null) and ("supervision_assignments"."revoked_at" is null) = ("supervision_assignments"."revoke_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "supervision_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"anomaly_key" varchar(200),
	"anomaly_text" text,
	"verdict" varchar(10) NOT NULL,
	"opinion" text NOT NULL,
	"by_id" uuid NOT NULL,
	"by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supervision_findings_verdict_ck" CHECK ("supervision_findings"."verdict" in ('compliant', 'rectify')),
	CONSTRAINT "supervision_findings_text_ck" CHECK (("supervision_findings"."anomaly_key" is null) = ("supervision_findings"."anomaly_text" is null))
);
--> statement-breakpoint
ALTER TABLE "supervision_assignments" ADD CONSTRAINT "supervision_assignments_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_assignments" ADD CONSTRAINT "supervision_assignments_supervisor_id_users_id_fk" FOREIGN KEY ("supervisor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_assignments" ADD CONSTRAINT "supervision_assignments_assigned_by_id_users_id_fk" FOREIGN KEY ("assigned_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_findings" ADD CONSTRAINT "supervision_findings_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_findings" ADD CONSTRAINT "supervision_findings_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "supervision_assignments_current_uq" ON "supervision_assignments" USING btree ("section_id") WHERE "supervision_assignments"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "supervision_assignments_supervisor_idx" ON "supervision_assignments" USING btree ("supervisor_id");--> statement-breakpoint
CREATE INDEX "supervision_findings_section_idx" ON "supervision_findings" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "supervision_findings_anomaly_uq" ON "supervision_findings" USING btree ("section_id","anomaly_key") WHERE "supervision_findings"."anomaly_key" is not null;