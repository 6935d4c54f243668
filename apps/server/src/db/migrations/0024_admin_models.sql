ALTER TABLE "llm_models" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_models" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_models" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;