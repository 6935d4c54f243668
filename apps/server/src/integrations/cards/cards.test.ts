import { readdirSync } from 'node:fs';
import os from 'node:os';
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createCardRenderer } from './index.js';
import { CARD_HEIGHT, CARD_WIDTH, cardFontOptions, cardFonts, ResvgCardRenderer, coverSvg, coverTitleBox, escapeXml, layoutText, textWidthEm } from './resvg.js';
import { CardInputError } from './types.js';

/** Width and height from the PNG's IHDR chunk (right after the 8-byte signature and the chunk header). */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const font = cardFontOptions();
/** The real glyph box of the title as resvg draws it (text becomes outlines, so this measures the font, not our estimate). */
function titleInk(title: string) {
  const r = new Resvg(coverSvg({ title }, { titleOnly: true }).svg, { font });
  return r.innerBBox()!;
}

const renderer = createCardRenderer();

describe('card renderer (resvg)', () => {
  it('renders the cover as a 1080x1440 PNG in every theme', async () => {
    expect(renderer.templates.map((t) => t.id)).toContain('cover');
    expect(renderer.themes.length).toBeGreaterThanOrEqual(3);
    const sizes = new Set<number>();
    for (const theme of renderer.themes) {
      const png = await renderer.render({ templateId: 'cover', title: '春日午后的一杯咖啡', subtitle: '写给忙碌的你', theme: theme.id });
      expect(pngSize(png)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
      sizes.add(png.length);
    }
    // Different colours give different images.
    expect(sizes.size).toBe(renderer.themes.length);
  });

  it('draws CJK glyphs (not tofu boxes): the title has real ink of the expected width', () => {
    const box = titleInk('砚台');
    // Two full-width glyphs at the largest size (132px) are about 264px wide; a missing font draws nothing.
    expect(box.width).toBeGreaterThan(200);
    expect(box.width).toBeLessThan(300);
  });

  it('short titles get a big font; long titles shrink and wrap but stay inside the title box', () => {
    const short = layoutText('好物分享', { width: coverTitleBox.width, height: coverTitleBox.height, maxSize: 132, minSize: 56, lineHeight: 1.32 });
    expect(short.fontSize).toBe(132);
    expect(short.lines).toEqual(['好物分享']);

    const titles = [
      '这是一个非常非常长的标题用来测试自动换行和字号缩放是否正常工作的四十个字的标题啊',
      'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
      'Inkstone AI writing 与多平台发布：一次写作，处处发布 2026',
      '！！！？？？。。。，，，、、、（（（）））《《》》',
    ];
    for (const title of titles) {
      const { title: layout } = coverSvg({ title });
      expect(layout.fontSize).toBeLessThan(132);
      for (const line of layout.lines) expect(textWidthEm(line) * layout.fontSize).toBeLessThanOrEqual(coverTitleBox.width);
      expect(layout.lines.length * layout.fontSize * layout.lineHeight).toBeLessThanOrEqual(coverTitleBox.height);
      const ink = titleInk(title);
      expect(ink.x).toBeGreaterThanOrEqual(coverTitleBox.x - 2);
      expect(ink.x + ink.width).toBeLessThanOrEqual(coverTitleBox.x + coverTitleBox.width);
      expect(ink.y).toBeGreaterThanOrEqual(coverTitleBox.y);
      expect(ink.y + ink.height).toBeLessThanOrEqual(coverTitleBox.y + coverTitleBox.height);
    }
  });

  it('text that cannot fit even at the smallest size is cut with an ellipsis, never overflowing', () => {
    const layout = layoutText('长'.repeat(400), { width: 880, height: 300, maxSize: 80, minSize: 60, lineHeight: 1.3 });
    expect(layout.truncated).toBe(true);
    expect(layout.lines.length).toBe(3);
    expect(layout.lines.at(-1)!.endsWith('…')).toBe(true);
    for (const line of layout.lines) expect(textWidthEm(line) * 60).toBeLessThanOrEqual(880);
  });

  it('keeps closing punctuation off the start of a line and Latin words whole', () => {
    const layout = layoutText('一二三四五六七八九，十 hello world', { width: 900, height: 1000, maxSize: 100, minSize: 100, lineHeight: 1.3 });
    for (const line of layout.lines.slice(1)) expect(line).not.toMatch(/^[，。]/);
    expect(layout.lines.join('|')).toContain('hello');
  });

  it('XML special characters and control characters cannot break the SVG', async () => {
    const title = `<b>&"咖啡'</b>\u0000\u0007]]><!--`;
    expect(escapeXml(title)).not.toMatch(/[<>"']/);
    expect(escapeXml(title)).not.toContain('\u0000');
    expect(escapeXml(title)).not.toContain('\u0007');
    const png = await renderer.render({ templateId: 'cover', title, subtitle: '&amp; <x>' });
    expect(pngSize(png)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(titleInk(title).width).toBeGreaterThan(100);
  });

  it('refuses an unknown template or theme', async () => {
    await expect(renderer.render({ templateId: 'nope', title: 'x' })).rejects.toBeInstanceOf(CardInputError);
    await expect(renderer.render({ templateId: 'cover', title: 'x', theme: 'nope' })).rejects.toBeInstanceOf(CardInputError);
  });

  it('per-card font subsets draw the same pixels as the full font files, emoji and Latin included, and leave no files', async () => {
    const subset = new ResvgCardRenderer(cardFonts());
    // hb-subset is installed by scripts/install-system-deps.sh; without it this proves nothing, so it must be there.
    expect(subset.fonts.mode).toBe('subset');
    const full = new ResvgCardRenderer(cardFonts(undefined, false));
    expect(full.fonts.mode).toBe('full');
    const inputs = [
      { templateId: 'checklist', title: '出门前 Check ✅', text: '钥匙 & 手机 🔋\n雨伞☔ <3\n“水杯”—— 500ml', page: 3 },
      { templateId: 'cover', title: '龘靐齉爩：生僻字也要画出来', subtitle: 'Rare glyphs 𠀀' },
    ];
    for (const input of inputs) {
      const [a, b] = await Promise.all([subset.render(input), full.render(input)]);
      const x = await sharp(a).removeAlpha().raw().toBuffer();
      const y = await sharp(b).removeAlpha().raw().toBuffer();
      expect(x.length).toBe(y.length);
      let differing = 0;
      for (let i = 0; i < x.length; i++) if (Math.abs(x[i]! - y[i]!) > 8) differing += 1;
      expect(differing / x.length).toBeLessThan(0.0005);
    }
    const left = readdirSync(os.tmpdir())
      .filter((d) => d.startsWith('inkstone-card-fonts-'))
      .flatMap((d) => readdirSync(`${os.tmpdir()}/${d}`).filter((f) => f.startsWith(`${process.pid}-`)));
    expect(left).toEqual([]);
  });
});
