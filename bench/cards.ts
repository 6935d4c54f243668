/**
 * Card rendering (graphic posts, issue 12): ms per 1080x1440 PNG card from the resvg renderer, every template, CJK text
 * and emoji, with the fonts of fonts-noto-cjk and fonts-symbola.
 *   - cold: a fresh Node process imports the renderer and renders its first card (module load, native init, first
 *     font load), timed inside that process (median of 3 processes);
 *   - warm: the same process renders every template again and again (median and p95 over all cards);
 *   - baseline, same run: resvg rasterising and PNG-encoding a text-free 1080x1440 SVG (the floor any card pays), so
 *     the warm figure is also given as a ratio to it (what text layout and glyphs add);
 *   - full fonts, same run: the same cards with resvg given the whole Noto CJK files (what every card paid before the
 *     per-card subsets, and what it pays on a machine without hb-subset), and the warm figure as a ratio to it.
 * Target (issue 12): warm <= 150 ms per card.
 *   npx tsx bench/cards.ts
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { renderAsync } from '@resvg/resvg-js';
import { cardFonts, ResvgCardRenderer } from '../apps/server/src/integrations/cards/resvg.js';
import type { CardInput } from '../apps/server/src/integrations/cards/types.js';
import { ratio, type Figure } from './lib.js';

export const figures = ['card-warm'] as const;
const TARGET_WARM_MS = 150;
const ROUNDS = Number(process.env.BENCH_CARD_ROUNDS ?? 5);

export const samples: CardInput[] = [
  { templateId: 'cover', title: '周末在家做咖啡☕的5个小技巧', subtitle: '新手也能做出好喝的拿铁' },
  { templateId: 'list', title: '准备工具', text: '手冲壶一把，细口更好控制水流\n磨豆机：刻度可调\n电子秤，精确到0.1克\n滤杯和滤纸' },
  { templateId: 'quote', title: '村上春树', text: '咖啡是一种生活态度，而不是一种饮料。慢下来，认真对待每一杯。' },
  { templateId: 'checklist', title: '出门前检查', text: '钥匙\n手机和充电宝 🔋\n雨伞☔\n水杯' },
  { templateId: 'comparison', title: '手冲还是意式？', text: '手冲 | 意式\n风味清澈，层次分明 | 浓郁厚重\n器具便宜 | 机器较贵\n适合慢慢品 | 适合加奶' },
  { templateId: 'steps', title: '手冲四步', text: '称豆15克，研磨成砂糖粗细\n热水92度润湿滤纸\n闷蒸30秒\n分三段注水，总时长2分钟' },
  {
    templateId: 'paragraph',
    title: '为什么要自己做',
    text: '自己做咖啡最大的乐趣，是可以按自己的口味调整每一个变量。\n从豆子的产地到烘焙程度，从研磨粗细到水温，每一步都是小实验。',
  },
  { templateId: 'highlight', title: '记住这一点', text: '水温决定风味：高温偏苦，低温偏酸\n新手可以从92度开始尝试，再根据口感微调。' },
];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]!;

/** One fresh process: import + first card, timed inside it. */
function coldOnce(): number {
  const script = `const t0 = performance.now();
const { createCardRenderer } = await import(${JSON.stringify(fileURLToPath(new URL('../apps/server/src/integrations/cards/index.ts', import.meta.url)))});
await createCardRenderer().render({ templateId: 'cover', title: '冷启动的第一张卡片', subtitle: '含字体加载' });
console.log(performance.now() - t0);`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return Number(out.trim().split('\n').at(-1));
}

export async function run() {
  const cold = [coldOnce(), coldOnce(), coldOnce()];
  const renderer = new ResvgCardRenderer();
  const full = new ResvgCardRenderer(cardFonts(undefined, false));
  await renderer.render(samples[0]!);
  await full.render(samples[0]!);
  const blank = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1440"><rect width="1080" height="1440" fill="#F4EDE1"/><rect x="100" y="168" width="120" height="14" rx="7" fill="#B23A2E"/></svg>`;
  const base: number[] = [];
  const warm: number[] = [];
  const fullFonts: number[] = [];
  const perTemplate: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, so machine load at any moment weighs on the baseline and the cards alike.
    for (const s of samples) {
      let t = performance.now();
      (await renderAsync(blank, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })).asPng();
      base.push(performance.now() - t);
      t = performance.now();
      await renderer.render({ ...s, theme: r % 2 ? 'ink' : 'paper', page: 2 });
      const ms = performance.now() - t;
      warm.push(ms);
      (perTemplate[s.templateId] ??= []).push(ms);
      // The full-font path is ten times slower; one round of it is enough for its median.
      if (r === 0) {
        t = performance.now();
        await full.render({ ...s, theme: 'paper', page: 2 });
        fullFonts.push(performance.now() - t);
      }
    }
  }
  const warmMedian = pct(warm, 0.5);
  const baseMedian = pct(base, 0.5);
  const fullMedian = pct(fullFonts, 0.5);
  const figure: Figure = {
    id: 'card-warm',
    value: `${warmMedian.toFixed(0)} ms/card (p95 ${pct(warm, 0.95).toFixed(0)}; ${ratio(warmMedian, baseMedian)}x a text-free render, ${ratio(warmMedian, fullMedian)}x full fonts; ${renderer.fonts.mode})`,
    pass: warmMedian <= TARGET_WARM_MS,
  };
  return {
    coldMs: { median: Number(pct(cold, 0.5).toFixed(0)), runs: cold.map((c) => Number(c.toFixed(0))) },
    warmMs: { median: Number(warmMedian.toFixed(1)), p95: Number(pct(warm, 0.95).toFixed(1)), cards: warm.length },
    baselineTextFreeMs: { median: Number(baseMedian.toFixed(1)) },
    fontMode: renderer.fonts.mode,
    fullFontsMs: { median: Number(fullMedian.toFixed(1)) },
    warmOverBaseline: ratio(warmMedian, baseMedian),
    warmOverFullFonts: ratio(warmMedian, fullMedian),
    coldOverWarm: ratio(pct(cold, 0.5), warmMedian),
    perTemplateMedianMs: Object.fromEntries(Object.entries(perTemplate).map(([k, v]) => [k, Number(pct(v, 0.5).toFixed(1))])),
    figures: [figure],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(JSON.stringify(await run(), null, 2));
