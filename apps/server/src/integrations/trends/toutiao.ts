import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, parseHeat, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 今日头条热榜: `GET {base}/hot-event/hot-board/?origin=toutiao_pc` answers
 * `{data:[{ClusterIdStr, Title, HotValue:"12345678", Url, Label, QueryWord, Image}], fixed_top_data:[...], status:'success'}`.
 * The pinned rows (`fixed_top_data`) are editorial, not ranked by heat, and are left out.
 */
export class ToutiaoHotSource implements TrendSource {
  readonly id = 'toutiao';
  readonly name = '头条热榜';
  readonly minIntervalMs = 10 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://www.toutiao.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const body = await getJson(this.fetcher, this.id, `${this.base.replace(/\/$/, '')}/hot-event/hot-board/?origin=toutiao_pc`, signal);
    if (!isRecord(body) || body.status !== 'success' || !Array.isArray(body.data)) throw new TrendSourceError(this.id, '头条热榜返回格式无法识别', false);
    const items: TrendItem[] = [];
    for (const row of body.data) {
      if (!isRecord(row)) continue;
      const title = clean(row.Title, 100);
      if (!title) continue;
      const url = typeof row.Url === 'string' && /^https?:\/\//.test(row.Url) ? row.Url : `https://so.toutiao.com/search?keyword=${encodeURIComponent(title)}`;
      items.push({ title, url, summary: '', heat: parseHeat(row.HotValue), rank: items.length + 1, publishedAt: null });
    }
    return { items };
  }
}
