import { readFileSync } from 'node:fs';
import type { Config } from '../../config.js';
import type { Clock } from '../../clock.js';
import { SandboxPaymentGateway } from './sandbox.js';
import type { PaymentGateway } from './types.js';
import { WechatPayGateway } from './wechat-pay.js';
import type { KeyStoreLog } from './wechat-pay-keys.js';

export type PayChannelName = 'wechat' | 'alipay';

export interface PaymentGateways {
  defaultChannel: PayChannelName;
  forChannel(channel: PayChannelName): PaymentGateway | undefined;
  byName(name: string): PaymentGateway | undefined;
  sandbox: SandboxPaymentGateway | null;
  all: PaymentGateway[];
  /** Stops background work (the WeChat Pay certificate check) and waits for a download under way. */
  close(): Promise<void>;
}

/** A PEM given inline (with literal \n allowed, as .env files need) or a path to a PEM file. */
export function pemFrom(value: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return readFileSync(value, 'utf8');
}

/**
 * Providers are a comma list: `sandbox` (plays both channels), or any of `wechat`, `alipay`; the first is the default
 * channel. alipay-sdk (and its HTTP stack, ~6 MB resident) is loaded only when Alipay is configured.
 */
export async function createPaymentGateways(config: Config, deps: { publicUrl: string; key: Buffer; clock: Clock; log?: KeyStoreLog }): Promise<PaymentGateways> {
  const names = config.PAYMENT_PROVIDER;
  const byChannel = new Map<PayChannelName, PaymentGateway>();
  let sandbox: SandboxPaymentGateway | null = null;
  let wechat: WechatPayGateway | null = null;
  for (const name of names) {
    if (name === 'sandbox') {
      sandbox = new SandboxPaymentGateway(deps.publicUrl, deps.key, deps.clock);
      byChannel.set('wechat', sandbox);
      byChannel.set('alipay', sandbox);
    } else if (name === 'wechat') {
      wechat = new WechatPayGateway({
        mchid: config.WECHAT_PAY_MCHID!,
        appid: config.WECHAT_PAY_APPID!,
        merchantSerial: config.WECHAT_PAY_MERCHANT_SERIAL!,
        merchantPrivateKey: pemFrom(config.WECHAT_PAY_PRIVATE_KEY!),
        apiV3Key: config.WECHAT_PAY_APIV3_KEY!,
        platformKeys: [
          ...(config.WECHAT_PAY_PLATFORM_PUBLIC_KEY ? [{ serial: config.WECHAT_PAY_PLATFORM_SERIAL!, pem: pemFrom(config.WECHAT_PAY_PLATFORM_PUBLIC_KEY) }] : []),
          ...(config.WECHAT_PAY_PUBLIC_KEY ? [{ serial: config.WECHAT_PAY_PUBLIC_KEY_ID!, pem: pemFrom(config.WECHAT_PAY_PUBLIC_KEY) }] : []),
        ],
        apiBase: config.WECHAT_PAY_API_BASE,
        now: () => deps.clock.now(),
        ...(deps.log ? { log: deps.log } : {}),
      });
      // With a platform certificate configured: GET /v3/certificates every 12 h (and on an unknown serial).
      wechat.start();
      byChannel.set('wechat', wechat);
    } else {
      const { AlipayGateway } = await import('./alipay.js');
      byChannel.set(
        'alipay',
        new AlipayGateway({
          appId: config.ALIPAY_APP_ID!,
          privateKey: pemFrom(config.ALIPAY_PRIVATE_KEY!),
          alipayPublicKey: pemFrom(config.ALIPAY_PUBLIC_KEY!),
          sellerId: config.ALIPAY_SELLER_ID!,
          gateway: config.ALIPAY_GATEWAY,
        }),
      );
    }
  }
  const all = [...new Set(byChannel.values())];
  const first = names[0] === 'alipay' ? 'alipay' : 'wechat';
  return {
    defaultChannel: first,
    forChannel: (c) => byChannel.get(c),
    byName: (n) => all.find((g) => g.name === n),
    sandbox,
    all,
    close: async () => {
      await wechat?.stop();
    },
  };
}
