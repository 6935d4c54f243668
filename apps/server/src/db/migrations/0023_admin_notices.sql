CREATE TABLE "notice_targets" (
	"notice_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "notice_targets_notice_id_user_id_pk" PRIMARY KEY("notice_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "audience" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "format" text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notice_targets" ADD CONSTRAINT "notice_targets_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_targets" ADD CONSTRAINT "notice_targets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;