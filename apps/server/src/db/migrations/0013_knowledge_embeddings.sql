ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "knowledge_docs" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "knowledge_docs" ADD COLUMN "embedded_at" timestamp with time zone;