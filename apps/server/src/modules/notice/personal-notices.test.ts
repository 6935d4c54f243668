import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { type NoticeItem, type NoticePage, type PayQr } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { users } from '../../db/schema/index.js';
import { SANDBOX_SIGNATURE_HEADER, type SandboxPaymentGateway } from '../../integrations/payment/sandbox.js';

const DAY = 86_400_000;

describeOnDatabases('personal notices for payments and membership on %s', (dbKind) => {
  let t: TestApp;
  let sandbox: SandboxPaymentGateway;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
    sandbox = t.container.integrations.payments.sandbox!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const mine = async (token: string) => {
    const res = await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { pageSize: 50 } });
    expect(res.code).toBe(0);
    return res.data.records;
  };
  const notify = (body: string) =>
    fetch(`${t.url}/api/pay/notify/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandbox.sign(body) }, body });

  it('a paid order leaves exactly one 支付成功 notice linking to /orderInfo, however many notifications arrive', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const other = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/qrcode', { token, body: { categoryId: 'month' } });
    expect(qr.code).toBe(0);
    const paid = sandbox.pay(qr.data.orderNo);
    if (!paid.ok) throw new Error(paid.reason);
    // The vendor retries, and sends duplicates concurrently; the client's status poll also asks the gateway.
    const replies = await Promise.all([
      ...Array.from({ length: 20 }, () => notify(paid.notification.body)),
      t.call('GET', '/vip/pay/order/status', { token, query: { orderNo: qr.data.orderNo } }),
    ]);
    expect(replies.slice(0, 20).every((r) => (r as Response).status === 204)).toBe(true);
    await notify(paid.notification.body);

    const list = (await mine(token)).filter((n) => n.title === '支付成功');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'system', link: '/orderInfo', read: false });
    expect(list[0]!.content).toContain(qr.data.orderNo);
    expect(list[0]!.content).toContain('会员时长增加30天');
    expect(list[0]!.content).toContain('获得1000积分');
    const bubble = await t.call<{ unreadNoticeNum: number }>('GET', '/notice/bubble', { token });
    expect(bubble.data.unreadNoticeNum).toBeGreaterThanOrEqual(1);
    const detail = await t.call<NoticeItem>('GET', '/notice/detail', { token, query: { id: list[0]!.id } });
    expect(detail.data.link).toBe('/orderInfo');
    // Personal: nobody else sees it.
    expect((await mine(other.tokenValue)).some((n) => n.title === '支付成功')).toBe(false);
  });

  it('an unpaid order writes no notice', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token, body: { bundleId: 'p500' } });
    expect(qr.code).toBe(0);
    expect((await mine(token)).filter((n) => n.title === '支付成功')).toHaveLength(0);
  });

  it('reminds once per expiry when VIP ends within three days; a renewal gets its own reminder', async () => {
    const soon = await loginByPhone(t);
    const later = await loginByPhone(t);
    const lapsed = await loginByPhone(t);
    const now = t.clock.now().getTime();
    const setVip = (id: number, at: number) =>
      t.container.db
        .update(users)
        .set({ vipType: 'vip', vipExpiredAt: new Date(at) })
        .where(eq(users.id, id));
    await setVip(soon.user.id, now + 2 * DAY);
    await setVip(later.user.id, now + 10 * DAY);
    await setVip(lapsed.user.id, now - DAY);

    const personal = t.container.services.personalNotices;
    await personal.remindVipExpiring();
    await Promise.all([personal.remindVipExpiring(), personal.remindVipExpiring()]);
    const reminders = async (token: string) => (await mine(token)).filter((n) => n.title === '会员即将到期');
    const first = await reminders(soon.tokenValue);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ link: '/mine', type: 'system' });
    expect(first[0]!.content).toMatch(/你的会员将于 \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} 到期/);
    expect(await reminders(later.tokenValue)).toHaveLength(0);
    expect(await reminders(lapsed.tokenValue)).toHaveLength(0);

    // Eight days on, the other member's expiry comes into the window; the first one has lapsed and is not told again.
    t.clock.advance(8 * DAY);
    try {
      await personal.remindVipExpiring();
      expect(await reminders(later.tokenValue)).toHaveLength(1);
      expect(await reminders(soon.tokenValue)).toHaveLength(1);
      // Renewed, then close to the new date again: a new expiry, a new reminder.
      await setVip(soon.user.id, t.clock.now().getTime() + DAY);
      await personal.remindVipExpiring();
      await personal.remindVipExpiring();
      expect(await reminders(soon.tokenValue)).toHaveLength(2);
    } finally {
      t.clock.advance(-8 * DAY);
    }
  });

  it('the type filter accepts the personal types', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    for (const type of ['comment', 'feedbackReply']) {
      const res = await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { type } });
      expect(res.code).toBe(0);
    }
    const bad = await t.call('GET', '/notice/v2/list', { token, query: { type: 'nope' } });
    expect(bad.code).toBe(1001);
    expect(bad.msg).toContain('feedbackReply');
  });
});
