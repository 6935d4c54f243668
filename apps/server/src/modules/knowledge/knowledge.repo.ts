import { and, asc, count, desc, eq, inArray, isNull, lt, ne, or, sql, sum, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { knowledgeChunks, knowledgeDocs, knowledgeFolders, users, type KnowledgeDocStatus } from '../../db/schema/index.js';
import type { Chunk } from './knowledge.text.js';

/**
 * What a document counts against the storage quota: its file or its passages, whichever is larger (a 40 KB PDF may
 * store 40 MB of text; a PDF of scans stores little text but its file).
 */
const counted = sql<number>`greatest(${knowledgeDocs.size}, ${knowledgeDocs.storedBytes})`;

/** Bytes the passages of a document take: their text and their vectors (any storage: pgvector or real[]). */
const passageBytes = (docId: number) =>
  sql<number>`(select coalesce(sum(octet_length(c.text) + coalesce(pg_column_size(c.embedding), 0)), 0)::bigint from knowledge_chunks c where c.doc_id = ${docId})`;

/** Matches of the any-word fallback ranked at most (see search); an every-word query ranks all its matches. */
const OR_CANDIDATES = 2000;

export type FolderRow = typeof knowledgeFolders.$inferSelect;
export type DocRow = typeof knowledgeDocs.$inferSelect;
export type NewDoc = typeof knowledgeDocs.$inferInsert;

export interface DocFilter {
  folderId?: number | 'root';
  ext?: string;
  docId?: number;
  /** Quoted by a writing task: documents in `docIds` or in one of `folderIds` (either list may be empty). */
  quoted?: { docIds: number[]; folderIds: number[] };
}

export interface SearchRow {
  chunkId: number;
  docId: number;
  docName: string;
  ext: string;
  folderId: number | null;
  page: number | null;
  heading: string | null;
  text: string;
  charStart: number;
  charEnd: number;
  score: number;
}

/** Every query of the knowledge library; each one that names an id also names its owner. */
export class KnowledgeRepo {
  constructor(private readonly db: Db) {}

  // ---- folders ----
  async folders(userId: number) {
    return this.db
      .select({
        id: knowledgeFolders.id,
        name: knowledgeFolders.name,
        createdAt: knowledgeFolders.createdAt,
        docCount: sql<number>`(select count(*)::int from knowledge_docs d where d.folder_id = knowledge_folders.id)`,
      })
      .from(knowledgeFolders)
      .where(eq(knowledgeFolders.userId, userId))
      .orderBy(asc(knowledgeFolders.createdAt), asc(knowledgeFolders.id));
  }

  async folder(userId: number, id: number): Promise<FolderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(knowledgeFolders)
      .where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id)));
    return row;
  }

  async folderByName(userId: number, name: string): Promise<FolderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(knowledgeFolders)
      .where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.name, name)));
    return row;
  }

  async ownedCount(userId: number, docIds: number[], folderIds: number[]): Promise<{ docs: number; folders: number }> {
    const [d] = docIds.length
      ? await this.db
          .select({ n: count() })
          .from(knowledgeDocs)
          .where(and(eq(knowledgeDocs.userId, userId), inArray(knowledgeDocs.id, docIds)))
      : [{ n: 0 }];
    const [f] = folderIds.length
      ? await this.db
          .select({ n: count() })
          .from(knowledgeFolders)
          .where(and(eq(knowledgeFolders.userId, userId), inArray(knowledgeFolders.id, folderIds)))
      : [{ n: 0 }];
    return { docs: d?.n ?? 0, folders: f?.n ?? 0 };
  }

  async folderCount(userId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(knowledgeFolders).where(eq(knowledgeFolders.userId, userId));
    return row?.n ?? 0;
  }

  /** null when the name is taken (the unique index decides, so two racing creates cannot both win). */
  async createFolder(userId: number, name: string): Promise<FolderRow | null> {
    const [row] = await this.db.insert(knowledgeFolders).values({ userId, name }).onConflictDoNothing().returning();
    return row ?? null;
  }

  async renameFolder(userId: number, id: number, name: string): Promise<FolderRow | undefined> {
    const [row] = await this.db
      .update(knowledgeFolders)
      .set({ name })
      .where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id)))
      .returning();
    return row;
  }

  /** The folder goes; its documents fall back to 未分类 (foreign key: on delete set null). */
  async deleteFolder(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(knowledgeFolders)
      .where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id)))
      .returning({ id: knowledgeFolders.id });
    return rows.length > 0;
  }

  // ---- documents ----
  /** Documents and the bytes they count (each the larger of its file and its passages); `except` leaves one out. */
  async usage(userId: number, except?: number): Promise<{ docs: number; bytes: number }> {
    const [row] = await this.db
      .select({ docs: count(), bytes: sum(counted) })
      .from(knowledgeDocs)
      .where(and(eq(knowledgeDocs.userId, userId), except === undefined ? undefined : ne(knowledgeDocs.id, except)));
    return { docs: row?.docs ?? 0, bytes: Number(row?.bytes ?? 0) };
  }

  async isVip(userId: number, now: Date): Promise<boolean> {
    const [row] = await this.db.select({ vipType: users.vipType, vipExpiredAt: users.vipExpiredAt }).from(users).where(eq(users.id, userId));
    return !!row && row.vipType === 'vip' && row.vipExpiredAt !== null && row.vipExpiredAt > now;
  }

  /**
   * Inserts the document only if its owner's count and bytes stay within the limits (the new one counting the larger
   * of its size and its estimated `storedBytes`). A per-user advisory lock held to the end of the transaction makes
   * count, sum and insert one step: concurrent uploads of one user queue here, so two of them can never both take
   * the last place.
   */
  async insertDocWithinQuota(
    doc: NewDoc & { userId: number; size: number },
    limits: { maxDocs: number; maxBytes: number },
  ): Promise<{ row: DocRow } | { over: 'docs' | 'bytes'; used: { docs: number; bytes: number } }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`knowledge-quota:${doc.userId}`}))`);
      const [u] = await tx
        .select({ docs: count(), bytes: sum(counted) })
        .from(knowledgeDocs)
        .where(eq(knowledgeDocs.userId, doc.userId));
      const used = { docs: u?.docs ?? 0, bytes: Number(u?.bytes ?? 0) };
      if (used.docs + 1 > limits.maxDocs) return { over: 'docs' as const, used };
      if (used.bytes + Math.max(doc.size, doc.storedBytes ?? 0) > limits.maxBytes) return { over: 'bytes' as const, used };
      const [row] = await tx.insert(knowledgeDocs).values(doc).returning();
      return { row: row! };
    });
  }

  async doc(userId: number, id: number): Promise<DocRow | undefined> {
    const [row] = await this.db
      .select()
      .from(knowledgeDocs)
      .where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id)));
    return row;
  }

  /** The job's read: by id alone (the job was enqueued for this document by its owner). */
  async docById(id: number): Promise<DocRow | undefined> {
    const [row] = await this.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.id, id));
    return row;
  }

  private docWhere(userId: number, f: DocFilter): SQL {
    const conds: SQL[] = [eq(knowledgeDocs.userId, userId)];
    if (f.folderId === 'root') conds.push(isNull(knowledgeDocs.folderId));
    else if (f.folderId !== undefined) conds.push(eq(knowledgeDocs.folderId, f.folderId));
    if (f.ext) conds.push(eq(knowledgeDocs.ext, f.ext));
    if (f.docId) conds.push(eq(knowledgeDocs.id, f.docId));
    if (f.quoted) {
      const { docIds, folderIds } = f.quoted;
      const any: SQL[] = [];
      if (docIds.length) any.push(inArray(knowledgeDocs.id, docIds));
      if (folderIds.length) any.push(inArray(knowledgeDocs.folderId, folderIds));
      conds.push(any.length ? or(...any)! : sql`false`);
    }
    return and(...conds)!;
  }

  async docs(userId: number, f: DocFilter, pageNum: number, pageSize: number): Promise<{ rows: DocRow[]; total: number }> {
    const where = this.docWhere(userId, f);
    const rows = await this.db
      .select()
      .from(knowledgeDocs)
      .where(where)
      .orderBy(desc(knowledgeDocs.createdAt), desc(knowledgeDocs.id))
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize);
    const [c] = await this.db.select({ n: count() }).from(knowledgeDocs).where(where);
    return { rows, total: c?.n ?? 0 };
  }

  async updateDoc(userId: number, id: number, set: Partial<Pick<DocRow, 'name' | 'folderId'>>): Promise<DocRow | undefined> {
    const [row] = await this.db
      .update(knowledgeDocs)
      .set(set)
      .where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id)))
      .returning();
    return row;
  }

  /** Deletes the document; its chunks go with it (on delete cascade). Returns the row for the stored file. */
  async deleteDoc(userId: number, id: number): Promise<DocRow | undefined> {
    const [row] = await this.db
      .delete(knowledgeDocs)
      .where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id)))
      .returning();
    return row;
  }

  // ---- parse job state ----
  /** Starts a run: status parsing, chunks of an earlier interrupted run removed. False when the document is gone. */
  async startParse(id: number, now: Date): Promise<DocRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(knowledgeDocs)
        .set({ status: 'parsing', progress: 0, errorMsg: null, runs: sql`${knowledgeDocs.runs} + 1`, heartbeatAt: now, chunkCount: 0, embeddingModel: null, embeddedAt: null })
        .where(and(eq(knowledgeDocs.id, id), inArray(knowledgeDocs.status, ['queued', 'parsing'])))
        .returning();
      if (row) await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.docId, id));
      return row;
    });
  }

  /**
   * Progress and heartbeat; false when the document was deleted meanwhile (the job stops). `stored`: bytes of the
   * passages stored so far, so other uploads and parses of the owner see them counted while this parse runs (never
   * below the upload's estimate).
   */
  async progress(id: number, progress: number, now: Date, extra: Partial<Pick<DocRow, 'pages' | 'name'>> = {}, stored?: number): Promise<boolean> {
    const rows = await this.db
      .update(knowledgeDocs)
      .set({ progress, heartbeatAt: now, ...extra, ...(stored !== undefined ? { storedBytes: sql`greatest(${knowledgeDocs.storedBytes}, ${stored})` } : {}) })
      .where(and(eq(knowledgeDocs.id, id), eq(knowledgeDocs.status, 'parsing')))
      .returning({ id: knowledgeDocs.id });
    return rows.length > 0;
  }

  async insertChunks(docId: number, userId: number, chunks: Array<Chunk & { tokens: string }>): Promise<void> {
    for (let i = 0; i < chunks.length; i += 200) {
      await this.db
        .insert(knowledgeChunks)
        .values(
          chunks
            .slice(i, i + 200)
            .map((c) => ({ docId, userId, seq: c.seq, page: c.page, charStart: c.charStart, charEnd: c.charEnd, heading: c.heading, text: c.text, tokens: c.tokens })),
        );
    }
  }

  /**
   * `embeddingModel`: every passage got its vector from that model during the run (null: none, or not all). A ready
   * document records what its passages take (`stored_bytes`); a failed one loses the passages stored before it failed,
   * in the same transaction, so a refused document is never half stored.
   */
  async finishParse(
    id: number,
    r: { status: KnowledgeDocStatus; errorMsg?: string | null; chars?: number; chunkCount?: number; pages?: number | null; embeddingModel?: string | null },
    now: Date,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(knowledgeDocs)
        .set({
          status: r.status,
          errorMsg: r.errorMsg ?? null,
          progress: r.status === 'ready' ? 100 : sql`${knowledgeDocs.progress}`,
          chars: r.chars ?? 0,
          chunkCount: r.chunkCount ?? 0,
          ...(r.pages !== undefined ? { pages: r.pages } : {}),
          parsedAt: now,
          heartbeatAt: null,
          embeddingModel: r.embeddingModel ?? null,
          embeddedAt: r.embeddingModel ? now : null,
          storedBytes: r.status === 'ready' ? passageBytes(id) : 0,
        })
        .where(and(eq(knowledgeDocs.id, id), eq(knowledgeDocs.status, 'parsing')))
        .returning({ id: knowledgeDocs.id });
      if (row && r.status !== 'ready') await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.docId, id));
    });
  }

  /** Documents whose parse never finished: queued ones, and parsing ones whose worker stopped beating. */
  async unfinished(staleBefore: Date): Promise<DocRow[]> {
    return this.db
      .select()
      .from(knowledgeDocs)
      .where(
        sql`${knowledgeDocs.status} = 'queued' or (${knowledgeDocs.status} = 'parsing' and (${knowledgeDocs.heartbeatAt} is null or ${lt(knowledgeDocs.heartbeatAt, staleBefore)}))`,
      );
  }

  async failStale(id: number, msg: string): Promise<void> {
    await this.db
      .update(knowledgeDocs)
      .set({ status: 'failed', errorMsg: msg, heartbeatAt: null })
      .where(and(eq(knowledgeDocs.id, id), inArray(knowledgeDocs.status, ['queued', 'parsing'])));
  }

  /** Passages of a document in order (without their embeddings, which only search reads). */
  async chunks(docId: number) {
    const c = knowledgeChunks;
    return this.db
      .select({ id: c.id, docId: c.docId, seq: c.seq, page: c.page, charStart: c.charStart, charEnd: c.charEnd, heading: c.heading, text: c.text })
      .from(c)
      .where(eq(c.docId, docId))
      .orderBy(asc(c.seq));
  }

  // ---- search ----
  /**
   * Full-text search over ready documents of one user. `any` false: every word must occur (plainto_tsquery ANDs
   * them); true: any word, ranked by how many and how close.
   *
   * Plan: the GIN index on the stored tsvector yields the matches (bitmap scan, combined with the owner filter);
   * ts_rank reads each match's stored tsvector (no re-parse of `tokens`), and the top `limit` are kept by a bounded
   * sort in the same step. Only those few rows are then joined back for their text, document name and offsets, so
   * wide columns are read `limit` times, not once per match. Every match of an every-word query is ranked (no
   * arbitrary candidate cut), so the best passage of a very common word is never missed; the tsvector is kept in
   * the heap row (migration 0015) so that ranking costs no TOAST fetch.
   */
  async search(userId: number, tokens: string[], any: boolean, f: DocFilter, limit: number): Promise<SearchRow[]> {
    if (!tokens.length) return [];
    const anyWord = sql.join(
      tokens.map((t) => sql`plainto_tsquery('simple', ${t})`),
      sql` || `,
    );
    const query = any ? anyWord : sql`plainto_tsquery('simple', ${tokens.join(' ')})`;
    // One evaluation of each query, shared by the index condition and the ranking. Ranking always uses the any-word
    // form: ts_rank of an every-word query weighs the distance of every pair of words (quadratic in the words and
    // their positions; 8 words over 8,000 matches cost ~200 ms), while the any-word form sums each word's weight
    // (linear; ~25 ms). Matching is unchanged: every word must still occur.
    const q = sql`(select ${query} as query, ${anyWord} as rankq) q`;
    const score = sql<number>`ts_rank(${knowledgeChunks.tsv}, q.rankq)`.as('score');
    const matches = and(eq(knowledgeChunks.userId, userId), sql`${knowledgeChunks.tsv} @@ q.query`, this.docWhere(userId, f), eq(knowledgeDocs.status, 'ready'));
    let top;
    if (!any) {
      top = this.db
        .select({ id: knowledgeChunks.id, score })
        .from(knowledgeChunks)
        .innerJoin(sql`${q}`, sql`true`)
        .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
        .where(matches)
        .orderBy(sql`score desc`, asc(knowledgeChunks.docId), asc(knowledgeChunks.seq))
        .limit(limit)
        .as('top');
    } else {
      // The any-word fallback (nothing has every word) can match nearly every passage of a library; its ranking is
      // bounded to the first OR_CANDIDATES matches, so a long sentence typed as a query cannot cost a full ranking.
      const cand = this.db
        .select({ id: knowledgeChunks.id })
        .from(knowledgeChunks)
        .innerJoin(sql`${q}`, sql`true`)
        .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
        .where(matches)
        .limit(OR_CANDIDATES)
        .as('cand');
      top = this.db
        .select({ id: knowledgeChunks.id, score })
        .from(cand)
        .innerJoin(knowledgeChunks, eq(knowledgeChunks.id, cand.id))
        .innerJoin(sql`${q}`, sql`true`)
        .orderBy(sql`score desc`, asc(knowledgeChunks.docId), asc(knowledgeChunks.seq))
        .limit(limit)
        .as('top');
    }
    // Only the top rows are joined back for their text, name and offsets.
    const rows = await this.db
      .select(this.hitColumns(top.score))
      .from(top)
      .innerJoin(knowledgeChunks, eq(knowledgeChunks.id, top.id))
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
      .orderBy(desc(top.score), asc(knowledgeChunks.docId), asc(knowledgeChunks.seq));
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }

  /** The displayed columns of a hit; `score` comes from the ranking subquery. */
  private hitColumns(score: SQL.Aliased<number>) {
    return {
      chunkId: knowledgeChunks.id,
      docId: knowledgeChunks.docId,
      docName: knowledgeDocs.name,
      ext: knowledgeDocs.ext,
      folderId: knowledgeDocs.folderId,
      page: knowledgeChunks.page,
      heading: knowledgeChunks.heading,
      text: knowledgeChunks.text,
      charStart: knowledgeChunks.charStart,
      charEnd: knowledgeChunks.charEnd,
      score: sql<number>`${score}`,
    };
  }

  // ---- embeddings ----
  /**
   * Decides where vectors live, once per start-up. pgvector when `CREATE EXTENSION vector` succeeds (always on
   * PGlite, which ships it; on PostgreSQL when the package is installed and we may create it): the real[] column
   * is converted to `vector` (once; later start-ups find it converted). Otherwise the fallback: vectors stay real[]
   * and the service ranks them by cosine in memory (VectorCache), since plain SQL over arrays is far too slow.
   * An advisory lock keeps two processes starting together from converting the table twice.
   */
  async prepareVectors(): Promise<{ storage: VectorStorage; reason: string | null }> {
    let reason: string | null = null;
    try {
      await this.db.execute(sql`create extension if not exists vector`);
    } catch (err) {
      reason = errorText(err);
    }
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('knowledge-vectors'))`);
      const type = async () => {
        const res = await tx.execute(
          sql`select format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = 'knowledge_chunks'::regclass and attname = 'embedding'`,
        );
        return String((rowsOf(res)[0] as { type?: unknown } | undefined)?.type ?? '');
      };
      if ((await type()) === 'vector') return { storage: 'pgvector' as const, reason: null };
      if (reason) return { storage: 'real[]' as const, reason };
      await tx.execute(sql`alter table knowledge_chunks alter column embedding type vector using embedding::vector`);
      return { storage: 'pgvector' as const, reason: null };
    });
  }

  /** Passages of a document whose vector is missing or from another model, in order, a page at a time. */
  async chunksToEmbed(docId: number, model: string, limit: number): Promise<Array<{ id: number; heading: string | null; text: string }>> {
    const c = knowledgeChunks;
    return this.db
      .select({ id: c.id, heading: c.heading, text: c.text })
      .from(c)
      .where(and(eq(c.docId, docId), sql`${c.embeddingModel} is distinct from ${model}`))
      .orderBy(asc(c.seq))
      .limit(limit);
  }

  /** One statement per batch; the ::real[] cast is assigned to a vector column where pgvector holds them. */
  async storeEmbeddings(rows: Array<{ id: number; embedding: number[] }>, model: string): Promise<void> {
    if (!rows.length) return;
    const values = sql.join(
      rows.map((r) => sql`(${r.id}::bigint, ${`{${r.embedding.join(',')}}`}::real[])`),
      sql`, `,
    );
    await this.db.execute(sql`update knowledge_chunks c set embedding = v.e, embedding_model = ${model} from (values ${values}) as v(id, e) where c.id = v.id`);
  }

  /** Every passage embedded with `model`: the document says so (only while it is still ready and not re-parsed). */
  async markEmbedded(docId: number, model: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(knowledgeDocs)
      // The new vectors change what the passages take.
      .set({ embeddingModel: model, embeddedAt: now, storedBytes: passageBytes(docId) })
      .where(and(eq(knowledgeDocs.id, docId), eq(knowledgeDocs.status, 'ready')))
      .returning({ id: knowledgeDocs.id });
    return rows.length > 0;
  }

  /** Ready documents (of everyone) not embedded with `model`: new ones whose embedding failed, and all after a model change. */
  async docsToEmbed(model: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: knowledgeDocs.id })
      .from(knowledgeDocs)
      .where(and(eq(knowledgeDocs.status, 'ready'), sql`${knowledgeDocs.embeddingModel} is distinct from ${model}`))
      .orderBy(asc(knowledgeDocs.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async embeddingCounts(userId: number, model: string | null): Promise<{ docs: number; embedded: number }> {
    const [row] = await this.db
      .select({ docs: count(), embedded: sql<number>`count(*) filter (where ${knowledgeDocs.embeddingModel} = ${model ?? ''})::int` })
      .from(knowledgeDocs)
      .where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.status, 'ready')));
    return { docs: row?.docs ?? 0, embedded: Number(row?.embedded ?? 0) };
  }

  /** pgvector: the `limit` passages nearest to `vector` by cosine distance, among ready documents passing `f`. */
  async vectorSearch(userId: number, vector: number[], model: string, f: DocFilter, limit: number): Promise<SearchRow[]> {
    const q = sql`${`[${vector.join(',')}]`}::vector`;
    const score = sql<number>`1 - (${knowledgeChunks.embedding} <=> ${q})`.as('score');
    const top = this.db
      .select({ id: knowledgeChunks.id, score })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
      .where(and(eq(knowledgeChunks.userId, userId), eq(knowledgeChunks.embeddingModel, model), this.docWhere(userId, f), eq(knowledgeDocs.status, 'ready')))
      .orderBy(sql`${knowledgeChunks.embedding} <=> ${q}`)
      .limit(limit)
      .as('top');
    // Only the top rows are joined back for their text, name and offsets.
    const rows = await this.db
      .select(this.hitColumns(top.score))
      .from(top)
      .innerJoin(knowledgeChunks, eq(knowledgeChunks.id, top.id))
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
      .orderBy(desc(top.score), asc(knowledgeChunks.docId), asc(knowledgeChunks.seq));
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }

  /**
   * Fallback (real[] storage): the user's documents embedded with `model`, each with when its vectors last changed
   * (the cache key) and whether it passes `f` (the search's filter).
   */
  async embeddedDocs(userId: number, model: string, f: DocFilter): Promise<Array<{ id: number; embeddedAt: Date | null; match: boolean }>> {
    return this.db
      .select({ id: knowledgeDocs.id, embeddedAt: knowledgeDocs.embeddedAt, match: sql<boolean>`(${this.docWhere(userId, f)})` })
      .from(knowledgeDocs)
      .where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.status, 'ready'), eq(knowledgeDocs.embeddingModel, model)))
      .orderBy(asc(knowledgeDocs.id));
  }

  /** Fallback: every vector of the documents `docIds` (one read per change, kept by VectorCache). */
  async loadEmbeddings(userId: number, model: string, docIds: number[]): Promise<Array<{ id: number; docId: number; embedding: number[] | null }>> {
    if (!docIds.length) return [];
    return this.db
      .select({ id: knowledgeChunks.id, docId: knowledgeChunks.docId, embedding: knowledgeChunks.embedding })
      .from(knowledgeChunks)
      .where(and(eq(knowledgeChunks.userId, userId), eq(knowledgeChunks.embeddingModel, model), inArray(knowledgeChunks.docId, docIds)));
  }

  /** Fallback: the displayed columns of passages chosen in memory, with their scores. */
  async hitsByIds(userId: number, scored: Array<{ id: number; score: number }>): Promise<SearchRow[]> {
    if (!scored.length) return [];
    const c = knowledgeChunks;
    const rows = await this.db
      .select({
        chunkId: c.id,
        docId: c.docId,
        docName: knowledgeDocs.name,
        ext: knowledgeDocs.ext,
        folderId: knowledgeDocs.folderId,
        page: c.page,
        heading: c.heading,
        text: c.text,
        charStart: c.charStart,
        charEnd: c.charEnd,
      })
      .from(c)
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, c.docId))
      .where(
        and(
          eq(c.userId, userId),
          inArray(
            c.id,
            scored.map((s) => s.id),
          ),
        ),
      );
    const byId = new Map(rows.map((r) => [r.chunkId, r]));
    return scored.flatMap((s) => {
      const r = byId.get(s.id);
      return r ? [{ ...r, score: s.score }] : [];
    });
  }
}

export type VectorStorage = 'pgvector' | 'real[]';

/** Rows of a raw execute: node-postgres answers {rows}, PGlite too. */
function rowsOf(res: unknown): unknown[] {
  return ((res as { rows?: unknown[] }).rows ?? (Array.isArray(res) ? res : [])) as unknown[];
}

/** The database's own words (drizzle wraps them as "Failed query"), for the status API and the log. */
function errorText(err: unknown): string {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && !m.startsWith('Failed query')) return m;
  }
  return err instanceof Error ? err.message : String(err);
}
