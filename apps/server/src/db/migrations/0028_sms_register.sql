CREATE TABLE "enterprise_admins" (
	"enterprise_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_admins_user_uq" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "enterprise_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_no" varchar(32) NOT NULL,
	"name" varchar(200) NOT NULL,
	"credit_code" varchar(18) NOT NULL,
	"enterprise_type" varchar(40) NOT NULL,
	"region" varchar(50) NOT NULL,
	"address" varchar(200) NOT NULL,
	"legal_person" varchar(50) NOT NULL,
	"legal_phone" varchar(20) NOT NULL,
	"contact_name" varchar(64) NOT NULL,
	"contact_phone" varchar(20) NOT NULL,
	"account" varchar(64) NOT NULL,
	"password_hash" text NOT NULL,
	"licence_file_id" uuid,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"reason" varchar(500),
	"decided_at" timestamp with time zone,
	"decided_by" varchar(64),
	"enterprise_id" uuid,
	"user_id" uuid,
	"activated_at" timestamp with time zone,
	"ip" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_registrations_status_ck" CHECK ("enterprise_registrations"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "enterprise_registrations_reason_ck" CHECK ("enterprise_registrations"."status" <> 'rejected' or ("enterprise_registrations"."reason" is not null and length(btrim("enterprise_registrations"."reason")) > 0)),
	CONSTRAINT "enterprise_registrations_approved_ck" CHECK ("enterprise_registrations"."status" <> 'approved' or ("enterprise_registrations"."enterprise_id" is not null and "enterprise_registrations"."user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "real_name_users" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"real_name" varchar(50) NOT NULL,
	"id_number" varchar(18) NOT NULL,
	"verified_phone" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "real_name_users_id_number_ck" CHECK ("real_name_users"."id_number" ~ '^[0-9]{17}[0-9X]$')
);
--> statement-breakpoint
CREATE TABLE "password_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" varchar(20) NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"proof_hash" varchar(64),
	"proof_expires_at" timestamp with time zone,
	"proof_spent_at" timestamp with time zone,
	"ip" varchar(64),
	"user_id" uuid
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" varchar(20) NOT NULL,
	"template" varchar(64) NOT NULL,
	"params" jsonb NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "user_agent" varchar(300);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "enterprise_admins" ADD CONSTRAINT "enterprise_admins_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_admins" ADD CONSTRAINT "enterprise_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_registrations" ADD CONSTRAINT "enterprise_registrations_licence_file_id_files_id_fk" FOREIGN KEY ("licence_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_registrations" ADD CONSTRAINT "enterprise_registrations_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_registrations" ADD CONSTRAINT "enterprise_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_name_users" ADD CONSTRAINT "real_name_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_history" ADD CONSTRAINT "password_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_codes" ADD CONSTRAINT "sms_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_registrations_no_uq" ON "enterprise_registrations" USING btree ("application_no");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_registrations_live_code_uq" ON "enterprise_registrations" USING btree ("credit_code") WHERE "enterprise_registrations"."status" in ('pending', 'approved');--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_registrations_pending_account_uq" ON "enterprise_registrations" USING btree ("account") WHERE "enterprise_registrations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "enterprise_registrations_code_idx" ON "enterprise_registrations" USING btree ("credit_code","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "real_name_users_id_number_uq" ON "real_name_users" USING btree ("id_number");--> statement-breakpoint
CREATE INDEX "password_history_user_idx" ON "password_history" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_codes_phone_created_idx" ON "sms_codes" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "sms_codes_phone_purpose_created_idx" ON "sms_codes" USING btree ("phone","purpose","created_at");--> statement-breakpoint
CREATE INDEX "sms_codes_proof_idx" ON "sms_codes" USING btree ("proof_hash") WHERE "sms_codes"."proof_hash" is not null;--> statement-breakpoint
CREATE INDEX "sms_outbox_phone_created_idx" ON "sms_outbox" USING btree ("phone","created_at");