import { AlipaySdk } from 'alipay-sdk';
import {
  PaymentGatewayError,
  PaymentNotifyError,
  fenToYuan,
  yuanToFen,
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

export interface AlipayOptions {
  appId: string;
  privateKey: string;
  alipayPublicKey: string;
  /** Our merchant account (2088...): every notification must name it. */
  sellerId: string;
  /** `https://openapi.alipay.com/gateway.do`, or a stand-in in tests. */
  gateway: string;
  timeoutMs?: number;
  now?: () => Date;
}

/** Alipay's `yyyy-MM-dd HH:mm:ss` is China time. */
function parseChinaTime(s: string | undefined): Date | undefined {
  if (!s || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s)) return undefined;
  return new Date(`${s.replace(' ', 'T')}+08:00`);
}

interface AlipayResult {
  code?: string;
  msg?: string;
  subCode?: string;
  subMsg?: string;
  qrCode?: string;
  tradeStatus?: string;
  tradeNo?: string;
  totalAmount?: string;
  sendPayDate?: string;
  fundChange?: string;
  refundFee?: string;
  outTradeNo?: string;
}

/** Alipay 当面付 precreate through the official alipay-sdk (RSA2 signing and response verification). */
export class AlipayGateway implements PaymentGateway {
  readonly name = 'alipay' as const;
  readonly sandbox = false;
  private readonly sdk: AlipaySdk;
  private readonly now: () => Date;

  constructor(private readonly opts: AlipayOptions) {
    this.sdk = new AlipaySdk({
      appId: opts.appId,
      privateKey: opts.privateKey,
      alipayPublicKey: opts.alipayPublicKey,
      gateway: opts.gateway,
      keyType: opts.privateKey.includes('RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
      signType: 'RSA2',
      timeout: opts.timeoutMs ?? 10_000,
    });
    this.now = opts.now ?? (() => new Date());
  }

  private async exec(method: string, params: Record<string, unknown>): Promise<AlipayResult> {
    try {
      return (await this.sdk.exec(method, params, { validateSign: true })) as AlipayResult;
    } catch (err) {
      throw new PaymentGatewayError(`Alipay ${method} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async createQr(order: GatewayOrder) {
    const minutes = Math.max(1, Math.ceil((order.expireAt.getTime() - this.now().getTime()) / 60_000));
    const r = await this.exec('alipay.trade.precreate', {
      notifyUrl: order.notifyUrl,
      bizContent: { out_trade_no: order.orderNo, total_amount: fenToYuan(order.amountFen), subject: order.description.slice(0, 256), timeout_express: `${minutes}m` },
    });
    if (r.code !== '10000' || !r.qrCode) throw new PaymentGatewayError(`Alipay precreate refused: ${r.subMsg ?? r.msg ?? ''}`, r.subCode ?? r.code);
    return { codeUrl: r.qrCode };
  }

  async parseNotification(raw: RawNotification): Promise<VerifiedNotification> {
    const form = Object.fromEntries(new URLSearchParams(raw.rawBody));
    if (!form.sign) throw new PaymentNotifyError('notification is not signed', 'signature');
    // Values are already form-decoded here; V2 verifies them as they are instead of decoding twice.
    if (!this.sdk.checkNotifySignV2(form)) throw new PaymentNotifyError('RSA2 signature does not verify', 'signature');
    if (form.app_id !== this.opts.appId || form.seller_id !== this.opts.sellerId) {
      throw new PaymentNotifyError(`notification for app_id=${form.app_id} seller_id=${form.seller_id}`, 'merchant');
    }
    const amountFen = yuanToFen(form.total_amount ?? '');
    if (!form.out_trade_no || !form.trade_no || amountFen === undefined) throw new PaymentNotifyError('notification lacks out_trade_no, trade_no or total_amount');
    const paidAt = parseChinaTime(form.gmt_payment);
    // A refund reported on the payment notify_url: out_biz_no names the refund request, refund_fee is the running total.
    if (form.out_biz_no && form.refund_fee) {
      return {
        orderNo: form.out_trade_no,
        transactionId: form.trade_no,
        amountFen,
        paid: false,
        refund: { orderNo: form.out_trade_no, refundNo: form.out_biz_no, gatewayRefundId: form.trade_no, state: 'succeeded' },
      };
    }
    return {
      orderNo: form.out_trade_no,
      transactionId: form.trade_no,
      amountFen,
      paid: form.trade_status === 'TRADE_SUCCESS' || form.trade_status === 'TRADE_FINISHED',
      ...(paidAt ? { paidAt } : {}),
    };
  }

  async query(orderNo: string): Promise<GatewayQueryResult> {
    const r = await this.exec('alipay.trade.query', { bizContent: { out_trade_no: orderNo } });
    // A precreated trade only exists at Alipay once someone scanned it.
    if (r.subCode === 'ACQ.TRADE_NOT_EXIST') return { state: 'not_found' };
    if (r.code !== '10000') throw new PaymentGatewayError(`Alipay query refused: ${r.subMsg ?? r.msg ?? ''}`, r.subCode ?? r.code);
    switch (r.tradeStatus) {
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED': {
        const paidAt = parseChinaTime(r.sendPayDate);
        return { state: 'paid', transactionId: r.tradeNo!, amountFen: yuanToFen(r.totalAmount ?? '') ?? -1, ...(paidAt ? { paidAt } : {}) };
      }
      case 'TRADE_CLOSED':
        return { state: 'closed' };
      default:
        return { state: 'pending' };
    }
  }

  async close(orderNo: string) {
    const r = await this.exec('alipay.trade.close', { bizContent: { out_trade_no: orderNo } });
    if (r.code === '10000' || r.subCode === 'ACQ.TRADE_NOT_EXIST' || r.subCode === 'ACQ.TRADE_STATUS_ERROR') return;
    throw new PaymentGatewayError(`Alipay close refused: ${r.subMsg ?? r.msg ?? ''}`, r.subCode ?? r.code);
  }

  /**
   * alipay.trade.refund answers at once: code 10000 means the refund of out_request_no is done (fund_change N on a
   * repeat of the same out_request_no: done earlier, nothing moved again).
   */
  async refund(r: GatewayRefund): Promise<GatewayRefundResult> {
    const res = await this.exec('alipay.trade.refund', {
      bizContent: { out_trade_no: r.orderNo, refund_amount: fenToYuan(r.amountFen), refund_reason: r.reason.slice(0, 256), out_request_no: r.refundNo },
    });
    if (res.code !== '10000') throw new PaymentGatewayError(`Alipay refund refused: ${res.subMsg ?? res.msg ?? ''}`, res.subCode ?? res.code);
    if (res.outTradeNo !== undefined && res.outTradeNo !== r.orderNo) throw new PaymentGatewayError('Alipay refund answer names another out_trade_no');
    return { state: 'succeeded', gatewayRefundId: res.tradeNo ?? null, response: res };
  }

  /** Alipay reports refunds on the payment notify_url (see parseNotification); this URL receives none. */
  async parseRefundNotification(raw: RawNotification): Promise<VerifiedRefund> {
    const n = await this.parseNotification(raw);
    if (!n.refund) throw new PaymentNotifyError('not a refund notification');
    return n.refund;
  }

  successReply(): NotifyReply {
    return { status: 200, contentType: 'text/plain', body: 'success' };
  }

  failureReply(): NotifyReply {
    return { status: 200, contentType: 'text/plain', body: 'fail' };
  }
}
