// Constants of the graphic contract that the web uses at run time, kept free of zod so the web bundle need not load it.
/** Longest cover title, counted in characters (code points) after trimming. */
export const coverTitleMax = 40;

/** Limits of a graphic note (Xiaohongshu's rules; counted with `noteTextLength`). */
export const graphicLimits = {
  titleMax: 20,
  bodyMax: 1000,
  tagsMin: 3,
  tagsMax: 10,
  tagMaxChars: 30,
  /** A note holds 1-18 images: the cover plus up to 17 content cards. */
  cardsMin: 1,
  cardsMax: 18,
  /** What the writer plans: cover + 2..17 content cards. */
  planContentMin: 2,
  planContentMax: 17,
  cardHeadingMax: 40,
  cardTextMax: 600,
  width: 1080,
  height: 1440,
  aiPromptMax: 500,
} as const;

/**
 * Length as Xiaohongshu counts it: a CJK character (any non-ASCII) counts 1, two ASCII characters count 1, rounded
 * up. The server's platform adapters count the same way.
 */
export function noteTextLength(text: string): number {
  let ascii = 0;
  let wide = 0;
  for (const ch of text) {
    if (ch.codePointAt(0)! < 0x80) ascii += 1;
    else wide += 1;
  }
  return wide + Math.ceil(ascii / 2);
}

/**
 * The shapes a card's picture may have (Xiaohongshu takes 3:4, 1:1 and 4:3 image notes) and their stored pixel sizes.
 * Rendered cards are always 3:4; an upload or the image editor's export may choose another.
 */
export const cardAspects = {
  '3:4': { width: 1080, height: 1440 },
  '1:1': { width: 1080, height: 1080 },
  '4:3': { width: 1440, height: 1080 },
} as const;
export const cardAspectIds = ['3:4', '1:1', '4:3'] as const satisfies readonly (keyof typeof cardAspects)[];
export type CardAspect = (typeof cardAspectIds)[number];
