import { test, expect } from '@playwright/test';
import { HOME_JS_BUDGET_BYTES, initialJsGzip } from '../../bench/web-bundle.js';

test('home route initial JS (entry + static imports) is at most 300 KB gzip', () => {
  const { bytes, files } = initialJsGzip();
  expect(files.length).toBeGreaterThan(0);
  console.log(`initial JS: ${(bytes / 1024).toFixed(1)} KB gzip in ${files.length} files`);
  expect(bytes).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
});
