import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  type AdminAuditEntry,
  type AdminOrderDetail,
  type AdminRefund,
  type LedgerEntry,
  type OrderItem,
  type Page,
  type PayQr,
  type VipUserInfo,
} from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases, type TestDbKind } from '../../test/database.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { sandboxNotification, startAlipayGateway, startWechatPayGateway, type Delivery } from '../../test/standins/payment-gateways.js';

const DAY = 86_400_000;

/** One gateway as the refund test drives it: its stand-in (or the embedded sandbox) behind a test app. */
interface Harness {
  t: TestApp;
  /** The payer pays and the payment notification is delivered; the same notification is returned for replays. */
  pay(orderNo: string): Promise<Delivery>;
  /** Whether the gateway's answer to the refund request is already final (Alipay, sandbox) or comes by notification. */
  answersAtOnce: boolean;
  /** The gateway finishes the refund (where it does that later) and hands over its signed result notification. */
  refundNotification(orderNo: string, refundNo: string): Delivery | null;
  /** The same notification signed with a key that is not the gateway's. */
  forgedRefundNotification(orderNo: string, refundNo: string): Delivery | null;
  refundsAtGateway(orderNo: string): number;
  isSuccessReply(res: Response, text: string): boolean;
  close(): Promise<void>;
}

const gateways: Array<{ name: string; start(db: TestDbKind): Promise<Harness> }> = [
  {
    name: 'wechat',
    async start(db) {
      const { t, standin, otherKey, deliver, close } = await startWechatPayGateway({ db });
      return {
        t,
        async pay(orderNo) {
          const n = standin.pay(orderNo);
          expect((await standin.deliver(n)).status).toBe(204);
          return deliver(n);
        },
        answersAtOnce: false,
        refundNotification: (_orderNo, refundNo) => {
          const n = standin.finishRefund(refundNo);
          expect(new URL(n.url).pathname).toBe('/api/pay/refund-notify/wechat');
          return deliver(n);
        },
        forgedRefundNotification: (_orderNo, refundNo) => deliver(standin.forgeRefund(refundNo, { signWith: otherKey })),
        refundsAtGateway: (orderNo) => [...standin.refunds.values()].filter((r) => r.out_trade_no === orderNo).length,
        isSuccessReply: (res, text) => res.status === 204 && text === '',
        close,
      };
    },
  },
  {
    name: 'alipay',
    async start(db) {
      const { t, standin, otherKey, deliver, close } = await startAlipayGateway({ db });
      return {
        t,
        async pay(orderNo) {
          const n = standin.pay(orderNo);
          expect(await (await standin.deliver(n)).text()).toBe('success');
          return deliver(n);
        },
        answersAtOnce: true,
        refundNotification: (orderNo, refundNo) => deliver(standin.refundNotification(orderNo, refundNo)),
        forgedRefundNotification: (orderNo, refundNo) => deliver(standin.refundNotification(orderNo, refundNo, { signWith: otherKey })),
        refundsAtGateway: (orderNo) => standin.trades.get(orderNo)?.refunds?.size ?? 0,
        isSuccessReply: (res, text) => res.status === 200 && text === 'success',
        close,
      };
    },
  },
  {
    name: 'sandbox',
    async start(db) {
      const t = await startTestApp({ db });
      const sandbox = t.container.integrations.payments.sandbox!;
      return {
        t,
        async pay(orderNo) {
          const r = sandbox.pay(orderNo);
          if (!r.ok) throw new Error(r.reason);
          const n = sandboxNotification(t, r.notification.headers, r.notification.body);
          expect((await n.send()).status).toBe(204);
          return n;
        },
        answersAtOnce: true,
        refundNotification: () => null,
        forgedRefundNotification: () => null,
        refundsAtGateway: (orderNo) => sandbox.trade(orderNo)?.refunds?.size ?? 0,
        isSuccessReply: (res) => res.status === 204,
        close: () => t.close(),
      };
    },
  },
];

