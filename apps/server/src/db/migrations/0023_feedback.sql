CREATE TABLE "feedback_scores" (
	"submission_id" uuid NOT NULL,
	"evaluate_type" varchar(16) NOT NULL,
	"question" varchar(100) NOT NULL,
	"score" smallint NOT NULL,
	CONSTRAINT "feedback_scores_submission_id_evaluate_type_question_pk" PRIMARY KEY("submission_id","evaluate_type","question"),
	CONSTRAINT "feedback_scores_score_ck" CHECK ("feedback_scores"."score" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "feedback_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feedback_submissions_text_ck" CHECK ("feedback_submissions"."text" is null or length(btrim("feedback_submissions"."text")) > 0)
);
--> statement-breakpoint
ALTER TABLE "feedback_scores" ADD CONSTRAINT "feedback_scores_submission_id_feedback_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."feedback_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_submissions_created_idx" ON "feedback_submissions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Administrators reach the feedback results from the header dropdown, as the other /system pages.
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('feedbackStats', '用户反馈', '/system/feedback', 'BarChartOutlined', '["M"]', 9)
ON CONFLICT DO NOTHING;
