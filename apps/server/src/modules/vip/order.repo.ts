import { and, asc, count, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { payOrders } from '../../db/schema/index.js';

export type OrderRow = typeof payOrders.$inferSelect;

/** Every query on payment orders. State changes are conditional on the status they start from. */
export class OrderRepo {
  constructor(private readonly db: DbOrTx) {}

  /** Runs `fn` in one transaction; `tx` is handed on to other areas' writes (points, VIP) in the same transaction. */
  transaction<T>(fn: (repo: OrderRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new OrderRepo(tx), tx));
  }

  async insert(values: typeof payOrders.$inferInsert): Promise<void> {
    await this.db.insert(payOrders).values(values);
  }

  async byNo(orderNo: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo));
    return row;
  }

  async setCodeUrl(orderNo: string, codeUrl: string): Promise<void> {
    await this.db.update(payOrders).set({ codeUrl }).where(eq(payOrders.orderNo, orderNo));
  }

  /** Moves a still pending order to `status` (closed, expired); a settled one is left alone. */
  async endPending(orderNo: string, status: 'closed' | 'expired'): Promise<void> {
    await this.db
      .update(payOrders)
      .set({ status })
      .where(and(eq(payOrders.orderNo, orderNo), eq(payOrders.status, 'pending')));
  }

  /** Claims the right to ask the gateway about a pending order: true at most once per `intervalMs`. */
  async claimQuery(orderNo: string, now: Date, intervalMs: number): Promise<boolean> {
    const claimed = await this.db
      .update(payOrders)
      .set({ lastQueryAt: now })
      .where(
        and(eq(payOrders.orderNo, orderNo), eq(payOrders.status, 'pending'), or(isNull(payOrders.lastQueryAt), lte(payOrders.lastQueryAt, new Date(now.getTime() - intervalMs)))),
      )
      .returning({ id: payOrders.id });
    return claimed.length > 0;
  }

  /** Pending orders past their expiry, oldest first. */
  async duePending(now: Date, limit: number): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(payOrders)
      .where(and(eq(payOrders.status, 'pending'), lte(payOrders.expireAt, now)))
      .orderBy(asc(payOrders.expireAt))
      .limit(limit);
  }

  /** Flips pending -> paid; undefined when another writer settled or ended it first. */
  async markPaid(orderNo: string, paidAt: Date, transactionId: string): Promise<OrderRow | undefined> {
    const [won] = await this.db
      .update(payOrders)
      .set({ status: 'paid', paidAt, transactionId })
      .where(and(eq(payOrders.orderNo, orderNo), eq(payOrders.status, 'pending')))
      .returning();
    return won;
  }

  /** Records the first late payment of an order for a manual refund. */
  async markForReview(orderNo: string, reason: string, transactionId: string, at: Date): Promise<void> {
    await this.db
      .update(payOrders)
      .set({ reviewReason: reason, reviewTransactionId: transactionId, reviewAt: at })
      .where(and(eq(payOrders.orderNo, orderNo), isNull(payOrders.reviewTransactionId)));
  }

  async pageOfUser(userId: number, pageNum: number, pageSize: number): Promise<{ rows: OrderRow[]; total: number }> {
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

  async needingReview(): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(payOrders)
      .where(sql`${payOrders.reviewReason} is not null`)
      .orderBy(desc(payOrders.reviewAt));
  }
}
