import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { streamTickets, users } from '../../db/schema/index.js';
import { appError } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../security/hashing.js';

/** Long enough to open the stream and ride out the browser's own quick reconnects; short enough to be useless once leaked. */
export const STREAM_TICKET_TTL_MS = 60_000;

/**
 * Tickets for `GET /mp/task/stream/:taskId?ticket=`. EventSource cannot send the session header, and a session token in
 * a URL lands in access logs and browser history; a ticket opens one task's stream for one user for a minute and
 * nothing else. Within that minute it may be used again (EventSource retries the same URL after a network blip);
 * after it the client asks for a fresh one. Kept in the database so any instance can check it.
 */
export class StreamTicketService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number, taskId: string): Promise<{ ticket: string; expiresIn: number }> {
    const now = this.clock.now();
    // Expired tickets are worthless: drop them here instead of running a sweeper.
    await this.db.delete(streamTickets).where(lt(streamTickets.expiresAt, now));
    const ticket = randomToken(32);
    await this.db.insert(streamTickets).values({ ticketHash: sha256Hex(ticket), userId, taskId, expiresAt: new Date(now.getTime() + STREAM_TICKET_TTL_MS) });
    return { ticket, expiresIn: Math.floor(STREAM_TICKET_TTL_MS / 1000) };
  }

  /** The user the ticket was issued to, if it is live, for this task, and the user may still sign in. */
  async redeem(ticket: string, taskId: string): Promise<number> {
    const [row] = await this.db
      .select({ userId: streamTickets.userId })
      .from(streamTickets)
      .innerJoin(users, eq(users.id, streamTickets.userId))
      .where(
        and(
          eq(streamTickets.ticketHash, sha256Hex(ticket)),
          eq(streamTickets.taskId, taskId),
          gt(streamTickets.expiresAt, this.clock.now()),
          isNull(users.deletedAt),
          isNull(users.disabledAt),
        ),
      );
    if (!row) throw appError(ErrorCode.NOT_LOGGED_IN, '事件流凭证无效或已过期，请重新获取');
    return row.userId;
  }
}
