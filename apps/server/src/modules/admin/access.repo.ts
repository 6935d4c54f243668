import { and, eq, sql } from 'drizzle-orm';
import type { AdminRole } from '@inkstone/shared';
import type { DbOrTx, Tx } from '../../db/client.js';
import { adminSessions, sessions, users } from '../../db/schema/index.js';

/** What one console call needs to know about its caller, in one query. */
export interface AdminCaller {
  userId: number;
  nickname: string;
  phone: string | null;
  role: AdminRole | null;
  sessionCreatedAt: Date;
  verifiedAt: Date | null;
  activeAt: Date | null;
}

/** Console roles on users and the console state of login sessions. */
export class AccessRepo {
  constructor(private readonly db: DbOrTx) {}

  transaction<T>(fn: (repo: AccessRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AccessRepo(tx), tx));
  }

  async caller(sessionId: number, userId: number): Promise<AdminCaller | undefined> {
    const [row] = await this.db
      .select({
        userId: users.id,
        nickname: users.nickname,
        phone: users.phone,
        role: users.adminRole,
        sessionCreatedAt: sessions.createdAt,
        verifiedAt: adminSessions.verifiedAt,
        activeAt: adminSessions.activeAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(adminSessions, eq(adminSessions.sessionId, sessions.id))
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
    return row;
  }

  /** Records console activity; the verification time stays what it was (the login's, until an SMS code renews it). */
  async touch(sessionId: number, userId: number, verifiedAt: Date, activeAt: Date): Promise<void> {
    await this.db.insert(adminSessions).values({ sessionId, userId, verifiedAt, activeAt }).onConflictDoUpdate({ target: adminSessions.sessionId, set: { activeAt } });
  }

  async verified(sessionId: number, userId: number, at: Date): Promise<void> {
    await this.db
      .insert(adminSessions)
      .values({ sessionId, userId, verifiedAt: at, activeAt: at })
      .onConflictDoUpdate({ target: adminSessions.sessionId, set: { verifiedAt: at, activeAt: at } });
  }

  /** The user's role, locked until the end of the transaction (the audit's "before"). */
  async roleForUpdate(userId: number): Promise<{ role: AdminRole | null } | undefined> {
    const [row] = await this.db.select({ role: users.adminRole }).from(users).where(eq(users.id, userId)).for('update');
    return row;
  }

  async setRole(userId: number, role: AdminRole | null): Promise<void> {
    await this.db
      .update(users)
      .set({ adminRole: role, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }
}
