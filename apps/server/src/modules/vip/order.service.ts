import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import type { Logger } from 'pino';
import { ErrorCode, type OrderStatus, type PayChannel, type PayQr } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { PaymentGateways } from '../../integrations/payment/index.js';
import { PaymentNotifyError, type NotifyReply, type PaymentGateway, type RawNotification, type VerifiedRefund } from '../../integrations/payment/types.js';
import type { CatalogueService } from './catalogue.service.js';
import type { PointsService } from './points.service.js';
import type { VipService } from './vip.service.js';
import type { OrderRepo, OrderRow } from './order.repo.js';

export type { OrderRow };
type OrderKind = OrderRow['kind'];

export interface OrderOptions {
  ttlMs: number;
  /** Status polling asks the gateway at most this often per order. */
  queryIntervalMs: number;
  publicUrl: string;
  /** Runs inside the settling transaction (the payment-success notice), so it happens exactly once with the settlement. */
  onPaid?: (order: OrderRow, tx: DbOrTx) => Promise<void>;
}

interface Payment {
  transactionId: string;
  amountFen: number;
  paidAt?: Date | undefined;
}

export type SettleOutcome = 'settled' | 'duplicate' | 'late' | 'amount_mismatch' | 'unknown_order';

const ALNUM = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `IS` + China-time yyyyMMddHHmmss + 10 random characters: 26 of [0-9A-Z], inside every vendor's 6..32 rule. */
export function newOrderNo(now: Date): string {
  const cn = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `IS${cn}${Array.from({ length: 10 }, () => ALNUM[randomInt(0, ALNUM.length)]).join('')}`;
}

/**
 * Orders, QR payment and settlement. Settlement is exactly-once by construction: the order flips
 * pending -> paid with a conditional update in the same transaction that grants points (ledger key
 * `order:<orderNo>`) and extends VIP, so replays, duplicates and races all find it already paid.
 */
/** The worker's scheduled sweep that expires and closes overdue orders (vip.module.ts schedules `sweepExpired`). */
export const ORDER_EXPIRY_JOB = 'vip.order-expiry';

export class OrderService {
  /** Refunds a gateway reports on the payment notify URL (Alipay) go to the refund service (vip.module.ts wires it). */
  private refunds: ((gatewayName: string, refund: VerifiedRefund) => Promise<NotifyReply>) | null = null;

  useRefunds(handler: (gatewayName: string, refund: VerifiedRefund) => Promise<NotifyReply>) {
    this.refunds = handler;
  }

  constructor(
    private readonly repo: OrderRepo,
    private readonly gateways: PaymentGateways,
    private readonly catalogue: CatalogueService,
    private readonly points: PointsService,
    private readonly vip: VipService,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: OrderOptions,
  ) {}

  private gatewayFor(order: OrderRow): PaymentGateway | undefined {
    return this.gateways.byName(order.gateway);
  }

  async createVipOrder(userId: number, planId: string, channel?: PayChannel): Promise<PayQr> {
    const plan = await this.catalogue.plan(planId);
    if (!plan || !plan.enabled) throw appError(ErrorCode.ITEM_UNAVAILABLE);
    return this.create(userId, 'vip', plan.id, { name: plan.name, points: plan.points, durationDays: plan.durationDays }, plan.priceFen, channel);
  }

  async createBundleOrder(userId: number, bundleId: string, channel?: PayChannel): Promise<PayQr> {
    const bundle = await this.catalogue.bundle(bundleId);
    if (!bundle || !bundle.enabled) throw appError(ErrorCode.ITEM_UNAVAILABLE);
    return this.create(userId, 'bundle', bundle.id, { name: bundle.name, points: bundle.points, durationDays: 0 }, bundle.priceFen, channel);
  }

