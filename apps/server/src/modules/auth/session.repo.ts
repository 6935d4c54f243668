import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';

/** A session looked up by its token hash, with what decides whether it is still live. */
export interface SessionLookup {
  id: number;
  userId: number;
  expiresAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
  deletedAt: Date | null;
  disabledAt: Date | null;
}

/** Every query on login sessions; tokens are stored only as hashes. */
export class SessionRepo {
  constructor(private readonly db: DbOrTx) {}

  async insert(values: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(values);
  }

  /** The session and its user's state (deleted or disabled users lose their sessions). */
  async byTokenHash(tokenHash: string): Promise<SessionLookup | undefined> {
    const [row] = await this.db
      .select({
        id: sessions.id,
        userId: sessions.userId,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
        revokedAt: sessions.revokedAt,
        deletedAt: users.deletedAt,
        disabledAt: users.disabledAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash));
    return row;
  }

  async touch(id: number, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
  }

  async revoke(id: number, at: Date, reason: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  }

  async revokeAllOfUser(userId: number, at: Date, reason: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  /** The user's live sessions (not revoked, not expired), most recently seen first. */
  async liveOfUser(userId: number, now: Date) {
    return this.db
      .select({ id: sessions.id, device: sessions.device, client: sessions.client, ip: sessions.ip, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  }

  /** Revokes one session only when it belongs to `userId`; false when it does not (or is already revoked). */
  async revokeOfUser(userId: number, id: number, at: Date, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  async purgeExpiredBefore(olderThanDays: number): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, sql`now() - make_interval(days => ${olderThanDays})`));
  }
}
