import { createCipheriv, createPublicKey, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signMessage } from '../../integrations/payment/wechat-pay.js';
import { issueCertificate } from './x509-certificate.js';

/**
 * A WeChat Pay APIv3 server on loopback: verifies our Authorization signature with the merchant's
 * public key, signs every answer and notification with its own key (by serial), encrypts notification
 * resources with the APIv3 key, and lets tests pay, replay, duplicate and forge.
 *
 * It signs as a WeChat Pay public key (serial PUB_KEY_ID_...) or as a platform certificate (any other serial):
 * certificates are X.509, issued by the stand-in's own "Tenpay.com Root CA", and listed by GET /v3/certificates
 * with each certificate AEAD_AES_256_GCM-encrypted under the APIv3 key (associated_data "certificate"), as WeChat
 * Pay does. `rotate()` issues a new certificate (listed at once, signing when asked: WeChat Pay lists a new
 * certificate before it signs with it), `signWith()` switches, `unlist()` retires one.
 */
export interface WechatPayStandinOptions {
  mchid: string;
  appid: string;
  merchantSerial: string;
  merchantPublicKey: string | KeyObject;
  apiV3Key: string;
  /** The serial it signs with first: PUB_KEY_ID_... (public-key mode) or a certificate serial (hex; a certificate is issued). */
  serial: string;
  now?: () => Date;
}

/** A key WeChat Pay signs with: the public key (no certificate) or a platform certificate. */
export interface SigningIdentity {
  serial: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  /** PEM of the platform certificate; null for the public key. */
  certificatePem: string | null;
  notBefore: Date;
  notAfter: Date;
  /** In the GET /v3/certificates answer. */
  listed: boolean;
}

/** How the next certificate downloads are spoiled (null: genuine). */
export type CertificateTamper =
  /** A ciphertext byte flipped before signing: the signature holds, AES-GCM must refuse. */
  | 'ciphertext'
  /** The answer changed after signing (a serial_no rewritten): the signature must refuse. */
  | 'body'
  /** The signing certificate's serial listed with another key, properly encrypted and signed. */
  | 'substitute'
  | null;

interface Trade {
  out_trade_no: string;
  description: string;
  total: number;
  notify_url: string;
  time_expire?: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transaction_id?: string;
  success_time?: string;
}

/** A refund as WeChat Pay keeps it: one per out_refund_no. */
interface Refund {
  out_refund_no: string;
  out_trade_no: string;
  transaction_id: string;
  refund_id: string;
  refund: number;
  total: number;
  notify_url?: string;
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL' | 'CLOSED';
  create_time: string;
  success_time?: string;
}

