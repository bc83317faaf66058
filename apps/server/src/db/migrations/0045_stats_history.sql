CREATE TABLE "stats_imported_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"enterprise_id" uuid,
	"region" varchar(50) NOT NULL,
	"type" varchar(40) NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"amount" numeric(15, 2) NOT NULL,
	"section_code" varchar(40) NOT NULL,
	"section_name" varchar(100) NOT NULL,
	"project_code" varchar(40) NOT NULL,
	"project_name" varchar(200) NOT NULL,
	CONSTRAINT "stats_imported_amount_ck" CHECK ("stats_imported_transactions"."amount" >= 0)
);
--> statement-breakpoint
-- 历史交易 are transaction facts of their own
CREATE OR REPLACE FUNCTION stats_imported_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('stats.bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF tg_op IN ('DELETE', 'UPDATE') THEN
    DELETE FROM stats_transactions WHERE section_id = old.id;
  END IF;
  IF tg_op IN ('INSERT', 'UPDATE') THEN
    INSERT INTO stats_transactions (section_id, project_id, enterprise_id, region, type, month, opened_at, amount,
      section_code, section_name, project_code, project_name)
    VALUES (new.id, new.id, new.enterprise_id, new.region, new.type, stats_month_of(new.opened_at), new.opened_at,
      new.amount, new.section_code, new.section_name, new.project_code, new.project_name);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stats_imported_write AFTER INSERT OR UPDATE OR DELETE ON stats_imported_transactions
  FOR EACH ROW EXECUTE FUNCTION stats_imported_trg();--> statement-breakpoint
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
END $$;
