/** What a gateway needs to open a QR payment for one of our orders. */
export interface GatewayOrder {
  orderNo: string;
  amountFen: number;
  /** Shown to the payer; vendors cap it (WeChat 127 characters). */
  description: string;
  expireAt: Date;
  /** Where the gateway must POST the payment notification (https in production). */
  notifyUrl: string;
}

/** The vendor's notification exactly as received: the signature covers these bytes. */
export interface RawNotification {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** A notification whose signature (and, for WeChat, encryption) checked out and which names our merchant. */
export interface VerifiedNotification {
  orderNo: string;
  transactionId: string;
  amountFen: number;
  /** False for notifications about other states (closed, refunded...): acknowledged, never settled. */
  paid: boolean;
  /** When the vendor says the money moved; undefined if the vendor did not say. */
  paidAt?: Date;
  /**
   * Set when the notification reports a refund rather than a payment (Alipay sends refunds to the payment
   * notify_url, naming the refund request in out_biz_no); such a notification is never `paid`.
   */
  refund?: VerifiedRefund;
}

/** A refund request, keyed by our refund number: the vendor refunds once per refundNo however often it is sent. */
export interface GatewayRefund {
  orderNo: string;
  refundNo: string;
  /** The vendor's id of the payment, when known. */
  transactionId: string | null;
  amountFen: number;
  /** What the order was paid in total (WeChat wants it with every refund). */
  totalFen: number;
  reason: string;
  /** Where the vendor posts the refund result (WeChat Pay); vendors that answer at once ignore it. */
  notifyUrl: string;
}

/** The vendor's answer to a refund request: final (succeeded, failed) or still processing (a notification follows). */
export interface GatewayRefundResult {
  state: 'succeeded' | 'processing' | 'failed';
  gatewayRefundId: string | null;
  /** The vendor's reply as received (signature checked), kept on the order for the console. */
  response: unknown;
}

/** A refund result the vendor vouched for (signature and, for WeChat, AEAD checked). */
export interface VerifiedRefund {
  orderNo: string;
  refundNo: string;
  gatewayRefundId: string | null;
  state: 'succeeded' | 'processing' | 'failed';
}

export type GatewayTradeState = 'paid' | 'pending' | 'closed' | 'refunded' | 'not_found';

export interface GatewayQueryResult {
  state: GatewayTradeState;
  transactionId?: string;
  amountFen?: number;
  paidAt?: Date;
}

export interface NotifyReply {
  status: number;
  contentType?: string;
  body: string;
}

/** One interface for the embedded sandbox, WeChat Pay v3 Native and Alipay precreate. */
export interface PaymentGateway {
  readonly name: 'sandbox' | 'wechat' | 'alipay';
  /** True when no real money can move. */
  readonly sandbox: boolean;
  createQr(order: GatewayOrder): Promise<{ codeUrl: string }>;
  /** Verifies and decodes; throws PaymentNotifyError for anything forged, stale, foreign or malformed. */
  parseNotification(raw: RawNotification): Promise<VerifiedNotification>;
  query(orderNo: string): Promise<GatewayQueryResult>;
  /** Closes an unpaid order at the gateway so it can no longer be paid. Idempotent. */
  close(orderNo: string): Promise<void>;
  /** Refunds (part of) a paid order; the same refundNo sent again refunds nothing more. Throws PaymentGatewayError when refused. */
  refund(r: GatewayRefund): Promise<GatewayRefundResult>;
  /** Verifies a refund notification sent to the refund notify URL (WeChat Pay); throws PaymentNotifyError like parseNotification. */
  parseRefundNotification(raw: RawNotification): Promise<VerifiedRefund>;
  successReply(): NotifyReply;
  failureReply(message: string): NotifyReply;
}

/** The notification must not be honoured; the message is for our logs and the vendor's retry console. */
export class PaymentNotifyError extends Error {
  constructor(
    message: string,
    /** Probes (WeChat SIGNTEST) and tampering are logged differently from plain malformed input. */
    readonly kind: 'signature' | 'stale' | 'merchant' | 'malformed' | 'probe' = 'malformed',
  ) {
    super(message);
    this.name = 'PaymentNotifyError';
  }
}

/** The gateway refused an API call or could not be reached. */
export class PaymentGatewayError extends Error {
  constructor(
    message: string,
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

export const headerOf = (headers: RawNotification['headers'], name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** `123` fen -> `"1.23"`: Alipay speaks yuan with two decimals. */
export const fenToYuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

/** `"1.23"` -> 123; undefined for anything that is not a plain non-negative amount with at most 2 decimals. */
export function yuanToFen(yuan: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
