import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createCardRenderer } from './index.js';
import { cardThemes } from './resvg.js';
import type { CardInput } from './types.js';

/**
 * Golden images: every template rendered from fixed words and compared pixel by pixel with the PNG kept in
 * `goldens/`, so a change in layout, fitting or fonts shows. Regenerate after an intended change with
 *   UPDATE_CARD_GOLDENS=1 npx vitest run apps/server/src/integrations/cards/goldens.test.ts
 * and look at the new PNGs before committing them.
 */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'goldens');
const update = process.env.UPDATE_CARD_GOLDENS === '1';
const renderer = createCardRenderer();

const goldenInputs: CardInput[] = [
  { templateId: 'cover', title: '周末在家做咖啡☕的5个小技巧', subtitle: '新手也能做出好喝的拿铁', theme: 'paper' },
  { templateId: 'list', title: '准备工具', text: '手冲壶一把，细口更好控制水流\n磨豆机：刻度可调\n电子秤，精确到0.1克\n滤杯和滤纸', theme: 'ink', page: 1 },
  { templateId: 'quote', title: '村上春树', text: '咖啡是一种生活态度，而不是一种饮料。慢下来，认真对待每一杯。', theme: 'celadon', page: 2 },
  { templateId: 'checklist', title: '出门前检查', text: '钥匙\n手机和充电宝 🔋\n雨伞☔\n水杯', theme: 'blush', page: 3 },
  { templateId: 'comparison', title: '手冲还是意式？', text: '手冲 | 意式\n风味清澈，层次分明 | 浓郁厚重\n器具便宜 | 机器较贵\n适合慢慢品 | 适合加奶', theme: 'sky', page: 4 },
  { templateId: 'steps', title: '手冲四步', text: '称豆15克，研磨成砂糖粗细\n热水92度润湿滤纸\n闷蒸30秒\n分三段注水，总时长2分钟', theme: 'mint', page: 5 },
  {
    templateId: 'paragraph',
    title: '为什么要自己做',
    text: '自己做咖啡最大的乐趣，是可以按自己的口味调整每一个变量。\n从豆子的产地到烘焙程度，从研磨粗细到水温，每一步都是小实验。',
    theme: 'sunset',
    page: 6,
  },
  { templateId: 'highlight', title: '记住这一点', text: '水温决定风味：高温偏苦，低温偏酸\n新手可以从92度开始尝试，再根据口感微调。', theme: 'mono', page: 7 },
];

async function raw(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Share of pixels whose colour moved by more than `threshold` in any channel, and the mean absolute difference. */
async function diff(a: Buffer, b: Buffer, threshold = 48) {
  const x = await raw(a);
  const y = await raw(b);
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  let changed = 0;
  let sum = 0;
  for (let i = 0; i < x.data.length; i += 3) {
    const d = Math.max(Math.abs(x.data[i]! - y.data[i]!), Math.abs(x.data[i + 1]! - y.data[i + 1]!), Math.abs(x.data[i + 2]! - y.data[i + 2]!));
    sum += d;
    if (d > threshold) changed += 1;
  }
  const pixels = x.data.length / 3;
  return { changedShare: changed / pixels, meanAbs: sum / pixels };
}

describe('card templates match their golden images', () => {
  it('there is a golden for each of the 8 templates', () => {
    expect(goldenInputs.map((g) => g.templateId).sort()).toEqual(renderer.templates.map((t) => t.id).sort());
    expect(renderer.templates).toHaveLength(8);
  });

  for (const input of goldenInputs) {
    it(`${input.templateId} (${input.theme})`, async () => {
      const png = await renderer.render(input);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1440]);
      const file = path.join(dir, `${input.templateId}.png`);
      if (update || !existsSync(file)) {
        // Never silently: without the env a missing golden fails the test after writing it (commit it, then rerun).
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, png);
        if (!update) throw new Error(`golden ${file} was missing and has been written; check it and commit it`);
        return;
      }
      const d = await diff(png, await sharp(file).png().toBuffer());
      // Anti-aliasing may differ by a few levels between resvg builds; a moved line or a changed size changes
      // thousands of pixels (well over 0.2% of 1.5 million).
      expect(d.changedShare, `${input.templateId}: ${(d.changedShare * 100).toFixed(3)}% of pixels changed`).toBeLessThan(0.002);
      expect(d.meanAbs).toBeLessThan(1);
    });
  }
});

describe('text fitting: however long the words, nothing is drawn outside the safe area', () => {
  const long = '这是一段非常非常长的文字，用来测试自动缩小字号、换行和省略号是否能让内容始终留在卡片里面，不会溢出也不会被裁掉一半的字形。';
  const huge: CardInput[] = [
    { templateId: 'cover', title: long.slice(0, 40), subtitle: long },
    { templateId: 'list', title: long, text: Array.from({ length: 14 }, () => long).join('\n') },
    { templateId: 'quote', title: long, text: long.repeat(6) },
    { templateId: 'checklist', title: long, text: Array.from({ length: 20 }, (_, i) => `${i}${long}`).join('\n') },
    { templateId: 'comparison', title: long, text: ['甲 | 乙', ...Array.from({ length: 16 }, () => `${long} | ${long}`)].join('\n') },
    { templateId: 'steps', title: long, text: Array.from({ length: 12 }, () => long).join('\n') },
    { templateId: 'paragraph', title: long, text: Array.from({ length: 10 }, () => long).join('\n') },
    { templateId: 'highlight', title: long, text: [long.repeat(3), ...Array.from({ length: 8 }, () => long)].join('\n') },
    {
      templateId: 'list',
      title: 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
      text: 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW\n😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀',
    },
  ];
  const background = cardThemes[0]!.background;
  const bg = [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16));

  for (const input of huge) {
    it(`${input.templateId}: margins stay empty`, async () => {
      const { data, width, height } = await raw(await renderer.render({ ...input, theme: 'paper', page: 3 }));
      // The safe area is 80 px in from the sides and the top; the footer (seal, page marker) ends above 1380.
      let ink = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          // Content cards also keep the band between their content box and the footer rule empty.
          const band = input.templateId !== 'cover' && y >= 1256 && y < 1286;
          if (!band && x >= 80 && x < width - 80 && y >= 80 && y < 1380) continue;
          const i = (y * width + x) * 3;
          if (Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 24) ink += 1;
        }
      }
      expect(ink, `${ink} pixels of ink in the margins`).toBe(0);
    });
  }
});
