CREATE TABLE "bid_evaluation_clarifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"bid_id" uuid NOT NULL,
	"question" text NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"asked_by_member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by" uuid,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	CONSTRAINT "bid_evaluation_clarifications_answer_ck" CHECK (("bid_evaluation_clarifications"."answer" is null) = ("bid_evaluation_clarifications"."answered_at" is null)),
	CONSTRAINT "bid_evaluation_clarifications_revoke_ck" CHECK (("bid_evaluation_clarifications"."revoked_at" is null) = ("bid_evaluation_clarifications"."revoke_reason" is null)),
	CONSTRAINT "bid_evaluation_clarifications_once_ck" CHECK ("bid_evaluation_clarifications"."answer" is null or "bid_evaluation_clarifications"."revoked_at" is null),
	CONSTRAINT "bid_evaluation_clarifications_deadline_ck" CHECK ("bid_evaluation_clarifications"."deadline" > "bid_evaluation_clarifications"."created_at")
);
--> statement-breakpoint
ALTER TABLE "bid_evaluation_clarifications" ADD CONSTRAINT "bid_evaluation_clarifications_section_id_bid_evaluations_section_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."bid_evaluations"("section_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_clarifications" ADD CONSTRAINT "bid_evaluation_clarifications_bid_id_bid_files_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."bid_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_clarifications" ADD CONSTRAINT "bid_evaluation_clarifications_asked_by_member_id_bid_evaluation_members_id_fk" FOREIGN KEY ("asked_by_member_id") REFERENCES "public"."bid_evaluation_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_evaluation_clarifications" ADD CONSTRAINT "bid_evaluation_clarifications_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bid_evaluation_clarifications_section_idx" ON "bid_evaluation_clarifications" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE INDEX "bid_evaluation_clarifications_bid_idx" ON "bid_evaluation_clarifications" USING btree ("bid_id");