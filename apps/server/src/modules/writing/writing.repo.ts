import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { drafts, homeInputs, personas, userFiles, users, writingTaskEvents, writingTasks } from '../../db/schema/index.js';

export type TaskRow = typeof writingTasks.$inferSelect;
export type TaskEventRow = typeof writingTaskEvents.$inferSelect;
export type DraftRow = typeof drafts.$inferSelect;
export type PersonaRow = typeof personas.$inferSelect;
export type FileRow = typeof userFiles.$inferSelect;

const OPEN = ['queued', 'running'] as const;

export class WritingRepo {
  constructor(readonly db: Db) {}

  // ---- tasks ----
  async insertTask(tx: DbOrTx, values: typeof writingTasks.$inferInsert): Promise<TaskRow> {
    const [row] = await tx.insert(writingTasks).values(values).returning();
    return row!;
  }

  async task(id: string, db: DbOrTx = this.db): Promise<TaskRow | undefined> {
    const [row] = await db.select().from(writingTasks).where(eq(writingTasks.id, id));
    return row;
  }

  /** Takes a task to run: queued, or running with a heartbeat older than `staleBefore` (its worker died). */
  async claim(id: string, now: Date, staleBefore: Date): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(writingTasks)
      .set({ status: 'running', runs: sql`${writingTasks.runs} + 1`, heartbeatAt: now })
      .where(and(eq(writingTasks.id, id), or(eq(writingTasks.status, 'queued'), and(eq(writingTasks.status, 'running'), or(isNull(writingTasks.heartbeatAt), lt(writingTasks.heartbeatAt, staleBefore))))))
      .returning();
    return row;
  }

  /**
   * Only while running, and (given `run`) only by the run that claimed it: a task failed or finished elsewhere, or
   * taken over by another worker after a missed heartbeat, is not written to again by the old run.
   */
  async updateRunning(tx: DbOrTx, id: string, values: Partial<typeof writingTasks.$inferInsert>, run?: number): Promise<boolean> {
    const conds = [eq(writingTasks.id, id), eq(writingTasks.status, 'running')];
    if (run !== undefined) conds.push(eq(writingTasks.runs, run));
    const rows = await tx.update(writingTasks).set(values).where(and(...conds)).returning({ id: writingTasks.id });
    return rows.length === 1;
  }

  /** The single transition to failed: true for exactly one caller (given `run`, only the run that claimed it). */
  async markFailed(tx: DbOrTx, id: string, values: Partial<typeof writingTasks.$inferInsert>, run?: number): Promise<TaskRow | undefined> {
    const conds = [eq(writingTasks.id, id), inArray(writingTasks.status, [...OPEN])];
    if (run !== undefined) conds.push(eq(writingTasks.runs, run));
    const [row] = await tx
      .update(writingTasks)
      .set({ ...values, status: 'failed' })
      .where(and(...conds))
      .returning();
    return row;
  }

  /** Start-up with the database to itself: every running task lost its process; make them claimable now. */
  async releaseRunning(): Promise<number> {
    const rows = await this.db.update(writingTasks).set({ heartbeatAt: null }).where(eq(writingTasks.status, 'running')).returning({ id: writingTasks.id });
    return rows.length;
  }

  async openTasks(): Promise<TaskRow[]> {
    return this.db.select().from(writingTasks).where(inArray(writingTasks.status, [...OPEN]));
  }

  async appendEvents(tx: DbOrTx, taskId: string, events: Array<{ type: string; data: Record<string, unknown> }>): Promise<void> {
    if (events.length) await tx.insert(writingTaskEvents).values(events.map((e) => ({ taskId, type: e.type, data: e.data })));
  }

  async eventsAfter(taskId: string, afterId: number, limit = 500): Promise<TaskEventRow[]> {
    return this.db
      .select()
      .from(writingTaskEvents)
      .where(and(eq(writingTaskEvents.taskId, taskId), gt(writingTaskEvents.id, afterId)))
      .orderBy(asc(writingTaskEvents.id))
      .limit(limit);
  }

  // ---- drafts ----
  async insertDraft(tx: DbOrTx, values: typeof drafts.$inferInsert): Promise<DraftRow> {
    const [row] = await tx.insert(drafts).values(values).returning();
    return row!;
  }

  async draft(userId: number, id: number): Promise<DraftRow | undefined> {
    const [row] = await this.db.select().from(drafts).where(and(eq(drafts.id, id), eq(drafts.userId, userId), isNull(drafts.deletedAt)));
    return row;
  }

  async updateDraft(userId: number, id: number, values: Partial<typeof drafts.$inferInsert>): Promise<DraftRow | undefined> {
    const [row] = await this.db.update(drafts).set(values).where(and(eq(drafts.id, id), eq(drafts.userId, userId), isNull(drafts.deletedAt))).returning();
    return row;
  }

  async drafts(userId: number, pageNum: number, pageSize: number): Promise<{ rows: DraftRow[]; total: number }> {
    const where = and(eq(drafts.userId, userId), isNull(drafts.deletedAt));
    const [rows, [total]] = await Promise.all([
      this.db.select().from(drafts).where(where).orderBy(desc(drafts.updatedAt), desc(drafts.id)).limit(pageSize).offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(drafts).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  // ---- personas ----
  async personas(userId: number): Promise<PersonaRow[]> {
    return this.db.select().from(personas).where(eq(personas.userId, userId)).orderBy(desc(personas.updatedAt), desc(personas.id));
  }

  async persona(userId: number, id: number): Promise<PersonaRow | undefined> {
    const [row] = await this.db.select().from(personas).where(and(eq(personas.id, id), eq(personas.userId, userId)));
    return row;
  }

  async insertPersona(values: typeof personas.$inferInsert): Promise<PersonaRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(personas).values(values).returning();
      await tx.update(users).set({ firstCreatePersona: true }).where(and(eq(users.id, values.userId), eq(users.firstCreatePersona, false)));
      return row!;
    });
  }

  async updatePersona(userId: number, id: number, values: Partial<typeof personas.$inferInsert>): Promise<PersonaRow | undefined> {
    const [row] = await this.db.update(personas).set(values).where(and(eq(personas.id, id), eq(personas.userId, userId))).returning();
    return row;
  }

  async deletePersona(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.delete(personas).where(and(eq(personas.id, id), eq(personas.userId, userId))).returning({ id: personas.id });
    return rows.length === 1;
  }

  async countPersonas(userId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(personas).where(eq(personas.userId, userId));
    return row?.n ?? 0;
  }

  // ---- home input ----
  async homeInput(userId: number, createType: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await this.db.select().from(homeInputs).where(and(eq(homeInputs.userId, userId), eq(homeInputs.createType, createType)));
    return row?.value;
  }

  async saveHomeInput(userId: number, createType: string, value: Record<string, unknown>): Promise<void> {
    await this.db
      .insert(homeInputs)
      .values({ userId, createType, value })
      .onConflictDoUpdate({ target: [homeInputs.userId, homeInputs.createType], set: { value, updatedAt: sql`now()` } });
  }

  // ---- files ----
  async insertFile(values: typeof userFiles.$inferInsert): Promise<FileRow> {
    const [row] = await this.db.insert(userFiles).values(values).returning();
    return row!;
  }

  async files(userId: number, kind: 'quote' | 'image', ids?: number[]): Promise<FileRow[]> {
    const conds = [eq(userFiles.userId, userId), eq(userFiles.kind, kind), isNull(userFiles.deletedAt)];
    if (ids) {
      if (!ids.length) return [];
      conds.push(inArray(userFiles.id, ids));
    }
    return this.db.select().from(userFiles).where(and(...conds)).orderBy(desc(userFiles.createdAt), desc(userFiles.id)).limit(500);
  }

  async deleteFile(userId: number, id: number): Promise<FileRow | undefined> {
    const [row] = await this.db
      .update(userFiles)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(userFiles.id, id), eq(userFiles.userId, userId), isNull(userFiles.deletedAt)))
      .returning();
    return row;
  }

  async searchImages(userId: number, keyword: string, limit = 50): Promise<FileRow[]> {
    const conds = [eq(userFiles.userId, userId), eq(userFiles.kind, 'image'), isNull(userFiles.deletedAt)];
    if (keyword) {
      const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conds.push(or(ilike(userFiles.name, like), sql`${userFiles.keywords}::text ilike ${like}`)!);
    }
    return this.db.select().from(userFiles).where(and(...conds)).orderBy(desc(userFiles.createdAt), desc(userFiles.id)).limit(limit);
  }
}
