import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { llmModels } from '../../db/schema/index.js';

export type LlmModelRow = typeof llmModels.$inferSelect;
export type LlmModelValues = Omit<typeof llmModels.$inferInsert, 'createdAt'>;

/** The models operators added with the admin CLI or the console; API keys arrive here already encrypted. */
export class LlmModelsRepo {
  constructor(private readonly db: DbOrTx) {}

  list(): Promise<LlmModelRow[]> {
    return this.db.select().from(llmModels).orderBy(asc(llmModels.sort), asc(llmModels.createdAt));
  }

  /** Adding a model id that exists replaces it (the CLI's "add" is also its "update"). */
  async upsert(values: LlmModelValues): Promise<void> {
    const { id: _id, ...set } = values;
    await this.db.insert(llmModels).values(values).onConflictDoUpdate({ target: llmModels.id, set });
  }

  async clearDefault(): Promise<void> {
    await this.db.update(llmModels).set({ isDefault: false }).where(eq(llmModels.isDefault, true));
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db.delete(llmModels).where(eq(llmModels.id, id)).returning({ id: llmModels.id });
    return rows.length > 0;
  }
}
