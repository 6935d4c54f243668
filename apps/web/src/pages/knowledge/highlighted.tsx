import type { ReactNode } from 'react';

/**
 * A passage with its matched words marked. The server sends plain text and [start, end) ranges, never HTML, so
 * nothing from a document can inject markup. A long passage is trimmed around its first match.
 */
export function Highlighted(props: { text: string; ranges: Array<[number, number]>; maxChars?: number }) {
  const { text, ranges, maxChars } = props;
  let from = 0;
  let to = text.length;
  if (maxChars && text.length > maxChars) {
    const first = ranges[0]?.[0] ?? 0;
    from = Math.max(0, Math.min(first - Math.floor(maxChars / 4), text.length - maxChars));
    to = from + maxChars;
  }
  const parts: ReactNode[] = [];
  let at = from;
  for (const [s0, e0] of ranges) {
    const s = Math.max(s0, at);
    const e = Math.min(e0, to);
    if (e <= s) continue;
    if (s > at) parts.push(text.slice(at, s));
    parts.push(
      <mark key={s} className="kn-mark">
        {text.slice(s, e)}
      </mark>,
    );
    at = e;
  }
  if (at < to) parts.push(text.slice(at, to));
  return (
    <p className="kn-passage" data-testid="passage">
      {from > 0 && '…'}
      {parts}
      {to < text.length && '…'}
    </p>
  );
}