describeOnDatabases('console refunds on %s', (db) => {
  for (const gw of gateways) {
    describe(`through ${gw.name}`, () => {
      let h: Harness;
      let t: TestApp;
      let operator: TestAdmin;
      beforeAll(async () => {
        h = await gw.start(db);
        t = h.t;
        operator = await loginAdmin(t, 'operator');
      });
      afterAll(async () => {
        await h?.close();
      });

      const refund = (body: Record<string, unknown>, token = operator.token) => t.call<AdminRefund>('POST', '/admin/orders/refund', { token, body });
      const detail = async (orderNo: string) => (await t.call<AdminOrderDetail>('GET', '/admin/orders/detail', { token: operator.token, query: { orderNo } })).data;
      const deliverMany = async (d: Delivery, n: number) => {
        const replies = await Promise.all(
          Array.from({ length: n }, async () => {
            const res = await d.send();
            return h.isSuccessReply(res, await res.text());
          }),
        );
        return replies.filter(Boolean).length;
      };
      /** Refund request, then (where the gateway answers later) its result notification delivered 100 times at once. */
      const refundToSuccess = async (orderNo: string, amount: number, requestId: string) => {
        const res = await refund({ orderNo, amount, reason: '用户申请退款', requestId });
        expect(res.code, res.msg).toBe(0);
        expect(res.data.status).toBe(h.answersAtOnce ? 'succeeded' : 'processing');
        const n = h.refundNotification(orderNo, res.data.refundNo);
        if (n) expect(await deliverMany(n, 100)).toBe(100);
        const after = (await detail(orderNo)).refunds.find((r) => r.refundNo === res.data.refundNo)!;
        expect(after.status).toBe('succeeded');
        return after;
      };

      it('refunds a VIP order in two parts, exactly once each under 100 duplicate notifications, taking back points and VIP days', async () => {
        const buyer = await loginByPhone(t);
        const token = buyer.tokenValue;
        const qr = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, ip: nextIp(), body: { categoryId: 'month' } });
        expect(qr.code).toBe(0);
        const { orderNo } = qr.data;
        await h.pay(orderNo);
        const vipInfo = async () => (await t.call<VipUserInfo>('GET', '/vip/user/info', { token })).data;
        // Read from the service: GET /vip/user/score would add the daily reward to what is counted here.
        const balance = async () => (await t.container.vip.points.balance(buyer.user.id)).score;
        expect(await balance()).toBe(1000);
        const paidUntil = new Date((await vipInfo()).expiredTime!).getTime();

        // Half: 19.50 of 39.00 -> 500 of 1000 points and 15 of 30 days.
        const first = await refundToSuccess(orderNo, 1950, 'refund-first-half');
        expect(first).toMatchObject({ amount: 1950, pointsReversed: 500, pointsShortfall: 0, vipDaysCut: 15, actorId: operator.userId });
        expect(await balance()).toBe(500);
        expect(Math.abs(new Date((await vipInfo()).expiredTime!).getTime() - (paidUntil - 15 * DAY))).toBeLessThan(1000);
        expect((await detail(orderNo)).order).toMatchObject({ status: 'partially_refunded', refundedAmount: 1950 });

        // The same request again (a retried click): the same refund, nothing more at the gateway or in the ledger.
        const again = await refund({ orderNo, amount: 1950, reason: '用户申请退款', requestId: 'refund-first-half' });
        expect(again.data).toMatchObject({ refundNo: first.refundNo, status: 'succeeded' });
        expect(h.refundsAtGateway(orderNo)).toBe(1);
        expect((await refund({ orderNo, amount: 100, reason: '改金额', requestId: 'refund-first-half' })).code).toBe(ErrorCode.CONFLICT);
        const tooMuch = await refund({ orderNo, amount: 1951, reason: '超额', requestId: 'refund-too-much' });
        expect(tooMuch.code).toBe(ErrorCode.REFUND_REFUSED);
        expect(tooMuch.msg).toContain('1950');

        // A forged result notification changes nothing.
        const forged = h.forgedRefundNotification(orderNo, first.refundNo);
        if (forged) {
          const res = await forged.send();
          expect(h.isSuccessReply(res, await res.text())).toBe(false);
        }

        // The buyer spends 400 of the 500 left; the rest of the money back can only take 100: 400 recorded as shortfall.
        await t.container.vip.points.charge(buyer.user.id, 400, { reason: 'deep_write', idempotencyKey: `spend:${orderNo}` });
        const second = await refundToSuccess(orderNo, 1950, 'refund-second-half');
        expect(second).toMatchObject({ pointsReversed: 100, pointsShortfall: 400, vipDaysCut: 15 });
        expect(await balance()).toBe(0);
        expect((await vipInfo()).isVip).toBe(false);
        const d = await detail(orderNo);
        expect(d.order).toMatchObject({ status: 'refunded', refundedAmount: 3900 });
        expect(d.refunds.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
        expect(d.gatewayEvents.some((e) => e.kind === 'refund.response')).toBe(true);
        expect((await refund({ orderNo, amount: 1, reason: '再退', requestId: 'refund-after-full' })).code).toBe(ErrorCode.REFUND_REFUSED);

        // The buyer sees the order refunded and exactly two take-backs in the ledger.
        const mine = await t.call<Page<OrderItem>>('GET', '/vip/order/list', { token });
        expect(mine.data.records.find((o) => o.orderNo === orderNo)?.status).toBe('refunded');
        const ledger = await t.call<Page<LedgerEntry>>('GET', '/vip/score/consume/list', { token, query: { pageSize: 50 } });
        expect(ledger.data.records.filter((e) => e.reason.startsWith('订单退款扣回积分')).map((e) => e.delta)).toEqual([-100, -500]);

        // Audited: both requests by the operator, both results by the gateway, each once.
        const audit = await loginAdmin(t, 'owner');
        const log = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: audit.token, query: { targetType: 'order', targetId: orderNo } });
        expect(log.data.records.map((e) => [e.action, e.actorId]).reverse()).toEqual([
          ['order.refund.request', operator.userId],
          ['order.refund.succeeded', null],
          ['order.refund.request', operator.userId],
          ['order.refund.succeeded', null],
        ]);
        expect(log.data.records[0]!.after).toMatchObject({ status: 'refunded', refundedFen: 3900, pointsShortfall: 400 });
      });

      it('refunds a points bundle in full at once; a retried request and a replayed payment notification change nothing', async () => {
        const buyer = await loginByPhone(t);
        const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token: buyer.tokenValue, ip: nextIp(), body: { bundleId: 'p500' } });
        const payment = await h.pay(qr.data.orderNo);
        const results = await Promise.all(Array.from({ length: 5 }, () => refund({ orderNo: qr.data.orderNo, amount: 1990, reason: '重复提交', requestId: 'bundle-full-refund' })));
        expect(new Set(results.map((r) => r.data?.refundNo ?? r.msg)).size).toBe(1);
        const n = h.refundNotification(qr.data.orderNo, results[0]!.data.refundNo);
        if (n) expect(await deliverMany(n, 100)).toBe(100);
        const d = await detail(qr.data.orderNo);
        expect(d.order.status).toBe('refunded');
        expect(d.refunds).toHaveLength(1);
        expect(d.refunds[0]).toMatchObject({ status: 'succeeded', pointsReversed: 500, vipDaysCut: 0 });
        expect(h.refundsAtGateway(qr.data.orderNo)).toBe(1);
        expect((await t.container.vip.points.balance(buyer.user.id)).score).toBe(0);
        // The payment notification again (vendors retry): acknowledged, and the refunded order is neither paid again nor flagged.
        const replay = await payment.send();
        expect(h.isSuccessReply(replay, await replay.text())).toBe(true);
        expect((await detail(qr.data.orderNo)).order).toMatchObject({ status: 'refunded', reviewReason: null });
        expect((await t.container.vip.points.balance(buyer.user.id)).score).toBe(0);
      });

      it('an order that was not paid cannot be refunded, and support staff cannot refund', async () => {
        const buyer = await loginByPhone(t);
        const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token: buyer.tokenValue, ip: nextIp(), body: { bundleId: 'p500' } });
        const unpaid = await refund({ orderNo: qr.data.orderNo, amount: 100, reason: '未支付', requestId: 'unpaid-order-1' });
        expect(unpaid.code).toBe(ErrorCode.REFUND_REFUSED);
        expect((await refund({ orderNo: 'IS0000000000000000NOSUCH', amount: 100, reason: 'x', requestId: 'no-such-order' })).code).toBe(ErrorCode.NOT_FOUND);
        const bad = await refund({ orderNo: qr.data.orderNo, amount: 0, reason: 'x', requestId: 'zero-amount' });
        expect(bad.code).toBe(ErrorCode.VALIDATION);
        expect(bad.msg).toContain('amount');
        const support = await loginAdmin(t, 'support');
        expect((await refund({ orderNo: qr.data.orderNo, amount: 100, reason: 'x', requestId: 'by-support-1' }, support.token)).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
      });
    });
  }
});
