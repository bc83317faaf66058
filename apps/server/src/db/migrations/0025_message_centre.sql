CREATE TABLE "message_broadcasts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" varchar(200) NOT NULL,
	"body" text NOT NULL,
	"sender_id" uuid,
	"sender_name" varchar(64) NOT NULL,
	"to_users" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"to_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recipients" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_messages" ADD COLUMN "kind" varchar(10) DEFAULT 'result' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_messages" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "user_messages" ADD COLUMN "gn_coding" varchar(63);--> statement-breakpoint
ALTER TABLE "user_messages" ADD COLUMN "record_id" uuid;--> statement-breakpoint
ALTER TABLE "user_messages" ADD COLUMN "broadcast_id" uuid;--> statement-breakpoint
ALTER TABLE "message_broadcasts" ADD CONSTRAINT "message_broadcasts_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_broadcasts_created_idx" ON "message_broadcasts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_broadcast_id_message_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."message_broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_messages_unread_idx" ON "user_messages" USING btree ("user_id") WHERE "user_messages"."read_at" is null;--> statement-breakpoint
CREATE INDEX "user_messages_broadcast_idx" ON "user_messages" USING btree ("broadcast_id");--> statement-breakpoint
CREATE INDEX "todos_open_cover_idx" ON "todos" USING btree ("assignee_type","assignee_id","system_id","node_id","record_id") WHERE "todos"."done_at" is null;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_kind_ck" CHECK ("user_messages"."kind" in ('result', 'rejected', 'admin'));--> statement-breakpoint
-- Administrators reach 消息发布 (issue 14: messages to users and roles, with receipts) from the header dropdown.
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('messagePublish', '消息发布', '/system/messagePublish', 'NotificationOutlined', '["M"]', 12)
ON CONFLICT DO NOTHING;
