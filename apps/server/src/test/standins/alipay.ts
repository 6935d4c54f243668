import { createPublicKey, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An Alipay open-platform gateway (gateway.do) on loopback: verifies our RSA2 request signature with
 * the app's public key, answers precreate/query/close with responses RSA2-signed by its own key (the
 * SDK verifies them), and sends RSA2-signed form notifications.
 */
export interface AlipayStandinOptions {
  appId: string;
  sellerId: string;
  appPublicKey: string | KeyObject;
  now?: () => Date;
}

interface Trade {
  out_trade_no: string;
  total_amount: string;
  subject: string;
  notify_url: string;
  expireAt: number;
  state: 'WAIT' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  scanned: boolean;
  trade_no?: string;
  gmt_payment?: string;
  /** Refunded yuan by out_request_no (alipay.trade.refund is idempotent per out_request_no). */
  refunds?: Map<string, { fen: number; gmt_refund: string }>;
}

export interface AlipayNotification {
  url: string;
  body: string;
}

const yuanFen = (y: string) => (/^\d{1,9}(\.\d{1,2})?$/.test(y) ? Math.round(Number(y) * 100) : undefined);
const fenYuan = (f: number) => `${Math.floor(f / 100)}.${String(f % 100).padStart(2, '0')}`;
const refundedFen = (t: Trade) => [...(t.refunds?.values() ?? [])].reduce((a, r) => a + r.fen, 0);
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);

