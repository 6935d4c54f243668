CREATE TABLE "knowledge_chunks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"doc_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"page" integer,
	"char_start" integer NOT NULL,
	"char_end" integer NOT NULL,
	"heading" text,
	"text" text NOT NULL,
	"tokens" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_docs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"folder_id" bigint,
	"name" text NOT NULL,
	"ext" text NOT NULL,
	"source_url" text,
	"size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"pages" integer,
	"chars" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"error_msg" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"parsed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "knowledge_folders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_doc_id_knowledge_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."knowledge_docs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_docs" ADD CONSTRAINT "knowledge_docs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_docs" ADD CONSTRAINT "knowledge_docs_folder_id_knowledge_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."knowledge_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_folders" ADD CONSTRAINT "knowledge_folders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_chunks_doc_idx" ON "knowledge_chunks" USING btree ("doc_id","seq");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_user_idx" ON "knowledge_chunks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tokens_idx" ON "knowledge_chunks" USING gin (to_tsvector('simple', "tokens"));--> statement-breakpoint
CREATE INDEX "knowledge_docs_user_idx" ON "knowledge_docs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_docs_open_idx" ON "knowledge_docs" USING btree ("status") WHERE "knowledge_docs"."status" in ('queued', 'parsing');--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_folders_user_name_idx" ON "knowledge_folders" USING btree ("user_id","name");