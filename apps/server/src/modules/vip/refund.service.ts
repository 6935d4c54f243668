import type { Logger } from 'pino';
import { ErrorCode, type AdminRefund } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { PaymentGateways } from '../../integrations/payment/index.js';
import { PaymentGatewayError, PaymentNotifyError, type NotifyReply, type RawNotification, type VerifiedRefund } from '../../integrations/payment/types.js';
import { newOrderNo } from './order.service.js';
import type { PointsService } from './points.service.js';
import type { RefundRepo, RefundRow } from './refund.repo.js';
import type { VipService } from './vip.service.js';

/** A change to record in the console's audit log, inside the transaction that makes it. */
export interface RefundChange {
  action: string;
  targetType: 'order';
  targetId: string;
  before: unknown;
  after: unknown;
}
export type RefundAudit = (tx: DbOrTx, change: RefundChange) => Promise<void>;

export interface RefundRequest {
  orderNo: string;
  amountFen: number;
  reason: string;
  requestId: string;
  actorId: number | null;
}

export type ConfirmOutcome = 'settled' | 'duplicate' | 'failed' | 'unknown';

/** Vendor codes that mean "try again later", not "no". */
const TRANSIENT = new Set(['SYSTEM_ERROR', 'FREQUENCY_LIMITED', 'ACQ.SYSTEM_ERROR', 'aop.ACQ.SYSTEM_ERROR']);

export const toRefundView = (r: RefundRow): AdminRefund => ({
  refundNo: r.refundNo,
  orderNo: r.orderNo,
  requestId: r.requestId,
  amount: r.amountFen,
  reason: r.reason,
  status: r.status,
  gatewayRefundId: r.gatewayRefundId,
  pointsReversed: r.pointsReversed,
  pointsShortfall: r.pointsShortfall,
  vipDaysCut: r.vipDaysCut,
  actorId: r.actorId,
  createdAt: r.createdAt.toISOString(),
  succeededAt: r.succeededAt?.toISOString() ?? null,
  failReason: r.failReason,
});

/**
 * Refunds through the order's own gateway, exactly once. A request is a row keyed by (order, client request id) and
 * carries the refund number the gateway deduplicates on; success (the gateway's synchronous answer or its verified
 * notification, whichever comes first) flips it processing -> succeeded with a conditional update in the same
 * transaction that adds it to the order and takes back, in proportion to the money returned, the points the order
 * granted (what the user has already spent is recorded as a shortfall, never forced below zero) and the VIP days.
 */
export class RefundService {
  /** Audits what gateways decide (success, failure) in the console's log; set by the admin module. */
  private systemAudit: RefundAudit | null = null;

  constructor(
    private readonly repo: RefundRepo,
    private readonly gateways: PaymentGateways,
    private readonly points: PointsService,
    private readonly vip: VipService,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly publicUrl: string,
  ) {}

  useAudit(audit: RefundAudit) {
    this.systemAudit = audit;
  }

  async ofOrder(orderNo: string) {
    return (await this.repo.ofOrder(orderNo)).map(toRefundView);
  }

  async events(orderNo: string) {
    return (await this.repo.events(orderNo)).map((e) => ({ id: e.id, kind: e.kind, payload: e.payload, createdAt: e.createdAt.toISOString() }));
  }

  /** Creates (or finds) the refund of this request, sends it to the gateway unless already final, and returns it. */
  async request(req: RefundRequest, audit: RefundAudit): Promise<AdminRefund> {
    let refund = await this.repo.byRequest(req.orderNo, req.requestId);
    if (!refund) refund = (await this.create(req, audit)) ?? (await this.repo.byRequest(req.orderNo, req.requestId));
    if (!refund) throw new Error(`refund ${req.orderNo}/${req.requestId} vanished`);
    if (refund.amountFen !== req.amountFen) throw appError(ErrorCode.CONFLICT, '该请求编号 requestId 已用于另一笔金额不同的退款');
    // Still processing (new, or an earlier attempt that did not hear back): (re)send; the gateway refunds a refund number once.
    if (refund.status === 'processing') await this.send(refund);
    return toRefundView((await this.repo.byNo(refund.refundNo))!);
  }

