ALTER TABLE "service_items" ADD COLUMN "gn_coding" varchar(63);--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD COLUMN "score" numeric(7, 2);--> statement-breakpoint
-- Header dropdown entries are named for the page they open (issue 11); an entry someone renamed keeps its name.
UPDATE "header_menus" SET "label" = '角色权限' WHERE "key" = 'permissionsSet' AND "label" = '权限设置';
--> statement-breakpoint
UPDATE "header_menus" SET "label" = '权限配置' WHERE "key" = 'permissConfig' AND "label" = '管理权限';
--> statement-breakpoint
UPDATE "header_menus" SET "label" = '管理机构' WHERE "key" = 'managementInfo' AND "label" = '管理信息';
--> statement-breakpoint
UPDATE "header_menus" SET "label" = '消息跳转配置' WHERE "key" = 'jumpNoticeCfg' AND "label" = '公告配置';
--> statement-breakpoint
UPDATE "header_menus" SET "label" = '系统管理' WHERE "key" = 'allSystem' AND "label" = '系统设置';
--> statement-breakpoint
-- Administrators reach the portal notices from the dropdown too.
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('portalNotices', '门户公告管理', '/system/portalNotices', 'FileTextOutlined', '["M"]', 7)
ON CONFLICT DO NOTHING;
