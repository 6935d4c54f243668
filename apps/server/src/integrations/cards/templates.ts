import { CARD_HEIGHT, CARD_WIDTH, breakUnits, escapeXml, layoutText, textLines, textWidthEm, wrapUnits, type CardTheme, type TextLayout } from './resvg.js';
import type { CardInput } from './types.js';

/**
 * The content templates (every one but the cover). Each lays its words out with the same fitting rule as the
 * cover: the largest size at which everything fits its box, and at the smallest size what cannot fit is cut with
 * '…' — never drawn outside the card. Boxes leave room for the CJK ascent and descent, so no glyph is clipped.
 */

// Literals, not expressions over resvg.ts's constants: the two modules import each other, so nothing of resvg.ts
// may be read while this one loads.
const PAD = 96;
const INNER = 1080 - 2 * PAD;
const FONT = 'font-family="Noto Sans CJK SC, Symbola"';
/** Where content may go: below the heading area, above the footer. */
const CONTENT_BOTTOM = 1250;

/** One line of text per item, bullets the user typed removed (the template draws its own). */
export function itemsOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\n+/)
    .map((l) => l.replace(/^\s*(?:[-*•·●○☐☑✓✔]|\d{1,2}[.、)）]|[（(]\d{1,2}[)）]|第[一二三四五六七八九十\d]+[步点条][：:、]?)\s*/u, '').trim())
    .filter(Boolean);
}

export interface ItemsLayout {
  fontSize: number;
  lineHeight: number;
  /** Lines of each item kept (an item cut short ends with '…'). */
  items: string[][];
  gap: number;
  truncated: boolean;
}

/**
 * Several items at one common font size: the largest at which all of them (and the gaps between them) fit the box.
 * At the smallest size, items are kept while they fit and the last kept line ends with '…'.
 */
export function layoutItems(items: string[], box: { width: number; height: number; maxSize: number; minSize: number; lineHeight: number; gapEm: number }): ItemsLayout {
  const units = items.map((i) => breakUnits(i.replace(/\s+/g, ' ').trim()));
  const heightOf = (lines: number, n: number, size: number) => lines * size * box.lineHeight + Math.max(0, n - 1) * size * box.gapEm;
  for (let size = box.maxSize; size >= box.minSize; size -= 2) {
    const wrapped = units.map((u) => wrapUnits(u, box.width / size));
    const lines = wrapped.reduce((n, w) => n + w.length, 0);
    if (heightOf(lines, wrapped.length, size) <= box.height) return { fontSize: size, lineHeight: box.lineHeight, items: wrapped, gap: size * box.gapEm, truncated: false };
  }
  const size = box.minSize;
  const maxEm = box.width / size;
  const kept: string[][] = [];
  let used = 0;
  let truncated = false;
  for (const u of units) {
    const lines = wrapUnits(u, maxEm);
    const gap = kept.length ? size * box.gapEm : 0;
    const room = Math.floor((box.height - used - gap) / (size * box.lineHeight));
    if (room <= 0) {
      truncated = true;
      break;
    }
    if (lines.length > room) {
      kept.push(lines.slice(0, room));
      truncated = true;
      break;
    }
    kept.push(lines);
    used += gap + lines.length * size * box.lineHeight;
  }
  if (truncated && kept.length) {
    const last = kept[kept.length - 1]!;
    let line = last[last.length - 1] ?? '';
    while (line && textWidthEm(`${line}…`) > maxEm) line = [...line].slice(0, -1).join('');
    last[last.length - 1] = `${line.trimEnd()}…`;
  }
  return { fontSize: size, lineHeight: box.lineHeight, items: kept, gap: size * box.gapEm, truncated };
}

