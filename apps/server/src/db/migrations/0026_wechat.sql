CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"method" varchar(16) NOT NULL,
	"signed_in_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wechat_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"app_id" varchar(64) NOT NULL,
	"openid" varchar(128) NOT NULL,
	"unionid" varchar(128),
	"nickname" varchar(100) DEFAULT '' NOT NULL,
	"headimgurl" text,
	"bound_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wechat_tickets" (
	"state" varchar(64) PRIMARY KEY NOT NULL,
	"purpose" varchar(8) NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"scanned_at" timestamp with time zone,
	"denied" varchar(1),
	"openid" varchar(128),
	"unionid" varchar(128),
	"nickname" varchar(100),
	"headimgurl" text,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "wechat_tickets_purpose_ck" CHECK ("wechat_tickets"."purpose" in ('login', 'bind')),
	CONSTRAINT "wechat_tickets_bind_user_ck" CHECK ("wechat_tickets"."purpose" = 'login' or "wechat_tickets"."user_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wechat_bindings" ADD CONSTRAINT "wechat_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wechat_tickets" ADD CONSTRAINT "wechat_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_session_uq" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_bindings_user_app_uq" ON "wechat_bindings" USING btree ("user_id","app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_bindings_app_openid_uq" ON "wechat_bindings" USING btree ("app_id","openid");--> statement-breakpoint
CREATE INDEX "wechat_bindings_unionid_idx" ON "wechat_bindings" USING btree ("unionid");--> statement-breakpoint
CREATE INDEX "wechat_tickets_expires_idx" ON "wechat_tickets" USING btree ("expires_at");