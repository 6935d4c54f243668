import type { Locator, Page } from 'playwright-core';
import { anyOf, locate, locateOptional, StepFailedError, type SiteProfile } from '../site-steps.js';
import { PlatformError, type PublishOptions } from '../types.js';
import { clickShadowButton } from './shadow-click.js';

/** The publish form's controls that need more than a locator: waits, the closed-shadow submit, the outcome. */

/** The suggestion that is the topic itself (`#旅行`, maybe followed by its view count), once the list shows it. */
export async function exactTopic(page: Page, profile: SiteProfile, topic: string): Promise<Locator | null> {
  const escaped = topic.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^\\s*#?${escaped}(\\s|$)`);
  const deadline = Date.now() + 1500;
  for (;;) {
    for (const sel of profile.steps['topics.item'] ?? []) {
      const hit = page.locator(sel).filter({ hasText: re }).first();
      if (await hit.isVisible().catch(() => false)) return hit;
    }
    if (Date.now() > deadline) return null;
    await page.waitForTimeout(150);
  }
}

/** Waits until the preview list shows `count` images (the site uploads each before showing it). */
export async function waitForPreviews(page: Page, profile: SiteProfile, count: number, label: string): Promise<void> {
  const selectors = profile.steps['upload.preview'] ?? [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    let seen = 0;
    for (const sel of selectors)
      seen = Math.max(
        seen,
        await page
          .locator(sel)
          .count()
          .catch(() => 0),
      );
    if (seen >= count) return;
    if (Date.now() > deadline) throw new StepFailedError('upload.preview', selectors, label);
    await page.waitForTimeout(150);
  }
}

/** Waits (up to a minute) until the submit control can be used: images still uploading or an empty title keep it off. */
async function untilEnabled(page: Page, enabled: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await enabled())) {
    if (Date.now() > deadline) throw new PlatformError('发布按钮一直不可用（图片可能仍在上传或标题为空）');
    await page.waitForTimeout(200);
  }
}

/**
 * 2026: `<xhs-publish-btn>`, a custom element whose 发布 and 暂存离开 buttons sit in a closed shadow root: wait until
 * it is no longer submit-disabled, then click the button whose text is its submit-text, found through the DevTools
 * protocol (which sees closed roots). Before: an ordinary enabled 发布 button.
 */
export async function submit(page: Page, profile: SiteProfile, opts: PublishOptions, dismiss: () => Promise<void>, label: string): Promise<void> {
  const host = await locateOptional(page, profile, 'submit.host', { timeoutMs: 2000 });
  if (host) {
    await untilEnabled(page, async () => (await host.getAttribute('submit-disabled')) !== 'true');
    const text = (await host.getAttribute('submit-text')) || (opts.scheduleAt ? '定时发布' : '发布');
    await opts.beforeSubmit();
    await clickShadowButton(page, host, text);
    return;
  }
  const button = await locate(page, profile, 'submit.button', label, { timeoutMs: 15_000, onCovered: dismiss });
  await untilEnabled(page, () => button.isEnabled());
  await opts.beforeSubmit();
  await button.click();
}

/** 'ok' on the success page, 'left' when the form was left for another page, a toast's text, or a captcha. */
export function confirm(page: Page, profile: SiteProfile, blocked: Promise<'captcha' | null>): Promise<string> {
  const publishPrefix = profile.paths.publishPrefix!;
  const successPrefix = profile.paths.successPrefix!;
  const toast = anyOf(page, profile, 'confirm.toast');
  const captcha = anyOf(page, profile, 'confirm.captcha');
  return Promise.race([
    page.waitForURL((u) => !u.pathname.startsWith(publishPrefix), { timeout: 60_000 }).then(() => (new URL(page.url()).pathname.startsWith(successPrefix) ? 'ok' : 'left')),
    toast.waitFor({ timeout: 60_000 }).then(async () => `toast:${((await toast.textContent()) ?? '').trim()}`),
    captcha.waitFor({ timeout: 60_000 }).then(() => 'captcha'),
    blocked.then((b) => b ?? new Promise<never>(() => undefined)),
  ]);
}

/** Closes what covers the form: the 原创声明 dialog peers report (xiaohongshu-mcp #837), a stray popover. */
export async function dismissOverlays(page: Page, profile: SiteProfile): Promise<void> {
  const close = await locateOptional(page, profile, 'declare.dismiss', { timeoutMs: 0 });
  if (close) await close.click({ timeout: 3000 }).catch(() => undefined);
}
