import { and, asc, count, desc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pointCostChanges, pointCosts, pointsLedger, users } from '../../db/schema/index.js';

export type LedgerRow = typeof pointsLedger.$inferSelect;

/** Every query on balances, the points ledger and the price list. */
export class PointsRepo {
  constructor(private readonly db: DbOrTx) {}

  with(tx: DbOrTx): PointsRepo {
    return new PointsRepo(tx);
  }

  /** Runs `fn` in one transaction (a savepoint when this repo is already bound to one). */
  transaction<T>(fn: (repo: PointsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PointsRepo(tx)));
  }

  async byKey(key: string): Promise<LedgerRow | undefined> {
    const [row] = await this.db.select().from(pointsLedger).where(eq(pointsLedger.idempotencyKey, key));
    return row;
  }

  /** Appends a ledger row; undefined when another writer already used its idempotency key. */
  async appendLedger(values: typeof pointsLedger.$inferInsert): Promise<LedgerRow | undefined> {
    const [row] = await this.db.insert(pointsLedger).values(values).onConflictDoNothing({ target: pointsLedger.idempotencyKey }).returning();
    return row;
  }

  async balance(userId: number): Promise<{ score: number; totalScore: number } | undefined> {
    const [row] = await this.db.select({ score: users.pointsBalance, totalScore: users.pointsTotal }).from(users).where(eq(users.id, userId));
    return row;
  }

  /** Takes `amount` in one conditional statement; undefined when the balance is short (nothing changed). */
  async debit(userId: number, amount: number): Promise<number | undefined> {
    const [updated] = await this.db
      .update(users)
      .set({ pointsBalance: sql`${users.pointsBalance} - ${amount}` })
      .where(and(eq(users.id, userId), gte(users.pointsBalance, amount)))
      .returning({ balance: users.pointsBalance });
    return updated?.balance;
  }

  /**
   * A charge in one statement, outside any caller's transaction: the conditional debit and its ledger row commit
   * together, and the row lock on the user is held for that one statement only (contended charges on one user were
   * bound by the lock being held across a transaction's round trips). No row: the balance is short (nothing changed).
   * A used idempotency key fails the whole statement with a unique violation (the debit is undone with it).
   */
  async debitWithLedger(
    userId: number,
    amount: number,
    entry: { kind: LedgerRow['kind']; reason: string; idempotencyKey: string; createdAt: Date },
  ): Promise<LedgerRow | undefined> {
    const result = (await this.db.execute(sql`
      with debited as (
        update ${users} set points_balance = points_balance - ${amount}
        where id = ${userId} and points_balance >= ${amount}
        returning points_balance
      )
      insert into ${pointsLedger} (user_id, delta, balance_after, kind, reason, idempotency_key, created_at)
      select ${userId}, ${-amount}, points_balance, ${entry.kind}, ${entry.reason}, ${entry.idempotencyKey}, ${entry.createdAt.toISOString()}::timestamptz from debited
      returning id, user_id, delta, balance_after, kind, reason, idempotency_key, created_at`)) as unknown as { rows: Record<string, unknown>[] };
    const row = result.rows[0];
    if (!row) return undefined;
    // Raw rows: bigint columns come back as strings (node-postgres) or bigints (PGlite).
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      delta: Number(row.delta),
      balanceAfter: Number(row.balance_after),
      kind: row.kind as LedgerRow['kind'],
      reason: String(row.reason),
      idempotencyKey: String(row.idempotency_key),
      createdAt: new Date(row.created_at as string | Date),
    };
  }

  /** Adds `amount` (and to the lifetime total when `countsTowardTotal`); undefined when the user does not exist. */
  async credit(userId: number, amount: number, countsTowardTotal: boolean): Promise<number | undefined> {
    const [updated] = await this.db
      .update(users)
      .set({
        pointsBalance: sql`${users.pointsBalance} + ${amount}`,
        ...(countsTowardTotal ? { pointsTotal: sql`${users.pointsTotal} + ${amount}` } : {}),
      })
      .where(eq(users.id, userId))
      .returning({ balance: users.pointsBalance });
    return updated?.balance;
  }

  async history(userId: number, pageNum: number, pageSize: number): Promise<{ rows: LedgerRow[]; total: number }> {
    const where = eq(pointsLedger.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(pointsLedger)
        .where(where)
        .orderBy(desc(pointsLedger.id))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(pointsLedger).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /**
   * The dictionary as it stands at `now`: each feature's base price, replaced by its latest scheduled change that has
   * started. Changes are few (operators' edits), so they are merged here rather than in a lateral join.
   */
  async costs(now: Date): Promise<{ feature: string; name: string; point: number }[]> {
    const [base, started] = await Promise.all([
      this.db.select({ feature: pointCosts.feature, name: pointCosts.name, point: pointCosts.point }).from(pointCosts).orderBy(pointCosts.feature),
      this.db
        .select({ feature: pointCostChanges.feature, name: pointCostChanges.name, point: pointCostChanges.point })
        .from(pointCostChanges)
        .where(lte(pointCostChanges.effectiveAt, now))
        .orderBy(desc(pointCostChanges.effectiveAt), desc(pointCostChanges.id)),
    ]);
    const latest = new Map<string, { name: string; point: number }>();
    for (const c of started) if (!latest.has(c.feature)) latest.set(c.feature, c);
    return base.map((b) => ({ feature: b.feature, ...(latest.get(b.feature) ?? { name: b.name, point: b.point }) }));
  }

  /** A feature's price at `now` and when its next scheduled change starts, in one read; undefined for an unknown feature. */
  async costNow(feature: string, now: Date): Promise<{ point: number; nextChangeAt: Date | null } | undefined> {
    const change = this.db
      .select({ point: pointCostChanges.point })
      .from(pointCostChanges)
      .where(and(eq(pointCostChanges.feature, feature), lte(pointCostChanges.effectiveAt, now)))
      .orderBy(desc(pointCostChanges.effectiveAt), desc(pointCostChanges.id))
      .limit(1);
    const next = this.db
      .select({ at: sql`min(${pointCostChanges.effectiveAt})` })
      .from(pointCostChanges)
      .where(and(eq(pointCostChanges.feature, feature), gt(pointCostChanges.effectiveAt, now)));
    const [row] = await this.db
      .select({
        point: sql<number>`coalesce((${change}), ${pointCosts.point})`.mapWith(Number),
        nextChangeAt: sql<Date | null>`(${next})`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))),
      })
      .from(pointCosts)
      .where(eq(pointCosts.feature, feature));
    return row;
  }

  /** Changes not started yet at `now`, soonest first (the console lists them to withdraw). */
  async pendingCostChanges(now: Date) {
    return this.db.select().from(pointCostChanges).where(gt(pointCostChanges.effectiveAt, now)).orderBy(asc(pointCostChanges.effectiveAt), asc(pointCostChanges.id));
  }

  async scheduleCost(values: { feature: string; name: string; point: number; effectiveAt: Date }) {
    const [row] = await this.db.insert(pointCostChanges).values(values).returning();
    return row!;
  }

  /** Withdraws a change that has not started; a started one is history and stays. */
  async withdrawCostChange(id: number, now: Date): Promise<typeof pointCostChanges.$inferSelect | undefined> {
    const [row] = await this.db
      .delete(pointCostChanges)
      .where(and(eq(pointCostChanges.id, id), gt(pointCostChanges.effectiveAt, now)))
      .returning();
    return row;
  }

  async upsertCost(feature: string, name: string | undefined, point: number): Promise<void> {
    await this.db
      .insert(pointCosts)
      .values({ feature, name: name ?? feature, point })
      .onConflictDoUpdate({ target: pointCosts.feature, set: { point, ...(name ? { name } : {}), updatedAt: sql`now()` } });
  }
}
