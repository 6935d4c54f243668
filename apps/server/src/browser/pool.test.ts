import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Page } from 'playwright-core';
import { BrowserPool } from './pool.js';

const log = pino({ level: 'silent' });

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
