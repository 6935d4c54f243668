import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { feedback, userFiles } from '../../db/schema/index.js';

export type FeedbackRow = typeof feedback.$inferSelect;

export class FeedbackRepo {
  constructor(readonly db: Db) {}

  async insert(values: typeof feedback.$inferInsert): Promise<FeedbackRow> {
    const [row] = await this.db.insert(feedback).values(values).returning();
    return row!;
  }

  async page(userId: number, offset: number, limit: number): Promise<{ rows: FeedbackRow[]; total: number }> {
    const where = eq(feedback.userId, userId);
    const rows = await this.db.select().from(feedback).where(where).orderBy(desc(feedback.createdAt), desc(feedback.id)).offset(offset).limit(limit);
    const [total] = await this.db.select({ n: count() }).from(feedback).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** Operators' view: newest first, optionally only 'open' or 'replied'. */
  async recent(limit: number, status?: string): Promise<FeedbackRow[]> {
    return this.db
      .select()
      .from(feedback)
      .where(status ? eq(feedback.status, status) : undefined)
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(limit);
  }

  async byId(id: number): Promise<FeedbackRow | undefined> {
    const [row] = await this.db.select().from(feedback).where(eq(feedback.id, id));
    return row;
  }

  async setReply(id: number, reply: string, at: Date, db: DbOrTx): Promise<FeedbackRow | undefined> {
    const [row] = await db.update(feedback).set({ reply, status: 'replied', repliedAt: at }).where(eq(feedback.id, id)).returning();
    return row;
  }

  /** Which of these storage keys are images this user uploaded (and has not deleted). */
  async ownImageKeys(userId: number, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db
      .select({ key: userFiles.storageKey })
      .from(userFiles)
      .where(and(eq(userFiles.userId, userId), eq(userFiles.kind, 'image'), inArray(userFiles.storageKey, keys), isNull(userFiles.deletedAt)));
    return new Set(rows.map((r) => r.key));
  }
}
