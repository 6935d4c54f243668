import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FastifyBaseLogger } from 'fastify';
import { contextOptions, disguisePage, fingerprintFor, splitSession, withBrowser, type Fingerprint } from './fingerprint.js';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Browser work running at once (pages doing something); more waits its turn. */
  maxConcurrent: number;
  /** A cached account context unused this long is closed. */
  idleMs: number;
  screenshotDir: string;
  log: FastifyBaseLogger;
  /**
   * False in a process without the publisher role: any attempt to start Chromium there is a wiring bug (browser
   * work must go to a publisher through the job queue), so it throws instead of quietly launching one.
   */
  canLaunch?: boolean;
  /**
   * Chromium with a window (BROWSER_HEADFUL): even new headless differs from a desktop Chrome in ways pages can
   * measure. It draws on `display`, or on an Xvfb the pool starts (and stops on close) when that is unset.
   */
  headful?: boolean;
  /** An X display for headful Chromium (DISPLAY); unset = the pool's own Xvfb. */
  display?: string;
}

/** Thrown when browser work reaches a process that must not start Chromium (no publisher role). */
export class BrowserDisabledError extends Error {
  constructor() {
    super('this process has no publisher role: Chromium is not started here');
    this.name = 'BrowserDisabledError';
  }
}

interface CachedContext {
  context: BrowserContext;
  /** The storage state it was created from; a different one replaces the context. */
  stateKey: string;
  lastUsed: number;
  busy: number;
  /**
   * The page the last call left behind, kept open for the next call on this account: opening a page costs Chromium a
   * renderer start, the larger part of a warm publish. Only a page whose call succeeded is kept.
   */
  idlePage: Page | null;
}

/** Raised when the browser went away under a running operation. */
export class BrowserCrashedError extends Error {
  constructor(message = 'browser disconnected') {
    super(message);
    this.name = 'BrowserCrashedError';
  }
}

/**
 * `context.newPage()`, failing once the context closes. A newPage still pending when its context is closed (an
 * engagement sync expiring the account under a running check, `release`) never settles in Playwright 1.65: the call,
 * and the pool slot it holds, would wait forever.
 */
function newPageOf(context: BrowserContext): Promise<Page> {
  return new Promise<Page>((resolve, reject) => {
    const closed = () => reject(new BrowserCrashedError('the context closed while its page was opening'));
    context.once('close', closed);
    context.newPage().then(
      (page) => {
        context.off('close', closed);
        resolve(page);
      },
      (err: unknown) => {
        context.off('close', closed);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

const LAUNCH_ARGS = [
  // Without it Blink sets navigator.webdriver, the first thing a bot check reads.
  '--disable-blink-features=AutomationControlled',
  // The browser's own default for what no override reaches (requests before a page's override is set).
  '--lang=zh-CN',
  '--accept-lang=zh-CN,zh',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** An X server the pool started for headful Chromium. */
interface VirtualDisplay {
  proc: ChildProcess;
  /** `:<n>` */
  display: string;
  exited: boolean;
}

const XVFB_MISSING = 'BROWSER_HEADFUL=true needs an X display: DISPLAY is unset and Xvfb is not installed (Debian: apt-get install xvfb, as scripts/install-system-deps.sh does)';

/**
 * Starts Xvfb on a free display. With `-displayfd` the server itself takes the first display number it can listen on
 * (no race with another X server starting beside it) and writes it once it accepts connections.
 */
function startXvfb(): Promise<VirtualDisplay> {
  return new Promise((resolve, reject) => {
    const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    const vd: VirtualDisplay = { proc, display: '', exited: false };
    let stderr = '';
    let reported = '';
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`Xvfb reported no display within 10 s: ${stderr.trim().slice(-500)}`));
    }, 10_000);
    proc.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    (proc.stdio[3] as NodeJS.ReadableStream | null)?.on('data', (d: Buffer) => {
      reported += d.toString();
      if (!reported.includes('\n')) return;
      clearTimeout(timer);
      vd.display = `:${reported.trim()}`;
      resolve(vd);
    });
    proc.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'ENOENT' ? new Error(XVFB_MISSING) : err));
    proc.once('exit', (code, signal) => {
      vd.exited = true;
      fail(new Error(`Xvfb exited (${code ?? signal}) before reporting a display: ${stderr.trim().slice(-500)}`));
    });
  });
}

/**
 * One warm chromium, launched on first use, shared by every account: a context per account built
 * from its (decrypted) storage state and kept for reuse until idle; login pages get their own
 * context. A disconnected browser is relaunched on the next use; work running at the time fails
 * with BrowserCrashedError (the caller retries).
 */
