CREATE TABLE "contests" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invite_rewards" (
	"invitee_id" bigint PRIMARY KEY NOT NULL,
	"inviter_id" bigint NOT NULL,
	"inviter_reward" integer NOT NULL,
	"invitee_reward" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"inviter_seen_at" timestamp with time zone,
	"invitee_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pay_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"item_id" text NOT NULL,
	"item" jsonb NOT NULL,
	"amount_fen" integer NOT NULL,
	"gateway" text NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"code_url" text,
	"expire_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"transaction_id" text,
	"last_query_at" timestamp with time zone,
	"review_reason" text,
	"review_transaction_id" text,
	"review_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "point_costs" (
	"feature" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"point" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_bundles" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"points" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_bundles_price_ck" CHECK ("points_bundles"."price_fen" > 0 and "points_bundles"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "points_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"delta" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_ledger_balance_ck" CHECK ("points_ledger"."balance_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "redeem_code_uses" (
	"code_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_code_uses_code_id_user_id_pk" PRIMARY KEY("code_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"batch" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"max_uses" integer DEFAULT 1 NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_codes_uses_ck" CHECK ("redeem_codes"."used_count" <= "redeem_codes"."max_uses")
);
--> statement-breakpoint
CREATE TABLE "vip_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"duration_days" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"perks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vip_plans_price_ck" CHECK ("vip_plans"."price_fen" > 0 and "vip_plans"."duration_days" > 0 and "vip_plans"."points" >= 0)
);
--> statement-breakpoint
ALTER TABLE "invite_rewards" ADD CONSTRAINT "invite_rewards_invitee_id_users_id_fk" FOREIGN KEY ("invitee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_rewards" ADD CONSTRAINT "invite_rewards_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD CONSTRAINT "pay_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_uses" ADD CONSTRAINT "redeem_code_uses_code_id_redeem_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_uses" ADD CONSTRAINT "redeem_code_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invite_rewards_inviter_idx" ON "invite_rewards" USING btree ("inviter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_orders_order_no_uq" ON "pay_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "pay_orders_user_idx" ON "pay_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "pay_orders_pending_idx" ON "pay_orders" USING btree ("expire_at") WHERE "pay_orders"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "points_ledger_key_uq" ON "points_ledger" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "points_ledger_user_idx" ON "points_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_code_uq" ON "redeem_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "redeem_codes_batch_idx" ON "redeem_codes" USING btree ("batch");--> statement-breakpoint
INSERT INTO "vip_plans" ("id", "name", "duration_days", "price_fen", "points", "perks", "sort") VALUES
  ('month', '月度会员', 30, 3900, 1000, '["每月赠送1000积分","深度写作","图文生成","多平台发布"]'::jsonb, 1),
  ('quarter', '季度会员', 90, 9900, 3300, '["赠送3300积分","深度写作","图文生成","多平台发布","优先客服"]'::jsonb, 2),
  ('year', '年度会员', 365, 29900, 14000, '["赠送14000积分","深度写作","图文生成","多平台发布","优先客服","新功能抢先体验"]'::jsonb, 3)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "points_bundles" ("id", "name", "points", "price_fen", "sort") VALUES
  ('p500', '500积分', 500, 1990, 1),
  ('p2000', '2000积分', 2000, 5900, 2),
  ('p5000', '5000积分', 5000, 12900, 3)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "point_costs" ("feature", "name", "point") VALUES
  ('article_deep', '深度写作', 20),
  ('article_quick', '快速写作', 5),
  ('graphic', '图文生成', 10),
  ('ability', '写作能力（润色/扩写等）', 2),
  ('title', '标题生成', 1)
ON CONFLICT DO NOTHING;
