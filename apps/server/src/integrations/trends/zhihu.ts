import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, parseHeat, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 知乎热榜: `GET {base}/api/v3/feed/topstory/hot-lists/total?limit=50` answers
 * `{data:[{type:'hot_list_feed', target:{id, title, excerpt, url:'https://api.zhihu.com/questions/<id>', created}, detail_text:'1234 万热度'}], paging}`.
 * The API url of a question is turned into its page address.
 */
export class ZhihuHotSource implements TrendSource {
  readonly id = 'zhihu';
  readonly name = '知乎热榜';
  readonly minIntervalMs = 10 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://www.zhihu.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const body = await getJson(this.fetcher, this.id, `${this.base.replace(/\/$/, '')}/api/v3/feed/topstory/hot-lists/total?limit=50`, signal);
    if (!isRecord(body) || !Array.isArray(body.data)) throw new TrendSourceError(this.id, '知乎热榜返回格式无法识别', false);
    const items: TrendItem[] = [];
    for (const row of body.data) {
      if (!isRecord(row) || !isRecord(row.target)) continue;
      const t = row.target;
      const title = clean(t.title, 150);
      if (!title) continue;
      const qid = typeof t.id === 'number' || typeof t.id === 'string' ? String(t.id) : null;
      const apiUrl = typeof t.url === 'string' ? t.url : '';
      const url = /\/questions\/(\d+)/.test(apiUrl)
        ? `https://www.zhihu.com/question/${/\/questions\/(\d+)/.exec(apiUrl)![1]}`
        : qid
          ? `https://www.zhihu.com/question/${qid}`
          : apiUrl;
      if (!url) continue;
      items.push({
        title,
        url,
        summary: clean(t.excerpt, 200),
        heat: parseHeat(row.detail_text),
        rank: items.length + 1,
        publishedAt: typeof t.created === 'number' ? new Date(t.created * 1000) : null,
      });
    }
    return { items };
  }
}
