import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sensitiveWords } from '../../db/schema/index.js';

/** The sensitive words operators added (the committed lists live in files in words/ beside lexicon.service.ts). */
export class SensitiveWordRepo {
  constructor(private readonly db: DbOrTx) {}

  async enabledWords(): Promise<string[]> {
    return (await this.db.select({ word: sensitiveWords.word }).from(sensitiveWords).where(eq(sensitiveWords.enabled, true))).map((r) => r.word);
  }

  /** The enabled added words with when they were first added, alphabetical. */
  async addedWords(): Promise<Array<{ word: string; createdAt: Date }>> {
    return this.db
      .select({ word: sensitiveWords.word, createdAt: sensitiveWords.createdAt })
      .from(sensitiveWords)
      .where(eq(sensitiveWords.enabled, true))
      .orderBy(asc(sensitiveWords.word));
  }

  /** Adds the word, or enables it again. */
  async enable(word: string): Promise<void> {
    await this.db
      .insert(sensitiveWords)
      .values({ word })
      .onConflictDoUpdate({ target: sensitiveWords.word, set: { enabled: true } });
  }

  /** Disables the word; false when it was never added. */
  async disable(word: string): Promise<boolean> {
    const rows = await this.db.update(sensitiveWords).set({ enabled: false }).where(eq(sensitiveWords.word, word)).returning({ word: sensitiveWords.word });
    return rows.length > 0;
  }
}
