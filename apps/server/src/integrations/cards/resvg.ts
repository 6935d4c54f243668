import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { CardFonts, faceIndexOf, type FontSource } from './fonts.js';
import { contentTemplates } from './templates.js';
import { CardInputError, type CardInput, type CardRenderer, type CardTemplateInfo, type CardThemeInfo } from './types.js';

export const CARD_WIDTH = 1080;
export const CARD_HEIGHT = 1440;
const FONT_FAMILY = 'Noto Sans CJK SC';
/** Emoji come from Symbola (outlines, so they take the theme's colour); resvg cannot draw colour bitmap emoji. */
export const FONT_STACK = `${FONT_FAMILY}, Symbola`;

export interface CardTheme extends CardThemeInfo {
  background: string;
  text: string;
  accent: string;
  muted: string;
  /** Text colour on the accent (the brand seal). */
  onAccent: string;
}

export const cardThemes: readonly CardTheme[] = [
  { id: 'paper', name: '宣纸', background: '#F4EDE1', text: '#1F1A17', accent: '#B23A2E', muted: '#7A6E64', onAccent: '#FFF8F0' },
  { id: 'ink', name: '墨色', background: '#1E2126', text: '#F3EFE7', accent: '#D9A441', muted: '#9BA1A8', onAccent: '#1E2126' },
  { id: 'celadon', name: '青瓷', background: '#DCEBE3', text: '#163A33', accent: '#2F7D6B', muted: '#5E7A72', onAccent: '#F2FAF6' },
  { id: 'blush', name: '桃粉', background: '#FBE9E7', text: '#3B1F1C', accent: '#E0607E', muted: '#8C6A66', onAccent: '#FFF5F6' },
  { id: 'sky', name: '晴空', background: '#E6F0FA', text: '#14263B', accent: '#2E6FD1', muted: '#5F7189', onAccent: '#F3F8FF' },
  { id: 'mint', name: '薄荷', background: '#E8F6EC', text: '#1A3323', accent: '#2FA36B', muted: '#5F7D69', onAccent: '#F2FFF7' },
  { id: 'sunset', name: '落日', background: '#FFF1DE', text: '#3A2410', accent: '#EE7A1E', muted: '#8A6E55', onAccent: '#FFF8EE' },
  { id: 'mono', name: '黑白', background: '#FFFFFF', text: '#111111', accent: '#111111', muted: '#6B6B6B', onAccent: '#FFFFFF' },
];

export const cardTemplates: readonly CardTemplateInfo[] = [
  { id: 'cover', name: '标题封面', description: '大标题与副标题，适合第一张', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'list', name: '要点列表', description: '标题与每行一个要点', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'quote', name: '金句引用', description: '一句话居中放大，标题为出处', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'checklist', name: '清单打勾', description: '每行一项，前面带勾选框', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'comparison', name: '左右对比', description: '每行“左 | 右”，第一行写两边的名称', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'steps', name: '步骤流程', description: '每行一步，自动编号', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'paragraph', name: '段落正文', description: '标题与一段或几段文字', width: CARD_WIDTH, height: CARD_HEIGHT },
  { id: 'highlight', name: '重点强调', description: '第一行是重点句，其余为说明', width: CARD_WIDTH, height: CARD_HEIGHT },
];

// --- text measurement and layout (pure, exported for tests) ------------------------------------------------------

/** Full-width scripts (CJK, kana, hangul, full-width forms, emoji) take 1em; the rest is estimated generously. */
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F000}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

const EMOJI = /\p{Extended_Pictographic}/u;
/** Joiners and variation selectors draw nothing. */
const ZERO_WIDTH = /^(?:\u200B|\u200C|\u200D|[\uFE00-\uFE0F])$/u;

