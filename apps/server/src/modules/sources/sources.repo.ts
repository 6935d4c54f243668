import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sourceSwitches } from '../../db/schema/index.js';

export type SourceKind = (typeof sourceSwitches.$inferSelect)['kind'];
export type SourceSwitchRow = typeof sourceSwitches.$inferSelect;

/** The console's on/off rows over configured sources (no row = on). */
export class SourceSwitchRepo {
  constructor(private readonly db: DbOrTx) {}

  list(kind?: SourceKind): Promise<SourceSwitchRow[]> {
    const q = this.db.select().from(sourceSwitches);
    return kind ? q.where(eq(sourceSwitches.kind, kind)) : q;
  }

  async set(kind: SourceKind, sourceId: string, enabled: boolean): Promise<void> {
    await this.db
      .insert(sourceSwitches)
      .values({ kind, sourceId, enabled })
      .onConflictDoUpdate({ target: [sourceSwitches.kind, sourceSwitches.sourceId], set: { enabled, updatedAt: new Date() } });
  }
}
