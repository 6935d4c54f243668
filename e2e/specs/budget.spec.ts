import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { webDist } from '../../bench/lib.js';
import { HOME_INITIAL_JS_GUARD_BYTES, initialJsGzip } from '../../bench/web-bundle.js';

test('home route initial JS (entry + static imports) is at most 185 KB gzip', () => {
  const { bytes, files } = initialJsGzip();
  expect(files.length).toBeGreaterThan(0);
  console.log(`initial JS: ${(bytes / 1024).toFixed(1)} KB gzip in ${files.length} files`);
  expect(bytes).toBeLessThanOrEqual(HOME_INITIAL_JS_GUARD_BYTES);
});

// The web takes only constants and helpers from @inkstone/shared at run time (vite resolves it to the zod-free entry);
// a schema imported at run time would pull zod (~28 KB gzip) into the first load.
test('no chunk of the web build carries zod', () => {
  const assets = path.join(webDist(), 'assets');
  const withZod = readdirSync(assets).filter((f) => f.endsWith('.js') && readFileSync(path.join(assets, f), 'utf8').includes('_zod'));
  expect(withZod).toEqual([]);
});
