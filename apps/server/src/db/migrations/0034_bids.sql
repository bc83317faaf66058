CREATE TABLE "bid_file_parts" (
	"bid_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"size" integer NOT NULL,
	"etag" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bid_file_parts_bid_id_idx_pk" PRIMARY KEY("bid_id","idx")
);
--> statement-breakpoint
CREATE TABLE "bid_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"section_id" uuid NOT NULL,
	"enterprise_id" uuid NOT NULL,
	"uploader_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"plain_size" bigint NOT NULL,
	"cipher_size" bigint NOT NULL,
	"chunk_count" integer NOT NULL,
	"wrapped_key" text NOT NULL,
	"storage_key" varchar(100) NOT NULL,
	"storage_ref" varchar(1024) NOT NULL,
	"status" varchar(12) DEFAULT 'uploading' NOT NULL,
	"cipher_sha256" char(64),
	"plain_sha256" char(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sealed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "bid_files_status_ck" CHECK ("bid_files"."status" in ('uploading', 'sealing', 'sealed', 'withdrawn', 'replaced')),
	CONSTRAINT "bid_files_size_ck" CHECK ("bid_files"."plain_size" >= 0 and "bid_files"."cipher_size" = "bid_files"."plain_size" + 16 * "bid_files"."chunk_count"),
	CONSTRAINT "bid_files_sealed_ck" CHECK ("bid_files"."status" in ('uploading', 'sealing') or ("bid_files"."cipher_sha256" is not null and "bid_files"."plain_sha256" is not null and "bid_files"."sealed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "bid_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" varchar(12) NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" char(64) NOT NULL,
	"modulus_bytes" integer NOT NULL,
	"encrypted_private_key" text,
	"iv" varchar(24),
	"kdf" text,
	"ca_binding_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "bid_keys_kind_ck" CHECK ("bid_keys"."kind" in ('ca', 'passphrase')),
	CONSTRAINT "bid_keys_material_ck" CHECK (("bid_keys"."kind" = 'passphrase' and "bid_keys"."encrypted_private_key" is not null and "bid_keys"."iv" is not null and "bid_keys"."kdf" is not null) or ("bid_keys"."kind" = 'ca' and "bid_keys"."ca_binding_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "bid_file_parts" ADD CONSTRAINT "bid_file_parts_bid_id_bid_files_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."bid_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_files" ADD CONSTRAINT "bid_files_section_id_tender_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."tender_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_files" ADD CONSTRAINT "bid_files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_files" ADD CONSTRAINT "bid_files_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_files" ADD CONSTRAINT "bid_files_key_id_bid_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."bid_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_keys" ADD CONSTRAINT "bid_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_keys" ADD CONSTRAINT "bid_keys_ca_binding_id_ca_bindings_id_fk" FOREIGN KEY ("ca_binding_id") REFERENCES "public"."ca_bindings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bid_files_sealed_uq" ON "bid_files" USING btree ("section_id","enterprise_id") WHERE "bid_files"."status" = 'sealed';--> statement-breakpoint
CREATE INDEX "bid_files_section_ent_idx" ON "bid_files" USING btree ("section_id","enterprise_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bid_files_expiry_idx" ON "bid_files" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bid_keys_user_live_uq" ON "bid_keys" USING btree ("user_id") WHERE "bid_keys"."retired_at" is null;