import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startProduct, webDist, type Figure } from './lib.js';

export const figures = ['home-js'] as const;
/** Issue 11's target for everything the home route loads in its first 2 s (the bench reports PASS/FAIL against it). */
export const HOME_JS_BUDGET_BYTES = 250 * 1024;
/**
 * The e2e guard on what index.html loads up front: just above the level the product meets (181.8 KB, the entry chunk
 * holding every up-front module), so a change that grows the first load fails CI.
 */
export const HOME_INITIAL_JS_GUARD_BYTES = 185 * 1024;
const WINDOW_MS = 2_000;

/** Gzip size of what index.html loads up front: the entry chunk and its static imports (modulepreload). */
export function initialJsGzip(): { bytes: number; files: string[] } {
  const dist = webDist();
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dist, f))).length, 0);
  return { bytes, files };
}

/**
 * Every script the home route loads in its first 2 s (the entry, its static imports and the lazy chunks the route
 * pulls in at once), in a real browser against the built product, weighed gzipped.
 */
export async function run() {
  const product = await startProduct();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(`${product.url}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForTimeout(WINDOW_MS);
    const dist = webDist();
    const files = [...scripts].map((p) => ({ file: p, gzip: gzipSync(readFileSync(path.join(dist, p))).length })).sort((a, b) => b.gzip - a.gzip);
    const bytes = files.reduce((n, f) => n + f.gzip, 0);
    const upFront = initialJsGzip();
    const kb = Number((bytes / 1024).toFixed(1));
    return {
      scenario: `home route: scripts loaded in the first ${WINDOW_MS / 1000} s (browser, built web), gzip`,
      kilobytes: kb,
      upFrontKilobytes: Number((upFront.bytes / 1024).toFixed(1)),
      budgetKilobytes: HOME_JS_BUDGET_BYTES / 1024,
      ratioToBudget: Number((bytes / HOME_JS_BUDGET_BYTES).toFixed(3)),
      largest: files.slice(0, Number(process.env.BENCH_LIST ?? 8)).map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`),
      figures: [
        { id: 'home-js', value: `${kb} KB in ${files.length} files (${(bytes / HOME_JS_BUDGET_BYTES).toFixed(2)}x budget)`, pass: bytes <= HOME_JS_BUDGET_BYTES },
      ] satisfies Figure[],
    };
  } finally {
    await browser.close();
    await product.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
