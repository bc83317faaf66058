CREATE TABLE "ca_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"serial" varchar(80) NOT NULL,
	"issuer" varchar(500) NOT NULL,
	"subject" varchar(500) NOT NULL,
	"holder" varchar(200) NOT NULL,
	"credit_code" varchar(18) NOT NULL,
	"algorithm" varchar(8) NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"certificate" text NOT NULL,
	"bound_at" timestamp with time zone NOT NULL,
	"unbound_at" timestamp with time zone,
	"unbound_by" uuid
);
--> statement-breakpoint
CREATE TABLE "ca_nonces" (
	"nonce" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ca_bindings" ADD CONSTRAINT "ca_bindings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ca_bindings" ADD CONSTRAINT "ca_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ca_bindings" ADD CONSTRAINT "ca_bindings_unbound_by_users_id_fk" FOREIGN KEY ("unbound_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ca_bindings_fingerprint_live_uq" ON "ca_bindings" USING btree ("fingerprint") WHERE "ca_bindings"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "ca_bindings_enterprise_idx" ON "ca_bindings" USING btree ("enterprise_id","bound_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ca_bindings_live_idx" ON "ca_bindings" USING btree ("bound_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ca_bindings"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "ca_nonces_expires_idx" ON "ca_nonces" USING btree ("expires_at");