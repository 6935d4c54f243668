CREATE TABLE "point_cost_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"feature" text NOT NULL,
	"name" text NOT NULL,
	"point" integer NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_cost_changes_point_ck" CHECK ("point_cost_changes"."point" >= 0)
);
--> statement-breakpoint
CREATE INDEX "point_cost_changes_feature_idx" ON "point_cost_changes" USING btree ("feature","effective_at");