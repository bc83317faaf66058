CREATE TABLE "trade_deposit_deadlines" (
	"section_id" uuid PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"reason" varchar(200) NOT NULL,
	"set_by" uuid NOT NULL,
	"set_by_name" varchar(64) NOT NULL,
	"set_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"amount" numeric(15, 2) NOT NULL,
	"status" varchar(10) NOT NULL,
	"virtual_account" varchar(32) NOT NULL,
	"payer_account" varchar(30) NOT NULL,
	"payer_bank" varchar(60) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"paid_by" uuid NOT NULL,
	"paid_by_name" varchar(64) NOT NULL,
	"received_at" timestamp with time zone,
	"received_by" uuid,
	"received_by_name" varchar(64),
	"refunded_at" timestamp with time zone,
	"refunded_by" uuid,
	"refunded_by_name" varchar(64),
	"refund_note" varchar(200),
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_deposits_amount_ck" CHECK ("trade_deposits"."amount" > 0),
	CONSTRAINT "trade_deposits_status_ck" CHECK ("trade_deposits"."status" in ('paid', 'received', 'refunded')),
	CONSTRAINT "trade_deposits_steps_ck" CHECK (("trade_deposits"."status" = 'paid' and "trade_deposits"."received_at" is null and "trade_deposits"."refunded_at" is null)
        or ("trade_deposits"."status" = 'received' and "trade_deposits"."received_at" is not null and "trade_deposits"."received_by" is not null and "trade_deposits"."refunded_at" is null)
        or ("trade_deposits"."status" = 'refunded' and "trade_deposits"."received_at" is not null and "trade_deposits"."refunded_at" is not null and "trade_deposits"."refunded_by" is not null)),
	CONSTRAINT "trade_deposits_order_ck" CHECK (("trade_deposits"."received_at" is null or "trade_deposits"."received_at" >= "trade_deposits"."paid_at") and ("trade_deposits"."refunded_at" is null or "trade_deposits"."refunded_at" >= "trade_deposits"."received_at"))
);
--> statement-breakpoint
CREATE TABLE "trade_guarantees" (
	"id" uuid PRIMARY KEY NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"applicant_id" uuid NOT NULL,
	"applicant_name" varchar(64) NOT NULL,
	"amount" numeric(15, 2) NOT NULL,
	"status" varchar(12) NOT NULL,
	"issuer_name" varchar(100),
	"order_no" varchar(64),
	"guarantee_no" varchar(64),
	"file_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(300),
	"claimed_at" timestamp with time zone,
	"requested_at" timestamp with time zone,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_guarantees_amount_ck" CHECK ("trade_guarantees"."amount" > 0),
	CONSTRAINT "trade_guarantees_status_ck" CHECK ("trade_guarantees"."status" in ('applying', 'rejected', 'requested', 'processing', 'issued', 'failed')),
	CONSTRAINT "trade_guarantees_issued_ck" CHECK ("trade_guarantees"."status" <> 'issued' or ("trade_guarantees"."file_id" is not null and "trade_guarantees"."issued_at" is not null and "trade_guarantees"."guarantee_no" is not null))
);
--> statement-breakpoint
ALTER TABLE "trade_deposit_deadlines" ADD CONSTRAINT "trade_deposit_deadlines_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposit_deadlines" ADD CONSTRAINT "trade_deposit_deadlines_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposits" ADD CONSTRAINT "trade_deposits_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposits" ADD CONSTRAINT "trade_deposits_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposits" ADD CONSTRAINT "trade_deposits_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposits" ADD CONSTRAINT "trade_deposits_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_deposits" ADD CONSTRAINT "trade_deposits_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_guarantees" ADD CONSTRAINT "trade_guarantees_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_guarantees" ADD CONSTRAINT "trade_guarantees_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_guarantees" ADD CONSTRAINT "trade_guarantees_applicant_id_users_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_guarantees" ADD CONSTRAINT "trade_guarantees_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trade_deposits_section_ent_uq" ON "trade_deposits" USING btree ("section_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "trade_deposits_ent_idx" ON "trade_deposits" USING btree ("enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_guarantees_live_uq" ON "trade_guarantees" USING btree ("section_id","enterprise_id") WHERE "trade_guarantees"."status" not in ('failed', 'rejected');--> statement-breakpoint
CREATE INDEX "trade_guarantees_ent_idx" ON "trade_guarantees" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "trade_guarantees_pending_idx" ON "trade_guarantees" USING btree ("status");