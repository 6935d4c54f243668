import type { DbOrTx } from '../../db/client.js';
import { recallChannelVisits } from '../../db/schema/index.js';

export class RecallRepo {
  constructor(private readonly db: DbOrTx) {}

  /** True when this (user, channel, day) is new. */
  async recordVisit(values: { userId: number; channel: string; day: string; createdAt: Date }): Promise<boolean> {
    const rows = await this.db.insert(recallChannelVisits).values(values).onConflictDoNothing().returning({ id: recallChannelVisits.id });
    return rows.length === 1;
  }
}
