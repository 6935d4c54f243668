import type { SafeFetcher } from '../fetch/types.js';
import { getJson, isRecord } from './http.js';
import { clean, parseHeat, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

/**
 * 抖音热榜, as the web hot board (douyin.com/hot) reads it:
 * `GET {base}/aweme/v1/web/hot/search/list/?device_platform=webapp&aid=6383&channel=channel_pc_web&detail_list=1` answers
 * `{status_code:0, data:{word_list:[{word, hot_value, position, label, event_time, sentence_id, group_id, video_count,
 * word_cover:{url_list}}], trending_list:[...], active_time}, status_msg}`.
 * Only `word_list` is the ranked board; `trending_list` (实时上升) is unranked and left out. A non-zero `status_code`
 * is the site refusing the request (risk control), worth trying later.
 */
export class DouyinHotSource implements TrendSource {
  readonly id = 'douyin';
  readonly name = '抖音热榜';
  readonly minIntervalMs = 10 * 60_000;
  readonly live = true;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly base = 'https://www.douyin.com',
  ) {}

  async fetch(signal?: AbortSignal) {
    const url = `${this.base.replace(/\/$/, '')}/aweme/v1/web/hot/search/list/?device_platform=webapp&aid=6383&channel=channel_pc_web&detail_list=1`;
    const body = await getJson(this.fetcher, this.id, url, signal, { referer: 'https://www.douyin.com/' });
    if (isRecord(body) && typeof body.status_code === 'number' && body.status_code !== 0) throw new TrendSourceError(this.id, `抖音接口拒绝了请求（${body.status_code}）`, true);
    if (!isRecord(body) || !isRecord(body.data) || !Array.isArray(body.data.word_list)) throw new TrendSourceError(this.id, '抖音热榜返回格式无法识别', false);
    const rows = body.data.word_list.filter(isRecord);
    // The board is served in position order today; sorting keeps the rank honest if it ever is not.
    rows.sort((a, b) => (typeof a.position === 'number' ? a.position : Infinity) - (typeof b.position === 'number' ? b.position : Infinity));
    const items: TrendItem[] = [];
    for (const row of rows) {
      const word = clean(row.word, 100);
      if (!word) continue;
      const sentence = typeof row.sentence_id === 'string' && /^\d+$/.test(row.sentence_id) ? row.sentence_id : null;
      items.push({
        title: word,
        // The board's own page for the entry when it names one; otherwise the search for the word.
        url: sentence ? `https://www.douyin.com/hot/${sentence}` : `https://www.douyin.com/search/${encodeURIComponent(word)}?type=general`,
        summary: '',
        heat: parseHeat(row.hot_value),
        rank: items.length + 1,
        publishedAt: typeof row.event_time === 'number' && row.event_time > 0 ? new Date(row.event_time * 1000) : null,
      });
    }
    return { items };
  }
}
