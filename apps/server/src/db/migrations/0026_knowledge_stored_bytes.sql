ALTER TABLE "knowledge_docs" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Documents parsed before the column existed: what their passages take (text and vectors), as the parse now records it.
UPDATE "knowledge_docs" d SET "stored_bytes" = s.bytes FROM (SELECT "doc_id", sum(octet_length("text") + coalesce(pg_column_size("embedding"), 0))::bigint AS bytes FROM "knowledge_chunks" GROUP BY "doc_id") s WHERE s."doc_id" = d."id";
