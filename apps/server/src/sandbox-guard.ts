import ipaddr from 'ipaddr.js';
import type { Config } from './config.js';

/**
 * Sandboxes are embedded stand-ins that let anyone who reaches the server read login codes, log in as anyone by
 * "scanning", mark orders paid, or drive the simulated creator site. Fine on a laptop; never on a public server.
 */
export interface ActiveSandbox {
  /** Chinese, for the start-up banner and the refusal. */
  name: string;
  /** What a stranger can do with it on a public server. */
  risk: string;
  /** The setting that replaces it with the real service. */
  replaceWith: string;
}

type SandboxConfig = Pick<Config, 'SMS_PROVIDER' | 'WECHAT_LOGIN_PROVIDER' | 'PAYMENT_PROVIDER' | 'PUBLISH_PLATFORMS'>;

/** Read from the configuration alone, so the check runs before anything is opened. */
export function activeSandboxes(config: SandboxConfig): ActiveSandbox[] {
  const list: ActiveSandbox[] = [];
  if (config.SMS_PROVIDER === 'outbox') {
    list.push({ name: '短信发件箱', risk: '验证码写在日志和 /api/dev/sms-outbox 里，任何人都能读到', replaceWith: 'SMS_PROVIDER=aliyun 或 tencent（及其密钥）' });
  }
  if (config.WECHAT_LOGIN_PROVIDER === 'sandbox') {
    list.push({ name: '微信扫码登录沙箱页', risk: '任何人都能替别人“扫码”登录', replaceWith: 'WECHAT_LOGIN_PROVIDER=mp（及公众号配置）' });
  }
  if (config.PAYMENT_PROVIDER.includes('sandbox')) {
    list.push({ name: '沙箱支付收银台', risk: '任何人都能把订单标记为已支付', replaceWith: 'PAYMENT_PROVIDER=wechat 和/或 alipay（及商户配置）' });
  }
  if (config.PUBLISH_PLATFORMS.includes('sandbox')) {
    list.push({
      name: '沙箱创作平台 /sandbox-platform',
      risk: '模拟的发布站点，发布的内容不会到达任何真实平台',
      replaceWith: 'PUBLISH_PLATFORMS=xiaohongshu,wechat_mp（去掉 sandbox）',
    });
  }
  return list;
}

/** True when only this machine can reach the address: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  const addr = ipaddr.process(host);
  return addr.range() === 'loopback';
}

export type SandboxVerdict =
  | { kind: 'ok' }
  /** Public production with sandboxes and no ALLOW_SANDBOXES: start-up stops with this message. */
  | { kind: 'refuse'; message: string }
  /** Public production with ALLOW_SANDBOXES=1: a demo. The log shouts, the web shows 演示环境. */
  | { kind: 'demo'; message: string };

/**
 * Decides whether this configuration may start. Public means PUBLIC_URL is not loopback (the default PUBLIC_URL is
 * http://localhost:PORT, so a laptop never trips this).
 */
export function checkSandboxes(config: SandboxConfig & Pick<Config, 'NODE_ENV' | 'PUBLIC_URL' | 'ALLOW_SANDBOXES'>): SandboxVerdict {
  const active = activeSandboxes(config);
  const publicUrl = config.PUBLIC_URL;
  if (config.NODE_ENV !== 'production' || !publicUrl || isLoopbackUrl(publicUrl) || active.length === 0) return { kind: 'ok' };
  const lines = active.map((s) => `  - ${s.name}：${s.risk}\n      改用：${s.replaceWith}`).join('\n');
  if (!config.ALLOW_SANDBOXES) {
    return {
      kind: 'refuse',
      message:
        `拒绝启动：生产环境（NODE_ENV=production）的公开地址 ${publicUrl} 上仍启用了沙箱：\n${lines}\n` +
        '请配置真实服务后再启动；若确实要部署演示站点，设置 ALLOW_SANDBOXES=1（页面将显示“演示环境”）。\n' +
        `Refusing to start: sandboxes are active on the public production address ${publicUrl}. Configure the real services above, or set ALLOW_SANDBOXES=1 for a demo site.`,
    };
  }
  return {
    kind: 'demo',
    message: `!!! 演示环境：ALLOW_SANDBOXES=1，公开地址 ${publicUrl} 上启用了沙箱，任何访问者都能利用它们，切勿用于真实用户：\n${lines}`,
  };
}
