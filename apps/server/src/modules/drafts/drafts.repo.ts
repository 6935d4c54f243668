import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { drafts, personas, users, writingTasks } from '../../db/schema/index.js';

export type DraftRow = typeof drafts.$inferSelect;
export type PersonaRow = typeof personas.$inferSelect;

/** Drafts and personas. */
export class DraftRepo {
  constructor(readonly db: Db) {}

  // ---- drafts ----
  async insertDraft(tx: DbOrTx, values: typeof drafts.$inferInsert): Promise<DraftRow> {
    const [row] = await tx.insert(drafts).values(values).returning();
    return row!;
  }

  async draft(userId: number, id: number): Promise<DraftRow | undefined> {
    const [row] = await this.db
      .select()
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.userId, userId), isNull(drafts.deletedAt)));
    return row;
  }

  async updateDraft(userId: number, id: number, values: Partial<typeof drafts.$inferInsert>): Promise<DraftRow | undefined> {
    const [row] = await this.db
      .update(drafts)
      .set(values)
      .where(and(eq(drafts.id, id), eq(drafts.userId, userId), isNull(drafts.deletedAt)))
      .returning();
    return row;
  }

  async drafts(userId: number, pageNum: number, pageSize: number): Promise<{ rows: DraftRow[]; total: number }> {
    const where = and(eq(drafts.userId, userId), isNull(drafts.deletedAt));
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(drafts)
        .where(where)
        .orderBy(desc(drafts.updatedAt), desc(drafts.id))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(drafts).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  // ---- personas ----
  async personas(userId: number): Promise<PersonaRow[]> {
    return this.db.select().from(personas).where(eq(personas.userId, userId)).orderBy(desc(personas.updatedAt), desc(personas.id));
  }

  async persona(userId: number, id: number): Promise<PersonaRow | undefined> {
    const [row] = await this.db
      .select()
      .from(personas)
      .where(and(eq(personas.id, id), eq(personas.userId, userId)));
    return row;
  }

  async insertPersona(values: typeof personas.$inferInsert): Promise<PersonaRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(personas).values(values).returning();
      await tx
        .update(users)
        .set({ firstCreatePersona: true })
        .where(and(eq(users.id, values.userId), eq(users.firstCreatePersona, false)));
      return row!;
    });
  }

  async updatePersona(userId: number, id: number, values: Partial<typeof personas.$inferInsert>): Promise<PersonaRow | undefined> {
    const [row] = await this.db
      .update(personas)
      .set(values)
      .where(and(eq(personas.id, id), eq(personas.userId, userId)))
      .returning();
    return row;
  }

  async deletePersona(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(personas)
      .where(and(eq(personas.id, id), eq(personas.userId, userId)))
      .returning({ id: personas.id });
    return rows.length === 1;
  }

  async countPersonas(userId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(personas).where(eq(personas.userId, userId));
    return row?.n ?? 0;
  }

  // ---- the task that wrote a draft ----
  /** Only the model id of the writing task a draft came from (drafts.task_id), for `generatedBy`; the task is writing's. */
  async writtenBy(taskId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ modelId: writingTasks.modelId }).from(writingTasks).where(eq(writingTasks.id, taskId));
    return row?.modelId;
  }
}
