import DOMPurify from 'dompurify';

/**
 * The WeChat Official Account editor drops <style> and class names on paste and keeps inline styles,
 * so every element carries its own look.
 */
export const WECHAT_STYLES: Record<string, string> = {
  h1: 'font-size:22px;font-weight:bold;line-height:1.4;margin:24px 0 12px;color:#222;',
  h2: 'font-size:19px;font-weight:bold;line-height:1.4;margin:22px 0 10px;color:#1f4e79;',
  h3: 'font-size:17px;font-weight:bold;line-height:1.4;margin:18px 0 8px;color:#222;',
  p: 'font-size:15px;line-height:1.75;margin:0 0 14px;color:#333;letter-spacing:0.5px;',
  li: 'font-size:15px;line-height:1.75;color:#333;margin:4px 0;',
  ul: 'padding-left:22px;margin:0 0 14px;',
  ol: 'padding-left:22px;margin:0 0 14px;',
  blockquote: 'border-left:3px solid #1f4e79;background:#f6f7f9;margin:0 0 14px;padding:8px 12px;color:#555;',
  strong: 'font-weight:bold;color:#222;',
  em: 'font-style:italic;',
  a: 'color:#1f4e79;text-decoration:underline;',
  img: 'max-width:100%;height:auto;display:block;margin:12px auto;',
  code: 'font-family:Menlo,Consolas,monospace;background:#f3f3f3;padding:0 3px;border-radius:3px;',
  hr: 'border:0;border-top:1px solid #e6e8eb;margin:20px 0;',
};

const ALLOWED_TAGS = ['h1', 'h2', 'h3', 'p', 'br', 'ul', 'ol', 'li', 'blockquote', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'img', 'code', 'pre', 'hr', 'section', 'span'];
const ALLOWED_ATTR = ['href', 'src', 'alt', 'style'];

/** Sanitised article HTML with inline styles, wrapped in one section, ready for the clipboard. */
export function toWechatHtml(html: string, title?: string): string {
  const clean = DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, RETURN_DOM: true }) as HTMLElement;
  for (const el of Array.from(clean.querySelectorAll('*'))) {
    const style = WECHAT_STYLES[el.tagName.toLowerCase()];
    if (style) el.setAttribute('style', style);
    else el.removeAttribute('style');
    if (el.tagName === 'LI') {
      // TipTap wraps list text in <p>; a paragraph margin inside a list item doubles the spacing in WeChat.
      for (const p of Array.from(el.children)) if (p.tagName === 'P') p.setAttribute('style', 'margin:0;font-size:15px;line-height:1.75;color:#333;');
    }
  }
  const head = title ? `<h1 style="${WECHAT_STYLES.h1}">${DOMPurify.sanitize(title, { ALLOWED_TAGS: [] })}</h1>` : '';
  return `<section style="font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;">${head}${clean.innerHTML}</section>`;
}

export async function copyRichText(html: string, plain: string): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/html': new Blob([html], { type: 'text/html' }),
        'text/plain': new Blob([plain], { type: 'text/plain' }),
      }),
    ]);
    return;
  }
  await navigator.clipboard.writeText(plain);
}
