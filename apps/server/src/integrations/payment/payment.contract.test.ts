import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type PayQr } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { payOrders, users } from '../../db/schema/index.js';
import { describeOnDatabases, type TestDbKind } from '../../test/database.js';
import { sandboxNotification, startAlipayGateway, startWechatPayGateway, type Delivery } from '../../test/standins/payment-gateways.js';
import { SANDBOX_MERCHANT, SANDBOX_SIGNATURE_HEADER } from './sandbox.js';
import { decryptResource, rfc3339China } from './wechat-pay.js';
import { fenToYuan, yuanToFen } from './types.js';

type Forgery = 'badSignature' | 'wrongAmount' | 'wrongMerchant' | 'unknownOrder' | 'staleTimestamp' | 'probe' | 'wrongKey' | 'unknownSerial';

interface Harness {
  t: TestApp;
  codeUrlPattern: RegExp;
  /** The payer pays at the vendor; the notification is returned undelivered. */
  pay(orderNo: string): Delivery;
  forge(orderNo: string, kind: Forgery): Delivery | null;
  /** The vendor's own view of the trade. */
  vendorState(orderNo: string): 'pending' | 'paid' | 'closed' | 'missing';
  isSuccessReply(res: Response, text: string): boolean;
  close(): Promise<void>;
}

/** WeChat Pay in public-key mode or with the platform certificate configured: the same contract either way. */
function wechatCase(name: string, mode: 'publicKey' | 'certificate'): { name: string; start(db: TestDbKind): Promise<Harness> } {
  return {
    name,
    async start(db) {
      const { t, standin, otherKey, deliver: wrap, close } = await startWechatPayGateway({ db, mode });
      return {
        t,
        codeUrlPattern: /^weixin:\/\/wxpay\/bizpayurl\?pr=/,
        pay: (orderNo) => wrap(standin.pay(orderNo)),
        forge(orderNo, kind) {
          const total = standin.trades.get(orderNo)?.total ?? 1;
          switch (kind) {
            case 'badSignature':
              return wrap(standin.forge(orderNo, { signature: Buffer.alloc(256, 7).toString('base64') }));
            case 'wrongKey':
              return wrap(standin.forge(orderNo, { signWith: otherKey }));
            case 'wrongAmount':
              return wrap(standin.forge(orderNo, { transaction: { amount: { total: total - 1, payer_total: total - 1, currency: 'CNY' } } }));
            case 'wrongMerchant':
              return wrap(standin.forge(orderNo, { transaction: { mchid: '1900000999' } }));
            case 'unknownOrder':
              return wrap(standin.forge('IS0000000000000000NOSUCH', {}));
            case 'staleTimestamp':
              return wrap(standin.forge(orderNo, { timestampOffsetSec: -301 }));
            case 'probe':
              return wrap(standin.forge(orderNo, { signature: 'WECHATPAY/SIGNTEST/' + 'A'.repeat(300) }));
            case 'unknownSerial':
              // Signed by a key WeChat Pay never listed, under a serial of its own (asks for a certificate download first).
              return wrap(standin.forge(orderNo, { signWith: otherKey, serial: '6B2E8F1D0C4A3B5E7F9A1C2D3E4F5A6B7C8D9E0F' }));
          }
        },
        vendorState(orderNo) {
          const tr = standin.trades.get(orderNo);
          if (!tr) return 'missing';
          if (tr.state === 'NOTPAY' && tr.time_expire && t.clock.now().getTime() > Date.parse(tr.time_expire)) return 'closed';
          return tr.state === 'SUCCESS' ? 'paid' : tr.state === 'CLOSED' ? 'closed' : 'pending';
        },
        isSuccessReply: (res, text) => res.status === 204 && text === '',
        close,
      };
    },
  };
}

