import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createContainer } from './container.js';
import { activeSandboxes, checkSandboxes, isLoopbackUrl } from './sandbox-guard.js';
import { startBanner } from './start-banner.js';
import { startTestApp } from './test/app.js';
import { openTestDatabase } from './test/database.js';

type GuardConfig = Parameters<typeof checkSandboxes>[0];
const sandboxed: GuardConfig = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://xie.example.com',
  ALLOW_SANDBOXES: false,
  SMS_PROVIDER: 'outbox',
  WECHAT_LOGIN_PROVIDER: 'sandbox',
  PAYMENT_PROVIDER: ['sandbox'],
  PUBLISH_PLATFORMS: ['sandbox', 'xiaohongshu', 'wechat_mp'],
};
const real: GuardConfig = {
  ...sandboxed,
  SMS_PROVIDER: 'aliyun',
  WECHAT_LOGIN_PROVIDER: 'mp',
  PAYMENT_PROVIDER: ['wechat', 'alipay'],
  PUBLISH_PLATFORMS: ['xiaohongshu', 'wechat_mp'],
};

describe('sandbox guard', () => {
  it('knows loopback addresses', () => {
    for (const u of ['http://localhost:3000', 'http://127.0.0.1:1', 'http://127.8.9.10', 'http://[::1]:3000', 'http://app.localhost']) expect(isLoopbackUrl(u), u).toBe(true);
    for (const u of ['https://xie.example.com', 'http://192.168.1.20:3000', 'http://0.0.0.0:3000', 'http://[::ffff:8.8.8.8]', 'not a url']) expect(isLoopbackUrl(u), u).toBe(false);
  });

  it('lists each active sandbox with the variable that replaces it', () => {
    expect(activeSandboxes(sandboxed).map((s) => s.replaceWith)).toEqual([
      expect.stringContaining('SMS_PROVIDER='),
      expect.stringContaining('WECHAT_LOGIN_PROVIDER=mp'),
      expect.stringContaining('PAYMENT_PROVIDER='),
      expect.stringContaining('PUBLISH_PLATFORMS='),
    ]);
    expect(activeSandboxes(real)).toEqual([]);
    expect(activeSandboxes({ ...real, PAYMENT_PROVIDER: ['sandbox'] }).map((s) => s.name)).toEqual(['沙箱支付收银台']);
  });

  it('refuses only public production with sandboxes; ALLOW_SANDBOXES=1 makes it a demo', () => {
    const refused = checkSandboxes(sandboxed);
    expect(refused.kind).toBe('refuse');
    const message = refused.kind === 'refuse' ? refused.message : '';
    expect(message).toMatch(/^拒绝启动/);
    for (const s of activeSandboxes(sandboxed)) {
      expect(message).toContain(s.name);
      expect(message).toContain(s.replaceWith);
    }
    expect(message).toContain('ALLOW_SANDBOXES=1');

    expect(checkSandboxes({ ...sandboxed, ALLOW_SANDBOXES: true })).toMatchObject({ kind: 'demo', message: expect.stringContaining('演示环境') });
    expect(checkSandboxes({ ...sandboxed, NODE_ENV: 'development' }).kind).toBe('ok');
    expect(checkSandboxes({ ...sandboxed, PUBLIC_URL: 'http://127.0.0.1:3000' }).kind).toBe('ok');
    expect(checkSandboxes({ ...sandboxed, PUBLIC_URL: undefined }).kind).toBe('ok');
    expect(checkSandboxes(real).kind).toBe('ok');
  });

  it('start banner: Chinese first, sandboxes named in Chinese', () => {
    const config = loadConfig({});
    const banner = startBanner(config, { url: 'http://localhost:3000', database: 'pglite', searchEnabled: false, demo: false });
    const lines = banner.split('\n').filter(Boolean);
    expect(lines[0]).toBe('  砚 已启动：http://localhost:3000（数据库：pglite）');
    expect(lines[1]).toContain('Inkstone is running at http://localhost:3000');
    expect(banner).toContain('正在使用内置沙箱');
    for (const name of [
      '短信发件箱：验证码见日志和 http://localhost:3000/api/dev/sms-outbox/page',
      '微信扫码登录沙箱页',
      '沙箱支付收银台',
      '沙箱创作平台',
      '离线写作助手',
      '联网搜索未配置',
    ])
      expect(banner).toContain(name);
    expect(banner).toContain('接口文档：http://localhost:3000/api/docs');
  });
});

describe('start-up with sandboxes on a public production address', () => {
  const env = (extra: Record<string, string>) => ({ NODE_ENV: 'production', PUBLIC_URL: 'https://xie.example.com', APP_SECRET_KEY: 'ab'.repeat(32), PORT: '0', ...extra });

  it('loadConfig + createContainer refuse, naming every sandbox and its replacement', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-guard-'));
    const database = await openTestDatabase('pglite');
    try {
      const config: Config = loadConfig(env({ DATA_DIR: dataDir }));
      const started = createContainer(config, { database });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(/拒绝启动：生产环境（NODE_ENV=production）的公开地址 https:\/\/xie\.example\.com 上仍启用了沙箱/);
      await expect(started).rejects.toThrow(/短信发件箱[\s\S]*SMS_PROVIDER=aliyun[\s\S]*微信扫码登录沙箱页[\s\S]*沙箱支付收银台[\s\S]*沙箱创作平台/);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ALLOW_SANDBOXES=1 starts a demo: a loud warning in the log, demo=true for the web', async () => {
    const lines: string[] = [];
    const t = await startTestApp({ env: env({ ALLOW_SANDBOXES: '1', LOG_LEVEL: 'warn' }), logStream: { write: (l: string) => void lines.push(l) } });
    try {
      const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((r) => r.level === 40);
      expect(warnings.some((w) => w.msg.startsWith('!!! 演示环境') && w.msg.includes('沙箱支付收银台'))).toBe(true);
      const health = (await (await fetch(`${t.url}/healthz`)).json()) as { demo: boolean };
      expect(health.demo).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a laptop (loopback PUBLIC_URL) is no demo', async () => {
    const t = await startTestApp();
    try {
      expect(((await (await fetch(`${t.url}/healthz`)).json()) as { demo: boolean }).demo).toBe(false);
    } finally {
      await t.close();
    }
  });
});
