import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { streamTickets, users } from '../../db/schema/index.js';

/** Stream tickets by their hash: the ticket itself is never stored. */
export class StreamTicketRepo {
  constructor(private readonly db: Db) {}

  async dropExpired(now: Date): Promise<void> {
    await this.db.delete(streamTickets).where(lt(streamTickets.expiresAt, now));
  }

  async insert(row: { ticketHash: string; userId: number; taskId: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(streamTickets).values(row);
  }

  /** The owner of a live ticket for this task, if that user may still sign in. */
  async liveOwner(ticketHash: string, taskId: string, now: Date): Promise<number | undefined> {
    const [row] = await this.db
      .select({ userId: streamTickets.userId })
      .from(streamTickets)
      .innerJoin(users, eq(users.id, streamTickets.userId))
      .where(and(eq(streamTickets.ticketHash, ticketHash), eq(streamTickets.taskId, taskId), gt(streamTickets.expiresAt, now), isNull(users.deletedAt), isNull(users.disabledAt)));
    return row?.userId;
  }
}
