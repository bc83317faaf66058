ALTER TABLE "login_attempts" ADD COLUMN "checked_at" timestamp with time zone;
--> statement-breakpoint
-- every attempt recorded before this column existed had its outcome known when it was written
UPDATE "login_attempts" SET "checked_at" = "at";
