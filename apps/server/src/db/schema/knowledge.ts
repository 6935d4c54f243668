import { sql, type SQL } from 'drizzle-orm';
import { bigint, bigserial, customType, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** PostgreSQL's tsvector (drizzle has no built-in type for it). */
const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/**
 * A passage's embedding. Created as real[] (portable); where pgvector can be enabled (always on embedded PGlite, on
 * PostgreSQL when `CREATE EXTENSION vector` succeeds) KnowledgeRepo.prepareVectors turns the column into pgvector's
 * `vector` at start-up. Reads accept both shapes: real[] arrives as numbers, vector as its text '[x,y,...]'. Writes
 * go through the repo with an explicit ::real[] cast, which pgvector assigns to a vector column.
 */
const embedding = customType<{ data: number[]; driverData: string | number[] }>({
  dataType: () => 'real[]',
  fromDriver: (v) => (Array.isArray(v) ? v.map(Number) : (JSON.parse(v.replace(/^\{/, '[').replace(/\}$/, ']')) as number[])),
  toDriver: (v) => `{${v.join(',')}}`,
});
import { users } from './user.js';

/** 知识库 folders: one level, named uniquely per user. */
export const knowledgeFolders = pgTable(
  'knowledge_folders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('knowledge_folders_user_name_idx').on(t.userId, t.name)],
);

export type KnowledgeDocStatus = 'queued' | 'parsing' | 'ready' | 'failed';

/** A document of the library: the stored original plus its parse job's state (status, progress, error). */
export const knowledgeDocs = pgTable(
  'knowledge_docs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** null = 未分类; a deleted folder's documents fall back here. */
    folderId: bigint('folder_id', { mode: 'number' }).references(() => knowledgeFolders.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** pdf | docx | md | txt | html (a web page imported by URL is html with sourceUrl). */
    ext: text('ext').notNull(),
    sourceUrl: text('source_url'),
    size: bigint('size', { mode: 'number' }).notNull(),
    /**
     * Bytes its passages take (their text, plus their vectors): set when the parse ends, an estimate from the upload
     * before (a docx's text counted in its XML). The storage quota counts each document as the larger of this and
     * `size`, so a small file that expands into megabytes of text counts what it really stores.
     */
    storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull().default(0),
    storageKey: text('storage_key').notNull(),
    status: text('status').$type<KnowledgeDocStatus>().notNull().default('queued'),
    /** 0-100 while parsing (pdf: pages done / pages). */
    progress: integer('progress').notNull().default(0),
    pages: integer('pages'),
    chars: integer('chars').notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    errorMsg: text('error_msg'),
    /** Parse attempts started; a document that keeps killing its worker is failed instead of retried forever. */
    runs: integer('runs').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    parsedAt: timestamp('parsed_at', { withTimezone: true }),
    /** Model id (EmbeddingsProvider.modelId) every chunk of the document was embedded with; null = not (yet) embedded. */
    embeddingModel: text('embedding_model'),
    /** When the chunks' embeddings last changed: the server's vector cache (PostgreSQL without pgvector) keys on it. */
    embeddedAt: timestamp('embedded_at', { withTimezone: true }),
  },
  (t) => [
    index('knowledge_docs_user_idx').on(t.userId, t.createdAt),
    index('knowledge_docs_open_idx')
      .on(t.status)
      .where(sql`${t.status} in ('queued', 'parsing')`),
  ],
);

/**
 * Passages of a parsed document. `tokens` is the jieba segmentation joined by spaces: PostgreSQL's 'simple'
 * configuration then indexes Chinese words as it does Latin ones, on PGlite and PostgreSQL alike (no zhparser).
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    docId: bigint('doc_id', { mode: 'number' })
      .notNull()
      .references(() => knowledgeDocs.id, { onDelete: 'cascade' }),
    /** Denormalised owner: every search is filtered by it before ranking. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    seq: integer('seq').notNull(),
    /** 1-based page of a PDF; null for other types. */
    page: integer('page'),
    /** Character offsets of `text` in the document's extracted text (pages joined by one line break). */
    charStart: integer('char_start').notNull(),
    charEnd: integer('char_end').notNull(),
    heading: text('heading'),
    text: text('text').notNull(),
    tokens: text('tokens').notNull(),
    /**
     * The tokens as a stored tsvector: ranking reads it instead of re-parsing `tokens` for every matching row (a
     * common word matches thousands of passages). to_tsvector with an explicit configuration is immutable.
     */
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('simple'::regconfig, ${knowledgeChunks.tokens})`),
    embedding: embedding('embedding'),
    /** The model id `embedding` came from: vectors of different models are never compared. */
    embeddingModel: text('embedding_model'),
  },
  (t) => [index('knowledge_chunks_doc_idx').on(t.docId, t.seq), index('knowledge_chunks_user_idx').on(t.userId), index('knowledge_chunks_tsv_idx').using('gin', t.tsv)],
);
