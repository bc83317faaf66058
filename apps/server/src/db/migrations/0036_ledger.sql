CREATE TABLE "ledger_anchors" (
	"day" date PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" char(64) NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"prev_hash" char(64) NOT NULL,
	"hash" char(64) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" varchar(40) NOT NULL,
	"section_id" uuid,
	"actor_id" uuid,
	"actor_name" varchar(64) NOT NULL,
	"payload" text NOT NULL,
	CONSTRAINT "ledger_entries_seq_ck" CHECK ("ledger_entries"."seq" >= 1),
	CONSTRAINT "ledger_entries_hash_ck" CHECK ("ledger_entries"."hash" ~ '^[0-9a-f]{64}$' and "ledger_entries"."prev_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "ledger_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" char(64) NOT NULL,
	CONSTRAINT "ledger_head_one_ck" CHECK ("ledger_head"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_section_idx" ON "ledger_entries" USING btree ("section_id","seq");--> statement-breakpoint
INSERT INTO "ledger_head" ("id", "seq", "hash") VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
--> statement-breakpoint
CREATE FUNCTION "ks_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '开评标日志只能追加，不能修改或删除' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ks_ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ks_ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_anchors_append_only" BEFORE UPDATE OR DELETE ON "ledger_anchors" FOR EACH ROW EXECUTE FUNCTION "ks_ledger_append_only"();
