CREATE TABLE "source_switches" (
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "source_switches_kind_source_id_pk" PRIMARY KEY("kind","source_id")
);
--> statement-breakpoint
ALTER TABLE "llm_models" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_models" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_models" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;