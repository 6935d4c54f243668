/**
 * What to mark for a query on /pdfDetail. A short query is words: each whitespace-separated word is looked for.
 * A long one is a cited passage: PDF text comes in lines, so a line of the page is marked when it is part of the
 * passage (and a word query when the line contains a word).
 */
const PASSAGE_MIN = 16;
const norm = (s: string) => s.replace(/\s+/g, '');

export function matchTerms(q: string): string[] {
  const t = q.trim();
  if (!t) return [];
  if (norm(t).length >= PASSAGE_MIN) return [norm(t)];
  return [...new Set(t.split(/\s+/).filter(Boolean))];
}

export function spanMatches(spanText: string, q: string, terms: string[]): boolean {
  const s = norm(spanText);
  if (!s || !terms.length) return false;
  const passage = norm(q);
  if (passage.length >= PASSAGE_MIN) return (s.length >= 4 && passage.includes(s)) || s.includes(passage);
  return terms.some((term) => s.includes(term));
}

/** [start, end) ranges of the query in a plain text (the readable view of non-PDF documents). */
export function textRanges(text: string, q: string): Array<[number, number]> {
  const t = q.trim();
  if (!t) return [];
  const terms = t.length >= PASSAGE_MIN ? [t] : [...new Set(t.split(/\s+/).filter(Boolean))];
  const out: Array<[number, number]> = [];
  for (const term of terms) for (let i = text.indexOf(term); i !== -1 && out.length < 1000; i = text.indexOf(term, i + term.length)) out.push([i, i + term.length]);
  out.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}