function frame(t: CardTheme, input: CardInput, body: string): string {
  const page = input.page ? `<text x="${CARD_WIDTH - PAD}" y="1352" font-size="30" text-anchor="end" ${FONT} fill="${t.muted}">${String(input.page).padStart(2, '0')}</text>` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${t.background}"/>`,
    body,
    `<rect x="${PAD}" y="1290" width="${INNER}" height="2" fill="${t.muted}" opacity="0.3"/>`,
    `<text x="${PAD}" y="1352" font-size="30" ${FONT} fill="${t.muted}">砚 · Inkstone</text>`,
    page,
    '</svg>',
  ].join('');
}

/** The heading at the top (up to two lines); returns where the content may start. */
function heading(t: CardTheme, text: string): { svg: string; bottom: number } {
  if (!text.trim()) return { svg: `<rect x="${PAD}" y="120" width="96" height="12" rx="6" fill="${t.accent}"/>`, bottom: 180 };
  const layout = layoutText(text, { width: INNER, height: 210, maxSize: 76, minSize: 48, lineHeight: 1.3, maxLines: 2 });
  const top = 168;
  const svg = `<rect x="${PAD}" y="120" width="96" height="12" rx="6" fill="${t.accent}"/>${textLines(layout, PAD, top, `${FONT} font-weight="700" fill="${t.text}"`)}`;
  return { svg, bottom: top + layout.lines.length * layout.fontSize * layout.lineHeight + 56 };
}

type Marker = (t: CardTheme, i: number, x: number, firstLineTop: number, size: number, lh: number) => string;

/** Items with a marker in a left gutter; the block is vertically centred in the space left when it is short. */
function markedItems(
  t: CardTheme,
  items: string[],
  top: number,
  gutter: number,
  marker: Marker,
  opts: { maxSize: number; minSize: number; lineHeight: number; gapEm: number },
): string {
  const height = CONTENT_BOTTOM - top;
  const layout = layoutItems(items, { width: INNER - gutter, height, ...opts });
  const total = layout.items.reduce((n, l) => n + l.length, 0) * layout.fontSize * layout.lineHeight + Math.max(0, layout.items.length - 1) * layout.gap;
  let y = top + Math.max(0, Math.min(120, (height - total) / 2));
  const out: string[] = [];
  for (const [i, lines] of layout.items.entries()) {
    out.push(marker(t, i, PAD, y, layout.fontSize, layout.lineHeight));
    out.push(
      textLines(
        { fontSize: layout.fontSize, lineHeight: layout.lineHeight, lines, truncated: false } satisfies TextLayout,
        PAD + gutter,
        y,
        `${FONT} font-weight="400" fill="${t.text}"`,
      ),
    );
    y += lines.length * layout.fontSize * layout.lineHeight + layout.gap;
  }
  return out.join('');
}

const lineCentre = (top: number, size: number, lh: number) => top + (size * lh) / 2;

const list = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const dot: Marker = (th, _i, x, top, size, lh) =>
    `<circle cx="${x + 14}" cy="${lineCentre(top, size, lh).toFixed(1)}" r="${Math.max(8, size * 0.17).toFixed(1)}" fill="${th.accent}"/>`;
  return frame(t, input, h.svg + markedItems(t, itemsOf(input.text), h.bottom, 56, dot, { maxSize: 60, minSize: 32, lineHeight: 1.45, gapEm: 0.7 }));
};

const checklist = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const box: Marker = (th, _i, x, top, size, lh) => {
    const s = Math.max(28, size * 0.82);
    const cy = lineCentre(top, size, lh);
    const y = cy - s / 2;
    return (
      `<rect x="${x}" y="${y.toFixed(1)}" width="${s.toFixed(1)}" height="${s.toFixed(1)}" rx="${(s * 0.2).toFixed(1)}" fill="none" stroke="${th.accent}" stroke-width="5"/>` +
      `<path d="M ${(x + s * 0.22).toFixed(1)} ${(cy + s * 0.02).toFixed(1)} L ${(x + s * 0.43).toFixed(1)} ${(cy + s * 0.24).toFixed(1)} L ${(x + s * 0.8).toFixed(1)} ${(cy - s * 0.24).toFixed(1)}" fill="none" stroke="${th.accent}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>`
    );
  };
  return frame(t, input, h.svg + markedItems(t, itemsOf(input.text), h.bottom, 84, box, { maxSize: 58, minSize: 32, lineHeight: 1.45, gapEm: 0.8 }));
};