  private async create(userId: number, kind: OrderKind, itemId: string, item: OrderRow['item'], amountFen: number, wanted?: PayChannel): Promise<PayQr> {
    const channel = wanted ?? this.gateways.defaultChannel;
    const gateway = this.gateways.forChannel(channel);
    if (!gateway) throw appError(ErrorCode.PAY_CHANNEL_UNAVAILABLE);
    const now = this.clock.now();
    const expireAt = new Date(now.getTime() + this.opts.ttlMs);
    const orderNo = newOrderNo(now);
    await this.repo.insert({ orderNo, userId, kind, itemId, item, amountFen, gateway: gateway.name, channel, expireAt, createdAt: now });
    let codeUrl: string;
    try {
      ({ codeUrl } = await gateway.createQr({
        orderNo,
        amountFen,
        description: `砚 Inkstone - ${item.name}`,
        expireAt,
        notifyUrl: `${this.opts.publicUrl}/api/pay/notify/${gateway.name}`,
      }));
    } catch (err) {
      this.log.error({ err, orderNo, gateway: gateway.name }, 'payment gateway refused to create the QR order');
      await this.repo.endPending(orderNo, 'closed');
      throw appError(ErrorCode.PAY_GATEWAY_FAILED);
    }
    await this.repo.setCodeUrl(orderNo, codeUrl);
    const qrImage = await QRCode.toDataURL(codeUrl, { margin: 1, width: 240 });
    return { orderNo, codeUrl, qrImage, expireAt: expireAt.toISOString(), amount: amountFen, payChannel: channel, sandbox: gateway.sandbox };
  }

  async byNo(orderNo: string): Promise<OrderRow | undefined> {
    return this.repo.byNo(orderNo);
  }

  /**
   * The owner's view of an order. Pending orders past their expiry are expired here too (not only by
   * the sweep), and pending orders ask the gateway (rate-limited) in case the notification was lost.
   */
  async status(userId: number, orderNo: string, kind: OrderKind): Promise<OrderStatus> {
    let order = await this.byNo(orderNo);
    // Someone else's order is indistinguishable from no order at all.
    if (!order || order.userId !== userId || order.kind !== kind) throw appError(ErrorCode.NOT_FOUND, '订单不存在');
    if (order.status === 'pending') {
      if (this.clock.now() >= order.expireAt) await this.expire(order);
      else await this.pollGateway(order);
      order = (await this.byNo(orderNo))!;
    }
    return { status: order.status, ...(order.paidAt ? { paidAt: order.paidAt.toISOString() } : {}) };
  }

  private async pollGateway(order: OrderRow) {
    if (!(await this.repo.claimQuery(order.orderNo, this.clock.now(), this.opts.queryIntervalMs))) return;
    const gateway = this.gatewayFor(order);
    if (!gateway) return;
    try {
      const q = await gateway.query(order.orderNo);
      if (q.state === 'paid' && q.transactionId && q.amountFen !== undefined) {
        await this.settle(order.orderNo, { transactionId: q.transactionId, amountFen: q.amountFen, paidAt: q.paidAt });
      }
    } catch (err) {
      this.log.warn({ err, orderNo: order.orderNo }, 'payment status query failed; will retry on a later poll');
    }
  }

  /**
   * Expires a pending order past its time: first asks the gateway (a payment made in time settles),
   * then closes it there so it cannot be paid later, and only then marks it expired here.
   */
  async expire(order: OrderRow): Promise<OrderRow['status']> {
    const gateway = this.gatewayFor(order);
    if (gateway) {
      try {
        const q = await gateway.query(order.orderNo);
        if (q.state === 'paid' && q.transactionId && q.amountFen !== undefined) {
          await this.settle(order.orderNo, { transactionId: q.transactionId, amountFen: q.amountFen, paidAt: q.paidAt });
          return (await this.byNo(order.orderNo))!.status;
        }
        if (q.state !== 'closed' && q.state !== 'not_found') await gateway.close(order.orderNo);
      } catch (err) {
        // Marking it expired without a confirmed close risks a payment we then refuse; retry on the next sweep.
        this.log.warn({ err, orderNo: order.orderNo }, 'could not close the order at the gateway; will retry');
        return 'pending';
      }
    }
    await this.repo.endPending(order.orderNo, 'expired');
    return 'expired';
  }

  /** Worker-role sweep: expires (and closes at the gateway) pending orders past their time. */
  async sweepExpired(limit = 100): Promise<number> {
    const due = await this.repo.duePending(this.clock.now(), limit);
    let expired = 0;
    for (const order of due) if ((await this.expire(order)) === 'expired') expired += 1;
    return expired;
  }

