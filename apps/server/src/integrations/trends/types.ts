/**
 * Hot lists (热榜) and feeds a creator watches. Each source answers its own list in its own order; the topic module
 * merges, dedupes, ranks and classifies. Sources never touch the database and never throw user-facing errors.
 */

export interface TrendItem {
  title: string;
  url: string;
  summary: string;
  /** The source's own heat figure (search count, 万热度, hotScore); 0 when it gives none (feeds). */
  heat: number;
  /** 1-based position in the source's list. */
  rank: number;
  publishedAt: Date | null;
}

export interface TrendFetch {
  /** A feed's own title, when it names itself. */
  name?: string;
  items: TrendItem[];
}

export interface TrendSource {
  /** weibo, zhihu, baidu, feed:<url>, snapshot */
  readonly id: string;
  /** Chinese name shown beside each item (微博热搜, 知乎热榜...). */
  readonly name: string;
  /** The least time between two fetches: public hot lists are polite-use endpoints. */
  readonly minIntervalMs: number;
  /** False for the bundled snapshot. */
  readonly live: boolean;
  /** A system track every item of this source is filed under (a feed an operator added for one track). */
  readonly track?: string;
  fetch(signal?: AbortSignal): Promise<TrendFetch>;
}

/** The source answered nothing usable (network, status, shape). `transient`: trying later may help. */
export class TrendSourceError extends Error {
  constructor(
    readonly sourceId: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'TrendSourceError';
  }
}

/** "1234 万热度", "3.5亿", "4936960" -> a number. */
export function parseHeat(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : 0;
  if (typeof v !== 'string') return 0;
  const m = /([\d.]+)\s*(万|亿)?/.exec(v.replace(/,/g, ''));
  if (!m) return 0;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return 0;
  return Math.round(n * (m[2] === '亿' ? 1e8 : m[2] === '万' ? 1e4 : 1));
}

export const clean = (s: unknown, max = 200): string =>
  typeof s === 'string'
    ? s
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, max)
    : '';
