import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PayQr } from '@inkstone/shared';
import { nextIp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { payOrders, users } from '../../db/schema/index.js';
import { WECHAT_PAY_PLATFORM_SERIAL, WECHAT_PAY_PUBLIC_KEY_ID, startWechatPayGateway } from '../../test/standins/payment-gateways.js';
import type { WechatNotification } from '../../test/standins/wechat-pay.js';
import type { WechatPayGateway } from './wechat-pay.js';
import { WechatPayKeyStore } from './wechat-pay-keys.js';

/**
 * WeChat Pay platform certificates kept current from GET /v3/certificates (on the stand-in, which encrypts and
 * signs them as WeChat Pay does), and the public-key mode beside them. Verification does not depend on the
 * database, so these run on PGlite only; the contract suite runs both modes on every database.
 */

type Harness = Awaited<ReturnType<typeof startWechatPayGateway>>;

function helpers(h: Harness) {
  const { t, standin } = h;
  const gateway = t.container.integrations.payments.forChannel('wechat') as WechatPayGateway;
  return {
    t,
    standin,
    keys: gateway.keys,
    downloads: () => standin.requests.filter((r) => r.method === 'GET' && r.path === '/v3/certificates').length,
    async buy() {
      const { user, tokenValue } = await loginByPhone(t);
      const qr = await t.call<PayQr>('POST', '/vip/pay/score-bundle/qrcode', { token: tokenValue, ip: nextIp(), body: { bundleId: 'p500' } });
      expect(qr.code).toBe(0);
      return { userId: user.id, token: tokenValue, orderNo: qr.data.orderNo };
    },
    balance: async (id: number) => (await t.container.db.select().from(users).where(eq(users.id, id)))[0]!.pointsBalance,
    order: async (no: string) => (await t.container.db.select().from(payOrders).where(eq(payOrders.orderNo, no)))[0]!,
    async deliver(n: WechatNotification) {
      const res = await standin.deliver(n);
      return { status: res.status, body: await res.text() };
    },
  };
}

const settledOnce = { status: 204, body: '' };

async function expectNothingSettled(h: ReturnType<typeof helpers>, buyer: { userId: number; orderNo: string }) {
  expect(await h.order(buyer.orderNo)).toMatchObject({ status: 'pending', transactionId: null });
  expect(await h.balance(buyer.userId)).toBe(0);
}

describe('WeChat Pay platform certificate rotation', () => {
  let harness: Harness;
  let h: ReturnType<typeof helpers>;
  let next: string;
  beforeAll(async () => {
    harness = await startWechatPayGateway({ mode: 'certificate' });
    h = helpers(harness);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('downloads the certificate list at first use, signed by the configured certificate, and settles as before', async () => {
    expect(h.downloads()).toBe(0);
    const buyer = await h.buy();
    await h.keys.settled();
    expect(h.downloads()).toBe(1);
    expect(h.keys.trustedSerials()).toEqual([WECHAT_PAY_PLATFORM_SERIAL]);
    expect(await h.deliver(h.standin.pay(buyer.orderNo))).toEqual(settledOnce);
    expect(await h.balance(buyer.userId)).toBe(500);
  });

  it('a certificate listed since the last download: its first notification fetches the list once and verifies, no config change', async () => {
    next = h.standin.rotate().serial;
    const buyer = await h.buy();
    const res = await h.deliver(h.standin.pay(buyer.orderNo, { signAs: next }));
    expect(res).toEqual(settledOnce);
    expect(await h.balance(buyer.userId)).toBe(500);
    expect(h.downloads()).toBe(2);
    expect(h.keys.trustedSerials().sort()).toEqual([WECHAT_PAY_PLATFORM_SERIAL, next].sort());
  });

  it('once WeChat Pay signs with the new certificate, answers, notifications and status queries verify; the old one still verifies during the overlap', async () => {
    h.standin.signWith(next);
    const buyer = await h.buy(); // the create answer is signed by the new certificate
    expect(await h.deliver(h.standin.pay(buyer.orderNo))).toEqual(settledOnce);
    expect(await h.balance(buyer.userId)).toBe(500);
    const late = await h.buy();
    expect(await h.deliver(h.standin.pay(late.orderNo, { signAs: WECHAT_PAY_PLATFORM_SERIAL }))).toEqual(settledOnce);
    expect(await h.balance(late.userId)).toBe(500);
    const lost = await h.buy();
    h.standin.pay(lost.orderNo); // never delivered: status polling asks WeChat Pay, whose answer the new certificate signs
    h.t.clock.advance(6000);
    expect((await h.t.call<{ status: string }>('GET', '/vip/pay/score-bundle/order/status', { token: lost.token, query: { orderNo: lost.orderNo } })).data.status).toBe('paid');
    expect(h.downloads()).toBe(2);
  });

  it('refuses a serial the downloaded list does not name and settles nothing; unknown serials fetch the list at most once a minute', async () => {
    h.t.clock.advance(61_000); // the last unknown-serial download (above) was less than a minute ago
    const buyer = await h.buy();
    const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = h.standin.forge(buyer.orderNo, { signWith: rogue, serial: '6B2E8F1D0C4A3B5E7F9A1C2D3E4F5A6B7C8D9E0F' });
    const res = await h.deliver(forged);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'FAIL' });
    await expectNothingSettled(h, buyer);
    expect(h.downloads()).toBe(3);
    const again = await h.deliver(h.standin.forge(buyer.orderNo, { signWith: rogue, serial: '1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F9A0B' }));
    expect(again.status).toBe(400);
    expect(h.downloads()).toBe(3);
    await expectNothingSettled(h, buyer);
  });

  it('every 12 hours the list is fetched again, so a certificate is trusted before it signs', async () => {
    const third = h.standin.rotate().serial;
    h.t.clock.advance(12 * 3600_000 + 60_000);
    await h.buy(); // any use finds the last download due
    await h.keys.settled();
    expect(h.downloads()).toBe(4);
    expect(h.keys.trustedSerials()).toContain(third);
    h.standin.signWith(third);
    const buyer = await h.buy();
    expect(await h.deliver(h.standin.pay(buyer.orderNo))).toEqual(settledOnce);
    expect(h.downloads()).toBe(4);
  });

  it('keeps a downloaded certificate by serial until it expires, listed or not', async () => {
    const shortLived = h.standin.rotate({ validForMs: 3600_000 }).serial;
    h.standin.unlist(next);
    const refreshed = await h.keys.refresh();
    expect(refreshed.serials).not.toContain(next);
    expect(h.keys.trustedSerials()).toEqual(expect.arrayContaining([next, shortLived]));
    h.t.clock.advance(2 * 3600_000);
    expect(h.keys.trustedSerials()).not.toContain(shortLived);
    const buyer = await h.buy();
    expect((await h.deliver(h.standin.forge(buyer.orderNo, { signAs: shortLived }))).status).toBe(400);
    await expectNothingSettled(h, buyer);
  });
});

describe('WeChat Pay certificate download trust', () => {
  let harness: Harness;
  let h: ReturnType<typeof helpers>;
  let listed: string;
  let buyer: { userId: number; orderNo: string };
  beforeAll(async () => {
    harness = await startWechatPayGateway({ mode: 'certificate' });
    h = helpers(harness);
    buyer = await h.buy();
    await h.keys.settled(); // the first download (genuine): the configured certificate
    // Listed after it (a leading zero: serials compare as numbers), trusted only through a download.
    listed = h.standin.rotate({ serial: '0F00A3B2C1D0E9F8A7B6C5D4E3F2A1B0C9D8E7F6' }).serial;
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** A fresh download attempt for the listed (not yet trusted) certificate's notification: refused or settled. */
  async function tryListed() {
    h.t.clock.advance(61_000); // past the unknown-serial download limit
    const before = h.downloads();
    const res = await h.deliver(h.standin.forge(buyer.orderNo, { signAs: listed }));
    expect(h.downloads()).toBe(before + 1);
    return res;
  }

  it('refuses a download whose certificate ciphertext was changed (AES-GCM): the new certificate stays untrusted', async () => {
    h.standin.tamperCertificates('ciphertext');
    expect((await tryListed()).status).toBe(400);
    expect(h.keys.trustedSerials()).not.toContain(listed);
    await expectNothingSettled(h, buyer);
  });

  it('refuses a download changed after WeChat Pay signed it', async () => {
    h.standin.tamperCertificates('body');
    expect((await tryListed()).status).toBe(400);
    expect(h.keys.trustedSerials()).not.toContain(listed);
    await expectNothingSettled(h, buyer);
  });

  it('refuses a download that lists a trusted serial with another key (the configured certificate is the anchor)', async () => {
    h.standin.tamperCertificates('substitute');
    expect((await tryListed()).status).toBe(400);
    expect(h.keys.trustedSerials()).toEqual(expect.arrayContaining([WECHAT_PAY_PLATFORM_SERIAL]));
    expect(h.keys.trustedSerials()).not.toContain(listed);
    await expectNothingSettled(h, buyer);
  });

  it('the genuine list is taken again and the notification settles', async () => {
    h.standin.tamperCertificates(null);
    expect(await tryListed()).toEqual(settledOnce);
    expect(await h.balance(buyer.userId)).toBe(500);
  });

  it('refuses a download signed by a certificate it does not trust yet: no certificate vouches for itself', async () => {
    const self = h.standin.rotate({ signNow: true }).serial;
    const other = await h.buy().catch(() => null);
    expect(other).toBeNull(); // the create answer is signed by a key nobody vouched for: not a success
    expect(h.keys.trustedSerials()).not.toContain(self);
    h.standin.signWith(listed);
    const later = await h.buy();
    h.standin.signWith(self);
    h.t.clock.advance(61_000);
    expect((await h.deliver(h.standin.pay(later.orderNo))).status).toBe(400);
    await expectNothingSettled(h, later);
    expect(h.keys.trustedSerials()).not.toContain(self);
  });

  it('refuses a configured certificate whose serial is not the configured serial (start-up)', () => {
    const pem = h.standin.identities.get(WECHAT_PAY_PLATFORM_SERIAL)!.certificatePem!;
    expect(() => new WechatPayKeyStore({ apiV3Key: 'k'.repeat(32), configured: [{ serial: '7ABC', pem }], now: () => new Date() })).toThrow(/serial/);
  });
});

describe('WeChat Pay public-key mode', () => {
  let harness: Harness;
  let h: ReturnType<typeof helpers>;
  beforeAll(async () => {
    harness = await startWechatPayGateway({ mode: 'publicKey' });
    h = helpers(harness);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('verifies answers and notifications with the configured public key and downloads no certificates', async () => {
    const buyer = await h.buy();
    expect(await h.deliver(h.standin.pay(buyer.orderNo))).toEqual(settledOnce);
    expect(await h.balance(buyer.userId)).toBe(500);
    expect(h.keys.trustedSerials()).toEqual([WECHAT_PAY_PUBLIC_KEY_ID]);
    expect(h.keys.downloads).toBe(false);
    expect(h.downloads()).toBe(0);
  });

  it('refuses a certificate serial or another public key id, without downloading anything', async () => {
    const certificate = h.standin.rotate().serial;
    const otherKeyId = h.standin.rotate({ serial: 'PUB_KEY_ID_0119000001092099' }).serial;
    for (const signAs of [certificate, otherKeyId]) {
      const buyer = await h.buy();
      expect((await h.deliver(h.standin.forge(buyer.orderNo, { signAs }))).status).toBe(400);
      await expectNothingSettled(h, buyer);
    }
    expect(h.downloads()).toBe(0);
  });
});
