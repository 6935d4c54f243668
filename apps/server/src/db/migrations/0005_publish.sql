CREATE TABLE "platform_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"platform" text NOT NULL,
	"platform_user_id" text NOT NULL,
	"account_name" text NOT NULL,
	"avatar" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"top" boolean DEFAULT false NOT NULL,
	"follower_count" integer DEFAULT 0 NOT NULL,
	"note_count" integer DEFAULT 0 NOT NULL,
	"session_enc" text,
	"unread" jsonb,
	"last_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unbound_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "platform_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"platform_comment_id" text NOT NULL,
	"note_id" text,
	"note_title" text,
	"author" text NOT NULL,
	"content" text NOT NULL,
	"intents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"commented_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_logins" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"platform" text NOT NULL,
	"state" text NOT NULL,
	"login_enc" text,
	"session_enc" text,
	"profile" jsonb,
	"error" text,
	"account_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"publish_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"platform" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submit_started_at" timestamp with time zone,
	"result_url" text,
	"platform_note_id" text,
	"platform_status" text,
	"error_code" text,
	"error" text,
	"screenshot_path" text,
	"client_submit_status" jsonb,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"draft_id" text,
	"content" jsonb NOT NULL,
	"schedule_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_accounts" ADD CONSTRAINT "platform_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_comments" ADD CONSTRAINT "platform_comments_account_id_platform_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_comments" ADD CONSTRAINT "platform_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_logins" ADD CONSTRAINT "platform_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_jobs" ADD CONSTRAINT "publish_jobs_publish_id_publish_tasks_id_fk" FOREIGN KEY ("publish_id") REFERENCES "public"."publish_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_jobs" ADD CONSTRAINT "publish_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_jobs" ADD CONSTRAINT "publish_jobs_account_id_platform_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_tasks" ADD CONSTRAINT "publish_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "platform_accounts_live_uq" ON "platform_accounts" USING btree ("user_id","platform","platform_user_id") WHERE "platform_accounts"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "platform_accounts_user_idx" ON "platform_accounts" USING btree ("user_id","platform");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_comments_uq" ON "platform_comments" USING btree ("account_id","platform_comment_id");--> statement-breakpoint
CREATE INDEX "platform_comments_account_idx" ON "platform_comments" USING btree ("account_id","commented_at");--> statement-breakpoint
CREATE INDEX "platform_logins_user_idx" ON "platform_logins" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "publish_jobs_publish_idx" ON "publish_jobs" USING btree ("publish_id");--> statement-breakpoint
CREATE INDEX "publish_jobs_status_idx" ON "publish_jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "publish_tasks_user_idx" ON "publish_tasks" USING btree ("user_id","created_at");