  /**
   * Verifies a vendor notification and settles. Forged, stale, foreign, unknown-order and wrong-amount
   * notifications get the failure reply and change nothing; duplicates and late payments are acknowledged
   * (the vendor would otherwise retry for a day) after being recorded.
   */
  async handleNotification(gatewayName: string, raw: RawNotification): Promise<NotifyReply> {
    const gateway = this.gateways.byName(gatewayName);
    if (!gateway) return { status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'gateway not enabled' }) };
    let n;
    try {
      n = await gateway.parseNotification(raw);
    } catch (err) {
      if (err instanceof PaymentNotifyError) {
        const level = err.kind === 'probe' || err.kind === 'malformed' ? 'info' : 'warn';
        this.log[level]({ gateway: gatewayName, kind: err.kind, reason: err.message }, 'payment notification rejected');
        return gateway.failureReply(err.message);
      }
      this.log.error({ err, gateway: gatewayName }, 'payment notification could not be processed');
      return gateway.failureReply('internal error');
    }
    if (n.refund) {
      if (!this.refunds) return gateway.failureReply('refunds not handled');
      return this.refunds(gatewayName, n.refund);
    }
    if (!n.paid) {
      this.log.info({ gateway: gatewayName, orderNo: n.orderNo }, 'non-payment notification acknowledged');
      return gateway.successReply();
    }
    const order = await this.byNo(n.orderNo);
    if (!order || order.gateway !== gatewayName) {
      this.log.warn({ gateway: gatewayName, orderNo: n.orderNo }, 'payment notification for an unknown order rejected');
      return gateway.failureReply('unknown order');
    }
    const outcome = await this.settle(n.orderNo, n);
    if (outcome === 'amount_mismatch' || outcome === 'unknown_order') return gateway.failureReply(outcome);
    return gateway.successReply();
  }

  /** Exactly-once settlement of a payment the gateway vouched for. */
  async settle(orderNo: string, payment: Payment): Promise<SettleOutcome> {
    const order = await this.byNo(orderNo);
    if (!order) return 'unknown_order';
    if (payment.amountFen !== order.amountFen) {
      this.log.error({ orderNo, expected: order.amountFen, got: payment.amountFen, transactionId: payment.transactionId }, 'payment amount does not match the order: not credited');
      return 'amount_mismatch';
    }
    // Refunded orders were paid: a replayed payment notification changes nothing.
    if (order.status === 'paid' || order.status === 'refunded' || order.status === 'partially_refunded') return 'duplicate';
    const paidAt = payment.paidAt ?? this.clock.now();
    if (order.status !== 'pending' || paidAt > order.expireAt) return this.recordLate(order, payment);

    const outcome = await this.repo.transaction(async (orders, tx) => {
      const won = await orders.markPaid(orderNo, paidAt, payment.transactionId);
      if (!won) return null;
      const reason = won.kind === 'vip' ? `购买${won.item.name}` : `购买积分包 ${won.item.name}`;
      if (won.kind === 'vip') await this.vip.extend(won.userId, won.item.durationDays, tx);
      if (won.item.points > 0) await this.points.grant(won.userId, won.item.points, { reason, idempotencyKey: `order:${orderNo}` }, tx);
      await this.opts.onPaid?.(won, tx);
      return won;
    });
    if (outcome) {
      this.log.info({ orderNo, transactionId: payment.transactionId, amountFen: payment.amountFen }, 'order paid and settled');
      return 'settled';
    }
    // Lost the race: whoever won decided; re-read to report it.
    const now = await this.byNo(orderNo);
    if (now?.status === 'paid') return 'duplicate';
    return this.recordLate(now ?? order, payment);
  }

  /**
   * Money arrived for an order we no longer sell (expired or closed): never credited. Recorded for a
   * manual refund (admin CLI `orders:review`) and logged loudly; acknowledged so the vendor stops retrying.
   */
  private async recordLate(order: OrderRow, payment: Payment): Promise<SettleOutcome> {
    await this.repo.transaction(async (orders) => {
      await orders.endPending(order.orderNo, 'expired');
      await orders.markForReview(order.orderNo, 'late_payment', payment.transactionId, this.clock.now());
    });
    this.log.error(
      { orderNo: order.orderNo, transactionId: payment.transactionId, amountFen: payment.amountFen },
      'payment for an expired order: NOT credited, refund needed (see orders:review)',
    );
    return 'late';
  }

  async list(userId: number, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.pageOfUser(userId, pageNum, pageSize);
    const now = this.clock.now();
    return {
      records: rows.map((o) => ({
        orderNo: o.orderNo,
        kind: o.kind,
        itemName: o.item.name,
        amount: o.amountFen,
        payChannel: o.channel,
        status: o.status === 'pending' && now >= o.expireAt ? ('expired' as const) : o.status,
        createdAt: o.createdAt.toISOString(),
        paidAt: o.paidAt?.toISOString() ?? null,
        sandbox: o.gateway === 'sandbox',
      })),
      total,
      pageNum,
      pageSize,
    };
  }

  async needingReview() {
    return this.repo.needingReview();
  }
}
