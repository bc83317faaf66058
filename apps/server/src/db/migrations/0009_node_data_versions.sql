CREATE TABLE "node_data_versions" (
	"node_id" uuid PRIMARY KEY NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "ks_bump_node_data"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "node_data_versions" ("node_id", "v") VALUES (TG_ARGV[0]::uuid, 1)
    ON CONFLICT ("node_id") DO UPDATE SET "v" = "node_data_versions"."v" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "ks_bump_todo_node"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "node_data_versions" ("node_id", "v") VALUES (NEW."node_id", 1)
      ON CONFLICT ("node_id") DO UPDATE SET "v" = "node_data_versions"."v" + 1;
  END IF;
  IF TG_OP <> 'INSERT' AND (TG_OP = 'DELETE' OR OLD."node_id" IS DISTINCT FROM NEW."node_id") THEN
    INSERT INTO "node_data_versions" ("node_id", "v") VALUES (OLD."node_id", 1)
      ON CONFLICT ("node_id") DO UPDATE SET "v" = "node_data_versions"."v" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "todos_node_data_version" AFTER INSERT OR UPDATE OR DELETE ON "todos" FOR EACH ROW EXECUTE FUNCTION "ks_bump_todo_node"();
--> statement-breakpoint
CREATE FUNCTION "ks_bump_all_node_data"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "node_data_versions" SET "v" = "v" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "todos_truncate_node_data_version" AFTER TRUNCATE ON "todos" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_all_node_data"();