  private async create(req: RefundRequest, audit: RefundAudit): Promise<RefundRow | undefined> {
    return this.repo.transaction(async (r, tx) => {
      const order = await r.orderForUpdate(req.orderNo);
      if (!order) throw appError(ErrorCode.NOT_FOUND, '订单不存在');
      // A concurrent copy of this request may have committed while we waited for the order lock: that one is the refund.
      if (await r.byRequest(req.orderNo, req.requestId)) return undefined;
      if (order.status !== 'paid' && order.status !== 'partially_refunded') throw appError(ErrorCode.REFUND_REFUSED, '只有已支付的订单可以退款');
      if (!this.gateways.byName(order.gateway)) throw appError(ErrorCode.REFUND_REFUSED, '该订单的支付渠道当前未开通，无法退款');
      const left = order.amountFen - (await r.activeTotal(req.orderNo));
      if (req.amountFen > left) throw appError(ErrorCode.REFUND_REFUSED, `退款金额 amount 超过可退金额（还可退 ${left} 分）`, { refundable: left });
      const row = await r.insert({
        refundNo: `RF${newOrderNo(this.clock.now()).slice(2)}`,
        orderNo: order.orderNo,
        userId: order.userId,
        requestId: req.requestId,
        amountFen: req.amountFen,
        reason: req.reason,
        gateway: order.gateway,
        actorId: req.actorId,
        createdAt: this.clock.now(),
      });
      if (!row) return undefined;
      await audit(tx, {
        action: 'order.refund.request',
        targetType: 'order',
        targetId: order.orderNo,
        before: { status: order.status, refundedFen: order.refundedFen },
        after: { refundNo: row.refundNo, amountFen: row.amountFen, reason: row.reason },
      });
      return row;
    });
  }

  private async send(refund: RefundRow): Promise<void> {
    const gateway = this.gateways.byName(refund.gateway);
    if (!gateway) throw appError(ErrorCode.REFUND_REFUSED, '该订单的支付渠道当前未开通，无法退款');
    const order = await this.repo.order(refund.orderNo);
    if (!order) throw new Error(`order ${refund.orderNo} of refund ${refund.refundNo} does not exist`);
    let result;
    try {
      result = await gateway.refund({
        orderNo: refund.orderNo,
        refundNo: refund.refundNo,
        transactionId: order.transactionId,
        amountFen: refund.amountFen,
        totalFen: order.amountFen,
        reason: refund.reason,
        notifyUrl: `${this.publicUrl}/api/pay/refund-notify/${gateway.name}`,
      });
    } catch (err) {
      const vendorCode = err instanceof PaymentGatewayError ? err.vendorCode : undefined;
      const message = err instanceof Error ? err.message : String(err);
      await this.repo.event(refund.orderNo, 'refund.error', { refundNo: refund.refundNo, vendorCode: vendorCode ?? null, message }, this.clock.now());
      if (vendorCode && !TRANSIENT.has(vendorCode)) {
        await this.fail(refund.refundNo, message);
        throw appError(ErrorCode.REFUND_REFUSED, `支付渠道拒绝退款：${message}`);
      }
      this.log.warn({ err, refundNo: refund.refundNo }, 'refund request did not get an answer; it stays processing');
      throw appError(ErrorCode.PAY_GATEWAY_FAILED, '支付渠道暂时无法受理退款，请稍后用同一请求编号重试');
    }
    await this.repo.event(refund.orderNo, 'refund.response', { refundNo: refund.refundNo, state: result.state, response: result.response }, this.clock.now());
    if (result.state === 'processing') return;
    await this.confirm(gateway.name, { orderNo: refund.orderNo, refundNo: refund.refundNo, gatewayRefundId: result.gatewayRefundId, state: result.state });
  }

  private async fail(refundNo: string, reason: string): Promise<void> {
    await this.repo.transaction(async (r, tx) => {
      const failed = await r.markFailed(refundNo, reason);
      if (failed && this.systemAudit) {
        await this.systemAudit(tx, {
          action: 'order.refund.failed',
          targetType: 'order',
          targetId: failed.orderNo,
          before: { refundNo, status: 'processing' },
          after: { refundNo, status: 'failed', reason },
        });
      }
    });
  }

