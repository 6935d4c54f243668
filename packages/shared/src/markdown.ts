import { Marked } from 'marked';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Model output is untrusted Markdown: raw HTML in it is shown as text, images are dropped to their alt text,
 * and only http(s) links become links. Used by the server for saved drafts and by the editor while a task streams,
 * so both show the same thing.
 */
const safeMarkdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: (token) => escapeHtml(token.text),
    link(token) {
      const text = this.parser.parseInline(token.tokens);
      return /^https?:\/\//i.test(token.href) ? `<a href="${escapeHtml(token.href)}" target="_blank" rel="noopener noreferrer">${text}</a>` : text;
    },
    image: (token) => escapeHtml(token.text),
  },
});

export function markdownToHtml(md: string): string {
  return safeMarkdown.parse(md) as string;
}
