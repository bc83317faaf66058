CREATE TABLE "stats_todo_ent_monthly" (
	"enterprise_id" uuid NOT NULL,
	"month" date NOT NULL,
	"region" varchar(50) NOT NULL,
	"system_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"state" varchar(4) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_todo_ent_monthly_enterprise_id_month_region_system_id_node_id_state_pk" PRIMARY KEY("enterprise_id","month","region","system_id","node_id","state")
);
--> statement-breakpoint
CREATE TABLE "stats_todo_monthly" (
	"month" date NOT NULL,
	"region" varchar(50) NOT NULL,
	"system_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"state" varchar(4) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_todo_monthly_month_region_system_id_node_id_state_pk" PRIMARY KEY("month","region","system_id","node_id","state")
);
--> statement-breakpoint
CREATE TABLE "stats_todos" (
	"todo_id" uuid PRIMARY KEY NOT NULL,
	"system_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"enterprise_id" uuid,
	"region" varchar(50) NOT NULL,
	"month" date NOT NULL,
	"sb_time" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stats_transactions" (
	"section_id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"enterprise_id" uuid,
	"region" varchar(50) NOT NULL,
	"type" varchar(40) NOT NULL,
	"month" date NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"amount" numeric(15, 2) NOT NULL,
	"section_code" varchar(40) NOT NULL,
	"section_name" varchar(100) NOT NULL,
	"project_code" varchar(40),
	"project_name" varchar(200)
);
--> statement-breakpoint
CREATE TABLE "stats_txn_ent_monthly" (
	"enterprise_id" uuid NOT NULL,
	"month" date NOT NULL,
	"region" varchar(50) NOT NULL,
	"type" varchar(40) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_txn_ent_monthly_enterprise_id_month_region_type_pk" PRIMARY KEY("enterprise_id","month","region","type")
);
--> statement-breakpoint
CREATE TABLE "stats_txn_monthly" (
	"month" date NOT NULL,
	"region" varchar(50) NOT NULL,
	"type" varchar(40) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_txn_monthly_month_region_type_pk" PRIMARY KEY("month","region","type")
);
--> statement-breakpoint
CREATE INDEX "stats_todos_month_idx" ON "stats_todos" USING btree ("month","system_id","node_id","sb_time","todo_id");--> statement-breakpoint
CREATE INDEX "stats_todos_ent_idx" ON "stats_todos" USING btree ("enterprise_id","month","sb_time","todo_id");--> statement-breakpoint
CREATE INDEX "stats_todos_open_idx" ON "stats_todos" USING btree ("sb_time","node_id","record_id") WHERE "stats_todos"."done_at" is null;--> statement-breakpoint
CREATE INDEX "stats_transactions_month_idx" ON "stats_transactions" USING btree ("month","region","type","opened_at","section_id");--> statement-breakpoint
CREATE INDEX "stats_transactions_ent_idx" ON "stats_transactions" USING btree ("enterprise_id","month","opened_at","section_id");--> statement-breakpoint
CREATE INDEX "stats_transactions_project_idx" ON "stats_transactions" USING btree ("project_id");--> statement-breakpoint
-- 统计分析 (issue 19): the summary tables are kept in the transaction of each write, by the row triggers below.
-- A bulk load may set `stats.bulk` to 'on' for its transaction (set_config('stats.bulk', 'on', true)) and call
-- stats_rebuild() afterwards, which recomputes every summary from the sources.
CREATE OR REPLACE FUNCTION stats_region_of(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN coalesce(split_part(v, '/', 2), '') <> '' THEN left(split_part(v, '/', 2), 50)
              WHEN coalesce(v, '') <> '' THEN '省本级'
              ELSE '未填写' END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_month_of(t timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT date_trunc('month', t AT TIME ZONE 'Asia/Shanghai')::date
$$;--> statement-breakpoint
-- one section's fact: present while its project's 进场登记 (engine node ZBTB_XMDJ) is passed
CREATE OR REPLACE FUNCTION stats_txn_sync(p_section uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_transactions WHERE section_id = p_section;
  IF to_regclass('n_zbtb_xmdj') IS NULL THEN RETURN; END IF;
  EXECUTE $q$
    INSERT INTO stats_transactions (section_id, project_id, enterprise_id, region, type, month, opened_at, amount,
      section_code, section_name, project_code, project_name)
    SELECT s.id, s.project_id, coalesce(p.enterprise_id, u.enterprise_id), stats_region_of(p.f_xmszd::text),
      left(coalesce(nullif(p.f_xmlx::text, ''), '未填写'), 40), stats_month_of(s.bid_deadline), s.bid_deadline,
      s.estimate, s.code, s.name, left(p.f_xmbh::text, 40), left(p.f_xmmc::text, 200)
    FROM tender_sections s
    JOIN n_zbtb_xmdj p ON p.id = s.project_id AND p.status = 'passed'
    LEFT JOIN users u ON u.id = p.owner_id
    WHERE s.id = $1
  $q$ USING p_section;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_txn_sync_project(p_project uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT id FROM tender_sections WHERE project_id = p_project LOOP
    PERFORM stats_txn_sync(r.id);
  END LOOP;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_tender_sections_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op = 'DELETE' THEN
    DELETE FROM stats_transactions WHERE section_id = old.id;
  ELSE
    PERFORM stats_txn_sync(new.id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_tender_sections_write AFTER INSERT OR DELETE ON tender_sections
  FOR EACH ROW EXECUTE FUNCTION stats_tender_sections_trg();--> statement-breakpoint
CREATE TRIGGER stats_tender_sections_update AFTER UPDATE OF estimate, bid_deadline, code, name, project_id ON tender_sections
  FOR EACH ROW WHEN (old.estimate IS DISTINCT FROM new.estimate OR old.bid_deadline IS DISTINCT FROM new.bid_deadline
    OR old.code IS DISTINCT FROM new.code OR old.name IS DISTINCT FROM new.name OR old.project_id IS DISTINCT FROM new.project_id)
  EXECUTE FUNCTION stats_tender_sections_trg();--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_txn_agg_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op IN ('DELETE', 'UPDATE') THEN
    UPDATE stats_txn_monthly SET n = n - 1, amount = amount - old.amount
      WHERE month = old.month AND region = old.region AND type = old.type;
    IF old.enterprise_id IS NOT NULL THEN
      UPDATE stats_txn_ent_monthly SET n = n - 1, amount = amount - old.amount
        WHERE enterprise_id = old.enterprise_id AND month = old.month AND region = old.region AND type = old.type;
    END IF;
  END IF;
  IF tg_op IN ('INSERT', 'UPDATE') THEN
    INSERT INTO stats_txn_monthly AS m (month, region, type, n, amount) VALUES (new.month, new.region, new.type, 1, new.amount)
      ON CONFLICT (month, region, type) DO UPDATE SET n = m.n + 1, amount = m.amount + excluded.amount;
    IF new.enterprise_id IS NOT NULL THEN
      INSERT INTO stats_txn_ent_monthly AS m (enterprise_id, month, region, type, n, amount)
        VALUES (new.enterprise_id, new.month, new.region, new.type, 1, new.amount)
        ON CONFLICT (enterprise_id, month, region, type) DO UPDATE SET n = m.n + 1, amount = m.amount + excluded.amount;
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_transactions_agg AFTER INSERT OR UPDATE OR DELETE ON stats_transactions
  FOR EACH ROW EXECUTE FUNCTION stats_txn_agg_trg();--> statement-breakpoint
-- the enterprise of a to-do's record (its enterprise, else its owner's) and that enterprise's region
CREATE OR REPLACE FUNCTION stats_todo_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code text;
  ent uuid;
  reg text;
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op = 'DELETE' THEN
    DELETE FROM stats_todos WHERE todo_id = old.id;
    RETURN NULL;
  END IF;
  IF tg_op = 'UPDATE' THEN
    UPDATE stats_todos SET done_at = new.done_at WHERE todo_id = new.id AND done_at IS DISTINCT FROM new.done_at;
    RETURN NULL;
  END IF;
  SELECT lower(gn_coding) INTO code FROM menu_nodes WHERE id = new.node_id;
  IF code IS NOT NULL AND to_regclass(quote_ident('n_' || code)) IS NOT NULL THEN
    EXECUTE format('SELECT coalesce(r.enterprise_id, u.enterprise_id) FROM %I r LEFT JOIN users u ON u.id = r.owner_id WHERE r.id = $1', 'n_' || code)
      INTO ent USING new.record_id;
  END IF;
  IF ent IS NOT NULL THEN SELECT region INTO reg FROM enterprises WHERE id = ent; END IF;
  INSERT INTO stats_todos (todo_id, system_id, node_id, record_id, level, enterprise_id, region, month, sb_time, done_at)
    VALUES (new.id, new.system_id, new.node_id, new.record_id, new.level, ent, left(coalesce(nullif(reg, ''), '未填写'), 50),
      stats_month_of(new.sb_time), new.sb_time, new.done_at);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_todos_write AFTER INSERT OR UPDATE OF done_at OR DELETE ON todos
  FOR EACH ROW EXECUTE FUNCTION stats_todo_trg();--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_todo_agg_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op IN ('DELETE', 'UPDATE') THEN
    UPDATE stats_todo_monthly SET n = n - 1
      WHERE month = old.month AND region = old.region AND system_id = old.system_id AND node_id = old.node_id
        AND state = CASE WHEN old.done_at IS NULL THEN 'open' ELSE 'done' END;
    IF old.enterprise_id IS NOT NULL THEN
      UPDATE stats_todo_ent_monthly SET n = n - 1
        WHERE enterprise_id = old.enterprise_id AND month = old.month AND region = old.region
          AND system_id = old.system_id AND node_id = old.node_id
          AND state = CASE WHEN old.done_at IS NULL THEN 'open' ELSE 'done' END;
    END IF;
  END IF;
  IF tg_op IN ('INSERT', 'UPDATE') THEN
    INSERT INTO stats_todo_monthly AS m (month, region, system_id, node_id, state, n)
      VALUES (new.month, new.region, new.system_id, new.node_id, CASE WHEN new.done_at IS NULL THEN 'open' ELSE 'done' END, 1)
      ON CONFLICT (month, region, system_id, node_id, state) DO UPDATE SET n = m.n + 1;
    IF new.enterprise_id IS NOT NULL THEN
      INSERT INTO stats_todo_ent_monthly AS m (enterprise_id, month, region, system_id, node_id, state, n)
        VALUES (new.enterprise_id, new.month, new.region, new.system_id, new.node_id,
          CASE WHEN new.done_at IS NULL THEN 'open' ELSE 'done' END, 1)
        ON CONFLICT (enterprise_id, month, region, system_id, node_id, state) DO UPDATE SET n = m.n + 1;
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_todos_agg AFTER INSERT OR UPDATE OR DELETE ON stats_todos
  FOR EACH ROW EXECUTE FUNCTION stats_todo_agg_trg();--> statement-breakpoint
-- recompute every summary from the sources, set-based (repair; after a bulk load with stats.bulk on)
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  PERFORM set_config('stats.bulk', 'on', true);
  TRUNCATE stats_transactions, stats_txn_monthly, stats_txn_ent_monthly, stats_todos, stats_todo_monthly, stats_todo_ent_monthly;
  IF to_regclass('n_zbtb_xmdj') IS NOT NULL THEN
    EXECUTE $q$
      INSERT INTO stats_transactions (section_id, project_id, enterprise_id, region, type, month, opened_at, amount,
        section_code, section_name, project_code, project_name)
      SELECT s.id, s.project_id, coalesce(p.enterprise_id, u.enterprise_id), stats_region_of(p.f_xmszd::text),
        left(coalesce(nullif(p.f_xmlx::text, ''), '未填写'), 40), stats_month_of(s.bid_deadline), s.bid_deadline,
        s.estimate, s.code, s.name, left(p.f_xmbh::text, 40), left(p.f_xmmc::text, 200)
      FROM tender_sections s
      JOIN n_zbtb_xmdj p ON p.id = s.project_id AND p.status = 'passed'
      LEFT JOIN users u ON u.id = p.owner_id
    $q$;
  END IF;
  INSERT INTO stats_txn_monthly (month, region, type, n, amount)
    SELECT month, region, type, count(*), sum(amount) FROM stats_transactions GROUP BY 1, 2, 3;
  INSERT INTO stats_txn_ent_monthly (enterprise_id, month, region, type, n, amount)
    SELECT enterprise_id, month, region, type, count(*), sum(amount) FROM stats_transactions
    WHERE enterprise_id IS NOT NULL GROUP BY 1, 2, 3, 4;
  FOR r IN SELECT m.id, lower(m.gn_coding) AS code FROM menu_nodes m WHERE EXISTS (SELECT 1 FROM todos t WHERE t.node_id = m.id) LOOP
    IF to_regclass(quote_ident('n_' || r.code)) IS NOT NULL THEN
      EXECUTE format($q$
        INSERT INTO stats_todos (todo_id, system_id, node_id, record_id, level, enterprise_id, region, month, sb_time, done_at)
        SELECT t.id, t.system_id, t.node_id, t.record_id, t.level, x.ent, left(coalesce(nullif(e.region, ''), '未填写'), 50),
          stats_month_of(t.sb_time), t.sb_time, t.done_at
        FROM todos t
        LEFT JOIN LATERAL (SELECT coalesce(rec.enterprise_id, u.enterprise_id) AS ent FROM %I rec
          LEFT JOIN users u ON u.id = rec.owner_id WHERE rec.id = t.record_id) x ON true
        LEFT JOIN enterprises e ON e.id = x.ent
        WHERE t.node_id = $1
      $q$, 'n_' || r.code) USING r.id;
    ELSE
      INSERT INTO stats_todos (todo_id, system_id, node_id, record_id, level, enterprise_id, region, month, sb_time, done_at)
        SELECT t.id, t.system_id, t.node_id, t.record_id, t.level, NULL, '未填写', stats_month_of(t.sb_time), t.sb_time, t.done_at
        FROM todos t WHERE t.node_id = r.id;
    END IF;
  END LOOP;
  INSERT INTO stats_todo_monthly (month, region, system_id, node_id, state, n)
    SELECT month, region, system_id, node_id, CASE WHEN done_at IS NULL THEN 'open' ELSE 'done' END, count(*)
    FROM stats_todos GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO stats_todo_ent_monthly (enterprise_id, month, region, system_id, node_id, state, n)
    SELECT enterprise_id, month, region, system_id, node_id, CASE WHEN done_at IS NULL THEN 'open' ELSE 'done' END, count(*)
    FROM stats_todos WHERE enterprise_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
  PERFORM set_config('stats.bulk', 'off', true);
END $$;--> statement-breakpoint
-- what the demo's (and any existing) records already hold
SELECT stats_rebuild();
