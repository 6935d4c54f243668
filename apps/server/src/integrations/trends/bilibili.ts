import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 哔哩哔哩综合热门: `GET {base}/x/web-interface/popular?ps=50&pn=1` answers
 * `{code:0, message:'0', data:{list:[{bvid, title, desc, pubdate, short_link_v2, stat:{view, like, reply}}], no_more}}`;
 * heat is the play count. A non-zero `code` (-352 risk control, -412 blocked) is the API refusing.
 */
export class BilibiliPopularSource implements TrendSource {
  readonly id = 'bilibili';
  readonly name = 'B站热门';
  readonly minIntervalMs = 15 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://api.bilibili.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const body = await getJson(this.fetcher, this.id, `${this.base.replace(/\/$/, '')}/x/web-interface/popular?ps=50&pn=1`, signal, { referer: 'https://www.bilibili.com/' });
    if (isRecord(body) && typeof body.code === 'number' && body.code !== 0) throw new TrendSourceError(this.id, `B站接口拒绝了请求（${body.code}）`, true);
    if (!isRecord(body) || !isRecord(body.data) || !Array.isArray(body.data.list)) throw new TrendSourceError(this.id, 'B站热门返回格式无法识别', false);
    const items: TrendItem[] = [];
    for (const v of body.data.list) {
      if (!isRecord(v)) continue;
      const title = clean(v.title, 120);
      const bvid = typeof v.bvid === 'string' && /^BV\w+$/.test(v.bvid) ? v.bvid : null;
      if (!title || !bvid) continue;
      const stat = isRecord(v.stat) ? v.stat : {};
      items.push({
        title,
        url: `https://www.bilibili.com/video/${bvid}`,
        summary: clean(v.desc, 200),
        heat: typeof stat.view === 'number' ? stat.view : 0,
        rank: items.length + 1,
        publishedAt: typeof v.pubdate === 'number' ? new Date(v.pubdate * 1000) : null,
      });
    }
    return { items };
  }
}
