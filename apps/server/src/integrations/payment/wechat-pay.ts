import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import {
  PaymentGatewayError,
  PaymentNotifyError,
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
import { WechatPayKeyStore, decryptResource, readSignature, signMessage, verifyMessage, type CertificateDownload, type KeyStoreLog } from './wechat-pay-keys.js';

export { decryptResource, signMessage } from './wechat-pay-keys.js';

export interface WechatPayOptions {
  mchid: string;
  appid: string;
  /** Serial of the merchant API certificate, sent in every Authorization header. */
  merchantSerial: string;
  merchantPrivateKey: string;
  /** 32-character APIv3 key: the AES-256-GCM key of notification resources. */
  apiV3Key: string;
  /**
   * Keys WeChat Pay signs with, by Wechatpay-Serial: platform certificates (serial) and/or the public key
   * (PUB_KEY_ID_...). With a platform certificate among them, the current certificates are downloaded from
   * GET /v3/certificates (every 12 h and on an unknown serial), the configured one being the trust anchor.
   */
  platformKeys: Array<{ serial: string; pem: string }>;
  apiBase: string;
  now?: () => Date;
  timeoutMs?: number;
  log?: KeyStoreLog;
  /** Overrides of the download schedule (tests). */
  certificateRefresh?: { refreshIntervalMs?: number; retryIntervalMs?: number; unknownSerialIntervalMs?: number };
}

/** RFC 3339 in China time, as time_expire wants: 2026-01-02T15:04:05+08:00. */
export function rfc3339China(d: Date): string {
  return `${new Date(d.getTime() + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '')}+08:00`;
}

interface Transaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  success_time?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
}

/** A refund as the refund API answers it and as refund notifications carry it (status vs refund_status). */
interface RefundResource {
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  out_refund_no?: string;
  refund_id?: string;
  status?: string;
  refund_status?: string;
  amount?: { total?: number; refund?: number };
}

function refundStateOf(status: string | undefined): GatewayRefundResult['state'] {
  if (status === 'SUCCESS') return 'succeeded';
  if (status === 'CLOSED' || status === 'ABNORMAL') return 'failed';
  return 'processing';
}

/** WeChat Pay APIv3 Native (扫码支付), on node:crypto only. */
export class WechatPayGateway implements PaymentGateway {
  readonly name = 'wechat' as const;
  readonly sandbox = false;
  private readonly privateKey: KeyObject;
  /** The keys WeChat Pay signs with, kept current from /v3/certificates when a platform certificate is configured. */
  readonly keys: WechatPayKeyStore;
  private readonly base: string;
  private readonly now: () => Date;

