import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { PlatformError, type PlatformId } from './types.js';

/**
 * A creator site's automation described as data: the paths it visits and, for every named step, an ordered list of
 * Playwright selectors (role and text first, hashed class names last). Sites change their pages every few months;
 * keeping this as data lets an operator replace one step's locators from the console (平台健康) without a release,
 * and lets a failed step say exactly what it tried.
 *
 * Step keys are `<step>` or `<step>.<part>`; the part before the dot is one of `stepLabels` (the creator sees it).
 */
export interface SiteProfile {
  paths: Record<string, string>;
  steps: Record<string, string[]>;
}

/** What an operator may replace: any subset of the built-in keys. */
export type SiteProfileOverride = { paths?: Record<string, string>; steps?: Record<string, string[]> };

/** The operator's active override for a platform, read at every use so a change applies to the next publish. */
export interface SiteProfileSource {
  override(platform: PlatformId): SiteProfileOverride | null;
}
export const builtInProfiles: SiteProfileSource = { override: () => null };

/** The named steps of a publish, in the order a person would do them. */
export const stepLabels = {
  open: '打开发布页',
  login: '扫码登录',
  tab: '切换到图文发布',
  upload: '上传图片',
  title: '填写标题',
  body: '填写正文',
  topics: '添加话题',
  declare: '内容类型声明',
  schedule: '设置定时发布',
  submit: '点击发布',
  confirm: '确认发布结果',
  profile: '读取账号信息',
  notes: '读取笔记列表',
} as const;
export type StepName = keyof typeof stepLabels;

export const stepOf = (key: string): StepName => key.split('.')[0] as StepName;
export const stepLabel = (key: string): string => stepLabels[stepOf(key)] ?? key;

export function effectiveProfile(builtIn: SiteProfile, override: SiteProfileOverride | null): SiteProfile {
  if (!override) return builtIn;
  return { paths: { ...builtIn.paths, ...override.paths }, steps: { ...builtIn.steps, ...override.steps } };
}

const selectorList = z.array(z.string().trim().min(1, '选择器不能为空').max(300, '选择器最长300个字符')).min(1, '每一步至少需要一个选择器').max(12, '每一步最多12个选择器');

/**
 * Checks an operator's override against the built-in profile: only known keys, paths that stay on the site, selectors
 * Playwright can parse (checked by the caller in a page when it wants to; here only shape and size).
 */
export function validateOverride(builtIn: SiteProfile, candidate: unknown): { ok: true; override: SiteProfileOverride } | { ok: false; errors: string[] } {
  const schema = z.strictObject({
    paths: z
      .record(
        z.string(),
        z
          .string()
          .trim()
          .regex(/^\/[^\s]*$/, '路径必须以 / 开头且不含空白')
          .max(300),
      )
      .optional(),
    steps: z.record(z.string(), selectorList).optional(),
  });
  const parsed = schema.safeParse(candidate);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((i) => `${i.path.join('.') || '配置'}：${i.message}`) };
  const errors: string[] = [];
  for (const k of Object.keys(parsed.data.paths ?? {})) if (!(k in builtIn.paths)) errors.push(`paths.${k}：不是这个平台的路径`);
  for (const k of Object.keys(parsed.data.steps ?? {})) if (!(k in builtIn.steps)) errors.push(`steps.${k}：不是这个平台的步骤`);
  if (!parsed.data.paths && !parsed.data.steps) errors.push('配置：至少要改一项');
  return errors.length ? { ok: false, errors } : { ok: true, override: parsed.data };
}

/** What an operator needs to see to fix a step: where it failed, what was tried, and the page as it was (secrets removed). */
export interface StepDiagnostic {
  step: StepName;
  /** The locator key (`body`, `login.qrSwitch`). */
  key: string;
  tried: string[];
  url: string;
  domExcerpt: string;
  screenshot?: Buffer;
  message: string;
}

/** A step whose every locator found nothing usable: the site most likely changed. Not worth retrying unchanged. */
export class StepFailedError extends PlatformError {
  constructor(
    readonly key: string,
    readonly tried: string[],
    platformLabel: string,
  ) {
    super(`在「${stepLabel(key)}」这一步找不到页面元素（${platformLabel}页面可能已改版，已通知运营处理）`);
  }
}

/** The step a failure happened in, kept on the error as it is wrapped and typed. */
export function stepOfError(err: unknown): { key: string; tried: string[] } | null {
  if (err instanceof StepFailedError) return { key: err.key, tried: err.tried };
  const key = (err as { siteStep?: unknown } | null)?.siteStep;
  return typeof key === 'string' ? { key, tried: [] } : null;
}