  /** A refund result the gateway vouched for: applied exactly once, whoever brings it and however often. */
  async confirm(gatewayName: string, v: VerifiedRefund): Promise<ConfirmOutcome> {
    const refund = await this.repo.byNo(v.refundNo);
    if (!refund || refund.orderNo !== v.orderNo || refund.gateway !== gatewayName) return 'unknown';
    if (v.state === 'processing') return 'duplicate';
    if (v.state === 'failed') {
      await this.fail(v.refundNo, 'gateway reported the refund closed or abnormal');
      return 'failed';
    }
    const now = this.clock.now();
    const won = await this.repo.transaction(async (r, tx) => {
      const done = await r.markSucceeded(v.refundNo, v.gatewayRefundId, now);
      if (!done) return false;
      const order = (await r.orderForUpdate(done.orderNo))!;
      const updated = await r.addRefunded(done.orderNo, done.amountFen);
      const before = await r.reversedBefore(done.orderNo, done.refundNo);
      // Proportional to the money back so far, so partial refunds add up to exactly the whole on a full refund.
      const owed = Math.max(0, Math.floor((order.item.points * updated.refundedFen) / order.amountFen) - before.points);
      const balance = owed > 0 ? await r.balanceForUpdate(order.userId) : 0;
      const taken = Math.min(owed, balance);
      if (taken > 0) {
        await this.points.charge(order.userId, taken, { reason: `订单退款扣回积分（${order.item.name}）`, idempotencyKey: `order-refund:${done.refundNo}`, kind: 'deduct' }, tx);
      }
      const days = order.kind === 'vip' ? Math.max(0, Math.floor((order.item.durationDays * updated.refundedFen) / order.amountFen) - before.days) : 0;
      if (days > 0) await this.vip.shorten(order.userId, days, tx);
      await r.setReversal(done.refundNo, taken, owed - taken, days);
      await r.event(done.orderNo, 'refund.succeeded', { refundNo: done.refundNo, gatewayRefundId: v.gatewayRefundId }, now);
      await this.systemAudit?.(tx, {
        action: 'order.refund.succeeded',
        targetType: 'order',
        targetId: done.orderNo,
        before: { status: order.status, refundedFen: order.refundedFen },
        after: { status: updated.status, refundedFen: updated.refundedFen, refundNo: done.refundNo, pointsReversed: taken, pointsShortfall: owed - taken, vipDaysCut: days },
      });
      return true;
    });
    if (won) this.log.info({ refundNo: v.refundNo, orderNo: v.orderNo }, 'refund succeeded and reversed');
    return won ? 'settled' : 'duplicate';
  }

  /** The refund notify URL (WeChat Pay): verified like payment notifications, applied once, acknowledged after. */
  async handleNotification(gatewayName: string, raw: RawNotification): Promise<NotifyReply> {
    const gateway = this.gateways.byName(gatewayName);
    if (!gateway) return { status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'gateway not enabled' }) };
    let v: VerifiedRefund;
    try {
      v = await gateway.parseRefundNotification(raw);
    } catch (err) {
      if (err instanceof PaymentNotifyError) {
        this.log[err.kind === 'probe' || err.kind === 'malformed' ? 'info' : 'warn']({ gateway: gatewayName, kind: err.kind, reason: err.message }, 'refund notification rejected');
        return gateway.failureReply(err.message);
      }
      this.log.error({ err, gateway: gatewayName }, 'refund notification could not be processed');
      return gateway.failureReply('internal error');
    }
    return this.replyTo(gatewayName, v);
  }

  /** Shared by the refund notify URL and refunds reported on the payment notify URL (Alipay). */
  async replyTo(gatewayName: string, v: VerifiedRefund): Promise<NotifyReply> {
    const gateway = this.gateways.byName(gatewayName)!;
    const outcome = await this.confirm(gatewayName, v);
    if (outcome === 'unknown') {
      this.log.warn({ gateway: gatewayName, refundNo: v.refundNo }, 'refund notification for an unknown refund rejected');
      return gateway.failureReply('unknown refund');
    }
    return gateway.successReply();
  }
}
