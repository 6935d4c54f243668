import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { startTestApp, type TestApp } from '../app.js';
import type { TestDbKind } from '../database.js';
import { startWechatPayStandin } from './wechat-pay.js';
import { startAlipayStandin } from './alipay.js';

/**
 * The payment stand-ins wired to a test app the way production wires a gateway (keys, env, notify origin, a clock
 * shared with the app), so every suite that needs signed payment or refund notifications starts them the same way.
 */

/** A signed vendor notification that can be sent (and re-sent) to the app. */
export interface Delivery {
  send(): Promise<Response>;
}

const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

export const WECHAT_PAY_IDS = { mchid: '1900000109', appid: 'wxd678efh567hg6787', merchantSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1' };
export const ALIPAY_IDS = { appId: '2021000117600000', sellerId: '2088721000000001' };

type WechatPayStandin = Awaited<ReturnType<typeof startWechatPayStandin>>;
type AlipayStandin = Awaited<ReturnType<typeof startAlipayStandin>>;

export interface GatewayHarness<S extends { deliver: (n: never) => Promise<Response> }> {
  t: TestApp;
  standin: S;
  /** A key that is not the gateway's, for forged notifications. */
  otherKey: KeyObject;
  deliver(n: Parameters<S['deliver']>[0]): Delivery;
  close(): Promise<void>;
}

export const WECHAT_PAY_PUBLIC_KEY_ID = 'PUB_KEY_ID_0119000001092024';
export const WECHAT_PAY_PLATFORM_SERIAL = '3775B6A45ACD588826D15E583A95F5DD88C04E8F';

/**
 * The WeChat Pay APIv3 stand-in behind a test app configured as the merchant: in public-key mode (the default:
 * WECHAT_PAY_PUBLIC_KEY + _ID) or with the platform certificate configured (WECHAT_PAY_PLATFORM_PUBLIC_KEY + _SERIAL),
 * which makes the app download GET /v3/certificates.
 */
export async function startWechatPayGateway(opts: { db?: TestDbKind; mode?: 'publicKey' | 'certificate' } = {}): Promise<GatewayHarness<WechatPayStandin>> {
  const merchant = rsa();
  const apiV3Key = 'k'.repeat(16) + 'A1b2C3d4E5f6G7h8';
  const certificateMode = opts.mode === 'certificate';
  const serial = certificateMode ? WECHAT_PAY_PLATFORM_SERIAL : WECHAT_PAY_PUBLIC_KEY_ID;
  let clock = () => new Date();
  const standin = await startWechatPayStandin({ ...WECHAT_PAY_IDS, merchantPublicKey: merchant.publicKey, apiV3Key, serial, now: () => clock() });
  const t = await startTestApp({
    ...(opts.db ? { db: opts.db } : {}),
    env: {
      PAYMENT_PROVIDER: 'wechat',
      WECHAT_PAY_MCHID: WECHAT_PAY_IDS.mchid,
      WECHAT_PAY_APPID: WECHAT_PAY_IDS.appid,
      WECHAT_PAY_MERCHANT_SERIAL: WECHAT_PAY_IDS.merchantSerial,
      WECHAT_PAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8'),
      WECHAT_PAY_APIV3_KEY: apiV3Key,
      ...(certificateMode
        ? { WECHAT_PAY_PLATFORM_PUBLIC_KEY: standin.platformCertificate!, WECHAT_PAY_PLATFORM_SERIAL: serial }
        : { WECHAT_PAY_PUBLIC_KEY: standin.platformPublicKey, WECHAT_PAY_PUBLIC_KEY_ID: serial }),
      WECHAT_PAY_API_BASE: standin.url,
    },
  });
  clock = () => t.clock.now();
  standin.setNotifyOrigin(t.url);
  return {
    t,
    standin,
    otherKey: rsa().privateKey,
    deliver: (n) => ({ send: () => standin.deliver(n) }),
    async close() {
      // The certificate check's timer and any download under way end before the stand-in goes.
      await t.container.integrations.payments.close();
      await t.close();
      await standin.close();
    },
  };
}

/** The Alipay open-platform stand-in behind a test app configured as the app. */
export async function startAlipayGateway(opts: { db?: TestDbKind } = {}): Promise<GatewayHarness<AlipayStandin>> {
  const app = rsa();
  let clock = () => new Date();
  const standin = await startAlipayStandin({ ...ALIPAY_IDS, appPublicKey: app.publicKey, now: () => clock() });
  const t = await startTestApp({
    ...(opts.db ? { db: opts.db } : {}),
    env: {
      PAYMENT_PROVIDER: 'alipay',
      ALIPAY_APP_ID: ALIPAY_IDS.appId,
      ALIPAY_PRIVATE_KEY: pem(app.privateKey, 'pkcs8'),
      ALIPAY_PUBLIC_KEY: standin.alipayPublicKey,
      ALIPAY_SELLER_ID: ALIPAY_IDS.sellerId,
      ALIPAY_GATEWAY: standin.url,
    },
  });
  clock = () => t.clock.now();
  standin.setNotifyOrigin(t.url);
  return {
    t,
    standin,
    otherKey: rsa().privateKey,
    deliver: (n) => ({ send: () => standin.deliver(n) }),
    async close() {
      await t.close();
      await standin.close();
    },
  };
}

/** A notification to the embedded sandbox gateway's notify route, as the sandbox checkout page sends it. */
export function sandboxNotification(t: TestApp, headers: Record<string, string>, body: string): Delivery {
  return { send: () => fetch(`${t.url}/api/pay/notify/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }) };
}
