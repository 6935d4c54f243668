CREATE TABLE "data_account_days" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"day" date NOT NULL,
	"followers" integer NOT NULL,
	"new_followers" integer NOT NULL,
	"views" integer NOT NULL,
	"likes" integer NOT NULL,
	"collects" integer NOT NULL,
	"comments" integer NOT NULL,
	"shares" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_note_days" (
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
	"shares" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_account_days" ADD CONSTRAINT "data_account_days_account_id_platform_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_account_days" ADD CONSTRAINT "data_account_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_note_days" ADD CONSTRAINT "data_note_days_account_id_platform_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_note_days" ADD CONSTRAINT "data_note_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_account_days_uq" ON "data_account_days" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "data_account_days_user_idx" ON "data_account_days" USING btree ("user_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "data_note_days_uq" ON "data_note_days" USING btree ("account_id","note_key","day");--> statement-breakpoint
CREATE INDEX "data_note_days_user_day_idx" ON "data_note_days" USING btree ("user_id","day");