import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, parseHeat, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 百度热搜: `GET {base}/api/board?platform=wise&tab=realtime` answers
 * `{success:true, data:{cards:[{component, content:[{content:[{word, query, desc, hotScore, rawUrl, url, index}]}]}]}}`
 * (the wise board nests one level deeper than the PC board, whose card content is the row list itself; both are read).
 */
export class BaiduHotSource implements TrendSource {
  readonly id = 'baidu';
  readonly name = '百度热搜';
  readonly minIntervalMs = 10 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://top.baidu.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const body = await getJson(this.fetcher, this.id, `${this.base.replace(/\/$/, '')}/api/board?platform=wise&tab=realtime`, signal);
    if (!isRecord(body) || body.success !== true || !isRecord(body.data) || !Array.isArray(body.data.cards)) {
      throw new TrendSourceError(this.id, '百度热搜返回格式无法识别', false);
    }
    const rows: Record<string, unknown>[] = [];
    const collect = (list: unknown) => {
      if (!Array.isArray(list)) return;
      for (const r of list) {
        if (!isRecord(r)) continue;
        if (typeof r.word === 'string') rows.push(r);
        else if (Array.isArray(r.content)) collect(r.content);
      }
    };
    for (const card of body.data.cards) if (isRecord(card)) collect(card.content);
    const items: TrendItem[] = [];
    for (const r of rows) {
      if (r.isTop === true || r.isTop === 1) continue;
      const title = clean(r.word, 100);
      if (!title) continue;
      const url = typeof r.rawUrl === 'string' && r.rawUrl ? r.rawUrl : typeof r.url === 'string' && r.url ? r.url : `https://www.baidu.com/s?wd=${encodeURIComponent(title)}`;
      items.push({ title, url, summary: clean(r.desc, 200), heat: parseHeat(r.hotScore), rank: items.length + 1, publishedAt: null });
    }
    return { items };
  }
}
