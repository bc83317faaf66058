CREATE TABLE "audit_levels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"name" varchar(30) NOT NULL,
	"way" varchar(8) DEFAULT 'any' NOT NULL,
	"reviewer_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reviewer_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "display_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"system_id" uuid NOT NULL,
	"name" varchar(30) NOT NULL,
	"icon" varchar(40),
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject_type" varchar(8) NOT NULL,
	"subject_id" varchar(64) NOT NULL,
	"node_id" uuid NOT NULL,
	"function_code" varchar(40) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "header_menus" (
	"key" varchar(40) PRIMARY KEY NOT NULL,
	"label" varchar(20) NOT NULL,
	"path" varchar(200) NOT NULL,
	"icon" varchar(40) NOT NULL,
	"role_types" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menu_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"system_id" uuid NOT NULL,
	"parent_id" uuid,
	"gn_coding" varchar(63) NOT NULL,
	"title" varchar(30) NOT NULL,
	"icon" varchar(40),
	"it_shows" varchar(2) DEFAULT '是' NOT NULL,
	"node_properties" varchar(30) DEFAULT 'list' NOT NULL,
	"style" varchar(10) DEFAULT 'table' NOT NULL,
	"node_set_flag" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"group_name" varchar(30),
	"data_source" varchar(63) DEFAULT 'engine' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"card_style" jsonb,
	"charts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_functions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"code" varchar(40) NOT NULL,
	"name" varchar(20) NOT NULL,
	"color" varchar(7) DEFAULT '#409EFF' NOT NULL,
	"show" boolean DEFAULT true NOT NULL,
	"kind" varchar(8) DEFAULT 'table' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_jumps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(30) NOT NULL,
	"msg_type" varchar(10) NOT NULL,
	"node_id" uuid NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" varchar(63) NOT NULL,
	"name" varchar(30) NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "style_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(30) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"columns" jsonb,
	"card_style" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "user_themes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"theme" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_levels" ADD CONSTRAINT "audit_levels_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "display_groups" ADD CONSTRAINT "display_groups_system_id_business_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."business_systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_system_id_business_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."business_systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_nodes" ADD CONSTRAINT "menu_nodes_parent_id_menu_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."menu_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_functions" ADD CONSTRAINT "node_functions_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_jumps" ADD CONSTRAINT "notice_jumps_node_id_menu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."menu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "style_templates" ADD CONSTRAINT "style_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_themes" ADD CONSTRAINT "user_themes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_levels_node_level_uq" ON "audit_levels" USING btree ("node_id","level");--> statement-breakpoint
CREATE UNIQUE INDEX "display_groups_system_name_uq" ON "display_groups" USING btree ("system_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "grants_uq" ON "grants" USING btree ("subject_type","subject_id","node_id","function_code");--> statement-breakpoint
CREATE INDEX "grants_node_idx" ON "grants" USING btree ("node_id","function_code");--> statement-breakpoint
CREATE UNIQUE INDEX "menu_nodes_gn_coding_uq" ON "menu_nodes" USING btree ("gn_coding");--> statement-breakpoint
CREATE INDEX "menu_nodes_tree_idx" ON "menu_nodes" USING btree ("system_id","parent_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "node_functions_node_code_uq" ON "node_functions" USING btree ("node_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_code_uq" ON "roles" USING btree ("code");--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");--> statement-breakpoint
-- Platform data every installation needs (not demo data): built-in roles, the header dropdown, and the platform
-- administration system whose PORTAL_NOTICE node governs the administration of portal notices.
INSERT INTO "roles" ("code", "name", "builtin") VALUES ('admin', '管理员', true), ('developer', '开发者', true), ('user', '企业/个人', true) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('uCenter', '用户中心', '/userCenter/uCenter', 'UserOutlined', '["M","D","U"]', 1),
  ('judge', '业务办理', '/judge', 'AppstoreOutlined', '["M","D","U"]', 2),
  ('permissionsSet', '权限设置', '/system/permissionsSet', 'SafetyCertificateOutlined', '["M"]', 3),
  ('permissConfig', '管理权限', '/system/permissConfig', 'LockOutlined', '["M"]', 4),
  ('managementInfo', '管理信息', '/system/managementInfo', 'BankOutlined', '["M","D"]', 5),
  ('jumpNoticeCfg', '公告配置', '/system/jumpNoticeCfg', 'NotificationOutlined', '["M","D"]', 6),
  ('allSystem', '系统设置', '/system/allSystem', 'SettingOutlined', '["D"]', 7),
  ('companyInfo', '企业信息', '/system/companyInfo', 'IdcardOutlined', '["U"]', 8)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "business_systems" ("system_name", "title", "gn_coding", "levels", "sort") VALUES ('平台管理系统', '平台管理', 'PTGL', 0, 100) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "menu_nodes" ("system_id", "gn_coding", "title", "icon", "node_properties", "style", "data_source", "sort")
  SELECT "id", 'PORTAL_NOTICE', '门户公告', 'NotificationOutlined', 'portalNotices', 'table', 'portal_notices', 0 FROM "business_systems" WHERE "gn_coding" = 'PTGL'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_functions" ("node_id", "code", "name", "color", "kind", "sort")
  SELECT n."id", f.code, f.name, f.color, 'table', f.sort FROM "menu_nodes" n,
    (VALUES ('add', '新增', '#409EFF', 0), ('edit', '编辑', '#409EFF', 1), ('publish', '发布', '#67C23A', 2), ('withdraw', '撤回', '#E6A23C', 3), ('delete', '删除', '#F56C6C', 4)) AS f(code, name, color, sort)
  WHERE n."gn_coding" = 'PORTAL_NOTICE'
ON CONFLICT DO NOTHING;
