/**
 * HTML for the few server-rendered pages (the sandbox stand-ins a phone opens: pay checkout, WeChat scan, the creator
 * site; the SMS outbox). Infrastructure: modules and integrations both import it.
 */

/** Escapes text for an element body or a quoted attribute. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole document: zh-CN, utf-8, phone viewport. `head` and `body` are markup (escape what users supplied); the title is text. */
export function htmlPage(opts: { title: string; head?: string; body: string }): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(opts.title)}</title>${opts.head ?? ''}</head><body>${opts.body}</body></html>`;
}

const PHONE_CSS =
  'body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px;color:#222}\n.tag{display:inline-block;background:#fa8c16;color:#fff;border-radius:4px;padding:0 6px;font-size:12px}';

/**
 * A phone-sized sandbox page: the 沙箱 tag and what it simulates come first, so nobody mistakes it for the real vendor.
 * `css` adds to the shared style; `body` is markup.
 */
export function sandboxPhonePage(opts: { title: string; simulates: string; css?: string; body: string }): string {
  return htmlPage({
    title: opts.title,
    head: `<style>${PHONE_CSS}${opts.css ?? ''}</style>`,
    body: `<p><span class="tag">沙箱</span> ${opts.simulates}</p>${opts.body}`,
  });
}
