import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';

const dist = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));

test('home route initial JS (entry + static imports) is at most 300 KB gzip', () => {
  const html = readFileSync(`${dist}index.html`, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  expect(files.length).toBeGreaterThan(0);
  const total = files.reduce((sum, f) => sum + gzipSync(readFileSync(`${dist}${f}`)).length, 0);
  console.log(`initial JS: ${(total / 1024).toFixed(1)} KB gzip in ${files.length} files`);
  expect(total).toBeLessThanOrEqual(300 * 1024);
});
