import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, parseHeat, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 微博热搜: `GET {base}/ajax/side/hotSearch` answers
 * `{ok:1, data:{realtime:[{word, note, num, realpos, label_name, onboard_time, is_ad?}], hotgov:{...}}}`.
 * Promoted rows (`is_ad`) are not news and are skipped.
 */
export class WeiboHotSource implements TrendSource {
  readonly id = 'weibo';
  readonly name = '微博热搜';
  readonly minIntervalMs = 10 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://weibo.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const body = await getJson(this.fetcher, this.id, `${this.base.replace(/\/$/, '')}/ajax/side/hotSearch`, signal, { referer: 'https://weibo.com/' });
    if (!isRecord(body) || body.ok !== 1 || !isRecord(body.data) || !Array.isArray(body.data.realtime)) {
      throw new TrendSourceError(this.id, '微博热搜返回格式无法识别', false);
    }
    const items: TrendItem[] = [];
    for (const row of body.data.realtime) {
      if (!isRecord(row) || row.is_ad) continue;
      const word = clean(row.word ?? row.note, 100);
      if (!word) continue;
      const onboard = typeof row.onboard_time === 'number' ? new Date(row.onboard_time * 1000) : null;
      items.push({
        title: word,
        url: `https://s.weibo.com/weibo?q=${encodeURIComponent(`#${word}#`)}`,
        // label_name is a badge (热, 新, 爆), not a description; the hot search list carries none.
        summary: '',
        heat: parseHeat(row.num ?? row.raw_hot),
        rank: items.length + 1,
        publishedAt: onboard,
      });
    }
    return { items };
  }
}
