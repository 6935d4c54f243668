import { and, count, desc, eq, lt, max, min, sql, sum } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { redeemCodeUses, redeemCodes, users } from '../../db/schema/index.js';

export type RedeemCodeRow = typeof redeemCodes.$inferSelect;

/** Every query on redeem codes and their uses. */
export class CodeRepo {
  constructor(private readonly db: DbOrTx) {}

  /** Runs `fn` in one transaction; `tx` is handed on to the reward's writes (points, VIP). */
  transaction<T>(fn: (repo: CodeRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new CodeRepo(tx), tx));
  }

  async insertMany(rows: (typeof redeemCodes.$inferInsert)[]): Promise<void> {
    await this.db.insert(redeemCodes).values(rows);
  }

  /** Disables every code of the batch; the number of codes it had. */
  async disableBatch(batch: string, at: Date): Promise<number> {
    const rows = await this.db.update(redeemCodes).set({ disabledAt: at }).where(eq(redeemCodes.batch, batch)).returning({ id: redeemCodes.id });
    return rows.length;
  }

  async batch(batch: string) {
    return this.db
      .select({ code: redeemCodes.code, usedCount: redeemCodes.usedCount, maxUses: redeemCodes.maxUses, expiresAt: redeemCodes.expiresAt, disabledAt: redeemCodes.disabledAt })
      .from(redeemCodes)
      .where(eq(redeemCodes.batch, batch));
  }

  async byCode(code: string): Promise<RedeemCodeRow | undefined> {
    const [row] = await this.db.select().from(redeemCodes).where(eq(redeemCodes.code, code));
    return row;
  }

  /** Records the user's use of the code; false when they already used it (one use per user, by primary key). */
  async recordUse(codeId: number, userId: number, at: Date): Promise<boolean> {
    const [use] = await this.db.insert(redeemCodeUses).values({ codeId, userId, createdAt: at }).onConflictDoNothing().returning();
    return use !== undefined;
  }

  /** Counts one use unless the code is used up (`used_count < max_uses` in the same statement). */
  async countUse(codeId: number): Promise<boolean> {
    const [counted] = await this.db
      .update(redeemCodes)
      .set({ usedCount: sql`${redeemCodes.usedCount} + 1` })
      .where(and(eq(redeemCodes.id, codeId), lt(redeemCodes.usedCount, redeemCodes.maxUses)))
      .returning({ id: redeemCodes.id });
    return counted !== undefined;
  }

  with(tx: DbOrTx): CodeRepo {
    return new CodeRepo(tx);
  }

  /** Batches, newest first, with their totals (the console's list). */
  async batches(pageNum: number, pageSize: number) {
    const rows = await this.db
      .select({
        batch: redeemCodes.batch,
        kind: min(redeemCodes.kind),
        value: min(redeemCodes.value),
        maxUses: min(redeemCodes.maxUses),
        codes: count(),
        used: sum(redeemCodes.usedCount).mapWith(Number),
        disabledCodes: count(redeemCodes.disabledAt),
        expiresAt: min(redeemCodes.expiresAt),
        createdAt: max(redeemCodes.createdAt),
      })
      .from(redeemCodes)
      .groupBy(redeemCodes.batch)
      .orderBy(desc(max(redeemCodes.createdAt)), desc(redeemCodes.batch))
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize);
    const [total] = await this.db.select({ n: sql<number>`count(distinct ${redeemCodes.batch})`.mapWith(Number) }).from(redeemCodes);
    return { rows, total: total?.n ?? 0 };
  }

  /** Every code of a batch in creation order (CSV export). */
  async codesOf(batch: string) {
    return this.db.select().from(redeemCodes).where(eq(redeemCodes.batch, batch)).orderBy(redeemCodes.id);
  }

  /** Who redeemed what, newest first; optionally one batch or one user. */
  async redemptions(f: { batch?: string | undefined; userId?: number | undefined }, pageNum: number, pageSize: number) {
    const where = and(f.batch ? eq(redeemCodes.batch, f.batch) : undefined, f.userId ? eq(redeemCodeUses.userId, f.userId) : undefined);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({
          code: redeemCodes.code,
          batch: redeemCodes.batch,
          kind: redeemCodes.kind,
          value: redeemCodes.value,
          userId: redeemCodeUses.userId,
          nickname: users.nickname,
          redeemedAt: redeemCodeUses.createdAt,
        })
        .from(redeemCodeUses)
        .innerJoin(redeemCodes, eq(redeemCodes.id, redeemCodeUses.codeId))
        .innerJoin(users, eq(users.id, redeemCodeUses.userId))
        .where(where)
        .orderBy(desc(redeemCodeUses.createdAt), desc(redeemCodeUses.codeId))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(redeemCodeUses).innerJoin(redeemCodes, eq(redeemCodes.id, redeemCodeUses.codeId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}
