CREATE TABLE "gn_codes" (
	"code" varchar(63) PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"owner_id" uuid NOT NULL
);
--> statement-breakpoint
DO $$
DECLARE dup text;
BEGIN
  SELECT string_agg(c, '、' ORDER BY c) INTO dup FROM (
    SELECT c FROM (
      SELECT lower("gn_coding") AS c FROM "business_systems"
      UNION ALL SELECT lower("gn_coding") FROM "menu_nodes"
    ) x GROUP BY c HAVING count(*) > 1
  ) d;
  IF dup IS NOT NULL THEN
    RAISE EXCEPTION '系统与节点编码不区分大小写须唯一，以下编码重复：%。请先修改后再升级', dup;
  END IF;
END;
$$;
--> statement-breakpoint
INSERT INTO "gn_codes" ("code", "kind", "owner_id") SELECT lower("gn_coding"), 'system', "id" FROM "business_systems";
--> statement-breakpoint
INSERT INTO "gn_codes" ("code", "kind", "owner_id") SELECT lower("gn_coding"), 'node', "id" FROM "menu_nodes";
--> statement-breakpoint
CREATE FUNCTION "ks_gn_code_claim"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND lower(OLD."gn_coding") IS DISTINCT FROM lower(NEW."gn_coding")) THEN
    DELETE FROM "gn_codes" WHERE "code" = lower(OLD."gn_coding") AND "owner_id" = OLD."id";
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND lower(OLD."gn_coding") IS DISTINCT FROM lower(NEW."gn_coding")) THEN
    INSERT INTO "gn_codes" ("code", "kind", "owner_id") VALUES (lower(NEW."gn_coding"), TG_ARGV[0], NEW."id");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "business_systems_gn_code" AFTER INSERT OR UPDATE OF "gn_coding" OR DELETE ON "business_systems" FOR EACH ROW EXECUTE FUNCTION "ks_gn_code_claim"('system');
--> statement-breakpoint
CREATE TRIGGER "menu_nodes_gn_code" AFTER INSERT OR UPDATE OF "gn_coding" OR DELETE ON "menu_nodes" FOR EACH ROW EXECUTE FUNCTION "ks_gn_code_claim"('node');