/** RSA2 over `k=v&...` of the sorted non-empty params, as both directions of the protocol sign. */
export function alipaySignContent(params: Record<string, string>, exclude: string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export async function startAlipayStandin(opts: AlipayStandinOptions) {
  const now = opts.now ?? (() => new Date());
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appKey = typeof opts.appPublicKey === 'string' ? createPublicKey(opts.appPublicKey) : opts.appPublicKey;
  const trades = new Map<string, Trade>();
  const requests: Array<Record<string, string>> = [];
  let notifyOrigin: string | null = null;

  const rsa2 = (content: string, key: KeyObject = privateKey) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
  const refresh = (t: Trade) => {
    if (t.state === 'WAIT' && now().getTime() > t.expireAt) t.state = 'TRADE_CLOSED';
    return t;
  };

  function reply(res: http.ServerResponse, method: string, payload: Record<string, unknown>) {
    const key = `${method.replaceAll('.', '_')}_response`;
    const inner = JSON.stringify(payload);
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(`{"${key}":${inner},"sign":"${rsa2(inner)}"}`);
  }
  const notExist = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const params: Record<string, string> = Object.fromEntries(u.searchParams);
      for (const [k, v] of new URLSearchParams(raw)) params[k] = v;
      requests.push(params);
      const method = params.method ?? 'unknown';
      if (params.app_id !== opts.appId) return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-app-id', sub_msg: '无效的AppID参数' });
      if (params.sign_type !== 'RSA2') return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature-type', sub_msg: '无效的签名类型' });
      const ok = createVerify('RSA-SHA256')
        .update(alipaySignContent(params, ['sign']), 'utf8')
        .verify(appKey, params.sign ?? '', 'base64');
      if (!ok) return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
      const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
      if (method === 'alipay.trade.precreate') {
        if (!biz.out_trade_no || !/^\d+\.\d{2}$/.test(biz.total_amount ?? '') || !biz.subject || !params.notify_url) {
          return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.INVALID_PARAMETER', sub_msg: '参数无效' });
        }
        const minutes = Number(/^(\d+)m$/.exec(biz.timeout_express ?? '')?.[1] ?? 120);
        if (!trades.has(biz.out_trade_no)) {
          trades.set(biz.out_trade_no, {
            out_trade_no: biz.out_trade_no,
            total_amount: biz.total_amount!,
            subject: biz.subject,
            notify_url: params.notify_url,
            expireAt: now().getTime() + minutes * 60_000,
            state: 'WAIT',
            scanned: false,
          });
        }
        return reply(res, method, { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, qr_code: `https://qr.alipay.com/bax0${randomBytes(8).toString('hex')}` });
      }
      const t = biz.out_trade_no ? trades.get(biz.out_trade_no) : undefined;
      if (method === 'alipay.trade.query') {
        // A precreated trade exists at Alipay only once a payer scanned it.
        if (!t || !t.scanned) return reply(res, method, notExist);
        refresh(t);
        return reply(res, method, {
          code: '10000',
          msg: 'Success',
          out_trade_no: t.out_trade_no,
          trade_no: t.trade_no,
          trade_status: t.state === 'WAIT' ? 'WAIT_BUYER_PAY' : t.state,
          total_amount: t.total_amount,
          buyer_logon_id: 'sta***@standin.com',
          ...(t.gmt_payment ? { send_pay_date: t.gmt_payment } : {}),
        });
      }
      if (method === 'alipay.trade.refund') {
        if (!t || !t.scanned) return reply(res, method, notExist);
        const fen = yuanFen(biz.refund_amount ?? '');
        if (fen === undefined || fen <= 0) return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.INVALID_PARAMETER', sub_msg: '参数无效' });
        t.refunds ??= new Map();
        const requestNo = biz.out_request_no ?? t.out_trade_no;
        const seen = t.refunds.get(requestNo);
        if (seen && seen.fen !== fen) return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', sub_msg: '退款金额超限' });
        if (!seen) {
          if (t.state !== 'TRADE_SUCCESS') return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' });
          if (refundedFen(t) + fen > yuanFen(t.total_amount)!)
            return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.REFUND_FEE_ERROR', sub_msg: '交易退款金额有误' });
          t.refunds.set(requestNo, { fen, gmt_refund: chinaTime(now()) });
          if (refundedFen(t) >= yuanFen(t.total_amount)!) t.state = 'TRADE_CLOSED';
        }
        return reply(res, method, {
          code: '10000',
          msg: 'Success',
          trade_no: t.trade_no,
          out_trade_no: t.out_trade_no,
          buyer_logon_id: 'sta***@standin.com',
          // N: this out_request_no was refunded before; nothing moved this time.
          fund_change: seen ? 'N' : 'Y',
          refund_fee: fenYuan(refundedFen(t)),
          buyer_user_id: '2088102177846880',
        });
      }
      if (method === 'alipay.trade.close') {
        if (!t) return reply(res, method, notExist);
        if (t.state === 'TRADE_SUCCESS') return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' });
        t.state = 'TRADE_CLOSED';
        return reply(res, method, t.scanned ? { code: '10000', msg: 'Success', out_trade_no: t.out_trade_no } : notExist);
      }
      return reply(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;

  function notificationFor(t: Trade, o: { fields?: Record<string, string>; signWith?: KeyObject; sign?: string } = {}): AlipayNotification {
    const fields: Record<string, string> = {
      gmt_create: chinaTime(now()),
      charset: 'utf-8',
      seller_email: 'merchant@standin.com',
      subject: t.subject,
      buyer_id: '2088102177846880',
      invoice_amount: t.total_amount,
      notify_id: randomBytes(12).toString('hex'),
      fund_bill_list: '[{"amount":"' + t.total_amount + '","fundChannel":"ALIPAYACCOUNT"}]',
      notify_type: 'trade_status_sync',
      trade_status: t.state === 'WAIT' ? 'WAIT_BUYER_PAY' : t.state,
      receipt_amount: t.total_amount,
      app_id: opts.appId,
      buyer_pay_amount: t.total_amount,
      seller_id: opts.sellerId,
      gmt_payment: t.gmt_payment ?? chinaTime(now()),
      notify_time: chinaTime(now()),
      version: '1.0',
      out_trade_no: t.out_trade_no,
      total_amount: t.total_amount,
      trade_no: t.trade_no ?? `2026${randomBytes(8).toString('hex')}`,
      auth_app_id: opts.appId,
      point_amount: '0.00',
      ...o.fields,
    };
    fields.sign_type = 'RSA2';
    fields.sign = o.sign ?? rsa2(alipaySignContent(fields, ['sign', 'sign_type']), o.signWith);
    const target = notifyOrigin ? `${notifyOrigin}${new URL(t.notify_url).pathname}` : t.notify_url;
    return { url: target, body: new URLSearchParams(fields).toString() };
  }

  return {
    url,
    trades,
    requests,
    alipayPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    setNotifyOrigin(origin: string) {
      notifyOrigin = origin;
    },
    pay(orderNo: string): AlipayNotification {
      const t = trades.get(orderNo);
      if (!t) throw new Error(`no trade ${orderNo}`);
      t.scanned = true;
      if (refresh(t).state === 'TRADE_CLOSED') throw new Error('trade closed');
      if (t.state === 'WAIT') {
        t.state = 'TRADE_SUCCESS';
        t.trade_no = `2026${Date.now()}${randomBytes(3).toString('hex')}`;
        t.gmt_payment = chinaTime(now());
      }
      return notificationFor(t);
    },
    /**
     * The notification Alipay sends to the trade's notify_url after a refund: out_biz_no names the refund request,
     * refund_fee is the running total, trade_status TRADE_CLOSED once everything is refunded.
     */
    refundNotification(orderNo: string, outRequestNo: string, o: { signWith?: KeyObject; sign?: string } = {}): AlipayNotification {
      const t = trades.get(orderNo);
      const r = t?.refunds?.get(outRequestNo);
      if (!t || !r) throw new Error(`no refund ${outRequestNo} of ${orderNo}`);
      return notificationFor(t, { ...o, fields: { out_biz_no: outRequestNo, refund_fee: fenYuan(refundedFen(t)), gmt_refund: `${r.gmt_refund}.000` } });
    },
    forge(orderNo: string, o: { fields?: Record<string, string>; signWith?: KeyObject; sign?: string }): AlipayNotification {
      const t = trades.get(orderNo) ?? {
        out_trade_no: orderNo,
        total_amount: '0.01',
        subject: 'x',
        notify_url: 'http://127.0.0.1:1/api/pay/notify/alipay',
        expireAt: 0,
        state: 'WAIT' as const,
        scanned: true,
      };
      return notificationFor({ ...t, state: 'TRADE_SUCCESS' }, o);
    },
    async deliver(n: AlipayNotification): Promise<Response> {
      return fetch(n.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: n.body });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
