import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { safeEqual } from '../../security/hashing.js';
import {
  PaymentGatewayError,
  PaymentNotifyError,
  headerOf,
  type GatewayOrder,
  type GatewayQueryResult,
  type GatewayRefund,
  type GatewayRefundResult,
  type VerifiedRefund,
  type NotifyReply,
  type PaymentGateway,
  type RawNotification,
  type VerifiedNotification,
} from './types.js';

interface SandboxTrade {
  order: GatewayOrder;
  state: 'pending' | 'paid' | 'closed';
  /** Refunded fen by refund number: a repeated number refunds nothing more, as vendors do. */
  refunds?: Map<string, number>;
  transactionId?: string;
  paidAt?: Date;
}

export const SANDBOX_MERCHANT = 'inkstone-sandbox';
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * Embedded default: our own pay page stands in for the payer's phone and this object for the vendor.
 * Paying produces a notification signed with HMAC-SHA256 under a key derived from the app secret,
 * delivered to /api/pay/notify/sandbox and verified there exactly like a vendor's. Trades live in
 * memory: after a restart an unpaid sandbox order simply expires.
 */
export class SandboxPaymentGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  readonly sandbox = true;
  private readonly trades = new Map<string, SandboxTrade>();
  private readonly signingKey: Buffer;

  constructor(
    private readonly publicUrl: string,
    appKey: Buffer,
    private readonly clock: Clock,
  ) {
    this.signingKey = createHmac('sha256', appKey).update('inkstone/payment-sandbox/notify').digest();
  }

  checkoutUrl(orderNo: string) {
    return `${this.publicUrl}/api/pay/sandbox/checkout?orderNo=${encodeURIComponent(orderNo)}`;
  }

  sign(body: string) {
    return createHmac('sha256', this.signingKey).update(body, 'utf8').digest('base64');
  }

  async createQr(order: GatewayOrder) {
    if (!this.trades.has(order.orderNo)) this.trades.set(order.orderNo, { order, state: 'pending' });
    return { codeUrl: this.checkoutUrl(order.orderNo) };
  }

  trade(orderNo: string): SandboxTrade | undefined {
    const t = this.trades.get(orderNo);
    // The vendor side closes unpaid trades at their expiry time on its own, as real gateways do.
    if (t && t.state === 'pending' && this.clock.now() >= t.order.expireAt) t.state = 'closed';
    return t;
  }

  /** The payer confirmed on the checkout page: the trade is paid and a signed notification is due. */
  pay(orderNo: string): { ok: true; notification: { url: string; headers: Record<string, string>; body: string } } | { ok: false; reason: string } {
    const t = this.trade(orderNo);
    if (!t) return { ok: false, reason: '订单不存在' };
    if (t.state === 'closed') return { ok: false, reason: '订单已关闭或已过期，不能支付' };
    if (t.state === 'pending') {
      t.state = 'paid';
      t.transactionId = `SBX${Date.now()}${randomBytes(4).toString('hex')}`;
      t.paidAt = this.clock.now();
    }
    return { ok: true, notification: this.notificationFor(t) };
  }

  /** Also used by tests to replay a notification. */
  notificationFor(t: SandboxTrade) {
    const body = JSON.stringify({
      merchant: SANDBOX_MERCHANT,
      order_no: t.order.orderNo,
      transaction_id: t.transactionId,
      trade_state: t.state === 'paid' ? 'SUCCESS' : 'CLOSED',
      amount_fen: t.order.amountFen,
      paid_at: t.paidAt?.toISOString(),
    });
    return { url: t.order.notifyUrl, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: this.sign(body) }, body };
  }

  async parseNotification(raw: RawNotification): Promise<VerifiedNotification> {
    const signature = headerOf(raw.headers, SANDBOX_SIGNATURE_HEADER);
    if (!signature || !safeEqual(signature, this.sign(raw.rawBody))) throw new PaymentNotifyError('sandbox signature mismatch', 'signature');
    let n: { merchant?: unknown; order_no?: unknown; transaction_id?: unknown; trade_state?: unknown; amount_fen?: unknown; paid_at?: unknown };
    try {
      n = JSON.parse(raw.rawBody) as typeof n;
    } catch {
      throw new PaymentNotifyError('sandbox notification is not JSON');
    }
    if (n.merchant !== SANDBOX_MERCHANT) throw new PaymentNotifyError('sandbox notification for another merchant', 'merchant');
    if (typeof n.order_no !== 'string' || typeof n.transaction_id !== 'string' || !Number.isInteger(n.amount_fen)) {
      throw new PaymentNotifyError('sandbox notification lacks fields');
    }
    return {
      orderNo: n.order_no,
      transactionId: n.transaction_id,
      amountFen: n.amount_fen as number,
      paid: n.trade_state === 'SUCCESS',
      ...(typeof n.paid_at === 'string' ? { paidAt: new Date(n.paid_at) } : {}),
    };
  }

  async query(orderNo: string): Promise<GatewayQueryResult> {
    const t = this.trade(orderNo);
    if (!t) return { state: 'not_found' };
    if (t.state === 'paid') return { state: 'paid', transactionId: t.transactionId!, amountFen: t.order.amountFen, paidAt: t.paidAt! };
    return { state: t.state };
  }

  async close(orderNo: string) {
    const t = this.trade(orderNo);
    if (t && t.state === 'pending') t.state = 'closed';
  }

  /** Refunds at once, within what was paid; nothing leaves anyone's pocket in the sandbox. */
  async refund(r: GatewayRefund): Promise<GatewayRefundResult> {
    const t = this.trade(r.orderNo);
    if (!t || t.state !== 'paid') throw new PaymentGatewayError('沙箱：订单未支付，无法退款', 'TRADE_NOT_PAID');
    t.refunds ??= new Map();
    if (!t.refunds.has(r.refundNo)) {
      const refunded = [...t.refunds.values()].reduce((a, b) => a + b, 0);
      if (refunded + r.amountFen > t.order.amountFen) throw new PaymentGatewayError('沙箱：退款金额超过可退金额', 'REFUND_AMOUNT_EXCEEDED');
      t.refunds.set(r.refundNo, r.amountFen);
    }
    return { state: 'succeeded', gatewayRefundId: `SBXR${r.refundNo}`, response: { sandbox: true, refund_no: r.refundNo, amount_fen: r.amountFen } };
  }

  /** The sandbox refunds synchronously and sends no refund notifications. */
  async parseRefundNotification(): Promise<VerifiedRefund> {
    throw new PaymentNotifyError('the sandbox sends no refund notifications');
  }

  successReply(): NotifyReply {
    return { status: 204, body: '' };
  }

  failureReply(message: string): NotifyReply {
    return { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
  }
}
