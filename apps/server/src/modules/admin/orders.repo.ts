import { and, count, desc, eq, gte, isNotNull, isNull, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { payOrders } from '../../db/schema/index.js';

export type AdminOrderRow = typeof payOrders.$inferSelect;

export interface OrderFilter {
  status?: AdminOrderRow['status'] | undefined;
  channel?: AdminOrderRow['channel'] | undefined;
  userId?: number | undefined;
  orderNo?: string | undefined;
  review?: boolean | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The console's order search. */
export class AdminOrdersRepo {
  constructor(private readonly db: DbOrTx) {}

  async page(f: OrderFilter, pageNum: number, pageSize: number) {
    const parts: SQL[] = [];
    if (f.status) parts.push(eq(payOrders.status, f.status));
    if (f.channel) parts.push(eq(payOrders.channel, f.channel));
    if (f.userId !== undefined) parts.push(eq(payOrders.userId, f.userId));
    if (f.orderNo) parts.push(eq(payOrders.orderNo, f.orderNo));
    if (f.review !== undefined) parts.push(f.review ? isNotNull(payOrders.reviewReason) : isNull(payOrders.reviewReason));
    if (f.from) parts.push(gte(payOrders.createdAt, f.from));
    if (f.to) parts.push(lt(payOrders.createdAt, f.to));
    const where = parts.length ? and(...parts) : undefined;
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

  async byNo(orderNo: string): Promise<AdminOrderRow | undefined> {
    const [row] = await this.db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo));
    return row;
  }
}
