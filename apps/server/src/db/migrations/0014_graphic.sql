CREATE TABLE "graphic_posts" (
	"task_id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"draft_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "graphic_posts" ADD CONSTRAINT "graphic_posts_task_id_writing_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."writing_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graphic_posts" ADD CONSTRAINT "graphic_posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "graphic_posts_user_idx" ON "graphic_posts" USING btree ("user_id","updated_at");--> statement-breakpoint
INSERT INTO "point_costs" ("feature", "name", "point") VALUES ('ai_image', 'AI配图', 5) ON CONFLICT DO NOTHING;
