import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Page } from 'playwright-core';
import { deviceProfileFor, fingerprintFor } from './fingerprint.js';
import { BrowserPool } from './pool.js';

const log = pino({ level: 'silent' });

/** A page on 127.0.0.1 that records the headers of every request, by path. */
function headerServer() {
  const seen = new Map<string, IncomingHttpHeaders>();
  const server = createServer((req, res) => {
    seen.set(req.url ?? '', req.headers);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>创作中心</title><p>你好</p>');
  });
  return {
    seen,
    url: (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a bot check reads first, as the page sees it. */
function readBrowser(page: Page) {
  return page.evaluate(async () => ({
    userAgent: navigator.userAgent,
    webdriver: navigator.webdriver,
    language: navigator.language,
    platform: navigator.platform,
    brands: (navigator as Navigator & { userAgentData?: { brands: { brand: string }[] } }).userAgentData?.brands.map((b) => b.brand) ?? [],
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    geolocation: (await navigator.permissions.query({ name: 'geolocation' })).state,
    screen: { width: screen.width, height: screen.height },
    viewport: { width: innerWidth, height: innerHeight },
    deviceScaleFactor: devicePixelRatio,
    hardwareConcurrency: navigator.hardwareConcurrency,
  }));
}

const hasXvfb = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v Xvfb'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('browser pool', () => {
  const pool = new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 2, idleMs: 60_000, screenshotDir: mkdtempSync(path.join(tmpdir(), 'pool-shots-')), log });
  afterAll(async () => {
    await pool.close();
  });

  it('keeps the page of a successful call for the next call on the same account, and drops a failed one', async () => {
    const seen: Page[] = [];
    await pool.withPage('acct:1', null, async (page) => {
      seen.push(page);
      await page.setContent('<p>一</p>');
    });
    await pool.withPage('acct:1', null, async (page, context) => {
      seen.push(page);
      expect(context.pages()).toHaveLength(1);
    });
    // Opening a page starts a renderer: the second call got the first call's page.
    expect(seen[1]).toBe(seen[0]);
    await expect(
      pool.withPage('acct:1', null, async (page) => {
        seen.push(page);
        throw new Error('页面出错');
      }),
    ).rejects.toThrow('页面出错');
    expect(seen[2]).toBe(seen[0]);
    expect(seen[0]!.isClosed()).toBe(true);
    await pool.withPage('acct:1', null, async (page) => {
      expect(page).not.toBe(seen[0]);
    });
    // Another account has its own context and page; one browser serves both.
    await pool.withPage('acct:2', null, async (page) => {
      expect(page).not.toBe(seen[0]);
    });
    expect(pool.stats()).toMatchObject({ launches: 1, contexts: 2 });
  }, 60_000);

  it('two calls at once on one account each get a page of their own', async () => {
    const pages = await Promise.all(
      [1, 2].map(() =>
        pool.withPage('acct:3', null, async (page) => {
          await new Promise((r) => setTimeout(r, 50));
          return page;
        }),
      ),
    );
    expect(pages[0]).not.toBe(pages[1]);
  }, 60_000);
});

