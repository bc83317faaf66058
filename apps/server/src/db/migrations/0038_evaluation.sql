CREATE TABLE "bid_evaluation_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"expert_id" uuid NOT NULL,
	"user_id" uuid,
	"name" varchar(40) NOT NULL,
	"specialty" varchar(40) NOT NULL,
	"employer" varchar(200) DEFAULT '' NOT NULL,
	"panels" jsonb NOT NULL,
	"declared_at" timestamp with time zone,
	"conflict" text,
	"vote_for" uuid,
	"report_signed_at" timestamp with time zone,
	"dissent" text,
	CONSTRAINT "bid_evaluation_members_conflict_ck" CHECK ("bid_evaluation_members"."conflict" is null or "bid_evaluation_members"."declared_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "bid_evaluation_panels" (
	"member_id" uuid NOT NULL,
	"panel" varchar(2) NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"reopened" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bid_evaluation_panels_member_id_panel_pk" PRIMARY KEY("member_id","panel"),
	CONSTRAINT "bid_evaluation_panels_panel_ck" CHECK ("bid_evaluation_panels"."panel" in ('ZS', 'JS', 'SW'))
);
--> statement-breakpoint
CREATE TABLE "bid_evaluation_reopens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"panel" varchar(2) NOT NULL,
	"reason" text NOT NULL,
	"by_user_id" uuid NOT NULL,
	"by_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bid_evaluation_scores" (
	"member_id" uuid NOT NULL,
	"bid_id" uuid NOT NULL,
	"item_id" varchar(10) NOT NULL,
	"section_id" uuid NOT NULL,
	"panel" varchar(2) NOT NULL,
	"score" numeric(6, 2),
	"pass" varchar(1),
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bid_evaluation_scores_member_id_bid_id_item_id_pk" PRIMARY KEY("member_id","bid_id","item_id"),
	CONSTRAINT "bid_evaluation_scores_pass_ck" CHECK ("bid_evaluation_scores"."pass" is null or "bid_evaluation_scores"."pass" in ('Y', 'N')),
	CONSTRAINT "bid_evaluation_scores_one_ck" CHECK (("bid_evaluation_scores"."score" is null) <> ("bid_evaluation_scores"."pass" is null))
);
--> statement-breakpoint
CREATE TABLE "bid_evaluations" (
	"section_id" uuid PRIMARY KEY NOT NULL,
	"extraction_id" uuid NOT NULL,
	"status" varchar(10) NOT NULL,
	"criteria" jsonb NOT NULL,
	"host_id" uuid NOT NULL,
	"chair_member_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"rendered_at" timestamp with time zone,
	"result" jsonb,
	"done_at" timestamp with time zone,
	"publicity_notice_id" uuid,
	"publicity_start" timestamp with time zone,
	"publicity_end" timestamp with time zone,
	"award_bid_id" uuid,
	"awarded_at" timestamp with time zone,
	"result_notice_id" uuid,
	CONSTRAINT "bid_evaluations_status_ck" CHECK ("bid_evaluations"."status" in ('signing', 'scoring', 'reporting', 'done')),
	CONSTRAINT "bid_evaluations_result_ck" CHECK (("bid_evaluations"."status" in ('reporting', 'done')) = ("bid_evaluations"."result" is not null and "bid_evaluations"."rendered_at" is not null)),
	CONSTRAINT "bid_evaluations_chair_ck" CHECK ("bid_evaluations"."status" = 'signing' or "bid_evaluations"."chair_member_id" is not null),
	CONSTRAINT "bid_evaluations_publicity_ck" CHECK ("bid_evaluations"."publicity_notice_id" is null or ("bid_evaluations"."status" = 'done' and "bid_evaluations"."publicity_end" > "bid_evaluations"."publicity_start")),
	CONSTRAINT "bid_evaluations_award_ck" CHECK ("bid_evaluations"."award_bid_id" is null or ("bid_evaluations"."publicity_notice_id" is not null and "bid_evaluations"."awarded_at" >= "bid_evaluations"."publicity_end"))
);
--> statement-breakpoint
CREATE TABLE "bid_result_objections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by" uuid,
	CONSTRAINT "bid_result_objections_answer_ck" CHECK (("bid_result_objections"."answer" is null) = ("bid_result_objections"."answered_at" is null))
);
--> statement-breakpoint
ALTER TABLE "bid_evaluation_members" ADD CONSTRAINT "bid_evaluation_members_section_id_bid_evaluations_section_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."bid_evaluations"("section_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_members" ADD CONSTRAINT "bid_evaluation_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_panels" ADD CONSTRAINT "bid_evaluation_panels_member_id_bid_evaluation_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."bid_evaluation_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_reopens" ADD CONSTRAINT "bid_evaluation_reopens_section_id_bid_evaluations_section_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."bid_evaluations"("section_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_reopens" ADD CONSTRAINT "bid_evaluation_reopens_member_id_bid_evaluation_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."bid_evaluation_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_reopens" ADD CONSTRAINT "bid_evaluation_reopens_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_scores" ADD CONSTRAINT "bid_evaluation_scores_member_id_bid_evaluation_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."bid_evaluation_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_scores" ADD CONSTRAINT "bid_evaluation_scores_bid_id_bid_files_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."bid_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_scores" ADD CONSTRAINT "bid_evaluation_scores_section_id_bid_evaluations_section_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."bid_evaluations"("section_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluations" ADD CONSTRAINT "bid_evaluations_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluations" ADD CONSTRAINT "bid_evaluations_extraction_id_expert_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."expert_extractions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluations" ADD CONSTRAINT "bid_evaluations_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluations" ADD CONSTRAINT "bid_evaluations_award_bid_id_bid_files_id_fk" FOREIGN KEY ("award_bid_id") REFERENCES "public"."bid_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_result_objections" ADD CONSTRAINT "bid_result_objections_section_id_bid_evaluations_section_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."bid_evaluations"("section_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_result_objections" ADD CONSTRAINT "bid_result_objections_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_result_objections" ADD CONSTRAINT "bid_result_objections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_result_objections" ADD CONSTRAINT "bid_result_objections_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bid_evaluation_members_expert_uq" ON "bid_evaluation_members" USING btree ("section_id","expert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bid_evaluation_members_user_uq" ON "bid_evaluation_members" USING btree ("section_id","user_id");--> statement-breakpoint
CREATE INDEX "bid_evaluation_members_user_idx" ON "bid_evaluation_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bid_evaluation_reopens_section_idx" ON "bid_evaluation_reopens" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE INDEX "bid_evaluation_scores_section_idx" ON "bid_evaluation_scores" USING btree ("section_id","panel");--> statement-breakpoint
CREATE INDEX "bid_result_objections_section_idx" ON "bid_result_objections" USING btree ("section_id","created_at");