const cases: Array<{ name: string; start(db: TestDbKind): Promise<Harness> }> = [
  {
    name: 'sandbox',
    async start(db) {
      const t = await startTestApp({ db });
      const sandbox = t.container.integrations.payments.sandbox!;
      const post = (body: string, signature = sandbox.sign(body)) => sandboxNotification(t, { [SANDBOX_SIGNATURE_HEADER]: signature }, body);
      const fields = (orderNo: string) => {
        const trade = sandbox.trade(orderNo);
        return {
          merchant: SANDBOX_MERCHANT,
          order_no: orderNo,
          transaction_id: 'SBXforge',
          trade_state: 'SUCCESS',
          amount_fen: trade?.order.amountFen ?? 1,
          paid_at: t.clock.now().toISOString(),
        };
      };
      return {
        t,
        codeUrlPattern: /^http:\/\/127\.0\.0\.1:1\/api\/pay\/sandbox\/checkout\?orderNo=/,
        pay(orderNo) {
          const r = sandbox.pay(orderNo);
          if (!r.ok) throw new Error(r.reason);
          return post(r.notification.body, r.notification.headers[SANDBOX_SIGNATURE_HEADER]);
        },
        forge(orderNo, kind) {
          const f = fields(orderNo);
          switch (kind) {
            case 'badSignature':
              return post(JSON.stringify(f), sandbox.sign(JSON.stringify(f)).replace(/^.{4}/, 'AAAA'));
            case 'wrongKey':
              return post(JSON.stringify(f), 'bm90IHRoZSBzYW5kYm94IGtleQ==');
            case 'wrongAmount':
              return post(JSON.stringify({ ...f, amount_fen: f.amount_fen + 1 }));
            case 'wrongMerchant':
              return post(JSON.stringify({ ...f, merchant: 'other' }));
            case 'unknownOrder':
              return post(JSON.stringify({ ...f, order_no: 'IS0000000000000000NOSUCH' }));
            default:
              return null;
          }
        },
        vendorState(orderNo) {
          const s = sandbox.trade(orderNo)?.state;
          return s === undefined ? 'missing' : s;
        },
        isSuccessReply: (res) => res.status === 204,
        close: () => t.close(),
      };
    },
  },
  wechatCase('wechat', 'publicKey'),
  // The platform certificate configured: the certificate list is downloaded and verified on the way.
  wechatCase('wechat (platform certificate)', 'certificate'),
  {
    name: 'alipay',
    async start(db) {
      const { t, standin, otherKey, deliver: wrap, close } = await startAlipayGateway({ db });
      return {
        t,
        codeUrlPattern: /^https:\/\/qr\.alipay\.com\//,
        pay: (orderNo) => wrap(standin.pay(orderNo)),
        forge(orderNo, kind) {
          const amount = standin.trades.get(orderNo)?.total_amount ?? '0.01';
          switch (kind) {
            case 'badSignature':
              return wrap(standin.forge(orderNo, { sign: Buffer.alloc(256, 7).toString('base64') }));
            case 'wrongKey':
              return wrap(standin.forge(orderNo, { signWith: otherKey }));
            case 'wrongAmount':
              return wrap(standin.forge(orderNo, { fields: { total_amount: fenToYuan(yuanToFen(amount)! - 1) } }));
            case 'wrongMerchant':
              return wrap(standin.forge(orderNo, { fields: { seller_id: '2088000000000999' } }));
            case 'unknownOrder':
              return wrap(standin.forge('IS0000000000000000NOSUCH', {}));
            default:
              return null;
          }
        },
        vendorState(orderNo) {
          const tr = standin.trades.get(orderNo);
          if (!tr) return 'missing';
          if (tr.state === 'WAIT' && t.clock.now().getTime() > tr.expireAt) return 'closed';
          return tr.state === 'TRADE_SUCCESS' ? 'paid' : tr.state === 'TRADE_CLOSED' ? 'closed' : 'pending';
        },
        isSuccessReply: (res, text) => res.status === 200 && text === 'success',
        close,
      };
    },
  },
];