export class BrowserPool {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private readonly contexts = new Map<string, CachedContext>();
  private readonly queue: PQueue;
  private readonly marker = `--inkstone-pool=${randomUUID()}`;
  private sweep: NodeJS.Timeout | undefined;
  private closed = false;
  private xvfb: VirtualDisplay | null = null;
  /** A server exiting without close() (a fatal error) must not leave its Xvfb behind. */
  private readonly stopXvfbOnExit = () => this.xvfb?.proc.kill('SIGTERM');
  private displayLogged = '';
  /** The fingerprint each live context presents; `sessionState` stores its device part with the session. */
  private readonly fingerprints = new WeakMap<BrowserContext, Fingerprint>();
  /** Per page, the CDP overrides of its fingerprint being applied; a page is handed out only once they are. */
  private readonly disguised = new WeakMap<Page, Promise<void>>();
  launches = 0;
  crashes = 0;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.queue = new PQueue({ concurrency: opts.maxConcurrent });
  }

  private async getBrowser(): Promise<Browser> {
    if (this.closed) throw new Error('browser pool is closed');
    if (this.opts.canLaunch === false) throw new BrowserDisabledError();
    if (this.browser?.isConnected()) return this.browser;
    if (!this.launching) {
      this.launching = (async () => {
        // Loaded on first launch: Playwright is ~80 MB of a process that may never start a browser (web, worker).
        const { chromium } = await import('playwright-core');
        const display = await this.displayArgs();
        const browser = await chromium.launch({
          executablePath: this.opts.executablePath,
          headless: !this.opts.headful,
          args: [...LAUNCH_ARGS, ...display, this.marker],
        });
        this.launches += 1;
        browser.on('disconnected', () => {
          if (this.browser === browser) this.browser = null;
          // Every context died with it.
          this.contexts.clear();
          if (!this.closed) {
            this.crashes += 1;
            this.opts.log.warn('browser disconnected; it will be relaunched on next use');
          }
        });
        this.browser = browser;
        this.ensureSweep();
        return browser;
      })().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  /** Headful: the X display Chromium draws on (`--display`, so the environment stays config.ts's), started if needed. */
  private async displayArgs(): Promise<string[]> {
    if (!this.opts.headful) return [];
    let display = this.opts.display;
    let source = 'DISPLAY';
    if (!display) {
      if (!this.xvfb || this.xvfb.exited) {
        if (this.xvfb) this.opts.log.warn({ display: this.xvfb.display }, 'Xvfb exited; starting another');
        this.xvfb = await startXvfb();
        process.once('exit', this.stopXvfbOnExit);
        const vd = this.xvfb;
        vd.proc.once('exit', () => {
          vd.exited = true;
          process.off('exit', this.stopXvfbOnExit);
        });
      }
      display = this.xvfb.display;
      source = 'Xvfb started by the browser pool';
    }
    if (this.displayLogged !== display) {
      this.displayLogged = display;
      this.opts.log.info({ display }, `headful Chromium on X display ${display} (${source})`);
    }
    return [`--display=${display}`];
  }

  /**
   * A context presenting the fingerprint stored with `session`, or else the one derived from `key`; its pages get
   * the per-page overrides as they open, popups included.
   */
  private async newContext(browser: Browser, key: string, session: string | null): Promise<BrowserContext> {
    const { storageState, profile } = splitSession(session);
    const fp = profile ? withBrowser(profile, browser.version()) : fingerprintFor(key, browser.version());
    const context = await browser.newContext({ ...contextOptions(fp), storageState });
    this.fingerprints.set(context, fp);
    context.on('page', (page) => void this.disguise(context, page, fp).catch(() => undefined));
    return context;
  }

  private disguise(context: BrowserContext, page: Page, fp: Fingerprint): Promise<void> {
    let done = this.disguised.get(page);
    if (!done) {
      done = disguisePage(context, page, fp);
      this.disguised.set(page, done);
    }
    return done;
  }

  /** A page of a pool context, ready: its fingerprint's overrides are in place before the caller navigates. */
  private async readyPage(context: BrowserContext, page: Page): Promise<Page> {
    const fp = this.fingerprints.get(context);
    if (fp) await this.disguise(context, page, fp);
    return page;
  }

  /**
   * The context's storage state as a session blob, with the device it presented under `fingerprint`: the next
   * context made from it (`withPage`) presents the same screen, cores and location as the one the user logged in with.
   */
  async sessionState(context: BrowserContext): Promise<string> {
    const state = await context.storageState();
    const fp = this.fingerprints.get(context);
    if (!fp) return JSON.stringify(state);
    const { userAgent: _ua, browserVersion: _v, ...device } = fp;
    return JSON.stringify({ ...state, fingerprint: device });
  }

  private ensureSweep() {
    if (this.sweep) return;
    this.sweep = setInterval(() => void this.closeIdle(), Math.min(this.opts.idleMs, 30_000));
    this.sweep.unref();
  }

  /** Closes cached contexts idle longer than `idleMs`; the browser stays warm. */
  async closeIdle(now = Date.now()): Promise<number> {
    let n = 0;
    for (const [key, c] of this.contexts) {
      if (c.busy === 0 && now - c.lastUsed >= this.opts.idleMs) {
        this.contexts.delete(key);
        n += 1;
        await c.context.close().catch(() => undefined);
      }
    }
    return n;
  }

  /**
   * Runs `fn` with a page in the context kept for `key` (an account), created from `storageState`
   * (JSON) when missing or when the state changed. At most `maxConcurrent` run at once.
   */
  async withPage<T>(key: string, storageState: string | null, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    return this.queue.add(async () => {
      const stateKey = storageState ?? '';
      let cached = this.contexts.get(key);
      if (cached && (cached.stateKey !== stateKey || !this.browser?.isConnected())) {
        if (cached.busy === 0) await cached.context.close().catch(() => undefined);
        this.contexts.delete(key);
        cached = undefined;
      }
      if (!cached) {
        const browser = await this.getBrowser();
        const context = await this.newContext(browser, key, storageState);
        cached = { context, stateKey, lastUsed: Date.now(), busy: 0, idlePage: null };
        this.contexts.set(key, cached);
      }
      const entry = cached;
      entry.busy += 1;
      let page: Page | undefined;
      let succeeded = false;
      try {
        page = entry.idlePage && !entry.idlePage.isClosed() ? entry.idlePage : undefined;
        entry.idlePage = null;
        page ??= await newPageOf(entry.context);
        await this.readyPage(entry.context, page);
        const result = await fn(page, entry.context);
        succeeded = true;
        return result;
      } catch (err) {
        throw this.translate(err);
      } finally {
        entry.busy -= 1;
        entry.lastUsed = Date.now();
        // Kept for the next call on this account while the context is still the cached one; otherwise closed.
        if (page && succeeded && !page.isClosed() && !entry.idlePage && this.contexts.get(key) === entry) entry.idlePage = page;
        else await page?.close().catch(() => undefined);
      }
    }) as Promise<T>;
  }

  /**
   * A page that outlives one call (a QR login waiting for the phone). Not counted against the
   * concurrency limit while it waits; closed by `release(key)` or when idle.
   */
  async openPage(key: string): Promise<Page> {
    await this.release(key);
    const browser = await this.getBrowser();
    const context = await this.newContext(browser, key, null);
    this.contexts.set(key, { context, stateKey: `login:${randomUUID()}`, lastUsed: Date.now(), busy: 0, idlePage: null });
    return this.readyPage(context, await context.newPage());
  }

  /** The live page opened by `openPage(key)`, if any. */
  livePage(key: string): Page | null {
    const cached = this.contexts.get(key);
    if (!cached) return null;
    cached.lastUsed = Date.now();
    return cached.context.pages()[0] ?? null;
  }

  /** Closes the context kept for `key`. */
  async release(key: string): Promise<boolean> {
    const cached = this.contexts.get(key);
    if (!cached) return false;
    this.contexts.delete(key);
    await cached.context.close().catch(() => undefined);
    return true;
  }

  /** Saves a screenshot for the user; null when the page can no longer be captured. */
  async saveScreenshot(name: string, image: Buffer | Page | undefined): Promise<string | null> {
    if (!image) return null;
    try {
      const bytes = Buffer.isBuffer(image) ? image : await image.screenshot({ type: 'png', scale: 'css', timeout: 5000 });
      await mkdir(this.opts.screenshotDir, { recursive: true });
      const file = path.join(this.opts.screenshotDir, `${name.replace(/[^\w-]/g, '_')}.png`);
      await writeFile(file, bytes);
      return file;
    } catch {
      return null;
    }
  }

  private translate(err: unknown): unknown {
    const msg = err instanceof Error ? err.message : String(err);
    // Only Playwright's own errors; what the caller already typed (with its screenshot) passes through.
    if (
      (err instanceof Error && err.name === 'TargetClosedError') ||
      /Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed/i.test(msg)
    ) {
      return Object.assign(new BrowserCrashedError(msg.split('\n')[0]), { cause: err });
    }
    return err;
  }

  stats() {
    return {
      running: this.browser?.isConnected() ?? false,
      launches: this.launches,
      crashes: this.crashes,
      contexts: this.contexts.size,
      pending: this.queue.size,
      active: this.queue.pending,
    };
  }

  /** PID of the browser process (found by our marker among this process's children); tests kill it. */
  async browserPid(): Promise<number | null> {
    if (!this.browser) return null;
    for (const entry of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(entry)) continue;
      const cmd = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (!cmd.includes(this.marker) || cmd.includes('--type=')) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) return Number(entry);
    }
    return null;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    for (const c of this.contexts.values()) await c.context.close().catch(() => undefined);
    this.contexts.clear();
    const b = this.browser ?? (this.launching ? await this.launching.catch(() => null) : null);
    this.browser = null;
    await b?.close().catch(() => undefined);
    const vd = this.xvfb;
    this.xvfb = null;
    if (vd && !vd.exited) {
      const gone = new Promise((r) => vd.proc.once('exit', r));
      vd.proc.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000).unref())]);
    }
    process.off('exit', this.stopXvfbOnExit);
  }
}
