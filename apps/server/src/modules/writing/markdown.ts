import TurndownService from 'turndown';

/** The small Markdown subset our writers produce: headings, lists, quotes, paragraphs, bold, links. */
export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'quote'; text: string }
  | { type: 'paragraph'; text: string };

export function parseBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (para.length) blocks.push({ type: 'paragraph', text: para.join('\n') });
    para = [];
    if (list) blocks.push({ type: 'list', ...list });
    list = null;
  };
  for (const raw of md.replace(/\r/g, '').split('\n')) {
    const line = raw.trimEnd();
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    const ul = /^\s*[-*+]\s+(.*)$/.exec(line);
    const ol = /^\s*\d+[.)、]\s+(.*)$/.exec(line);
    const q = /^>\s?(.*)$/.exec(line);
    if (!line.trim()) flush();
    else if (h) {
      flush();
      blocks.push({ type: 'heading', level: Math.min(h[1]!.length, 3) as 1 | 2 | 3, text: h[2]!.trim() });
    } else if (ul || ol) {
      const ordered = Boolean(ol && !ul);
      if (para.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push((ul ?? ol)![1]!.trim());
    } else if (q) {
      flush();
      const prev = blocks.at(-1);
      if (prev?.type === 'quote') prev.text += `\n${q[1]}`;
      else blocks.push({ type: 'quote', text: q[1]! });
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return blocks;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>')
    .replace(/\n/g, '<br>');
}

/** Escapes everything: the result is safe to store and show in the editor. */
export function markdownToHtml(md: string): string {
  return parseBlocks(md)
    .map((b) => {
      switch (b.type) {
        case 'heading':
          return `<h${b.level}>${inline(b.text)}</h${b.level}>`;
        case 'list': {
          const tag = b.ordered ? 'ol' : 'ul';
          return `<${tag}>${b.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${tag}>`;
        }
        case 'quote':
          return `<blockquote><p>${inline(b.text)}</p></blockquote>`;
        default:
          return `<p>${inline(b.text)}</p>`;
      }
    })
    .join('\n');
}

const turndown = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced' });
turndown.remove(['script', 'style', 'iframe']);

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html);
}

/** Plain text for summaries and checks. */
export function stripMarkdown(md: string): string {
  return md
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+>]\s+/gm, '')
    .replace(/\*\*/g, '')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
