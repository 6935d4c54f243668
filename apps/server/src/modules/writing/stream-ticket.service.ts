import { ErrorCode } from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../security/hashing.js';
import type { StreamTicketRepo } from './stream-ticket.repo.js';

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
    private readonly repo: StreamTicketRepo,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number, taskId: string): Promise<{ ticket: string; expiresIn: number }> {
    const now = this.clock.now();
    // Expired tickets are worthless: drop them here instead of running a sweeper.
    await this.repo.dropExpired(now);
    const ticket = randomToken(32);
    await this.repo.insert({ ticketHash: sha256Hex(ticket), userId, taskId, expiresAt: new Date(now.getTime() + STREAM_TICKET_TTL_MS) });
    return { ticket, expiresIn: Math.floor(STREAM_TICKET_TTL_MS / 1000) };
  }

  /** The user the ticket was issued to, if it is live, for this task, and the user may still sign in. */
  async redeem(ticket: string, taskId: string): Promise<number> {
    const userId = await this.repo.liveOwner(sha256Hex(ticket), taskId, this.clock.now());
    if (userId === undefined) throw appError(ErrorCode.NOT_LOGGED_IN, '事件流凭证无效或已过期，请重新获取');
    return userId;
  }
}
