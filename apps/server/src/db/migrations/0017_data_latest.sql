CREATE TABLE "data_note_latest" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"note_key" text NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"published_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"views" integer NOT NULL,
	"likes" integer NOT NULL,
	"collects" integer NOT NULL,
	"comments" integer NOT NULL,
	"shares" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "notes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "total_views" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "total_likes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "total_collects" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "total_comments" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD COLUMN "total_shares" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_note_latest" ADD CONSTRAINT "data_note_latest_account_id_platform_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_note_latest" ADD CONSTRAINT "data_note_latest_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_note_latest_uq" ON "data_note_latest" USING btree ("account_id","note_key");--> statement-breakpoint
CREATE INDEX "data_note_latest_user_idx" ON "data_note_latest" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "data_note_latest" ("account_id", "user_id", "note_key", "title", "url", "published_at", "day", "views", "likes", "collects", "comments", "shares")
SELECT DISTINCT ON ("account_id", "note_key") "account_id", "user_id", "note_key", "title", "url", "published_at", "day", "views", "likes", "collects", "comments", "shares"
FROM "data_note_days" ORDER BY "account_id", "note_key", "day" DESC;--> statement-breakpoint
UPDATE "data_account_days" d SET "notes" = t."notes", "total_views" = t."views", "total_likes" = t."likes", "total_collects" = t."collects", "total_comments" = t."comments", "total_shares" = t."shares"
FROM (
  SELECT a."id", count(l.*) AS "notes", coalesce(sum(l."views"), 0) AS "views", coalesce(sum(l."likes"), 0) AS "likes", coalesce(sum(l."collects"), 0) AS "collects",
         coalesce(sum(l."comments"), 0) AS "comments", coalesce(sum(l."shares"), 0) AS "shares"
  FROM "data_account_days" a
  LEFT JOIN LATERAL (
    SELECT DISTINCT ON (n."note_key") n."views", n."likes", n."collects", n."comments", n."shares" FROM "data_note_days" n
    WHERE n."account_id" = a."account_id" AND n."day" <= a."day" ORDER BY n."note_key", n."day" DESC
  ) l ON true
  GROUP BY a."id"
) t WHERE d."id" = t."id";
