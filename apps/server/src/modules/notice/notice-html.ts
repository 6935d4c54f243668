/**
 * The tags a console notice may keep (what the rich-text box produces): everything else is unwrapped to its text, and
 * script-like elements go with their content. No attribute survives but a link's http(s) or in-app href, so no style,
 * event handler or javascript: URL reaches a user's page. Parsing is linkedom's (the knowledge importer's parser).
 */
const KEEP = new Set(['P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'H1', 'H2', 'H3', 'H4', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'A', 'SPAN', 'DIV']);
const DROP = new Set([
  'SCRIPT',
  'STYLE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'MATH',
  'FORM',
  'INPUT',
  'TEXTAREA',
  'SELECT',
  'BUTTON',
  'LINK',
  'META',
  'BASE',
  'TITLE',
  'HEAD',
]);
const SAFE_HREF = /^(https?:\/\/|\/(?!\/))/i;

interface El {
  nodeType: number;
  tagName: string;
  childNodes: ArrayLike<El>;
  attributes: ArrayLike<{ name: string }>;
  getAttribute(n: string): string | null;
  removeAttribute(n: string): void;
  setAttribute(n: string, v: string): void;
  replaceWith(...nodes: El[]): void;
  remove(): void;
}

function clean(node: El): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 8) {
      child.remove();
      continue;
    }
    if (child.nodeType !== 1) continue;
    const tag = child.tagName.toUpperCase();
    if (DROP.has(tag)) {
      child.remove();
      continue;
    }
    clean(child);
    if (!KEEP.has(tag)) {
      child.replaceWith(...Array.from(child.childNodes));
      continue;
    }
    const href = tag === 'A' ? child.getAttribute('href')?.trim() : undefined;
    for (const a of Array.from(child.attributes).map((x) => x.name)) child.removeAttribute(a);
    if (href && SAFE_HREF.test(href)) {
      if (!href.startsWith('/')) child.setAttribute('rel', 'noopener noreferrer');
      child.setAttribute('href', href);
    }
  }
}

/** The cleaned HTML, and whether anything readable is left (a body of only tags is refused). */
export async function cleanNoticeHtml(html: string): Promise<{ html: string; text: string }> {
  // linkedom (~20 MB resident) is loaded when an operator first saves a notice, not at start-up.
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body><div id="root">${html}</div></body></html>`);
  const root = document.getElementById('root') as unknown as El & { innerHTML: string; textContent: string | null };
  clean(root);
  return { html: root.innerHTML.trim(), text: (root.textContent ?? '').trim() };
}
