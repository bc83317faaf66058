-- btree_gist lets one GiST index hold the room (=) and the time range (&&) together, for the exclusion constraint at
-- the end. PostgreSQL ships it in contrib (a trusted extension since 13: the database owner may create it); the
-- embedded PGlite loads it as an extension module when it opens the database (db/client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "venue_booking_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"action" varchar(10) NOT NULL,
	"from_room_id" uuid,
	"from_room_name" varchar(100),
	"from_starts_at" timestamp with time zone,
	"from_ends_at" timestamp with time zone,
	"room_id" uuid,
	"room_name" varchar(100),
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"reason" varchar(200),
	"actor_id" uuid,
	"actor_name" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venue_booking_history_action_ck" CHECK ("venue_booking_history"."action" in ('create', 'move', 'cancel'))
);
--> statement-breakpoint
CREATE TABLE "venue_bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_id" uuid NOT NULL,
	"room_name" varchar(100) NOT NULL,
	"section_id" uuid,
	"subject" varchar(200) NOT NULL,
	"booked_by" uuid NOT NULL,
	"booker_name" varchar(64) NOT NULL,
	"enterprise_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" varchar(10) DEFAULT 'booked' NOT NULL,
	"cancel_reason" varchar(200),
	"cancelled_at" timestamp with time zone,
	"cancelled_by" varchar(64),
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venue_bookings_range_ck" CHECK ("venue_bookings"."ends_at" > "venue_bookings"."starts_at"),
	CONSTRAINT "venue_bookings_status_ck" CHECK ("venue_bookings"."status" in ('booked', 'cancelled')),
	CONSTRAINT "venue_bookings_cancel_ck" CHECK ("venue_bookings"."status" <> 'cancelled' or ("venue_bookings"."cancel_reason" is not null and length(btrim("venue_bookings"."cancel_reason")) > 0 and "venue_bookings"."cancelled_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "venue_booking_history" ADD CONSTRAINT "venue_booking_history_booking_id_venue_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."venue_bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_bookings" ADD CONSTRAINT "venue_bookings_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_bookings" ADD CONSTRAINT "venue_bookings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "venue_booking_history_booking_idx" ON "venue_booking_history" USING btree ("booking_id","created_at");--> statement-breakpoint
CREATE INDEX "venue_bookings_starts_idx" ON "venue_bookings" USING btree ("starts_at","room_id");--> statement-breakpoint
CREATE INDEX "venue_bookings_enterprise_idx" ON "venue_bookings" USING btree ("enterprise_id","starts_at");--> statement-breakpoint
CREATE INDEX "venue_bookings_booker_idx" ON "venue_bookings" USING btree ("booked_by","starts_at");--> statement-breakpoint
CREATE INDEX "venue_bookings_section_idx" ON "venue_bookings" USING btree ("section_id");--> statement-breakpoint
-- Written by hand (drizzle cannot declare it): two live bookings of one room never overlap, whoever writes and however
-- many at once. A violation is SQLSTATE 23P01 (db/sql.ts isExclusionViolation → 409 该场地在所选时段已被预约).
-- Ranges are [start, end): a booking may begin when another ends.
ALTER TABLE "venue_bookings" ADD CONSTRAINT "venue_bookings_no_overlap" EXCLUDE USING gist ("room_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&) WHERE ("status" = 'booked');
