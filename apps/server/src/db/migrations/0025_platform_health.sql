CREATE TABLE "platform_step_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"source" text NOT NULL,
	"account_id" bigint,
	"job_id" text,
	"step" text NOT NULL,
	"key" text NOT NULL,
	"tried" jsonb NOT NULL,
	"url" text NOT NULL,
	"dom_excerpt" text NOT NULL,
	"screenshot_path" text,
	"message" text NOT NULL,
	"profile_version" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_profile_active" (
	"platform" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"changed_by" bigint,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_profile_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"version" integer NOT NULL,
	"override" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_profile_active" ADD CONSTRAINT "site_profile_active_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_profile_versions" ADD CONSTRAINT "site_profile_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_step_failures_platform_idx" ON "platform_step_failures" USING btree ("platform","id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_profile_versions_uq" ON "site_profile_versions" USING btree ("platform","version");