import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { payGatewayEvents, payOrders, payRefunds, users } from '../../db/schema/index.js';

export type RefundRow = typeof payRefunds.$inferSelect;
type OrderRow = typeof payOrders.$inferSelect;

/** Every query on refunds and the gateway event record; state changes are conditional on the state they leave. */
export class RefundRepo {
  constructor(private readonly db: DbOrTx) {}

  transaction<T>(fn: (repo: RefundRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new RefundRepo(tx), tx));
  }

  async byRequest(orderNo: string, requestId: string): Promise<RefundRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payRefunds)
      .where(and(eq(payRefunds.orderNo, orderNo), eq(payRefunds.requestId, requestId)));
    return row;
  }

  async byNo(refundNo: string): Promise<RefundRow | undefined> {
    const [row] = await this.db.select().from(payRefunds).where(eq(payRefunds.refundNo, refundNo));
    return row;
  }

  async ofOrder(orderNo: string): Promise<RefundRow[]> {
    return this.db.select().from(payRefunds).where(eq(payRefunds.orderNo, orderNo)).orderBy(asc(payRefunds.id));
  }

  async order(orderNo: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo));
    return row;
  }

  /** The order, locked until the end of the transaction: refunds of one order are decided one at a time. */
  async orderForUpdate(orderNo: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo)).for('update');
    return row;
  }

  /** Fen already promised back: succeeded and still processing refunds. */
  async activeTotal(orderNo: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`coalesce(sum(${payRefunds.amountFen}), 0)::int` })
      .from(payRefunds)
      .where(and(eq(payRefunds.orderNo, orderNo), ne(payRefunds.status, 'failed')));
    return Number(row?.n ?? 0);
  }

  /** Undefined when a concurrent request with the same (order, request id) inserted first. */
  async insert(values: typeof payRefunds.$inferInsert): Promise<RefundRow | undefined> {
    const [row] = await this.db
      .insert(payRefunds)
      .values(values)
      .onConflictDoNothing({ target: [payRefunds.orderNo, payRefunds.requestId] })
      .returning();
    return row;
  }

  /** processing -> succeeded, once: undefined for every later caller (duplicate notifications, replies racing them). */
  async markSucceeded(refundNo: string, gatewayRefundId: string | null, at: Date): Promise<RefundRow | undefined> {
    const [row] = await this.db
      .update(payRefunds)
      .set({ status: 'succeeded', succeededAt: at, ...(gatewayRefundId ? { gatewayRefundId } : {}) })
      .where(and(eq(payRefunds.refundNo, refundNo), eq(payRefunds.status, 'processing')))
      .returning();
    return row;
  }

  async markFailed(refundNo: string, reason: string): Promise<RefundRow | undefined> {
    const [row] = await this.db
      .update(payRefunds)
      .set({ status: 'failed', failReason: reason.slice(0, 500) })
      .where(and(eq(payRefunds.refundNo, refundNo), eq(payRefunds.status, 'processing')))
      .returning();
    return row;
  }

  async setReversal(refundNo: string, pointsReversed: number, pointsShortfall: number, vipDaysCut: number): Promise<void> {
    await this.db.update(payRefunds).set({ pointsReversed, pointsShortfall, vipDaysCut }).where(eq(payRefunds.refundNo, refundNo));
  }

  /** What earlier succeeded refunds of the order already reversed (points owed, taken or not; VIP days). */
  async reversedBefore(orderNo: string, refundNo: string): Promise<{ points: number; days: number }> {
    const [row] = await this.db
      .select({
        points: sql<number>`coalesce(sum(${payRefunds.pointsReversed} + ${payRefunds.pointsShortfall}), 0)::int`,
        days: sql<number>`coalesce(sum(${payRefunds.vipDaysCut}), 0)::int`,
      })
      .from(payRefunds)
      .where(and(eq(payRefunds.orderNo, orderNo), eq(payRefunds.status, 'succeeded'), ne(payRefunds.refundNo, refundNo)));
    return { points: Number(row?.points ?? 0), days: Number(row?.days ?? 0) };
  }

  /** Adds a succeeded refund to the order: refunded once the whole amount is back, else partially refunded. */
  async addRefunded(orderNo: string, amountFen: number): Promise<OrderRow> {
    const [row] = await this.db
      .update(payOrders)
      .set({
        refundedFen: sql`${payOrders.refundedFen} + ${amountFen}`,
        status: sql`case when ${payOrders.refundedFen} + ${amountFen} >= ${payOrders.amountFen} then 'refunded' else 'partially_refunded' end`,
      })
      .where(eq(payOrders.orderNo, orderNo))
      .returning();
    return row!;
  }

  /** The user's balance, locked so that what is taken back is decided against a balance nobody else changes meanwhile. */
  async balanceForUpdate(userId: number): Promise<number> {
    const [row] = await this.db.select({ balance: users.pointsBalance }).from(users).where(eq(users.id, userId)).for('update');
    return row?.balance ?? 0;
  }

  async event(orderNo: string, kind: string, payload: unknown, at: Date): Promise<void> {
    await this.db.insert(payGatewayEvents).values({ orderNo, kind, payload: payload ?? null, createdAt: at });
  }

  async events(orderNo: string, limit = 100) {
    return this.db.select().from(payGatewayEvents).where(eq(payGatewayEvents.orderNo, orderNo)).orderBy(desc(payGatewayEvents.id)).limit(limit);
  }
}
