import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type PayQr } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { ORDER_EXPIRY_JOB } from './order.service.js';
import { payOrders, pointsLedger, users } from '../../db/schema/index.js';
import { SANDBOX_MERCHANT, SANDBOX_SIGNATURE_HEADER, type SandboxPaymentGateway } from '../../integrations/payment/sandbox.js';

const DAY = 86_400_000;

describeOnDatabases('VIP orders with the sandbox gateway on %s', (dbKind) => {
  let t: TestApp;
  let sandbox: SandboxPaymentGateway;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
    sandbox = t.container.integrations.payments.sandbox!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const local = (codeUrl: string) => `${t.url}${new URL(codeUrl).pathname}${new URL(codeUrl).search}`;
  const userRow = async (id: number) => (await t.container.db.select().from(users).where(eq(users.id, id)))[0]!;
  const orderRow = async (orderNo: string) => (await t.container.db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo)))[0]!;
  const notify = (body: string, signature = sandbox.sign(body)) =>
    fetch(`${t.url}/api/pay/notify/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature }, body });
  const payOnPage = async (orderNo: string, extra = '') => {
    const res = await fetch(`${t.url}/api/pay/sandbox/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `orderNo=${orderNo}${extra}`,
    });
    return res.text();
  };

  it('lists the default catalogue in fen', async () => {
    const plans = await t.call<Array<{ id: string; price: number; durationDays: number; points: number }>>('GET', '/vip/subscribe/category');
    expect(plans.data.map((p) => [p.id, p.price, p.durationDays, p.points])).toEqual([
      ['month', 3900, 30, 1000],
      ['quarter', 9900, 90, 3300],
      ['year', 29900, 365, 14000],
    ]);
    const bundles = await t.call<Array<{ id: string; price: number; points: number }>>('GET', '/vip/score/bundle/list');
    expect(bundles.data.map((b) => [b.points, b.price])).toEqual([
      [500, 1990],
      [2000, 5900],
      [5000, 12900],
    ]);
    expect((await t.call('GET', '/vip/score/bundle/category')).data).toEqual(bundles.data);
  });

  it('buys a VIP plan on the sandbox pay page: VIP extended, plan points granted once', async () => {
    const { user, tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, body: { categoryId: 'month' } });
    expect(qr.code).toBe(0);
    expect(qr.data).toMatchObject({ amount: 3900, sandbox: true, payChannel: 'wechat' });
    expect(qr.data.orderNo).toMatch(/^[0-9A-Za-z_-]{6,32}$/);
    expect(qr.data.qrImage).toMatch(/^data:image\/png;base64,/);
    expect(new Date(qr.data.expireAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    const page = await (await fetch(local(qr.data.codeUrl))).text();
    expect(page).toContain('沙箱');
    expect(page).toContain('¥39.00');
    expect(page).toContain('确认支付');

    expect((await t.call('GET', '/vip/pay/order/status', { token, query: { orderNo: qr.data.orderNo } })).data).toEqual({ status: 'pending' });
    expect(await payOnPage(qr.data.orderNo)).toContain('支付成功');
    const status = await t.call<{ status: string; paidAt: string }>('GET', '/vip/pay/order/status', { token, query: { orderNo: qr.data.orderNo } });
    expect(status.data.status).toBe('paid');
    const info = await t.call<{ isVip: boolean; vipType: string; expiredTime: string }>('GET', '/vip/user/info', { token });
    expect(info.data).toMatchObject({ isVip: true, vipType: 'vip', openPayment: true });
    expect(Math.abs(new Date(info.data.expiredTime).getTime() - (t.clock.now().getTime() + 30 * DAY))).toBeLessThan(60_000);
    expect((await userRow(user.id)).pointsBalance).toBe(1000);

    // A second month stacks onto the current expiry, not onto now.
    const again = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, body: { categoryId: 'month', payChannel: 'alipay' } });
    await payOnPage(again.data.orderNo);
    const info2 = await t.call<{ expiredTime: string }>('GET', '/vip/user/info', { token });
    expect(new Date(info2.data.expiredTime).getTime() - new Date(info.data.expiredTime).getTime()).toBe(30 * DAY);
    expect((await userRow(user.id)).pointsBalance).toBe(2000);

    const orders = await t.call<{ records: Array<{ orderNo: string; status: string; payChannel: string }>; total: number }>('GET', '/vip/order/list', { token });
    expect(orders.data.total).toBe(2);
    expect(orders.data.records.map((o) => [o.orderNo, o.status, o.payChannel])).toEqual([
      [again.data.orderNo, 'paid', 'alipay'],
      [qr.data.orderNo, 'paid', 'wechat'],
    ]);
  });

  it('100 concurrent duplicate notifications for one order credit once', async () => {
    const { user, tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, body: { bundleId: 'p2000' } });
    const paid = sandbox.pay(qr.data.orderNo);
    if (!paid.ok) throw new Error(paid.reason);
    const replies = await Promise.all(Array.from({ length: 100 }, () => notify(paid.notification.body)));
    expect(replies.every((r) => r.status === 204)).toBe(true);
    expect((await userRow(user.id)).pointsBalance).toBe(2000);
    const ledger = await t.container.db.select().from(pointsLedger).where(eq(pointsLedger.userId, user.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 2000, idempotencyKey: `order:${qr.data.orderNo}` });
    expect((await t.call('GET', '/vip/pay/score-bundle/order/status', { token, query: { orderNo: qr.data.orderNo } })).data).toMatchObject({ status: 'paid' });
    // Bundle orders are not VIP orders.
    expect((await t.call('GET', '/vip/pay/order/status', { token, query: { orderNo: qr.data.orderNo } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await userRow(user.id)).vipType).toBe('normal');
  });

  it('rejects forged, tampered, foreign, wrong-amount and unknown-order notifications and changes nothing', async () => {
    const { user, tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, body: { bundleId: 'p500' } });
    const base = {
      merchant: SANDBOX_MERCHANT,
      order_no: qr.data.orderNo,
      transaction_id: 'SBXforged1',
      trade_state: 'SUCCESS',
      amount_fen: 1990,
      paid_at: t.clock.now().toISOString(),
    };
    const good = JSON.stringify(base);
    const attempts = [
      notify(good, 'AAAA' + sandbox.sign(good).slice(4)),
      notify(good.replace('1990', '1991'), sandbox.sign(good)),
      notify(JSON.stringify({ ...base, amount_fen: 1 })),
      notify(JSON.stringify({ ...base, merchant: 'someone-else' })),
      notify(JSON.stringify({ ...base, order_no: 'IS00000000000000NOSUCH1' })),
      notify('not json', sandbox.sign('not json')),
      fetch(`${t.url}/api/pay/notify/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: good }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'FAIL' });
    }
    expect(await orderRow(qr.data.orderNo)).toMatchObject({ status: 'pending', transactionId: null, reviewReason: null });
    expect((await userRow(user.id)).pointsBalance).toBe(0);
    // The genuine one still works afterwards.
    expect((await notify(good)).status).toBe(204);
    expect((await userRow(user.id)).pointsBalance).toBe(500);
  });

  it('only the owner can read an order', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token: a.tokenValue, body: { categoryId: 'year' } });
    const res = await t.call('GET', '/vip/pay/order/status', { token: b.tokenValue, query: { orderNo: qr.data.orderNo } });
    expect(res.code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/vip/pay/qrcode', { token: a.tokenValue, body: { categoryId: 'nope' } })).code).toBe(ErrorCode.ITEM_UNAVAILABLE);
  });

  it('a lost notification is recovered by status polling, at most one gateway query per 5 s', async () => {
    const { user, tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, body: { bundleId: 'p500' } });
    const status = () => t.call<{ status: string }>('GET', '/vip/pay/score-bundle/order/status', { token, query: { orderNo: qr.data.orderNo } });
    expect((await status()).data.status).toBe('pending');
    expect(await payOnPage(qr.data.orderNo, '&dropNotify=1')).toContain('支付成功');
    expect((await status()).data.status).toBe('pending');
    t.clock.advance(6000);
    expect((await status()).data.status).toBe('paid');
    expect((await userRow(user.id)).pointsBalance).toBe(500);
  });

  it('an expired order cannot be paid; a late payment is recorded for refund and never credited', async () => {
    const { user, tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, body: { categoryId: 'month' } });
    const late = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, body: { categoryId: 'month' } });
    t.clock.advance(16 * 60_000);
    expect((await t.call('GET', '/vip/pay/order/status', { token, query: { orderNo: qr.data.orderNo } })).data).toEqual({ status: 'expired' });
    expect(await payOnPage(qr.data.orderNo)).toContain('已关闭或已过期');
    expect(await (await fetch(local(qr.data.codeUrl))).text()).toContain('已关闭或已过期');

    // The vendor claims a payment after expiry (e.g. a gateway that ignored our close).
    const body = JSON.stringify({
      merchant: SANDBOX_MERCHANT,
      order_no: late.data.orderNo,
      transaction_id: 'SBXlate1',
      trade_state: 'SUCCESS',
      amount_fen: 3900,
      paid_at: t.clock.now().toISOString(),
    });
    expect((await notify(body)).status).toBe(204);
    expect(await orderRow(late.data.orderNo)).toMatchObject({ status: 'expired', reviewReason: 'late_payment', reviewTransactionId: 'SBXlate1' });
    expect(await userRow(user.id)).toMatchObject({ pointsBalance: 0, vipType: 'normal' });
    expect((await t.call('GET', '/vip/user/info', { token })).data).toMatchObject({ isVip: false });
    expect((await t.container.services.orders.needingReview()).map((o) => o.orderNo)).toContain(late.data.orderNo);
  });

  it('the worker sweep (a scheduled job on the queue) expires and closes overdue orders', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, body: { bundleId: 'p500' } });
    t.clock.advance(16 * 60_000);
    // What a tick does, run now instead of after a minute.
    await t.container.jobs.enqueue(ORDER_EXPIRY_JOB, {});
    await t.container.jobs.idle();
    expect(await orderRow(qr.data.orderNo)).toMatchObject({ status: 'expired' });
    expect(await sandbox.query(qr.data.orderNo)).toEqual({ state: 'closed' });
  });
});