const steps = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const num: Marker = (th, i, x, top, size, lh) => {
    const r = Math.max(24, size * 0.62);
    const cy = lineCentre(top, size, lh);
    return (
      `<circle cx="${x + r}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${th.accent}"/>` +
      `<text x="${x + r}" y="${(cy + r * 0.42).toFixed(1)}" font-size="${(r * 1.15).toFixed(0)}" text-anchor="middle" ${FONT} font-weight="700" fill="${th.onAccent}">${i + 1}</text>`
    );
  };
  return frame(t, input, h.svg + markedItems(t, itemsOf(input.text).slice(0, 9), h.bottom, 116, num, { maxSize: 56, minSize: 32, lineHeight: 1.45, gapEm: 0.9 }));
};

const paragraph = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const none: Marker = () => '';
  return frame(t, input, h.svg + markedItems(t, itemsOf(input.text), h.bottom, 0, none, { maxSize: 54, minSize: 30, lineHeight: 1.65, gapEm: 0.9 }));
};

const quote = (input: CardInput, t: CardTheme) => {
  const text = (input.text ?? '').trim() || input.title;
  const author = input.text?.trim() ? input.title.trim() : '';
  const box = { x: PAD + 20, y: 380, width: INNER - 40, height: 700 };
  const layout = layoutText(text, { width: box.width, height: box.height, maxSize: 84, minSize: 40, lineHeight: 1.5 });
  const h = layout.lines.length * layout.fontSize * layout.lineHeight;
  const top = box.y + Math.max(0, (box.height - h) / 2);
  const mark = `<text x="${PAD - 8}" y="420" font-size="300" ${FONT} font-weight="700" fill="${t.accent}" opacity="0.9">“</text>`;
  // The source line is fitted like any text (one line, cut with '…'), then set flush right.
  const byLayout = author ? layoutText(`—— ${author}`, { width: INNER, height: 60, maxSize: 40, minSize: 28, lineHeight: 1.2, maxLines: 1 }) : null;
  const by = byLayout
    ? `<text x="${CARD_WIDTH - PAD}" y="${Math.min(1200, top + h + 96).toFixed(1)}" font-size="${byLayout.fontSize}" text-anchor="end" ${FONT} fill="${t.muted}">${escapeXml(byLayout.lines[0] ?? '')}</text>`
    : '';
  return frame(t, input, mark + textLines(layout, box.x, top, `${FONT} font-weight="700" fill="${t.text}"`) + by);
};

const highlight = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const [key = '', ...rest] = itemsOf(input.text);
  const panel = { x: PAD, y: h.bottom, width: INNER, pad: 56 };
  const keyLayout = layoutText(key || input.title, { width: panel.width - 2 * panel.pad, height: 400, maxSize: 80, minSize: 44, lineHeight: 1.4 });
  const panelH = keyLayout.lines.length * keyLayout.fontSize * keyLayout.lineHeight + 2 * panel.pad;
  const svg =
    `<rect x="${panel.x}" y="${panel.y}" width="${panel.width}" height="${panelH.toFixed(1)}" rx="28" fill="${t.accent}"/>` +
    textLines(keyLayout, panel.x + panel.pad, panel.y + panel.pad, `${FONT} font-weight="700" fill="${t.onAccent}"`);
  const none: Marker = () => '';
  const below = rest.length ? markedItems(t, rest, panel.y + panelH + 64, 0, none, { maxSize: 48, minSize: 30, lineHeight: 1.6, gapEm: 0.8 }) : '';
  return frame(t, input, h.svg + svg + below);
};