export interface WechatNotification {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ForgeOptions {
  /** Override fields of the decrypted transaction. */
  transaction?: Record<string, unknown>;
  timestampOffsetSec?: number;
  signWith?: KeyObject;
  serial?: string;
  /** Sign as this identity (its key and serial), e.g. a certificate not yet signing. */
  signAs?: string;
  signature?: string;
  apiV3Key?: string;
}

const rfc3339China = (d: Date) => `${new Date(d.getTime() + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '')}+08:00`;

export async function startWechatPayStandin(opts: WechatPayStandinOptions) {
  const now = opts.now ?? (() => new Date());
  const rootCa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const identities = new Map<string, SigningIdentity>();
  let tamper: CertificateTamper = null;

  function createIdentity(serial: string, o: { notBefore?: Date; validForMs?: number; listed?: boolean } = {}): SigningIdentity {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const notBefore = o.notBefore ?? new Date(now().getTime() - 60_000);
    const notAfter = new Date(notBefore.getTime() + (o.validForMs ?? 5 * 365 * 86400_000));
    const certificatePem = serial.startsWith('PUB_KEY_ID_') ? null : certificateFor(serial, publicKey, notBefore, notAfter);
    const identity = {
      serial,
      privateKey,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      certificatePem,
      notBefore,
      notAfter,
      listed: certificatePem !== null && (o.listed ?? true),
    };
    identities.set(serial, identity);
    return identity;
  }

  function certificateFor(serial: string, publicKey: KeyObject, notBefore: Date, notAfter: Date): string {
    return issueCertificate({
      serialHex: serial,
      subject: [
        ['C', 'CN'],
        ['ST', 'Guangdong Province'],
        ['L', 'Shenzhen'],
        ['O', 'Tenpay.com'],
        ['OU', 'Tenpay.com CA Center'],
        ['CN', 'Tenpay.com sign'],
      ],
      issuer: [
        ['C', 'CN'],
        ['O', 'Tenpay.com'],
        ['OU', 'Tenpay.com CA Center'],
        ['CN', 'Tenpay.com Root CA'],
      ],
      notBefore,
      notAfter,
      publicKey,
      signingKey: rootCa.privateKey,
    });
  }

  const first = createIdentity(opts.serial);
  let signing = first;
  const identity = (serial: string) => {
    const i = identities.get(serial);
    if (!i) throw new Error(`no signing identity ${serial}`);
    return i;
  };
  const merchantKey = typeof opts.merchantPublicKey === 'string' ? createPublicKey(opts.merchantPublicKey) : opts.merchantPublicKey;
  const trades = new Map<string, Trade>();
  const refunds = new Map<string, Refund>();
  const requests: Array<{ method: string; path: string; body: string }> = [];
  let notifyOrigin: string | null = null;

  const expired = (t: Trade) => t.time_expire !== undefined && now().getTime() > Date.parse(t.time_expire);
  const refresh = (t: Trade) => {
    if (t.state === 'NOTPAY' && expired(t)) t.state = 'CLOSED';
    return t;
  };

  function signedHeaders(body: string, o: { timestampOffsetSec?: number; signWith?: KeyObject; serial?: string; signAs?: string; signature?: string } = {}) {
    const timestamp = String(Math.floor(now().getTime() / 1000) + (o.timestampOffsetSec ?? 0));
    const nonce = randomBytes(16).toString('hex');
    const as = o.signAs ? identity(o.signAs) : signing;
    return {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': o.serial ?? as.serial,
      'wechatpay-signature': o.signature ?? signMessage(`${timestamp}\n${nonce}\n${body}\n`, o.signWith ?? as.privateKey),
    };
  }

  /** Answers signed by the current identity; `after` changes the body once signed (tampering in transit). */
  function send(res: http.ServerResponse, status: number, payload?: unknown, after?: (body: string) => string) {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const headers = signedHeaders(body);
    const sent = after ? after(body) : body;
    res.writeHead(status, { ...(sent ? { 'content-type': 'application/json' } : {}), ...headers });
    res.end(sent);
  }

  /** AEAD_AES_256_GCM as WeChat Pay encrypts resources and certificates: 12-character nonce, tag appended. */
  function encrypt(plaintext: string, associatedData: string, key = opts.apiV3Key) {
    const nonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), Buffer.from(nonce, 'utf8'));
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    return { algorithm: 'AEAD_AES_256_GCM', nonce, associated_data: associatedData, ciphertext };
  }

  /** GET /v3/certificates: every listed, unexpired platform certificate, encrypted under the APIv3 key. */
  function certificates(res: http.ServerResponse) {
    const listed = [...identities.values()].filter((i) => i.listed && i.certificatePem && i.notAfter.getTime() > now().getTime());
    const data = listed.map((i) => {
      let pem = i.certificatePem!;
      if (tamper === 'substitute' && i.serial === signing.serial)
        pem = certificateFor(i.serial, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey, i.notBefore, i.notAfter);
      const encrypt_certificate = encrypt(pem, 'certificate');
      if (tamper === 'ciphertext') {
        const bytes = Buffer.from(encrypt_certificate.ciphertext, 'base64');
        bytes[bytes.length >> 1]! ^= 0x01;
        encrypt_certificate.ciphertext = bytes.toString('base64');
      }
      return { serial_no: i.serial, effective_time: rfc3339China(i.notBefore), expire_time: rfc3339China(i.notAfter), encrypt_certificate };
    });
    if (tamper === 'body') return send(res, 200, { data }, (body) => body.replace('"expire_time":"2', '"expire_time":"3'));
    return send(res, 200, { data });
  }

  function checkAuth(method: string, url: string, body: string, header: string | undefined): string | null {
    if (!header?.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return 'missing or wrong Authorization scheme';
    const fields = Object.fromEntries([...header.slice(26).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (fields.mchid !== opts.mchid) return 'mchid mismatch';
    if (fields.serial_no !== opts.merchantSerial) return 'serial_no mismatch';
    if (Math.abs(now().getTime() / 1000 - Number(fields.timestamp)) > 300) return 'timestamp expired';
    const message = `${method}\n${url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    const ok = createVerify('RSA-SHA256')
      .update(message)
      .verify(merchantKey, fields.signature ?? '', 'base64');
    return ok ? null : 'signature does not verify';
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      requests.push({ method, path: url, body });
      const authError = checkAuth(method, url, body, req.headers.authorization);
      if (authError) return send(res, 401, { code: 'SIGN_ERROR', message: authError });
      const u = new URL(url, 'http://x');
      if (method === 'POST' && u.pathname === '/v3/pay/transactions/native') {
        const b = JSON.parse(body) as {
          appid?: string;
          mchid?: string;
          description?: string;
          out_trade_no?: string;
          notify_url?: string;
          time_expire?: string;
          amount?: { total?: number; currency?: string };
        };
        if (b.appid !== opts.appid || b.mchid !== opts.mchid) return send(res, 400, { code: 'PARAM_ERROR', message: 'appid/mchid mismatch' });
        if (!b.out_trade_no || !/^[0-9A-Za-z_\-*]{6,32}$/.test(b.out_trade_no)) return send(res, 400, { code: 'PARAM_ERROR', message: 'out_trade_no invalid' });
        if (!Number.isInteger(b.amount?.total) || b.amount!.total! <= 0 || b.amount?.currency !== 'CNY') return send(res, 400, { code: 'PARAM_ERROR', message: 'amount invalid' });
        if (!b.description || b.description.length > 127 || !b.notify_url) return send(res, 400, { code: 'PARAM_ERROR', message: 'description/notify_url invalid' });
        if (b.time_expire && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/.test(b.time_expire)) return send(res, 400, { code: 'PARAM_ERROR', message: 'time_expire invalid' });
        const existing = trades.get(b.out_trade_no);
        if (existing && existing.total !== b.amount!.total) return send(res, 400, { code: 'INVALID_REQUEST', message: '201 商户订单号重复' });
        trades.set(
          b.out_trade_no,
          existing ?? {
            out_trade_no: b.out_trade_no,
            description: b.description,
            total: b.amount!.total!,
            notify_url: b.notify_url,
            ...(b.time_expire ? { time_expire: b.time_expire } : {}),
            state: 'NOTPAY',
          },
        );
        return send(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('base64url')}` });
      }
      if (method === 'POST' && u.pathname === '/v3/refund/domestic/refunds') return refundRequest(res, body);
      if (method === 'GET' && u.pathname === '/v3/certificates') return certificates(res);
      const q = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(u.pathname);
      if (q) {
        const t = trades.get(decodeURIComponent(q[1]!));
        if (q[2] && method === 'POST') {
          if (JSON.parse(body || '{}').mchid !== opts.mchid) return send(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
          if (!t) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
          if (t.state === 'SUCCESS') return send(res, 400, { code: 'ORDERPAID', message: '订单已支付' });
          t.state = 'CLOSED';
          return send(res, 204);
        }
        if (method === 'GET') {
          if (u.searchParams.get('mchid') !== opts.mchid) return send(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
          if (!t) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
          return send(res, 200, transactionOf(refresh(t)));
        }
      }
      return send(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const refundedOf = (outTradeNo: string) =>
    [...refunds.values()].filter((r) => r.out_trade_no === outTradeNo && r.status !== 'CLOSED' && r.status !== 'ABNORMAL').reduce((a, r) => a + r.refund, 0);

  /** POST /v3/refund/domestic/refunds: accepted as PROCESSING; the result comes later as a REFUND.* notification. */
  function refundRequest(res: http.ServerResponse, body: string) {
    const b = JSON.parse(body || '{}') as {
      transaction_id?: string;
      out_trade_no?: string;
      out_refund_no?: string;
      reason?: string;
      notify_url?: string;
      amount?: { refund?: number; total?: number; currency?: string };
    };
    const t = b.transaction_id ? [...trades.values()].find((x) => x.transaction_id === b.transaction_id) : b.out_trade_no ? trades.get(b.out_trade_no) : undefined;
    if (!b.out_refund_no || !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(b.out_refund_no)) return send(res, 400, { code: 'PARAM_ERROR', message: 'out_refund_no invalid' });
    if (!Number.isInteger(b.amount?.refund) || b.amount!.refund! <= 0 || !Number.isInteger(b.amount?.total) || b.amount?.currency !== 'CNY') {
      return send(res, 400, { code: 'PARAM_ERROR', message: 'amount invalid' });
    }
    if (b.reason !== undefined && b.reason.length > 80) return send(res, 400, { code: 'PARAM_ERROR', message: 'reason too long' });
    if (!t) return send(res, 404, { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' });
    const existing = refunds.get(b.out_refund_no);
    if (existing) {
      if (existing.refund !== b.amount!.refund) return send(res, 400, { code: 'INVALID_REQUEST', message: '退款单号重复，但退款金额不一致' });
      return send(res, 200, refundOf(existing));
    }
    if (t.state !== 'SUCCESS') return send(res, 400, { code: 'INVALID_REQUEST', message: '订单未支付或已全额退款' });
    if (b.amount!.total !== t.total) return send(res, 400, { code: 'PARAM_ERROR', message: '订单金额与原订单不一致' });
    if (refundedOf(t.out_trade_no) + b.amount!.refund! > t.total) return send(res, 400, { code: 'INVALID_REQUEST', message: '申请退款金额超过订单可退金额' });
    const r: Refund = {
      out_refund_no: b.out_refund_no,
      out_trade_no: t.out_trade_no,
      transaction_id: t.transaction_id!,
      refund_id: `5030${Date.now()}${randomBytes(3).toString('hex')}`,
      refund: b.amount!.refund!,
      total: t.total,
      ...(b.notify_url ? { notify_url: b.notify_url } : {}),
      status: 'PROCESSING',
      create_time: rfc3339China(now()),
    };
    refunds.set(r.out_refund_no, r);
    return send(res, 200, refundOf(r));
  }

  function transactionOf(t: Trade): Record<string, unknown> {
    return {
      appid: opts.appid,
      mchid: opts.mchid,
      out_trade_no: t.out_trade_no,
      transaction_id: t.transaction_id,
      trade_type: 'NATIVE',
      trade_state: t.state,
      trade_state_desc: t.state,
      success_time: t.success_time,
      payer: { openid: 'oStandinPayer000000000000001' },
      amount: { total: t.total, payer_total: t.total, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  function refundOf(r: Refund): Record<string, unknown> {
    return {
      refund_id: r.refund_id,
      out_refund_no: r.out_refund_no,
      transaction_id: r.transaction_id,
      out_trade_no: r.out_trade_no,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      ...(r.success_time ? { success_time: r.success_time } : {}),
      create_time: r.create_time,
      status: r.status,
      funds_account: 'AVAILABLE',
      amount: {
        total: r.total,
        refund: r.refund,
        payer_total: r.total,
        payer_refund: r.refund,
        settlement_refund: r.refund,
        settlement_total: r.total,
        discount_refund: 0,
        currency: 'CNY',
      },
    };
  }

  /** The REFUND.* notification WeChat Pay posts to the refund's notify_url: signed, resource AEAD-encrypted (associated_data "refund"). */
  function refundNotificationFor(r: Refund, o: ForgeOptions = {}): WechatNotification {
    const resource = {
      mchid: opts.mchid,
      out_trade_no: r.out_trade_no,
      transaction_id: r.transaction_id,
      out_refund_no: r.out_refund_no,
      refund_id: r.refund_id,
      refund_status: r.status,
      ...(r.success_time ? { success_time: r.success_time } : {}),
      user_received_account: '支付用户零钱',
      amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund },
      ...o.transaction,
    };
    const { ciphertext, nonce } = encrypt(JSON.stringify(resource), 'refund', o.apiV3Key);
    const eventType = r.status === 'SUCCESS' ? 'REFUND.SUCCESS' : r.status === 'ABNORMAL' ? 'REFUND.ABNORMAL' : 'REFUND.CLOSED';
    const body = JSON.stringify({
      id: randomBytes(8).toString('hex'),
      create_time: rfc3339China(now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: r.status === 'SUCCESS' ? '退款成功' : '退款异常',
      resource: { original_type: 'refund', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'refund', nonce },
    });
    const target = notifyOrigin && r.notify_url ? `${notifyOrigin}${new URL(r.notify_url).pathname}` : (r.notify_url ?? '');
    return { url: target, headers: { 'content-type': 'application/json', ...signedHeaders(body, o) }, body };
  }

  function notificationFor(t: Trade, o: ForgeOptions = {}): WechatNotification {
    const plaintext = JSON.stringify({ ...transactionOf(t), ...o.transaction });
    const { ciphertext, nonce } = encrypt(plaintext, 'transaction', o.apiV3Key);
    const body = JSON.stringify({
      id: randomBytes(8).toString('hex'),
      create_time: rfc3339China(now()),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce },
    });
    const target = notifyOrigin ? `${notifyOrigin}${new URL(t.notify_url).pathname}` : t.notify_url;
    return { url: target, headers: { 'content-type': 'application/json', ...signedHeaders(body, o) }, body };
  }

  return {
    url,
    trades,
    requests,
    /** The first identity's public key (what public-key mode configures as WECHAT_PAY_PUBLIC_KEY). */
    platformPublicKey: first.publicKeyPem,
    /** The first identity's certificate (what certificate mode configures as WECHAT_PAY_PLATFORM_PUBLIC_KEY); null in public-key mode. */
    platformCertificate: first.certificatePem,
    identities,
    /** The serial answers and notifications are signed with now. */
    get signingSerial() {
      return signing.serial;
    },
    /**
     * A new key: a certificate (listed at once) or, for a PUB_KEY_ID_ serial, a public key. It signs only with
     * `signNow` or a later `signWith`, as WeChat Pay lists a new certificate before it uses it.
     */
    rotate(o: { serial?: string; signNow?: boolean; notBefore?: Date; validForMs?: number } = {}): SigningIdentity {
      const serial = o.serial ?? `${(randomBytes(1)[0]! & 0x7f).toString(16).padStart(2, '0')}${randomBytes(19).toString('hex')}`.toUpperCase();
      const i = createIdentity(serial, o);
      if (o.signNow) signing = i;
      return i;
    },
    signWith(serial: string) {
      signing = identity(serial);
    },
    /** Takes a certificate off the GET /v3/certificates list. */
    unlist(serial: string) {
      identity(serial).listed = false;
    },
    tamperCertificates(kind: CertificateTamper) {
      tamper = kind;
    },
    /** Where notifications really go (our test server), keeping the notify_url path we sent. */
    setNotifyOrigin(origin: string) {
      notifyOrigin = origin;
    },
    /** The payer scans and pays: SUCCESS now, notification returned for the test to deliver (or not). */
    pay(orderNo: string, o: ForgeOptions = {}): WechatNotification {
      const t = trades.get(orderNo);
      if (!t) throw new Error(`no trade ${orderNo}`);
      if (refresh(t).state === 'CLOSED') throw new Error('trade closed');
      if (t.state === 'NOTPAY') {
        t.state = 'SUCCESS';
        t.transaction_id = `4200${Date.now()}${randomBytes(3).toString('hex')}`;
        t.success_time = rfc3339China(now());
      }
      return notificationFor(t, o);
    },
    /** A notification with tampered contents or signature; the trade itself is unchanged. */
    forge(orderNo: string, o: ForgeOptions): WechatNotification {
      const t = trades.get(orderNo) ?? { out_trade_no: orderNo, description: '', total: 1, notify_url: `${url}/api/pay/notify/wechat`, state: 'NOTPAY' as const };
      return notificationFor({ ...t, state: 'SUCCESS', transaction_id: `4200forged${randomBytes(3).toString('hex')}`, success_time: rfc3339China(now()) }, o);
    },
    refunds,
    /**
     * The bank side finishes a refund (SUCCESS, or ABNORMAL/CLOSED): the trade turns REFUND once fully refunded, and the
     * signed REFUND.* notification is returned for the test to deliver (as often as it likes).
     */
    finishRefund(outRefundNo: string, status: 'SUCCESS' | 'ABNORMAL' | 'CLOSED' = 'SUCCESS'): WechatNotification {
      const r = refunds.get(outRefundNo);
      if (!r) throw new Error(`no refund ${outRefundNo}`);
      if (r.status === 'PROCESSING') {
        r.status = status;
        if (status === 'SUCCESS') r.success_time = rfc3339China(now());
        const t = trades.get(r.out_trade_no);
        if (t && refundedOf(t.out_trade_no) >= t.total) t.state = 'REFUND';
      }
      return refundNotificationFor(r);
    },
    /** A refund notification with tampered contents or signature; the refund itself is unchanged. */
    forgeRefund(outRefundNo: string, o: ForgeOptions): WechatNotification {
      const r = refunds.get(outRefundNo);
      if (!r) throw new Error(`no refund ${outRefundNo}`);
      return refundNotificationFor({ ...r, status: 'SUCCESS', success_time: rfc3339China(now()) }, o);
    },
    async deliver(n: WechatNotification): Promise<Response> {
      return fetch(n.url, { method: 'POST', headers: n.headers, body: n.body });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
