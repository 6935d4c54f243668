import type { EditorView } from '@tiptap/pm/view';

/**
 * Citations of 知识库 passages in an article: the writing pipeline marks claims with [n] and ends the article with a
 * reference list, one line per source: `[n] <document> 第<page>页 /pdfDetail?fileId=..&page=..&q=..`. In the editor a
 * click on a marker or on a reference line opens the passage in the document viewer, at its page, marked.
 */
const REFERENCE = /^\[(\d+)\]\s.*?\s(\/pdfDetail\?\S+)\s*$/;

/** n -> viewer link, from the article's reference list. */
export function referenceLinks(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    const m = REFERENCE.exec(line.trim());
    if (m) out.set(Number(m[1]), m[2]!);
  }
  return out;
}

/** The viewer link a click at `offset` of `block` (a paragraph's text, line breaks as \n) points at, if any. */
export function citationAt(block: string, offset: number, links: Map<number, string>): string | null {
  const start = block.lastIndexOf('\n', offset - 1) + 1;
  const endAt = block.indexOf('\n', offset);
  const line = block.slice(start, endAt === -1 ? undefined : endAt);
  const ref = REFERENCE.exec(line.trim());
  if (ref) return ref[2]!;
  // A [n] marker under the click (or right beside it).
  const at = offset - start;
  for (const m of line.matchAll(/\[(\d+)\]/g)) {
    if (at >= m.index && at <= m.index + m[0].length) return links.get(Number(m[1])) ?? null;
  }
  return null;
}

/** Tiptap/ProseMirror click handler: opens the cited passage in a new tab; false lets the editor handle the click. */
export function openCitationAt(view: EditorView, pos: number): boolean {
  const { doc } = view.state;
  const $pos = doc.resolve(pos);
  const parent = $pos.parent;
  if (!parent.isTextblock) return false;
  const block = parent.textBetween(0, parent.content.size, '\n', '\n');
  const offset = parent.textBetween(0, $pos.parentOffset, '\n', '\n').length;
  const url = citationAt(block, offset, referenceLinks(doc.textBetween(0, doc.content.size, '\n', '\n')));
  if (!url) return false;
  window.open(url, '_blank', 'noopener');
  return true;
}
