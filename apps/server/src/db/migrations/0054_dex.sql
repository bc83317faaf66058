CREATE TABLE "dex_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_key" varchar(120) NOT NULL,
	"kind" varchar(20) NOT NULL,
	"title" varchar(500) NOT NULL,
	"payload" jsonb NOT NULL,
	"status" varchar(10) DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"last_status" smallint,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dex_outbox_status_ck" CHECK ("dex_outbox"."status" in ('queued','sending','sent','failed'))
);
--> statement-breakpoint
CREATE TABLE "dex_push_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"outbox_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"http_status" smallint,
	"duration_ms" integer NOT NULL,
	"ok" boolean NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "dex_push_attempts" ADD CONSTRAINT "dex_push_attempts_outbox_id_dex_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."dex_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dex_outbox_key_uq" ON "dex_outbox" USING btree ("business_key");--> statement-breakpoint
CREATE INDEX "dex_outbox_due_ix" ON "dex_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "dex_push_attempts_outbox_ix" ON "dex_push_attempts" USING btree ("outbox_id","attempt");