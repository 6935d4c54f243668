import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { payOrders, platformAccounts, sessions, users } from '../../db/schema/index.js';

export type AdminUserRow = typeof users.$inferSelect;

/** The console's reads and writes on users, their sessions and bound accounts. */
export class AdminUsersRepo {
  constructor(private readonly db: DbOrTx) {}

  transaction<T>(fn: (repo: AdminUsersRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminUsersRepo(tx), tx));
  }

  /** An id, a phone (or part of its digits), or part of a nickname; newest accounts first. */
  async search(q: string | undefined, pageNum: number, pageSize: number) {
    let where: SQL | undefined;
    if (q) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const parts: SQL[] = [ilike(users.nickname, like)];
      if (/^\d+$/.test(q)) {
        if (q.length <= 15) parts.push(eq(users.id, Number(q)));
        parts.push(sql`${users.phone} like ${like}`);
      }
      if (/^[\w-]+$/.test(q)) parts.push(eq(users.uid, q));
      where = or(...parts);
    }
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.id))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async byId(id: number): Promise<AdminUserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** Locked until the end of the transaction, so the audit's "before" is what the change replaced. */
  async byIdForUpdate(id: number): Promise<AdminUserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  }

  async update(id: number, values: Partial<typeof users.$inferInsert>): Promise<AdminUserRow> {
    const [row] = await this.db
      .update(users)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return row!;
  }

  /** Sessions without their token hash: the console never sees anything a login could be rebuilt from. */
  async sessions(userId: number, limit = 50) {
    return this.db
      .select({
        id: sessions.id,
        device: sessions.device,
        ip: sessions.ip,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        revokedReason: sessions.revokedReason,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.id))
      .limit(limit);
  }

  /** Bound publishing accounts, without their stored platform sessions (cookies). */
  async boundAccounts(userId: number) {
    return this.db
      .select({
        id: platformAccounts.id,
        platform: platformAccounts.platform,
        nickname: platformAccounts.accountName,
        status: platformAccounts.status,
        createdAt: platformAccounts.createdAt,
      })
      .from(platformAccounts)
      .where(and(eq(platformAccounts.userId, userId), isNull(platformAccounts.unboundAt)))
      .orderBy(desc(platformAccounts.id));
  }

  async orders(userId: number, pageNum: number, pageSize: number) {
    const where = eq(payOrders.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(payOrders)
        .where(where)
        .orderBy(desc(payOrders.id))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(payOrders).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}
