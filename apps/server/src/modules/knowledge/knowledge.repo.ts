import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { knowledgeChunks, knowledgeDocs, knowledgeFolders, users, type KnowledgeDocStatus } from '../../db/schema/index.js';
import type { Chunk } from './knowledge.text.js';

/** Matches ranked per search at most (see search). */
export const RANK_CANDIDATES = 500;

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
      .select({ id: knowledgeFolders.id, name: knowledgeFolders.name, createdAt: knowledgeFolders.createdAt, docCount: sql<number>`(select count(*)::int from knowledge_docs d where d.folder_id = knowledge_folders.id)` })
      .from(knowledgeFolders)
      .where(eq(knowledgeFolders.userId, userId))
      .orderBy(asc(knowledgeFolders.createdAt), asc(knowledgeFolders.id));
  }

  async folder(userId: number, id: number): Promise<FolderRow | undefined> {
    const [row] = await this.db.select().from(knowledgeFolders).where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id)));
    return row;
  }

  async folderByName(userId: number, name: string): Promise<FolderRow | undefined> {
    const [row] = await this.db.select().from(knowledgeFolders).where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.name, name)));
    return row;
  }

  async ownedCount(userId: number, docIds: number[], folderIds: number[]): Promise<{ docs: number; folders: number }> {
    const [d] = docIds.length ? await this.db.select({ n: count() }).from(knowledgeDocs).where(and(eq(knowledgeDocs.userId, userId), inArray(knowledgeDocs.id, docIds))) : [{ n: 0 }];
    const [f] = folderIds.length ? await this.db.select({ n: count() }).from(knowledgeFolders).where(and(eq(knowledgeFolders.userId, userId), inArray(knowledgeFolders.id, folderIds))) : [{ n: 0 }];
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
    const [row] = await this.db.update(knowledgeFolders).set({ name }).where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id))).returning();
    return row;
  }

  /** The folder goes; its documents fall back to 未分类 (foreign key: on delete set null). */
  async deleteFolder(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.delete(knowledgeFolders).where(and(eq(knowledgeFolders.userId, userId), eq(knowledgeFolders.id, id))).returning({ id: knowledgeFolders.id });
    return rows.length > 0;
  }

  // ---- documents ----
  async usage(userId: number): Promise<{ docs: number; bytes: number }> {
    const [row] = await this.db.select({ docs: count(), bytes: sum(knowledgeDocs.size) }).from(knowledgeDocs).where(eq(knowledgeDocs.userId, userId));
    return { docs: row?.docs ?? 0, bytes: Number(row?.bytes ?? 0) };
  }

  async isVip(userId: number, now: Date): Promise<boolean> {
    const [row] = await this.db.select({ vipType: users.vipType, vipExpiredAt: users.vipExpiredAt }).from(users).where(eq(users.id, userId));
    return !!row && row.vipType === 'vip' && row.vipExpiredAt !== null && row.vipExpiredAt > now;
  }

  /**
   * Inserts the document only if its owner's count and bytes stay within the limits. A per-user advisory lock held
   * to the end of the transaction makes count, sum and insert one step: concurrent uploads of one user queue here,
   * so two of them can never both take the last place.
   */
  async insertDocWithinQuota(
    doc: NewDoc & { userId: number; size: number },
    limits: { maxDocs: number; maxBytes: number },
  ): Promise<{ row: DocRow } | { over: 'docs' | 'bytes'; used: { docs: number; bytes: number } }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`knowledge-quota:${doc.userId}`}))`);
      const [u] = await tx.select({ docs: count(), bytes: sum(knowledgeDocs.size) }).from(knowledgeDocs).where(eq(knowledgeDocs.userId, doc.userId));
      const used = { docs: u?.docs ?? 0, bytes: Number(u?.bytes ?? 0) };
      if (used.docs + 1 > limits.maxDocs) return { over: 'docs' as const, used };
      if (used.bytes + doc.size > limits.maxBytes) return { over: 'bytes' as const, used };
      const [row] = await tx.insert(knowledgeDocs).values(doc).returning();
      return { row: row! };
    });
  }

  async doc(userId: number, id: number): Promise<DocRow | undefined> {
    const [row] = await this.db.select().from(knowledgeDocs).where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id)));
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
    const rows = await this.db.select().from(knowledgeDocs).where(where).orderBy(desc(knowledgeDocs.createdAt), desc(knowledgeDocs.id)).limit(pageSize).offset((pageNum - 1) * pageSize);
    const [c] = await this.db.select({ n: count() }).from(knowledgeDocs).where(where);
    return { rows, total: c?.n ?? 0 };
  }

  async updateDoc(userId: number, id: number, set: Partial<Pick<DocRow, 'name' | 'folderId'>>): Promise<DocRow | undefined> {
    const [row] = await this.db.update(knowledgeDocs).set(set).where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id))).returning();
    return row;
  }

  /** Deletes the document; its chunks go with it (on delete cascade). Returns the row for the stored file. */
  async deleteDoc(userId: number, id: number): Promise<DocRow | undefined> {
    const [row] = await this.db.delete(knowledgeDocs).where(and(eq(knowledgeDocs.userId, userId), eq(knowledgeDocs.id, id))).returning();
    return row;
  }

  // ---- parse job state ----
  /** Starts a run: status parsing, chunks of an earlier interrupted run removed. False when the document is gone. */
  async startParse(id: number, now: Date): Promise<DocRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(knowledgeDocs)
        .set({ status: 'parsing', progress: 0, errorMsg: null, runs: sql`${knowledgeDocs.runs} + 1`, heartbeatAt: now, chunkCount: 0 })
        .where(and(eq(knowledgeDocs.id, id), inArray(knowledgeDocs.status, ['queued', 'parsing'])))
        .returning();
      if (row) await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.docId, id));
      return row;
    });
  }

  /** Progress and heartbeat; false when the document was deleted meanwhile (the job stops). */
  async progress(id: number, progress: number, now: Date, extra: Partial<Pick<DocRow, 'pages' | 'name'>> = {}): Promise<boolean> {
    const rows = await this.db.update(knowledgeDocs).set({ progress, heartbeatAt: now, ...extra }).where(and(eq(knowledgeDocs.id, id), eq(knowledgeDocs.status, 'parsing'))).returning({ id: knowledgeDocs.id });
    return rows.length > 0;
  }

  async insertChunks(docId: number, userId: number, chunks: Array<Chunk & { tokens: string }>): Promise<void> {
    for (let i = 0; i < chunks.length; i += 200) {
      await this.db.insert(knowledgeChunks).values(chunks.slice(i, i + 200).map((c) => ({ docId, userId, seq: c.seq, page: c.page, charStart: c.charStart, charEnd: c.charEnd, heading: c.heading, text: c.text, tokens: c.tokens })));
    }
  }

  async finishParse(id: number, r: { status: KnowledgeDocStatus; errorMsg?: string | null; chars?: number; chunkCount?: number; pages?: number | null }, now: Date): Promise<void> {
    await this.db
      .update(knowledgeDocs)
      .set({ status: r.status, errorMsg: r.errorMsg ?? null, progress: r.status === 'ready' ? 100 : sql`${knowledgeDocs.progress}`, chars: r.chars ?? 0, chunkCount: r.chunkCount ?? 0, ...(r.pages !== undefined ? { pages: r.pages } : {}), parsedAt: now, heartbeatAt: null })
      .where(and(eq(knowledgeDocs.id, id), eq(knowledgeDocs.status, 'parsing')));
  }

  /** Documents whose parse never finished: queued ones, and parsing ones whose worker stopped beating. */
  async unfinished(staleBefore: Date): Promise<DocRow[]> {
    return this.db
      .select()
      .from(knowledgeDocs)
      .where(sql`${knowledgeDocs.status} = 'queued' or (${knowledgeDocs.status} = 'parsing' and (${knowledgeDocs.heartbeatAt} is null or ${lt(knowledgeDocs.heartbeatAt, staleBefore)}))`);
  }

  async failStale(id: number, msg: string): Promise<void> {
    await this.db.update(knowledgeDocs).set({ status: 'failed', errorMsg: msg, heartbeatAt: null }).where(and(eq(knowledgeDocs.id, id), inArray(knowledgeDocs.status, ['queued', 'parsing'])));
  }

  async chunks(docId: number) {
    return this.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.docId, docId)).orderBy(asc(knowledgeChunks.seq));
  }

  // ---- search ----
  /**
   * Full-text search over ready documents of one user. `any` false: every word must occur (plainto_tsquery ANDs
   * them); true: any word, ranked by how many and how close. The stored tsvector column carries the GIN index.
   */
  async search(userId: number, tokens: string[], any: boolean, f: DocFilter, limit: number): Promise<SearchRow[]> {
    if (!tokens.length) return [];
    const query = any ? sql.join(tokens.map((t) => sql`plainto_tsquery('simple', ${t})`), sql` || `) : sql`plainto_tsquery('simple', ${tokens.join(' ')})`;
    // Ranking reads every candidate's tsvector; a word found in most passages would make that thousands of reads.
    // The GIN index yields the matches, and only the first RANK_CANDIDATES of them are ranked (bounded latency;
    // for a very common word the best passage may lie outside that set).
    const candidates = this.db
      .select({ id: knowledgeChunks.id })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
      .where(and(eq(knowledgeChunks.userId, userId), sql`${knowledgeChunks.tsv} @@ (${query})`, this.docWhere(userId, f), eq(knowledgeDocs.status, 'ready')))
      .limit(RANK_CANDIDATES)
      .as('candidates');
    const score = sql<number>`ts_rank(${knowledgeChunks.tsv}, ${query})`;
    const rows = await this.db
      .select({
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
        score,
      })
      .from(candidates)
      .innerJoin(knowledgeChunks, eq(knowledgeChunks.id, candidates.id))
      .innerJoin(knowledgeDocs, eq(knowledgeDocs.id, knowledgeChunks.docId))
      .orderBy(desc(score), asc(knowledgeChunks.docId), asc(knowledgeChunks.seq))
      .limit(limit);
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }

}
