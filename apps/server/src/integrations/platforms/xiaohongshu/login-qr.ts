import type { Locator, Page } from 'playwright-core';
import { locateOptional, type SiteProfile } from '../site-steps.js';

/**
 * The creator login's QR: by the old class when the page has it, else the largest square image in the login box (the
 * creator site gives its QR no stable class; `.qrcode-img` is www's), marked so a locator can take it.
 */
export async function findQr(page: Page, profile: SiteProfile, waitMs: number): Promise<Locator | null> {
  const byClass = await locateOptional(page, profile, 'login.qrImage', { timeoutMs: Math.min(waitMs, 500) });
  if (byClass) return byClass;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const boxSelector = (profile.steps['login.box'] ?? []).join(', ') || 'body';
    const marked = await page
      .evaluate((sel) => {
        const box = document.querySelector(sel) ?? document.body;
        let best: HTMLImageElement | null = null;
        for (const img of box.querySelectorAll('img')) {
          const r = img.getBoundingClientRect();
          const visible = r.width >= 80 && getComputedStyle(img).visibility !== 'hidden' && img.offsetParent !== null;
          if (!visible || Math.abs(r.width - r.height) > 4 || !img.getAttribute('src')) continue;
          if (!best || r.width > best.getBoundingClientRect().width) best = img;
        }
        document.querySelectorAll('[data-inkstone-qr]').forEach((el) => el.removeAttribute('data-inkstone-qr'));
        best?.setAttribute('data-inkstone-qr', '1');
        return best !== null;
      }, boxSelector)
      .catch(() => false);
    if (marked) return page.locator('[data-inkstone-qr]').first();
    if (Date.now() >= deadline) return null;
    await page.waitForTimeout(250);
  }
}
