import { ErrorCode, type AdminOrder, type AdminOrderDetail, type AdminRefund } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { RefundService } from '../vip/refund.service.js';
import type { AdminActor, AuditService } from './audit.service.js';
import type { AdminOrderRow, AdminOrdersRepo, OrderFilter } from './orders.repo.js';

export const toAdminOrder = (o: AdminOrderRow): AdminOrder => ({
  orderNo: o.orderNo,
  userId: o.userId,
  kind: o.kind,
  itemName: o.item.name,
  points: o.item.points,
  durationDays: o.item.durationDays,
  amount: o.amountFen,
  refundedAmount: o.refundedFen,
  gateway: o.gateway,
  channel: o.channel,
  status: o.status,
  transactionId: o.transactionId,
  createdAt: o.createdAt.toISOString(),
  paidAt: o.paidAt?.toISOString() ?? null,
  reviewReason: o.reviewReason,
  reviewTransactionId: o.reviewTransactionId,
});

/** Orders and refunds in the console; the refund itself (gateway, ledger reversal) is the vip area's RefundService. */
export class AdminOrdersService {
  constructor(
    private readonly repo: AdminOrdersRepo,
    private readonly refunds: RefundService,
    private readonly audit: AuditService,
  ) {}

  async list(f: OrderFilter, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.page(f, pageNum, pageSize);
    return { records: rows.map(toAdminOrder), total, pageNum, pageSize };
  }

  async detail(orderNo: string): Promise<AdminOrderDetail> {
    const order = await this.repo.byNo(orderNo);
    if (!order) throw appError(ErrorCode.NOT_FOUND, '订单不存在');
    const [refunds, gatewayEvents] = await Promise.all([this.refunds.ofOrder(orderNo), this.refunds.events(orderNo)]);
    return { order: toAdminOrder(order), refunds, gatewayEvents };
  }

  /** Partial or full, once per (order, requestId); the request is audited in the transaction that records it. */
  async refund(actor: AdminActor, input: { orderNo: string; amount: number; reason: string; requestId: string }): Promise<AdminRefund> {
    return this.refunds.request({ orderNo: input.orderNo, amountFen: input.amount, reason: input.reason, requestId: input.requestId, actorId: actor.userId }, (tx, change) =>
      this.audit.record(tx, actor, change),
    );
  }
}
