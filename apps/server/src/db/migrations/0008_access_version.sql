CREATE TABLE "access_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "access_version" ("id", "v") VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION "ks_bump_access_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_version" SET "v" = "v" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "grants_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "grants" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_access_version"();
--> statement-breakpoint
CREATE TRIGGER "roles_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_access_version"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_roles" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_access_version"();
--> statement-breakpoint
CREATE TRIGGER "node_functions_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "node_functions" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_access_version"();
--> statement-breakpoint
CREATE TRIGGER "menu_nodes_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "menu_nodes" FOR EACH STATEMENT EXECUTE FUNCTION "ks_bump_access_version"();
