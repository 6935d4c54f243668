import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ResvgRenderOptions } from '@resvg/resvg-js';

const run = promisify(execFile);

type FontOptions = NonNullable<ResvgRenderOptions['font']>;

/** One font file resvg may use, and which face of it (a .ttc holds several: JP, KR, SC, TC, HK...). */
export interface FontSource {
  file: string;
  faceIndex: number;
  /** The CJK font itself (always needed); false for fallbacks such as Symbola. */
  primary: boolean;
}

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
/** Characters Noto Sans CJK draws itself: Latin, general punctuation, CJK symbols, kana, ideographs, hangul, full-width forms. */
const COVERED_BY_CJK = /^[\u0020-\u024F\u2010-\u2027\u2030-\u203B\u3000-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7A3\uFE30-\uFE4F\uFF00-\uFFEF]$/u;

/**
 * The face of a collection whose family is `family`, asked of fontconfig once (fc-query reads the name tables, so no
 * font parsing of ours); 0 for a single-face file or when fontconfig is missing.
 */
export function faceIndexOf(file: string, family: string): number {
  if (!/\.ttc$/i.test(file)) return 0;
  try {
    const out = execFileSync('fc-query', ['--format=%{index}\t%{family}\n', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    for (const line of out.split('\n')) {
      const [index, families] = line.split('\t');
      if (families?.split(',').includes(family)) return Number(index);
    }
  } catch {
    // fontconfig absent: the first face is the best guess left.
  }
  return 0;
}

let hbSubsetChecked: boolean | undefined;
/** Whether HarfBuzz's hb-subset (Debian libharfbuzz-bin) is on the PATH; asked once per process. */
export function hasHbSubset(): boolean {
  if (hbSubsetChecked === undefined) {
    try {
      execFileSync('hb-subset', ['--version'], { stdio: 'ignore' });
      hbSubsetChecked = true;
    } catch {
      hbSubsetChecked = false;
    }
  }
  return hbSubsetChecked;
}

/**
 * Fonts for one card. resvg (2.6) takes font files by path on every render and shapes each glyph against the whole
 * Noto CJK collection (20 MB per weight, tens of thousands of glyphs and large layout tables): about 50 ms per line of
 * CJK text. Cut down to the few dozen characters the card draws, the same fonts render in a few ms, so each card gets
 * its own subset, made by hb-subset (HarfBuzz, a subprocess: no JS subsetter is installed and font subsetting is not
 * ours to write). Without hb-subset the full files are used: same pixels, slower.
 */
export class CardFonts {
  readonly mode: 'subset' | 'full';
  private readonly dir: string | undefined;
  private seq = 0;

  constructor(
    private readonly sources: readonly FontSource[],
    private readonly base: FontOptions,
    subset = hasHbSubset(),
  ) {
    this.mode = subset && sources.length > 0 ? 'subset' : 'full';
    if (this.mode === 'subset') {
      this.dir = mkdtempSync(path.join(os.tmpdir(), 'inkstone-card-fonts-'));
      const dir = this.dir;
      // Subsets live only for one render; the directory goes with the process.
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
  }

  /**
   * Font options covering every character of `svg`, and a release to call after the render. The characters are every
   * non-ASCII character of the whole document plus all of printable ASCII (markup and XML escapes are ASCII), so
   * nothing drawn is left out.
   */
  async forSvg(svg: string): Promise<{ font: FontOptions; release: () => Promise<void> }> {
    if (this.mode === 'full' || !this.dir) return { font: { ...this.base, fontFiles: this.sources.map((s) => s.file) }, release: async () => {} };
    const chars = new Set([...PRINTABLE_ASCII, ...'…']);
    for (const ch of svg) if (ch.codePointAt(0)! >= 0x80) chars.add(ch);
    const text = [...chars].join('');
    // The fallback fonts (Symbola: emoji and symbols) are subset only when the card has a character the CJK font lacks.
    const sources = this.sources.filter((s) => s.primary || [...chars].some((ch) => !COVERED_BY_CJK.test(ch)));
    const id = `${process.pid}-${++this.seq}`;
    const files = sources.map((s, i) => path.join(this.dir!, `${id}-${i}${path.extname(s.file).toLowerCase() === '.ttf' ? '.ttf' : '.otf'}`));
    const release = async () => {
      await Promise.all(files.map((f) => unlink(f).catch(() => undefined)));
    };
    try {
      await Promise.all(sources.map((s, i) => run('hb-subset', [`--face-index=${s.faceIndex}`, `--text=${text}`, `--output-file=${files[i]}`, s.file])));
    } catch (err) {
      await release();
      throw err;
    }
    return { font: { ...this.base, fontFiles: files }, release };
  }
}
