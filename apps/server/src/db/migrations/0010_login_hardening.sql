CREATE TABLE "login_nonces" (
	"nonce" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- locks were per account; they become per account and address (a lock lasts minutes: the old ones are dropped)
DELETE FROM "account_locks";--> statement-breakpoint
ALTER TABLE "account_locks" DROP CONSTRAINT "account_locks_pkey";--> statement-breakpoint
ALTER TABLE "account_locks" ADD COLUMN "ip" varchar(64) NOT NULL;--> statement-breakpoint
ALTER TABLE "account_locks" ADD COLUMN "locked_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "account_locks" ADD CONSTRAINT "account_locks_account_ip_pk" PRIMARY KEY("account","ip");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_reset_at" timestamp with time zone;
