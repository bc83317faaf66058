CREATE INDEX "stats_todos_time_idx" ON "stats_todos" USING btree ("sb_time","todo_id");--> statement-breakpoint
CREATE INDEX "stats_transactions_time_idx" ON "stats_transactions" USING btree ("opened_at","section_id");--> statement-breakpoint
CREATE INDEX "stats_transactions_region_time_idx" ON "stats_transactions" USING btree ("region","opened_at","section_id");