  constructor(private readonly opts: WechatPayOptions) {
    this.privateKey = createPrivateKey(opts.merchantPrivateKey);
    this.base = opts.apiBase.replace(/\/+$/, '');
    this.now = opts.now ?? (() => new Date());
    const certificates = opts.platformKeys.some((k) => !k.serial.startsWith('PUB_KEY_ID_'));
    this.keys = new WechatPayKeyStore({
      apiV3Key: opts.apiV3Key,
      configured: opts.platformKeys,
      ...(certificates ? { download: () => this.downloadCertificates() } : {}),
      now: this.now,
      ...opts.certificateRefresh,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }

  /** Starts the periodic certificate check (a timer that does not keep the process alive). */
  start(): void {
    this.keys.start();
  }

  /** Stops the certificate check and waits for a download under way (not `close`, which closes an order). */
  async stop(): Promise<void> {
    this.keys.stop();
    await this.keys.settled();
  }

  /** `WECHATPAY2-SHA256-RSA2048 ...` over METHOD\nPATH?query\nTS\nNONCE\nBODY\n, signed on the exact bytes sent. */
  authorization(method: string, pathWithQuery: string, body: string): string {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = signMessage(`${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`, this.privateKey);
    return `WECHATPAY2-SHA256-RSA2048 mchid="${this.opts.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.opts.merchantSerial}"`;
  }

  /** Verifies a message WeChat Pay signed (response or notification) against the key its serial names. */
  private async verifySigned(headers: RawNotification['headers'], body: string): Promise<void> {
    const { serial, signature, message } = readSignature(headers, body, this.now());
    const key = await this.keys.keyFor(serial);
    if (!key) throw new PaymentNotifyError(`unknown Wechatpay-Serial ${serial}`, 'signature');
    if (!verifyMessage(message, signature, key)) throw new PaymentNotifyError('signature does not verify', 'signature');
  }

  /** GET /v3/certificates, signed like every call; the answer is checked by the key store, not here. */
  private async downloadCertificates(): Promise<CertificateDownload> {
    const { status, headers, text } = await this.send('GET', '/v3/certificates');
    return { status, headers, body: text };
  }

  private async send(method: 'GET' | 'POST', pathWithQuery: string, payload?: unknown): Promise<{ status: number; headers: Record<string, string>; text: string }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    try {
      const res = await fetch(`${this.base}${pathWithQuery}`, {
        method,
        headers: {
          authorization: this.authorization(method, pathWithQuery, body),
          accept: 'application/json',
          'user-agent': 'inkstone-server',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: res.status, headers: Object.fromEntries(res.headers.entries()), text: await res.text() };
    } catch (err) {
      throw new PaymentGatewayError(`WeChat Pay unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async request(method: 'GET' | 'POST', pathWithQuery: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> | null }> {
    const { status, headers, text } = await this.send(method, pathWithQuery, payload);
    if (status >= 200 && status < 300) {
      // A success we cannot attribute to WeChat Pay is not a success.
      try {
        await this.verifySigned(headers, text);
      } catch (err) {
        throw new PaymentGatewayError(`WeChat Pay response signature invalid: ${(err as Error).message}`);
      }
    }
    let json: Record<string, unknown> | null = null;
    if (text) {
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new PaymentGatewayError(`WeChat Pay answered HTTP ${status} with a non-JSON body`);
      }
    }
    if (status >= 300) {
      const code = typeof json?.code === 'string' ? json.code : undefined;
      throw new PaymentGatewayError(`WeChat Pay refused (HTTP ${status}): ${typeof json?.message === 'string' ? json.message : ''}`, code);
    }
    return { status, json };
  }

  async createQr(order: GatewayOrder) {
    const { json } = await this.request('POST', '/v3/pay/transactions/native', {
      appid: this.opts.appid,
      mchid: this.opts.mchid,
      description: order.description.slice(0, 127),
      out_trade_no: order.orderNo,
      time_expire: rfc3339China(order.expireAt),
      notify_url: order.notifyUrl,
      amount: { total: order.amountFen, currency: 'CNY' },
    });
    const codeUrl = json?.code_url;
    if (typeof codeUrl !== 'string') throw new PaymentGatewayError('WeChat Pay answered without code_url');
    return { codeUrl };
  }

  private checkMerchant(t: Transaction) {
    if (t.mchid !== this.opts.mchid || t.appid !== this.opts.appid) throw new PaymentNotifyError(`transaction belongs to mchid=${t.mchid} appid=${t.appid}`, 'merchant');
  }

  /** Signature, then AEAD: the decrypted resource of a notification (payment or refund) and its event type. */
  private async openNotification(raw: RawNotification): Promise<{ eventType: unknown; plaintext: string }> {
    await this.verifySigned(raw.headers, raw.rawBody);
    let n: { event_type?: unknown; resource_type?: unknown; resource?: { algorithm?: unknown; ciphertext?: unknown; nonce?: unknown; associated_data?: unknown } };
    try {
      n = JSON.parse(raw.rawBody) as typeof n;
    } catch {
      throw new PaymentNotifyError('notification body is not JSON');
    }
    const r = n.resource;
    if (!r || r.algorithm !== 'AEAD_AES_256_GCM' || typeof r.ciphertext !== 'string' || typeof r.nonce !== 'string') {
      throw new PaymentNotifyError('notification lacks an AEAD_AES_256_GCM resource');
    }
    try {
      const plaintext = decryptResource(this.opts.apiV3Key, {
        ciphertext: r.ciphertext,
        nonce: r.nonce,
        associated_data: typeof r.associated_data === 'string' ? r.associated_data : '',
      });
      return { eventType: n.event_type, plaintext };
    } catch {
      throw new PaymentNotifyError('resource does not decrypt with the APIv3 key', 'signature');
    }
  }

  async parseNotification(raw: RawNotification): Promise<VerifiedNotification> {
    const { eventType, plaintext } = await this.openNotification(raw);
    let t: Transaction;
    try {
      t = JSON.parse(plaintext) as Transaction;
    } catch {
      throw new PaymentNotifyError('resource is not JSON');
    }
    const n = { event_type: eventType };
    this.checkMerchant(t);
    if (typeof t.out_trade_no !== 'string' || typeof t.transaction_id !== 'string' || !Number.isInteger(t.amount?.total)) {
      throw new PaymentNotifyError('transaction lacks out_trade_no, transaction_id or amount');
    }
    const paid = n.event_type === 'TRANSACTION.SUCCESS' && t.trade_state === 'SUCCESS';
    return {
      orderNo: t.out_trade_no,
      transactionId: t.transaction_id,
      amountFen: t.amount!.total!,
      paid,
      ...(t.success_time ? { paidAt: new Date(t.success_time) } : {}),
    };
  }

  async query(orderNo: string): Promise<GatewayQueryResult> {
    let json: Record<string, unknown> | null;
    try {
      ({ json } = await this.request('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.opts.mchid)}`));
    } catch (err) {
      if (err instanceof PaymentGatewayError && err.vendorCode === 'ORDER_NOT_EXIST') return { state: 'not_found' };
      throw err;
    }
    const t = (json ?? {}) as Transaction;
    try {
      this.checkMerchant(t);
    } catch (err) {
      throw new PaymentGatewayError((err as Error).message);
    }
    switch (t.trade_state) {
      case 'SUCCESS':
        return { state: 'paid', transactionId: t.transaction_id!, amountFen: t.amount?.total ?? -1, ...(t.success_time ? { paidAt: new Date(t.success_time) } : {}) };
      case 'REFUND':
        return { state: 'refunded' };
      case 'CLOSED':
      case 'REVOKED':
      case 'PAYERROR':
        return { state: 'closed' };
      default:
        return { state: 'pending' };
    }
  }

  async close(orderNo: string) {
    await this.request('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, { mchid: this.opts.mchid });
  }

  /** POST /v3/refund/domestic/refunds: refunds by out_refund_no (a repeat of the same number refunds nothing more). */
  async refund(r: GatewayRefund): Promise<GatewayRefundResult> {
    const { json } = await this.request('POST', '/v3/refund/domestic/refunds', {
      ...(r.transactionId ? { transaction_id: r.transactionId } : { out_trade_no: r.orderNo }),
      out_refund_no: r.refundNo,
      reason: r.reason.slice(0, 80),
      notify_url: r.notifyUrl,
      amount: { refund: r.amountFen, total: r.totalFen, currency: 'CNY' },
    });
    const body = (json ?? {}) as RefundResource;
    if (body.out_refund_no !== r.refundNo) throw new PaymentGatewayError('WeChat Pay refund answer names another out_refund_no');
    return { state: refundStateOf(body.status), gatewayRefundId: typeof body.refund_id === 'string' ? body.refund_id : null, response: json };
  }

  /** REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED, verified and decrypted like payment notifications. */
  async parseRefundNotification(raw: RawNotification): Promise<VerifiedRefund> {
    const { eventType, plaintext } = await this.openNotification(raw);
    let t: RefundResource;
    try {
      t = JSON.parse(plaintext) as RefundResource;
    } catch {
      throw new PaymentNotifyError('resource is not JSON');
    }
    if (t.mchid !== this.opts.mchid) throw new PaymentNotifyError(`refund belongs to mchid=${t.mchid}`, 'merchant');
    if (typeof t.out_trade_no !== 'string' || typeof t.out_refund_no !== 'string') throw new PaymentNotifyError('refund lacks out_trade_no or out_refund_no');
    const state = refundStateOf(t.refund_status);
    // The event and the resource must agree; a SUCCESS event around a non-success resource is not a success.
    if (state === 'succeeded' && eventType !== 'REFUND.SUCCESS') throw new PaymentNotifyError(`event ${String(eventType)} with refund_status SUCCESS`);
    return { orderNo: t.out_trade_no, refundNo: t.out_refund_no, gatewayRefundId: typeof t.refund_id === 'string' ? t.refund_id : null, state };
  }

  successReply(): NotifyReply {
    return { status: 204, body: '' };
  }

  failureReply(message: string): NotifyReply {
    return { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
  }
}