/** Rows of `左 | 右`; the first row names the sides. Each side wraps in its own column, rows share one size. */
export function comparisonRows(text: string | undefined): { left: string; right: string; rows: Array<[string, string]> } {
  const rows = itemsOf(text).map((l) => {
    const [a = '', ...b] = l.split(/\s*[|｜]\s*|\s+(?:vs|VS)\s+/);
    return [a.trim(), b.join(' ').trim()] as [string, string];
  });
  const [head = ['', ''], ...body] = rows;
  return { left: head[0] || 'A', right: head[1] || 'B', rows: body };
}

const comparison = (input: CardInput, t: CardTheme) => {
  const h = heading(t, input.title);
  const { left, right, rows } = comparisonRows(input.text);
  const gap = 32;
  const colW = (INNER - gap) / 2;
  const cellPad = 28;
  const headH = 120;
  const svg: string[] = [];
  for (const [i, name] of [left, right].entries()) {
    const x = PAD + i * (colW + gap);
    const layout = layoutText(name, { width: colW - 2 * cellPad, height: headH - 24, maxSize: 48, minSize: 28, lineHeight: 1.25, maxLines: 2 });
    const th = layout.lines.length * layout.fontSize * layout.lineHeight;
    svg.push(`<rect x="${x}" y="${h.bottom}" width="${colW}" height="${headH}" rx="24" fill="${i === 0 ? t.muted : t.accent}"/>`);
    svg.push(textLines(layout, x + cellPad, h.bottom + (headH - th) / 2, `${FONT} font-weight="700" fill="${t.onAccent}"`));
  }
  // Rows share one font size: the largest at which every row (each as tall as its taller side) fits.
  const top = h.bottom + headH + 40;
  const height = CONTENT_BOTTOM - top;
  const rowGapEm = 0.9;
  const lh = 1.4;
  let chosen: { size: number; cells: Array<[string[], string[]]> } | null = null;
  for (let size = 48; size >= 28 && !chosen; size -= 2) {
    const maxEm = (colW - 2 * cellPad) / size;
    const cells = rows.map(([a, b]) => [wrapUnits(breakUnits(a), maxEm), wrapUnits(breakUnits(b), maxEm)] as [string[], string[]]);
    const total = cells.reduce((n, [a, b]) => n + Math.max(a.length, b.length, 1) * size * lh, 0) + Math.max(0, cells.length - 1) * size * rowGapEm;
    if (total <= height) chosen = { size, cells };
  }
  if (!chosen) {
    const size = 28;
    const maxEm = (colW - 2 * cellPad) / size;
    const cells: Array<[string[], string[]]> = [];
    let used = 0;
    for (const [a, b] of rows) {
      const cell: [string[], string[]] = [wrapUnits(breakUnits(a), maxEm), wrapUnits(breakUnits(b), maxEm)];
      const need = (cells.length ? size * rowGapEm : 0) + Math.max(cell[0].length, cell[1].length, 1) * size * lh;
      if (used + need > height) break;
      cells.push(cell);
      used += need;
    }
    chosen = { size, cells };
  }
  let y = top;
  for (const [i, [a, b]] of chosen.cells.entries()) {
    const rowH = Math.max(a.length, b.length, 1) * chosen.size * lh;
    if (i > 0) svg.push(`<rect x="${PAD}" y="${(y - (chosen.size * rowGapEm) / 2).toFixed(1)}" width="${INNER}" height="2" fill="${t.muted}" opacity="0.25"/>`);
    svg.push(textLines({ fontSize: chosen.size, lineHeight: lh, lines: a, truncated: false }, PAD + cellPad, y, `${FONT} fill="${t.text}"`));
    svg.push(textLines({ fontSize: chosen.size, lineHeight: lh, lines: b, truncated: false }, PAD + colW + gap + cellPad, y, `${FONT} fill="${t.text}"`));
    y += rowH + chosen.size * rowGapEm;
  }
  return frame(t, input, h.svg + svg.join(''));
};

export const contentTemplates: Record<string, (input: CardInput, theme: CardTheme) => string> = {
  list,
  quote,
  checklist,
  comparison,
  steps,
  paragraph,
  highlight,
};