export function charWidthEm(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  // Symbola's emoji are a little wider than a CJK em; measured rounded up so a line of them never overflows.
  if (EMOJI.test(ch) && ch.codePointAt(0)! > 0x2000) return 1.25;
  if (WIDE.test(ch)) return 1;
  if (ch === ' ') return 0.33;
  // Noto Sans CJK's Latin is proportional and bold here: widths measured with resvg, rounded up, so an estimate
  // only ever costs a little font size and never overflows.
  if (/[MWmw@%]/.test(ch)) return 0.98;
  if (/[A-Z]/.test(ch)) return 0.75;
  if (/[ijlIft.,:;!|'`]/.test(ch)) return 0.4;
  if (/[a-z0-9]/.test(ch)) return 0.64;
  const cp = ch.codePointAt(0)!;
  if (cp < 0x80) return 0.75;
  // General punctuation (— … “ ”) is drawn full width by CJK fonts.
  if (cp >= 0x2000 && cp <= 0x206f) return 1;
  return 0.75;
}

export const textWidthEm = (s: string) => [...s].reduce((w, ch) => w + charWidthEm(ch), 0);

/** Punctuation that must not start a line (it sticks to the unit before it) or end one (it sticks to the unit after). */
const NO_LINE_START = /^[，。、；：！？）》」』】〕”’,.;:!?)\]}%…·～~\-—]$/u;
const NO_LINE_END = /^[（《「『【〔“‘([{#@¥$]$/u;

/** Breakable units: one CJK character, one Latin word, or a run of spaces; punctuation glued to its neighbour. */
export function breakUnits(text: string): string[] {
  const raw = text.match(/[A-Za-z0-9\u00C0-\u024F'_]+| +|[^\sA-Za-z0-9\u00C0-\u024F'_]/gu) ?? [];
  const units: string[] = [];
  let pendingOpen = '';
  for (const u of raw) {
    if (NO_LINE_START.test(u) && units.length && !units[units.length - 1]!.startsWith(' ')) {
      units[units.length - 1] += u;
    } else if (NO_LINE_END.test(u)) {
      pendingOpen += u;
    } else {
      units.push(pendingOpen + u);
      pendingOpen = '';
    }
  }
  if (pendingOpen) units.push(pendingOpen);
  return units;
}

/** Greedy wrap of units into lines no wider than `maxEm`; a unit longer than a line is split by characters. */
export function wrapUnits(units: string[], maxEm: number): string[] {
  const lines: string[] = [];
  let line = '';
  let width = 0;
  const flush = () => {
    const t = line.trimEnd();
    if (t) lines.push(t);
    line = '';
    width = 0;
  };
  for (const unit of units) {
    const w = textWidthEm(unit);
    if (unit.startsWith(' ')) {
      if (line) {
        line += ' ';
        width += charWidthEm(' ');
      }
      continue;
    }
    if (width + w <= maxEm) {
      line += unit;
      width += w;
      continue;
    }
    if (line) flush();
    if (w <= maxEm) {
      line = unit;
      width = w;
      continue;
    }
    for (const ch of unit) {
      const cw = charWidthEm(ch);
      if (width + cw > maxEm && line) flush();
      line += ch;
      width += cw;
    }
  }
  flush();
  return lines;
}

export interface TextBox {
  width: number;
  height: number;
  maxSize: number;
  minSize: number;
  /** Line advance as a multiple of the font size. */
  lineHeight: number;
  /** Hard cap on lines whatever the size (subtitles). */
  maxLines?: number;
}

export interface TextLayout {
  fontSize: number;
  lineHeight: number;
  lines: string[];
  /** True when even the smallest size could not hold everything and the last line ends in '…'. */
  truncated: boolean;
}

/** The largest font size (in steps of 2px) at which the wrapped text fits the box; never wider or taller than it. */
export function layoutText(text: string, box: TextBox): TextLayout {
  const units = breakUnits(text.replace(/\s+/g, ' ').trim());
  for (let size = box.maxSize; size >= box.minSize; size -= 2) {
    const lines = wrapUnits(units, box.width / size);
    const fitsLines = box.maxLines === undefined || lines.length <= box.maxLines;
    if (fitsLines && lines.length * size * box.lineHeight <= box.height) return { fontSize: size, lineHeight: box.lineHeight, lines, truncated: false };
  }
  const size = box.minSize;
  const maxEm = box.width / size;
  const room = Math.max(1, Math.min(box.maxLines ?? Infinity, Math.floor(box.height / (size * box.lineHeight))));
  const lines = wrapUnits(units, maxEm).slice(0, room);
  let last = lines[room - 1] ?? '';
  while (last && textWidthEm(`${last}…`) > maxEm) last = [...last].slice(0, -1).join('');
  lines[room - 1] = `${last.trimEnd()}…`;
  return { fontSize: size, lineHeight: box.lineHeight, lines, truncated: true };
}

// --- SVG ---------------------------------------------------------------------------------------------------------

/** Escapes XML and drops characters XML 1.0 cannot carry at all (controls, lone surrogates). */
export function escapeXml(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

const PAD_X = 100;
/** Where the cover title may go: between the accent bar and the subtitle/footer. */
export const coverTitleBox = { x: PAD_X, y: 260, width: CARD_WIDTH - 2 * PAD_X, height: 760 } as const;
const TITLE_BOX: TextBox = { width: coverTitleBox.width, height: coverTitleBox.height, maxSize: 132, minSize: 56, lineHeight: 1.32 };
const SUBTITLE_BOX: TextBox = { width: coverTitleBox.width, height: 150, maxSize: 44, minSize: 36, lineHeight: 1.5, maxLines: 2 };

export function textLines(layout: TextLayout, x: number, top: number, attrs: string): string {
  const { fontSize, lineHeight } = layout;
  // Baseline inside each line box: half the leading above, then the CJK ascent (about 0.88em for Noto Sans CJK).
  return layout.lines
    .map((line, i) => {
      const baseline = top + i * fontSize * lineHeight + ((lineHeight - 1) * fontSize) / 2 + fontSize * 0.88;
      return `<text x="${x}" y="${baseline.toFixed(1)}" font-size="${fontSize}" ${attrs}>${escapeXml(line)}</text>`;
    })
    .join('');
}

export interface CoverParts {
  /** Leave out everything but the title (tests measure the title's real glyph box this way). */
  titleOnly?: boolean;
}

export function themeOf(id: string | undefined): CardTheme {
  const theme = id === undefined ? cardThemes[0] : cardThemes.find((t) => t.id === id);
  if (!theme) throw new CardInputError(`未知的配色：${id}`);
  return theme;
}

/** The cover template: accent bar, big title fitted to its box, optional subtitle, the 砚 seal in the footer. */
export function coverSvg(input: Omit<CardInput, 'templateId'>, parts: CoverParts = {}): { svg: string; title: TextLayout } {
  const t = themeOf(input.theme);
  const title = layoutText(input.title, TITLE_BOX);
  const subtitle = input.subtitle?.trim() ? layoutText(input.subtitle, SUBTITLE_BOX) : null;
  const titleHeight = title.lines.length * title.fontSize * title.lineHeight;
  const subtitleGap = 48;
  const subtitleHeight = subtitle ? subtitleGap + subtitle.lines.length * subtitle.fontSize * subtitle.lineHeight : 0;
  // Centre title and subtitle together in the title box, but never above its top.
  const blockTop = coverTitleBox.y + Math.max(0, (coverTitleBox.height - titleHeight - Math.min(subtitleHeight, 200)) / 2);
  const font = `font-family="${FONT_STACK}"`;
  const titleSvg = textLines(title, coverTitleBox.x, blockTop, `${font} font-weight="700" fill="${t.text}"`);
  const body = parts.titleOnly
    ? titleSvg
    : [
        `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${t.background}"/>`,
        `<rect x="${PAD_X}" y="168" width="120" height="14" rx="7" fill="${t.accent}"/>`,
        titleSvg,
        subtitle ? textLines(subtitle, coverTitleBox.x, blockTop + titleHeight + subtitleGap, `${font} font-weight="400" fill="${t.muted}"`) : '',
        `<rect x="${PAD_X}" y="1224" width="${CARD_WIDTH - 2 * PAD_X}" height="2" fill="${t.muted}" opacity="0.35"/>`,
        `<rect x="${PAD_X}" y="1262" width="84" height="84" rx="14" fill="${t.accent}"/>`,
        `<text x="${PAD_X + 42}" y="1322" font-size="52" text-anchor="middle" ${font} font-weight="700" fill="${t.onAccent}">砚</text>`,
        `<text x="${PAD_X + 112}" y="1316" font-size="30" ${font} font-weight="400" fill="${t.muted}">Inkstone · 砚</text>`,
      ].join('');
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">${body}</svg>`, title };
}

// --- fonts and rendering -----------------------------------------------------------------------------------------

const FONT_DIRS = [
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/truetype/noto',
  '/usr/share/fonts/noto-cjk',
  '/usr/share/fonts/google-noto-cjk',
  '/usr/share/fonts/truetype/ancient-scripts',
];

/** The Noto Sans CJK (regular and bold) and Symbola files found in `dirs`. */
function cardFontFiles(dirs: string[]): string[] {
  return dirs
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d)
        .filter((f) => /^(NotoSansCJK.*\.(ttc|otf)|Symbola.*\.ttf)$/i.test(f))
        .map((f) => path.join(d, f)),
    );
}

/**
 * The resvg font options with the full files: the Noto Sans CJK files of fonts-noto-cjk when present (loading only
 * them is much faster than scanning every system font); otherwise every system font.
 */
export function cardFontOptions(dirs: string[] = FONT_DIRS): NonNullable<ResvgRenderOptions['font']> {
  const files = cardFontFiles(dirs);
  if (files.length) return { loadSystemFonts: false, fontFiles: files, defaultFontFamily: FONT_FAMILY };
  return { loadSystemFonts: true, defaultFontFamily: FONT_FAMILY };
}

/** The card fonts of this machine, built once per renderer: per-card subsets when hb-subset is there (see CardFonts). */
export function cardFonts(dirs: string[] = FONT_DIRS, subset?: boolean): CardFonts {
  const sources: FontSource[] = cardFontFiles(dirs).map((file) => ({ file, faceIndex: faceIndexOf(file, FONT_FAMILY), primary: !/symbola/i.test(file) }));
  // No font files of ours: resvg scans the system fonts, which cannot be subset.
  if (!sources.length) return new CardFonts([], { loadSystemFonts: true, defaultFontFamily: FONT_FAMILY }, false);
  return new CardFonts(sources, { loadSystemFonts: false, defaultFontFamily: FONT_FAMILY }, subset);
}

export class ResvgCardRenderer implements CardRenderer {
  readonly templates = cardTemplates;
  readonly themes: readonly CardThemeInfo[] = cardThemes.map(({ id, name, background, text, accent }) => ({ id, name, background, text, accent }));
  constructor(readonly fonts: CardFonts = cardFonts()) {}

  svg(input: CardInput): string {
    if (input.templateId === 'cover') return coverSvg(input).svg;
    const draw = contentTemplates[input.templateId];
    if (!draw) throw new CardInputError(`未知的卡片模板：${input.templateId}`);
    return draw(input, themeOf(input.theme));
  }

  /** Rendered on libuv's thread pool (renderAsync), so a card never blocks the event loop. */
  async render(input: CardInput): Promise<Buffer> {
    const svg = this.svg(input);
    const { font, release } = await this.fonts.forSvg(svg);
    try {
      const image = await renderAsync(svg, { font, fitTo: { mode: 'original' } });
      // Encoded by sharp (libvips, on its own threads) rather than resvg's asPng, which runs on the event loop and is
      // about twice as slow; cards are opaque, so RGB without alpha.
      // Loaded with the first card, not at start-up (libvips, ~25 MB resident).
      const { default: sharp } = await import('sharp');
      return await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
        .removeAlpha()
        .png()
        .toBuffer();
    } finally {
      await release();
    }
  }
}