describe('browser pool fingerprint', () => {
  const site = headerServer();
  const pool = new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 2, idleMs: 60_000, screenshotDir: mkdtempSync(path.join(tmpdir(), 'pool-shots-')), log });
  beforeAll(site.start);
  afterAll(async () => {
    await pool.close();
    await site.stop();
  });

  it('shows an account page a desktop Chrome in China, in script and in request headers', async () => {
    const seen = await pool.withPage('acct:fp-1', null, async (page) => {
      await page.goto(site.url('/account'));
      return readBrowser(page);
    });
    expect(seen.userAgent).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .* Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/);
    expect(seen.userAgent).not.toContain('Headless');
    expect(seen.webdriver).not.toBe(true);
    expect(seen).toMatchObject({ language: 'zh-CN', platform: 'Win32', timeZone: 'Asia/Shanghai', geolocation: 'granted' });
    expect(seen.brands).toEqual(expect.arrayContaining(['Chromium', 'Google Chrome']));
    const headers = site.seen.get('/account')!;
    expect(headers['user-agent']).toBe(seen.userAgent);
    expect(headers['sec-ch-ua']).toContain('"Google Chrome"');
    expect(headers['sec-ch-ua']).not.toMatch(/headless/i);
    expect(headers['sec-ch-ua-platform']).toBe('"Windows"');
    expect(headers['accept-language']).toBe('zh-CN,zh;q=0.9');
  }, 60_000);

  it('disguises a login page the same way', async () => {
    const page = await pool.openPage('login:sandbox:fp-user');
    try {
      await page.goto(site.url('/login'));
      const seen = await readBrowser(page);
      expect(seen.userAgent).not.toContain('Headless');
      expect(seen.webdriver).not.toBe(true);
      expect(seen).toMatchObject({ timeZone: 'Asia/Shanghai', geolocation: 'granted' });
      expect(seen.screen).toEqual(deviceProfileFor('login:sandbox:fp-user').screen);
      expect(site.seen.get('/login')!['accept-language']).toMatch(/^zh-CN/);
    } finally {
      await pool.release('login:sandbox:fp-user');
    }
  }, 60_000);

  it('presents the same device for an account after its context closes and the browser restarts', async () => {
    const visit = () =>
      pool.withPage('acct:fp-2', null, async (page) => {
        await page.goto(site.url('/again'));
        return readBrowser(page);
      });
    const first = await visit();
    const version = await pool.withPage('acct:fp-2', null, async (page) => page.context().browser()!.version());
    const expected = fingerprintFor('acct:fp-2', version);
    expect(first).toMatchObject({
      userAgent: expected.userAgent,
      screen: expected.screen,
      viewport: expected.viewport,
      deviceScaleFactor: expected.deviceScaleFactor,
      hardwareConcurrency: expected.hardwareConcurrency,
    });
    expect(await pool.closeIdle(Date.now() + 60_000)).toBeGreaterThan(0);
    const launches = pool.stats().launches;
    process.kill((await pool.browserPid())!, 'SIGKILL');
    await expect.poll(() => pool.stats().running).toBe(false);
    const second = await visit();
    expect(pool.stats().launches).toBe(launches + 1);
    expect(second).toEqual(first);
  }, 90_000);

  it('takes the device stored with a session over the derived one, and stores it back', async () => {
    const stored = deviceProfileFor('some other device');
    const derived = deviceProfileFor('acct:fp-3');
    // Two keys whose screens differ, so the assertion below tells the stored device from the derived one.
    expect(stored.screen).not.toEqual(derived.screen);
    const session = JSON.stringify({ cookies: [], origins: [], fingerprint: stored });
    const { seen, saved } = await pool.withPage('acct:fp-3', session, async (page, context) => {
      await page.goto(site.url('/stored'));
      return { seen: await readBrowser(page), saved: JSON.parse(await pool.sessionState(context)) as Record<string, unknown> };
    });
    expect(seen).toMatchObject({ screen: stored.screen, viewport: stored.viewport, deviceScaleFactor: stored.deviceScaleFactor });
    expect(saved.fingerprint).toEqual(stored);
    expect(saved).toMatchObject({ cookies: [], origins: [] });
  }, 60_000);
});

describe.runIf(hasXvfb)('headful browser pool on its own Xvfb', () => {
  const site = headerServer();
  const lines: string[] = [];
  const capture = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  const pool = new BrowserPool({
    executablePath: '/usr/bin/chromium',
    maxConcurrent: 1,
    idleMs: 60_000,
    screenshotDir: mkdtempSync(path.join(tmpdir(), 'pool-shots-')),
    log: capture,
    headful: true,
  });
  beforeAll(site.start);
  afterAll(async () => {
    await pool.close();
    await site.stop();
  });

  it('launches a windowed Chromium on a display it started, and stops that display on close', async () => {
    const { userAgent, shot } = await pool.withPage('acct:headful', null, async (page) => {
      await page.goto(site.url('/headful'));
      return { userAgent: await page.evaluate(() => navigator.userAgent), shot: await pool.saveScreenshot('headful', page) };
    });
    expect(userAgent).not.toContain('Headless');
    expect(site.seen.get('/headful')!['user-agent']).toBe(userAgent);
    expect(shot && existsSync(shot)).toBe(true);
    const display = /headful Chromium on X display :(\d+)/.exec(lines.join(''))?.[1];
    expect(display).toBeDefined();
    // The display's socket lives as long as the Xvfb serving it.
    expect(existsSync(`/tmp/.X11-unix/X${display}`)).toBe(true);
    await pool.close();
    expect(existsSync(`/tmp/.X11-unix/X${display}`)).toBe(false);
  }, 90_000);
});

describe('headful browser pool without Xvfb', () => {
  it('fails with a message naming the missing package', async () => {
    const pool = new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 1, idleMs: 60_000, screenshotDir: tmpdir(), log, headful: true });
    const pathBefore = process.env.PATH;
    // An empty PATH stands in for a machine without Xvfb installed.
    process.env.PATH = '/nonexistent';
    try {
      await expect(pool.withPage('acct:no-x', null, async () => undefined)).rejects.toThrow(/Xvfb is not installed/);
    } finally {
      process.env.PATH = pathBefore;
      await pool.close();
    }
  });
});