/** Runs one named step; whatever it throws carries the step's key, so the diagnostic says where a publish stopped. */
export async function inStep<T>(key: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err && typeof err === 'object' && !('siteStep' in err)) Object.assign(err, { siteStep: key });
    throw err;
  }
}

/**
 * In the page: is this element something a person could click or type into? Visible, not faded out, not hidden from
 * assistive tech, not parked off-screen, and not covered by another element at its centre (sites keep decoy copies of
 * their controls hidden in these ways, and a covering dialog swallows clicks).
 */
function usableInPage(el: Element): 'usable' | 'hidden' | 'covered' {
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) < 0.05) return 'hidden';
  if (el.closest('[aria-hidden="true"]')) return 'hidden';
  const r = el.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return 'hidden';
  const docLeft = r.left + window.scrollX;
  const docTop = r.top + window.scrollY;
  if (docLeft + r.width <= 0 || docTop + r.height <= 0) return 'hidden';
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const b = el.getBoundingClientRect();
  const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  if (!top) return 'covered';
  if (top === el || el.contains(top)) return 'usable';
  // A control inside a custom element's shadow root reports its host.
  if (top.shadowRoot && top.contains(el)) return 'usable';
  return 'covered';
}

export interface LocateOptions {
  timeoutMs?: number;
  /** 'usable' (default): a person could use it; 'attached': merely in the document (file inputs are hidden by design). */
  state?: 'usable' | 'attached';
  /** Called when candidates exist but are covered (a dialog over the page): the adapter's chance to dismiss it. */
  onCovered?: () => Promise<void>;
}

/**
 * The first usable element of a step, trying its locators in order and, for each, every match (a decoy may come
 * first). Waits up to `timeoutMs`; throws StepFailedError naming every locator tried.
 */
export async function locate(page: Page, profile: SiteProfile, key: string, platformLabel: string, opts: LocateOptions = {}): Promise<Locator> {
  const selectors = profile.steps[key];
  if (!selectors?.length) throw new StepFailedError(key, [], platformLabel);
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    let covered = false;
    for (const sel of selectors) {
      const all = page.locator(sel);
      const n = Math.min(await all.count().catch(() => 0), 20);
      for (let i = 0; i < n; i++) {
        const el = all.nth(i);
        if (opts.state === 'attached') return el;
        const state = await el.evaluate(usableInPage).catch(() => 'hidden' as const);
        if (state === 'usable') return el;
        if (state === 'covered') covered = true;
      }
    }
    if (covered && opts.onCovered) await opts.onCovered().catch(() => undefined);
    if (Date.now() >= deadline) throw new StepFailedError(key, selectors, platformLabel);
    await page.waitForTimeout(200);
  }
}

/** Any of a step's locators (they may mix CSS and text engines, so they are combined with `or`, not a comma). */
export function anyOf(page: Page, profile: SiteProfile, key: string): Locator {
  const [first, ...rest] = profile.steps[key] ?? [];
  if (!first) throw new StepFailedError(key, [], '');
  return rest.reduce((acc, sel) => acc.or(page.locator(sel)), page.locator(first)).first();
}

/** Like `locate`, but null instead of a failure after `timeoutMs` (for optional steps: dialogs, a tab already active). */
export async function locateOptional(page: Page, profile: SiteProfile, key: string, opts: LocateOptions = {}): Promise<Locator | null> {
  try {
    return await locate(page, profile, key, '', opts);
  } catch (err) {
    if (err instanceof StepFailedError) return null;
    throw err;
  }
}

/** Removes what must never leave the page: scripts, form values, data: images, tokens in URLs and long opaque strings. */
export function scrubDom(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, '<script>…</script>')
    .replace(/<style\b[\s\S]*?<\/style>/gi, '<style>…</style>')
    .replace(/\s(value|src|srcset|href|data-[\w-]*token[\w-]*)="[^"]*"/gi, (_m, attr: string) => ` ${attr}="…"`)
    .replace(/[A-Za-z0-9+/_=-]{32,}/g, '…')
    .slice(0, 12_000);
}

/** The diagnostic of a failed step: the page's address without its query, a scrubbed DOM excerpt and a screenshot. */
export async function captureDiagnostic(page: Page, err: unknown, message: string): Promise<StepDiagnostic | null> {
  const where = stepOfError(err);
  if (!where) return null;
  const url = (() => {
    try {
      const u = new URL(page.url());
      return `${u.origin}${u.pathname}`;
    } catch {
      return '';
    }
  })();
  const dom = await page
    .evaluate(() => document.body?.outerHTML ?? '')
    .then(scrubDom)
    .catch(() => '');
  const screenshot = await page.screenshot({ type: 'png', scale: 'css', timeout: 5000 }).catch(() => undefined);
  return { step: stepOf(where.key), key: where.key, tried: where.tried, url, domExcerpt: dom, screenshot, message };
}
