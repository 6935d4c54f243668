import { and, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userFiles } from '../../db/schema/index.js';

export type FileRow = typeof userFiles.$inferSelect;

/** Uploaded images and quoted documents (user_files). */
export class FileRepo {
  constructor(readonly db: Db) {}

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
    return this.db
      .select()
      .from(userFiles)
      .where(and(...conds))
      .orderBy(desc(userFiles.createdAt), desc(userFiles.id))
      .limit(500);
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
    return this.db
      .select()
      .from(userFiles)
      .where(and(...conds))
      .orderBy(desc(userFiles.createdAt), desc(userFiles.id))
      .limit(limit);
  }
}
