CREATE TABLE "stats_participation" (
	"enterprise_id" uuid NOT NULL,
	"month" date NOT NULL,
	"region" varchar(50) NOT NULL,
	"type" varchar(40) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_participation_enterprise_id_month_region_type_pk" PRIMARY KEY("enterprise_id","month","region","type")
);
--> statement-breakpoint
CREATE TABLE "stats_participation_month" (
	"enterprise_id" uuid NOT NULL,
	"month" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_participation_month_enterprise_id_month_pk" PRIMARY KEY("enterprise_id","month")
);
--> statement-breakpoint
CREATE INDEX "stats_participation_region_idx" ON "stats_participation" USING btree ("region","month","type");--> statement-breakpoint
CREATE INDEX "stats_participation_month_idx" ON "stats_participation_month" USING btree ("month");--> statement-breakpoint
-- 参与交易企业: a registration of a transaction counts for its enterprise in the transaction's month, region and type
CREATE OR REPLACE FUNCTION stats_participation_add(p_ent uuid, p_month date, p_region text, p_type text, p_n int, p_amount numeric)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_participation AS m (enterprise_id, month, region, type, n, amount)
    VALUES (p_ent, p_month, p_region, p_type, p_n, p_n * p_amount)
    ON CONFLICT (enterprise_id, month, region, type) DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount;
  INSERT INTO stats_participation_month AS m (enterprise_id, month, n, amount)
    VALUES (p_ent, p_month, p_n, p_n * p_amount)
    ON CONFLICT (enterprise_id, month) DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_registrations_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE f record;
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op IN ('DELETE', 'UPDATE') THEN
    SELECT * INTO f FROM stats_transactions WHERE section_id = old.section_id;
    IF found THEN PERFORM stats_participation_add(old.enterprise_id, f.month, f.region, f.type, -1, f.amount); END IF;
  END IF;
  IF tg_op IN ('INSERT', 'UPDATE') THEN
    SELECT * INTO f FROM stats_transactions WHERE section_id = new.section_id;
    IF found THEN PERFORM stats_participation_add(new.enterprise_id, f.month, f.region, f.type, 1, f.amount); END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_registrations_write AFTER INSERT OR UPDATE OF section_id, enterprise_id OR DELETE ON tender_registrations
  FOR EACH ROW EXECUTE FUNCTION stats_registrations_trg();--> statement-breakpoint
-- a transaction that comes or goes takes its section's registrations with it
CREATE OR REPLACE FUNCTION stats_txn_participation_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op IN ('DELETE', 'UPDATE') THEN
    FOR r IN SELECT enterprise_id FROM tender_registrations WHERE section_id = old.section_id LOOP
      PERFORM stats_participation_add(r.enterprise_id, old.month, old.region, old.type, -1, old.amount);
    END LOOP;
  END IF;
  IF tg_op IN ('INSERT', 'UPDATE') THEN
    FOR r IN SELECT enterprise_id FROM tender_registrations WHERE section_id = new.section_id LOOP
      PERFORM stats_participation_add(r.enterprise_id, new.month, new.region, new.type, 1, new.amount);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_transactions_participation AFTER INSERT OR UPDATE OR DELETE ON stats_transactions
  FOR EACH ROW EXECUTE FUNCTION stats_txn_participation_trg();--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_participation_fill() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_participation;
  DELETE FROM stats_participation_month;
  INSERT INTO stats_participation (enterprise_id, month, region, type, n, amount)
    SELECT r.enterprise_id, t.month, t.region, t.type, count(*), sum(t.amount)
    FROM tender_registrations r JOIN stats_transactions t ON t.section_id = r.section_id GROUP BY 1, 2, 3, 4;
  INSERT INTO stats_participation_month (enterprise_id, month, n, amount)
    SELECT enterprise_id, month, sum(n), sum(amount) FROM stats_participation GROUP BY 1, 2;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  PERFORM set_config('stats.bulk', 'on', true);
  TRUNCATE stats_participation, stats_participation_month, stats_transactions, stats_txn_monthly, stats_txn_ent_monthly, stats_todos, stats_todo_monthly, stats_todo_ent_monthly;
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
  INSERT INTO stats_transactions (section_id, project_id, enterprise_id, region, type, month, opened_at, amount,
    section_code, section_name, project_code, project_name)
    SELECT h.id, h.id, h.enterprise_id, h.region, h.type, stats_month_of(h.opened_at), h.opened_at, h.amount,
      h.section_code, h.section_name, h.project_code, h.project_name
    FROM stats_imported_transactions h;
  INSERT INTO stats_txn_monthly (month, region, type, n, amount)
    SELECT month, region, type, count(*), sum(amount) FROM stats_transactions GROUP BY 1, 2, 3;
  INSERT INTO stats_txn_ent_monthly (enterprise_id, month, region, type, n, amount)
    SELECT enterprise_id, month, region, type, count(*), sum(amount) FROM stats_transactions
    WHERE enterprise_id IS NOT NULL GROUP BY 1, 2, 3, 4;
  PERFORM stats_participation_fill();
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
SELECT stats_participation_fill();
