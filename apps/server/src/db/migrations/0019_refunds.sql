CREATE TABLE "pay_gateway_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"order_no" text NOT NULL,
	"user_id" bigint NOT NULL,
	"request_id" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"gateway" text NOT NULL,
	"gateway_refund_id" text,
	"points_reversed" integer DEFAULT 0 NOT NULL,
	"points_shortfall" integer DEFAULT 0 NOT NULL,
	"vip_days_cut" integer DEFAULT 0 NOT NULL,
	"actor_id" bigint,
	"fail_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	CONSTRAINT "pay_refunds_amount_ck" CHECK ("pay_refunds"."amount_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "refunded_fen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD CONSTRAINT "pay_refunds_order_no_pay_orders_order_no_fk" FOREIGN KEY ("order_no") REFERENCES "public"."pay_orders"("order_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD CONSTRAINT "pay_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD CONSTRAINT "pay_refunds_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pay_gateway_events_order_idx" ON "pay_gateway_events" USING btree ("order_no","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_refunds_refund_no_uq" ON "pay_refunds" USING btree ("refund_no");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_refunds_request_uq" ON "pay_refunds" USING btree ("order_no","request_id");--> statement-breakpoint
CREATE INDEX "pay_refunds_order_idx" ON "pay_refunds" USING btree ("order_no","id");--> statement-breakpoint
ALTER TABLE "pay_orders" ADD CONSTRAINT "pay_orders_refunded_ck" CHECK ("pay_orders"."refunded_fen" >= 0 and "pay_orders"."refunded_fen" <= "pay_orders"."amount_fen");