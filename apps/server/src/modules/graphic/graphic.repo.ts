import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { graphicPosts, type GraphicCardRow } from '../../db/schema/graphic.js';
import { userFiles } from '../../db/schema/writing.js';

export type GraphicPostRow = typeof graphicPosts.$inferSelect;
export type { GraphicCardRow };

/** Every query of graphic notes. */
export class GraphicRepo {
  constructor(readonly db: Db) {}

  async get(taskId: string, db: DbOrTx = this.db): Promise<GraphicPostRow | undefined> {
    const [row] = await db.select().from(graphicPosts).where(eq(graphicPosts.taskId, taskId));
    return row;
  }

  /** The writer's result (first run or a restart): replaces the note wholesale. */
  async put(values: { taskId: string; userId: number; title: string; body: string; tags: string[]; cards: GraphicCardRow[]; now: Date }, db: DbOrTx = this.db): Promise<void> {
    const set = { title: values.title, body: values.body, tags: values.tags, cards: values.cards, updatedAt: values.now };
    await db
      .insert(graphicPosts)
      .values({ ...set, taskId: values.taskId, userId: values.userId, createdAt: values.now })
      .onConflictDoUpdate({ target: graphicPosts.taskId, set: { ...set, version: sql`${graphicPosts.version} + 1` } });
  }

  /**
   * Compare-and-set on `version`: the edit applies only to the note as the caller read it, so two tabs editing at
   * once cannot silently undo each other (the loser gets CONFLICT and reloads).
   */
  async update(
    taskId: string,
    userId: number,
    version: number,
    values: Partial<Pick<GraphicPostRow, 'title' | 'body' | 'tags' | 'cards' | 'draftId'>>,
    now: Date,
    db: DbOrTx = this.db,
  ): Promise<GraphicPostRow | undefined> {
    const [row] = await db
      .update(graphicPosts)
      .set({ ...values, version: version + 1, updatedAt: now })
      .where(and(eq(graphicPosts.taskId, taskId), eq(graphicPosts.userId, userId), eq(graphicPosts.version, version)))
      .returning();
    return row;
  }

  /** Whether `storageKey` is an image in the user's own library (picking a library picture for a card). */
  async ownsImage(userId: number, storageKey: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: userFiles.id })
      .from(userFiles)
      .where(and(eq(userFiles.userId, userId), eq(userFiles.storageKey, storageKey), eq(userFiles.kind, 'image'), isNull(userFiles.deletedAt)))
      .limit(1);
    return row !== undefined;
  }
}
