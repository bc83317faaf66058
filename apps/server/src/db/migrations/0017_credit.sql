CREATE TABLE "credit_conduct_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_kind" varchar(10) NOT NULL,
	"subject_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"person_id" uuid,
	"standard_id" uuid NOT NULL,
	"score" numeric(6, 2) NOT NULL,
	"start_time" date NOT NULL,
	"end_time" date NOT NULL,
	"title" varchar(200) NOT NULL,
	"issuer" varchar(100),
	"remark" text,
	"source" varchar(10) DEFAULT 'declared' NOT NULL,
	"source_ref" varchar(64),
	"status" varchar(10) DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_by" uuid,
	"submitted_by_name" varchar(64),
	"submitted_at" timestamp with time zone,
	"audited_by" uuid,
	"audited_by_name" varchar(64),
	"audited_at" timestamp with time zone,
	"audit_suggestion" varchar(500),
	"revoked_by" uuid,
	"revoked_by_name" varchar(64),
	"revoked_at" timestamp with time zone,
	"revoke_reason" varchar(500),
	CONSTRAINT "credit_records_kind_ck" CHECK ("credit_conduct_records"."subject_kind" in ('enterprise', 'person')),
	CONSTRAINT "credit_records_subject_ck" CHECK (("credit_conduct_records"."subject_kind" = 'enterprise' and "credit_conduct_records"."person_id" is null and "credit_conduct_records"."subject_id" = "credit_conduct_records"."enterprise_id")
        or ("credit_conduct_records"."subject_kind" = 'person' and "credit_conduct_records"."person_id" is not null and "credit_conduct_records"."subject_id" = "credit_conduct_records"."person_id")),
	CONSTRAINT "credit_records_score_ck" CHECK ("credit_conduct_records"."score" >= 0),
	CONSTRAINT "credit_records_dates_ck" CHECK ("credit_conduct_records"."end_time" >= "credit_conduct_records"."start_time"),
	CONSTRAINT "credit_records_source_ck" CHECK ("credit_conduct_records"."source" in ('declared', 'retrieved', 'imported')),
	CONSTRAINT "credit_records_status_ck" CHECK ("credit_conduct_records"."status" in ('draft', 'submitted', 'passed', 'rejected', 'revoked')),
	CONSTRAINT "credit_records_version_ck" CHECK ("credit_conduct_records"."version" >= 1),
	CONSTRAINT "credit_records_decided_ck" CHECK ("credit_conduct_records"."status" not in ('passed', 'rejected', 'revoked') or ("credit_conduct_records"."audited_at" is not null and "credit_conduct_records"."audited_by_name" is not null)),
	CONSTRAINT "credit_records_rejected_ck" CHECK ("credit_conduct_records"."status" <> 'rejected' or coalesce(btrim("credit_conduct_records"."audit_suggestion"), '') <> ''),
	CONSTRAINT "credit_records_revoked_ck" CHECK ("credit_conduct_records"."status" <> 'revoked' or ("credit_conduct_records"."revoked_at" is not null and coalesce(btrim("credit_conduct_records"."revoke_reason"), '') <> '')),
	CONSTRAINT "credit_records_submitted_ck" CHECK ("credit_conduct_records"."status" <> 'submitted' or "credit_conduct_records"."submitted_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "credit_grades" (
	"subject_kind" varchar(10) NOT NULL,
	"subject_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"person_id" uuid,
	"base_score" numeric(6, 2) NOT NULL,
	"good_points" numeric(10, 2) NOT NULL,
	"bad_points" numeric(10, 2) NOT NULL,
	"score" numeric(10, 2) NOT NULL,
	"level" varchar(8) NOT NULL,
	"counted_records" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"valid_until" date,
	CONSTRAINT "credit_grades_subject_kind_subject_id_pk" PRIMARY KEY("subject_kind","subject_id"),
	CONSTRAINT "credit_grades_kind_ck" CHECK ("credit_grades"."subject_kind" in ('enterprise', 'person')),
	CONSTRAINT "credit_grades_subject_ck" CHECK (("credit_grades"."subject_kind" = 'enterprise' and "credit_grades"."person_id" is null and "credit_grades"."subject_id" = "credit_grades"."enterprise_id")
        or ("credit_grades"."subject_kind" = 'person' and "credit_grades"."person_id" is not null and "credit_grades"."subject_id" = "credit_grades"."person_id")),
	CONSTRAINT "credit_grades_points_ck" CHECK ("credit_grades"."good_points" >= 0 and "credit_grades"."bad_points" >= 0 and "credit_grades"."score" >= 0 and "credit_grades"."base_score" >= 0),
	CONSTRAINT "credit_grades_score_ck" CHECK ("credit_grades"."score" = greatest(0, "credit_grades"."base_score" + "credit_grades"."good_points" - "credit_grades"."bad_points")),
	CONSTRAINT "credit_grades_counted_ck" CHECK ("credit_grades"."counted_records" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_letters" (
	"enterprise_id" uuid PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"signer_id" uuid NOT NULL,
	"signer_name" varchar(64) NOT NULL,
	"signed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_levels" (
	"title" varchar(8) PRIMARY KEY NOT NULL,
	"min_score" numeric(6, 2) NOT NULL,
	CONSTRAINT "credit_levels_min_ck" CHECK ("credit_levels"."min_score" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_list_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_standards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" varchar(32) NOT NULL,
	"xx_grouping" varchar(50) NOT NULL,
	"name" varchar(200) NOT NULL,
	"conduct" varchar(8) NOT NULL,
	"score" numeric(6, 2) NOT NULL,
	"highest" numeric(6, 2) NOT NULL,
	"validity_months" integer NOT NULL,
	"applies_to" varchar(10) DEFAULT 'enterprise' NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_standards_conduct_ck" CHECK ("credit_standards"."conduct" in ('good', 'bad')),
	CONSTRAINT "credit_standards_applies_ck" CHECK ("credit_standards"."applies_to" in ('enterprise', 'person', 'both')),
	CONSTRAINT "credit_standards_score_ck" CHECK ("credit_standards"."score" >= 0 and "credit_standards"."highest" > 0 and "credit_standards"."score" <= "credit_standards"."highest"),
	CONSTRAINT "credit_standards_validity_ck" CHECK ("credit_standards"."validity_months" between 1 and 120)
);
--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_person_id_practitioners_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."practitioners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_standard_id_credit_standards_id_fk" FOREIGN KEY ("standard_id") REFERENCES "public"."credit_standards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_audited_by_users_id_fk" FOREIGN KEY ("audited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_conduct_records" ADD CONSTRAINT "credit_conduct_records_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grades" ADD CONSTRAINT "credit_grades_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grades" ADD CONSTRAINT "credit_grades_person_id_practitioners_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."practitioners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_letters" ADD CONSTRAINT "credit_letters_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_letters" ADD CONSTRAINT "credit_letters_signer_id_users_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_records_source_uq" ON "credit_conduct_records" USING btree ("source_ref") WHERE "credit_conduct_records"."source_ref" is not null;--> statement-breakpoint
CREATE INDEX "credit_records_grade_idx" ON "credit_conduct_records" USING btree ("subject_kind","subject_id","start_time","end_time") WHERE "credit_conduct_records"."status" = 'passed';--> statement-breakpoint
CREATE INDEX "credit_records_subject_idx" ON "credit_conduct_records" USING btree ("subject_kind","subject_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_records_enterprise_idx" ON "credit_conduct_records" USING btree ("enterprise_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_records_status_idx" ON "credit_conduct_records" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_records_standard_idx" ON "credit_conduct_records" USING btree ("standard_id");--> statement-breakpoint
CREATE INDEX "credit_grades_valid_idx" ON "credit_grades" USING btree ("valid_until") WHERE "credit_grades"."valid_until" is not null;--> statement-breakpoint
CREATE INDEX "credit_grades_level_idx" ON "credit_grades" USING btree ("subject_kind","level");--> statement-breakpoint
CREATE INDEX "credit_grades_enterprise_idx" ON "credit_grades" USING btree ("enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_levels_min_uq" ON "credit_levels" USING btree ("min_score");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_standards_code_uq" ON "credit_standards" USING btree ("code");--> statement-breakpoint
CREATE INDEX "enterprises_name_c_idx" ON "enterprises" USING btree ("name" collate "C","id");--> statement-breakpoint
-- default level thresholds (administrators change them on level/titles): AAA ≥ 90, AA ≥ 80, A ≥ 70, B ≥ 60, C below
INSERT INTO "credit_levels" ("title", "min_score") VALUES ('AAA', 90), ('AA', 80), ('A', 70), ('B', 60), ('C', 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "credit_list_version" ("id", "v") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "ks_bump_credit_list"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "credit_list_version" SET "v" = "v" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "enterprises_credit_list" AFTER INSERT OR DELETE OR UPDATE OF "name", "credit_code" OR TRUNCATE ON "enterprises" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_credit_list"();
--> statement-breakpoint
CREATE TRIGGER "credit_grades_credit_list" AFTER INSERT OR DELETE OR UPDATE OF "level" OR TRUNCATE ON "credit_grades" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_credit_list"();
