import { ConfigError } from '../../config.js';
import type { SafeFetcher } from '../fetch/types.js';
import { BaiduHotSource } from './baidu.js';
import { BilibiliPopularSource } from './bilibili.js';
import { DouyinHotSource } from './douyin.js';
import { FeedSource } from './feed.js';
import { SnapshotSource } from './snapshot.js';
import { ToutiaoHotSource } from './toutiao.js';
import type { TrendSource } from './types.js';
import { WeiboHotSource } from './weibo.js';
import { ZhihuHotSource } from './zhihu.js';

export { SNAPSHOT_DATE } from './snapshot.js';

/** A feed added at run time (the admin CLI), fetched through the same SSRF-safe client as configured sources. */
export function createFeedSource(fetcher: SafeFetcher, url: string, opts: { name?: string; track?: string | null } = {}): TrendSource {
  return new FeedSource(fetcher, url, opts);
}

/**
 * TRENDS_SOURCES: comma-separated `weibo`, `zhihu`, `baidu`, `toutiao`, `douyin`, `bilibili` (optionally `name=<base url>`, for stand-ins),
 * `feed=<url>` (any RSS/Atom/JSON feed, repeatable) and `snapshot` (the bundled dated list, the embedded default).
 * An unknown entry stops start-up.
 */
export function createTrendSources(spec: string, fetcher: SafeFetcher): TrendSource[] {
  const out: TrendSource[] = [];
  for (const raw of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = raw.indexOf('=');
    const kind = (eq < 0 ? raw : raw.slice(0, eq)).toLowerCase();
    const arg = eq < 0 ? undefined : raw.slice(eq + 1).trim();
    if (arg !== undefined && !/^https?:\/\/[^\s]+$/i.test(arg)) throw new ConfigError(`Invalid configuration:\n  TRENDS_SOURCES: ${kind} needs an http(s) URL after =`);
    switch (kind) {
      case 'weibo':
        out.push(new WeiboHotSource(fetcher, arg));
        break;
      case 'zhihu':
        out.push(new ZhihuHotSource(fetcher, arg));
        break;
      case 'baidu':
        out.push(new BaiduHotSource(fetcher, arg));
        break;
      case 'toutiao':
        out.push(new ToutiaoHotSource(fetcher, arg));
        break;
      case 'douyin':
        out.push(new DouyinHotSource(fetcher, arg));
        break;
      case 'bilibili':
        out.push(new BilibiliPopularSource(fetcher, arg));
        break;
      case 'feed':
        if (!arg) throw new ConfigError('Invalid configuration:\n  TRENDS_SOURCES: feed needs a URL (feed=https://...)');
        out.push(new FeedSource(fetcher, arg));
        break;
      case 'snapshot':
        out.push(new SnapshotSource());
        break;
      default:
        throw new ConfigError(`Invalid configuration:\n  TRENDS_SOURCES: unknown source ${kind} (weibo, zhihu, baidu, toutiao, douyin, bilibili, feed=<url>, snapshot)`);
    }
  }
  if (new Set(out.map((s) => s.id)).size !== out.length) throw new ConfigError('Invalid configuration:\n  TRENDS_SOURCES: a source is listed twice');
  return out;
}