describeOnDatabases('PaymentGateway contract on %s', (db) => {
  describe.each(cases)('$name', ({ name, start }) => {
    let h: Harness;
    let t: TestApp;
    beforeAll(async () => {
      h = await start(db);
      t = h.t;
    });
    afterAll(async () => {
      await h?.close();
    });

    const balance = async (id: number) => (await t.container.db.select().from(users).where(eq(users.id, id)))[0]!.pointsBalance;
    const order = async (no: string) => (await t.container.db.select().from(payOrders).where(eq(payOrders.orderNo, no)))[0]!;
    const buyBundle = async (token: string, bundleId = 'p500') => {
      const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, ip: nextIp(), body: { bundleId } });
      expect(qr.code).toBe(0);
      return qr.data;
    };
    const status = async (token: string, orderNo: string) =>
      (await t.call<{ status: string }>('GET', '/vip/pay/score-bundle/order/status', { token, query: { orderNo } })).data.status;

    it('creates a QR order at the gateway with the order amount', async () => {
      const { tokenValue } = await loginByPhone(t);
      const qr = await buyBundle(tokenValue, 'p2000');
      expect(qr.codeUrl).toMatch(h.codeUrlPattern);
      expect(qr).toMatchObject({ amount: 5900, sandbox: name === 'sandbox' });
      expect(h.vendorState(qr.orderNo)).toBe('pending');
      expect(await status(tokenValue, qr.orderNo)).toBe('pending');
    });

    it('settles a genuine notification once, however often it is delivered', async () => {
      const { user, tokenValue } = await loginByPhone(t);
      const qr = await buyBundle(tokenValue);
      const delivery = h.pay(qr.orderNo);
      const replies = await Promise.all(Array.from({ length: 20 }, () => delivery.send()));
      for (const res of replies) expect(h.isSuccessReply(res, await res.text())).toBe(true);
      expect(await balance(user.id)).toBe(500);
      expect(await status(tokenValue, qr.orderNo)).toBe('paid');
      const replay = await delivery.send();
      expect(h.isSuccessReply(replay, await replay.text())).toBe(true);
      expect(await balance(user.id)).toBe(500);
      expect((await order(qr.orderNo)).transactionId).toBeTruthy();
    });

    for (const kind of ['badSignature', 'wrongKey', 'wrongAmount', 'wrongMerchant', 'unknownOrder', 'staleTimestamp', 'probe', 'unknownSerial'] as Forgery[]) {
      it(`rejects a ${kind} notification and changes nothing`, async () => {
        const { user, tokenValue } = await loginByPhone(t);
        const qr = await buyBundle(tokenValue);
        const forged = h.forge(qr.orderNo, kind);
        if (!forged) return; // not applicable to this gateway's protocol
        const res = await forged.send();
        expect(h.isSuccessReply(res, await res.text())).toBe(false);
        expect(await order(qr.orderNo)).toMatchObject({ status: 'pending', transactionId: null, reviewReason: null });
        expect(await balance(user.id)).toBe(0);
      });
    }

    it('recovers a lost notification by querying the gateway from status polling', async () => {
      const { user, tokenValue } = await loginByPhone(t);
      const qr = await buyBundle(tokenValue);
      h.pay(qr.orderNo); // never delivered
      t.clock.advance(6000);
      expect(await status(tokenValue, qr.orderNo)).toBe('paid');
      expect(await balance(user.id)).toBe(500);
    });

    it('expires an unpaid order, closes it at the gateway, and the payer can no longer pay', async () => {
      const { user, tokenValue } = await loginByPhone(t);
      const qr = await buyBundle(tokenValue);
      t.clock.advance(16 * 60_000);
      expect(await status(tokenValue, qr.orderNo)).toBe('expired');
      expect(['closed', 'missing']).toContain(h.vendorState(qr.orderNo));
      expect(() => h.pay(qr.orderNo)).toThrow();
      expect(await balance(user.id)).toBe(0);
      expect((await t.call('GET', '/vip/pay/order/status', { token: tokenValue, query: { orderNo: qr.orderNo } })).code).toBe(ErrorCode.NOT_FOUND);
    });
  });
});

describe('WeChat Pay primitives', () => {
  it('formats time_expire in China time and round-trips AES-256-GCM resources', async () => {
    expect(rfc3339China(new Date('2026-01-02T07:04:05.123Z'))).toBe('2026-01-02T15:04:05+08:00');
    const { createCipheriv } = await import('node:crypto');
    const key = 'abcdefghijklmnopqrstuvwxyz012345';
    const c = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from('nonce1234567'));
    c.setAAD(Buffer.from('transaction'));
    const ct = Buffer.concat([c.update('{"a":1}'), c.final(), c.getAuthTag()]).toString('base64');
    expect(decryptResource(key, { ciphertext: ct, nonce: 'nonce1234567', associated_data: 'transaction' })).toBe('{"a":1}');
    expect(() => decryptResource(key, { ciphertext: ct, nonce: 'nonce1234567', associated_data: 'certificate' })).toThrow();
  });

  it('converts yuan strings exactly', () => {
    expect(fenToYuan(1990)).toBe('19.90');
    expect(fenToYuan(5)).toBe('0.05');
    expect(yuanToFen('19.9')).toBe(1990);
    expect(yuanToFen('129.00')).toBe(12900);
    expect(yuanToFen('1.234')).toBeUndefined();
    expect(yuanToFen('-1.00')).toBeUndefined();
  });
});

describe('payment configuration', () => {
  it('fails fast when a chosen vendor lacks keys, and defaults to the sandbox', async () => {
    const { loadConfig } = await import('../../config.js');
    expect(loadConfig({}).PAYMENT_PROVIDER).toEqual(['sandbox']);
    expect(loadConfig({}).PAY_ORDER_TTL_MINUTES).toBe(15);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'wechat' })).toThrow(/WECHAT_PAY_MCHID/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'alipay' })).toThrow(/ALIPAY_APP_ID/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'sandbox,wechat' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ WECHAT_PAY_PUBLIC_KEY_ID: 'abc' })).toThrow(/WECHAT_PAY_PUBLIC_KEY_ID/);
    // A platform certificate serial is hex; a PUB_KEY_ID_ there would turn the certificate download off.
    expect(() => loadConfig({ WECHAT_PAY_PLATFORM_SERIAL: 'PUB_KEY_ID_0119000001092024' })).toThrow(/WECHAT_PAY_PLATFORM_SERIAL/);
    expect(loadConfig({ WECHAT_PAY_PLATFORM_SERIAL: '3775B6A45ACD588826D15E583A95F5DD88C04E8F' }).WECHAT_PAY_PLATFORM_SERIAL).toBe('3775B6A45ACD588826D15E583A95F5DD88C04E8F');
  });
});
